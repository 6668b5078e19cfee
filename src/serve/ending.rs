//! How a game on the server ended: by the rules (no legal move, threefold repetition, the
//! game's no-progress rule, one king against one man in Turkish draughts), by resignation or
//! by time; its result, its PDN termination and the words the page shows.

use crate::game_text::clock_rule_reason;
use crate::games::kit::color::Color;
use crate::games::{Outcome, Variant};
use crate::record::result::{GameResult, Termination};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move had no legal move.
    NoLegalMove,
    /// The same position a third time.
    Repetition,
    /// The no-progress rule of this game (Bashni's 30 plies without a capture, ...).
    ClockRule(Variant),
    /// One king against one man (Turkish draughts).
    KingAgainstMan,
    /// This side resigned.
    Resignation(Color),
    /// This side's clock ran out.
    Time(Color),
    /// The engine accepted the person's draw offer.
    Agreement,
}

impl Reason {
    /// Short name: the PDN `Termination` tag `bashni match` writes, where it has one
    /// (the no-progress rule by its game's name: `30-ply rule`, `50-ply rule`, ...).
    pub fn tag(self) -> String {
        match self {
            Reason::NoLegalMove => Termination::NoLegalMove.tag().into(),
            Reason::Repetition => Termination::Repetition.tag().into(),
            Reason::ClockRule(v) => Termination::ThirtyPly.tag_in(v),
            Reason::KingAgainstMan => Termination::KingAgainstMan.tag().into(),
            Reason::Resignation(_) => "resignation".into(),
            Reason::Time(_) => Termination::TimeForfeit(0, 0).tag().into(),
            Reason::Agreement => Termination::DrawAgreement.tag().into(),
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// The result.
    pub result: GameResult,
    /// Why.
    pub reason: Reason,
}

pub(super) fn capital(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl End {
    /// The end of a game of `variant` by its rules.
    pub(super) fn from_outcome(variant: Variant, o: Outcome) -> End {
        match o {
            Outcome::NoLegalMove(w) => End {
                result: GameResult::win_for(w),
                reason: Reason::NoLegalMove,
            },
            Outcome::KingAgainstMan(w) => End {
                result: GameResult::win_for(w),
                reason: Reason::KingAgainstMan,
            },
            Outcome::Repetition => End {
                result: GameResult::Draw,
                reason: Reason::Repetition,
            },
            Outcome::ClockRule => End {
                result: GameResult::Draw,
                reason: Reason::ClockRule(variant),
            },
        }
    }

    /// A draw agreed.
    pub(super) fn agreed() -> End {
        End {
            result: GameResult::Draw,
            reason: Reason::Agreement,
        }
    }

    pub(super) fn lost_by(loser: Color, reason: Reason) -> End {
        End {
            result: GameResult::win_for(loser.opponent()),
            reason,
        }
    }

    pub(super) fn winner(self) -> Option<Color> {
        match self.result {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// One sentence: who won and why.
    pub fn describe(self) -> String {
        let (w, l) = match self.winner() {
            Some(w) => (capital(w), capital(w.opponent())),
            None => ("", ""),
        };
        match self.reason {
            Reason::NoLegalMove => format!("{w} wins: {l} has no legal move"),
            Reason::Repetition => "Draw by threefold repetition".to_string(),
            Reason::ClockRule(v) => format!(
                "Draw by the {} ({})",
                Termination::ThirtyPly.tag_in(v),
                clock_rule_reason(v)
            ),
            Reason::KingAgainstMan => format!("{w} wins: one king against one man"),
            Reason::Resignation(_) => format!("{w} wins: {l} resigned"),
            Reason::Time(_) => format!("{w} wins on time"),
            Reason::Agreement => "Draw by agreement".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_names_its_no_progress_rule() {
        let end = |v| End::from_outcome(v, Outcome::ClockRule);
        assert_eq!(
            end(Variant::Bashni).describe(),
            "Draw by the 30-ply rule (30 plies without a capture)"
        );
        assert_eq!(end(Variant::Bashni).reason.tag(), "30-ply rule");
        assert_eq!(
            end(Variant::Turkish).describe(),
            "Draw by the 50-ply rule (50 plies without a capture or a man's move)"
        );
        assert_eq!(end(Variant::Russian).reason.tag(), "15-move-king rule");
        let won = End::from_outcome(Variant::Turkish, Outcome::KingAgainstMan(Color::Black));
        assert_eq!(won.describe(), "Black wins: one king against one man");
        assert_eq!(won.reason.tag(), "one king against one man");
    }
}
