//! How a game on the server ended: by the rules (no legal move, threefold repetition, the
//! 30-ply rule), by resignation or by time; its result, its PDN termination and the words the
//! page shows.

use crate::record::result::{GameResult, Termination};
use crate::rules::color::Color;
use crate::rules::game::Outcome;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The side to move had no legal move.
    NoLegalMove,
    /// The same position a third time.
    Repetition,
    /// 30 plies without a capture.
    ThirtyPly,
    /// One king against one man (Turkish draughts).
    KingAgainstMan,
    /// This side resigned.
    Resignation(Color),
    /// This side's clock ran out.
    Time(Color),
}

impl Reason {
    /// Short name: the PDN `Termination` tag `bashni match` writes, where it has one.
    pub fn tag(self) -> &'static str {
        match self {
            Reason::NoLegalMove => Termination::NoLegalMove.tag(),
            Reason::Repetition => Termination::Repetition.tag(),
            Reason::ThirtyPly => Termination::ThirtyPly.tag(),
            Reason::KingAgainstMan => Termination::KingAgainstMan.tag(),
            Reason::Resignation(_) => "resignation",
            Reason::Time(_) => Termination::TimeForfeit(0, 0).tag(),
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
    pub(super) fn from_outcome(o: Outcome) -> End {
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
                reason: Reason::ThirtyPly,
            },
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
            Reason::ThirtyPly => "Draw by the 30-ply rule (30 plies without a capture)".into(),
            Reason::KingAgainstMan => format!("{w} wins: one king against one man"),
            Reason::Resignation(_) => format!("{w} wins: {l} resigned"),
            Reason::Time(_) => format!("{w} wins on time"),
        }
    }
}
