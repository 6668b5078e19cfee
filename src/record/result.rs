//! How a game ended: its result and the reason, shared by every front end that plays games
//! (`bashni match`, `play`, `datagen`, `serve`) and written into PDN records.

use crate::games::kit::color::Color;
use crate::games::{Game, Outcome, Variant};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// The side to move had no legal move and lost.
    NoLegalMove,
    /// The same position for the third time.
    Repetition,
    /// The game's no-progress rule: in Bashni 30 plies without a capture (the tag in other
    /// games: [`Termination::tag_in`]).
    ThirtyPly,
    /// Turkish draughts: one king against one man.
    KingAgainstMan,
    /// The ply limit of the match was reached (a draw).
    MaxPlies,
    /// Both engines called the game level for long enough (`--draw`).
    DrawAdjudication,
    /// The loser's engine saw itself lost for long enough (`--resign`).
    ResignAdjudication,
    /// The side to move sent a move that is not legal (the text; `(none)` for no move).
    IllegalMove(String),
    /// The side to move's engine exited or closed its output.
    Crash,
    /// The side to move's engine did not answer in time without a clock.
    Stall,
    /// The side to move's engine answered after its clock (or move time) ran out: the ms it
    /// used and the ms it had.
    TimeForfeit(u64, u64),
    /// A player gave the game up (`bashni play`'s `resign`).
    Resignation,
    /// The players agreed a draw (`bashni play`'s `draw`, accepted).
    DrawAgreement,
}

impl Termination {
    /// The value of the PDN `Termination` tag.
    pub fn tag(&self) -> &'static str {
        match self {
            Termination::NoLegalMove => "no legal move",
            Termination::Repetition => "threefold repetition",
            Termination::ThirtyPly => "30-ply rule",
            Termination::KingAgainstMan => "one king against one man",
            Termination::MaxPlies => "max plies",
            Termination::DrawAdjudication => "draw adjudication",
            Termination::ResignAdjudication => "resign adjudication",
            Termination::IllegalMove(_) => "illegal move",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::TimeForfeit(..) => "time forfeit",
            Termination::Resignation => "resignation",
            Termination::DrawAgreement => "draw agreement",
        }
    }

    /// The PDN `Termination` tag of a game of `variant`: [`Termination::tag`], except that
    /// the no-progress rule is named after the game's ([`Game::CLOCK_RULE`]): `30-ply rule`,
    /// `50-ply rule`, `15-move-king rule`.
    pub fn tag_in(&self, variant: Variant) -> String {
        match self {
            Termination::ThirtyPly => {
                let rule = crate::for_variant!(variant, G => G::CLOCK_RULE);
                rule.replacen("-rule", " rule", 1)
            }
            other => other.tag().to_string(),
        }
    }

    /// The result and termination of a game the rules ended.
    pub fn of_outcome(o: Outcome) -> (GameResult, Termination) {
        match o {
            Outcome::NoLegalMove(w) => (GameResult::win_for(w), Termination::NoLegalMove),
            Outcome::KingAgainstMan(w) => (GameResult::win_for(w), Termination::KingAgainstMan),
            Outcome::Repetition => (GameResult::Draw, Termination::Repetition),
            Outcome::ClockRule => (GameResult::Draw, Termination::ThirtyPly),
        }
    }

    /// Whether a fault of one side ended the game (rather than the rules or the ply limit).
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            Termination::IllegalMove(_)
                | Termination::Crash
                | Termination::Stall
                | Termination::TimeForfeit(..)
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::IllegalMove(m) => write!(f, "illegal move {m}"),
            Termination::TimeForfeit(used, had) => {
                write!(f, "time forfeit ({used} ms used, {had} ms left)")
            }
            t => f.write_str(t.tag()),
        }
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// A win for `c`.
    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// PDN form: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Points for `c`, in half points (0, 1, 2).
    pub fn half_points(self, c: Color) -> u32 {
        match (self, c) {
            (GameResult::Draw, _) => 1,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_names_its_no_progress_rule() {
        let t = Termination::ThirtyPly;
        assert_eq!(t.tag_in(Variant::Bashni), t.tag());
        assert_eq!(t.tag_in(Variant::Turkish), "50-ply rule");
        assert_eq!(t.tag_in(Variant::Russian), "15-move-king rule");
        assert_eq!(Termination::Crash.tag_in(Variant::Turkish), "crash");
    }
}
