//! Russian draughts (docs/rules-russian.md): Bashni's board, start and moves without towers.
//! Jumped pieces stay on the board until the move ends (they block and may not be jumped
//! twice), a man crowned during a capture goes on as a king, a capturing king lands where it
//! can go on if it can, any capture sequence may be chosen, and sequences with the same start,
//! end and captured pieces are one move.
//!
//! The position, moves and notation are the kit's draughts-64 ([`crate::games::kit::draughts64`],
//! shared with Brazilian draughts) under [`RussianLaws`]; here are what is Russian draughts'
//! own: its laws, draw rule, evaluation weights, network, bench positions and book.

pub mod bench;
pub mod eval;
pub mod nnue;

pub use crate::games::kit::draughts64::notation::{FenError, START_FEN};

use crate::games::kit::draughts64::{self, Laws, impl_draughts64, movegen, notation};
use crate::games::kit::game::clock_rule;
use crate::games::kit::nnue::NetStack;

/// Russian draughts' laws: any capture may be chosen, a man crowned during a capture goes on
/// as a king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct RussianLaws;

impl Laws for RussianLaws {
    const NAME: &'static str = "Russian draughts";
    const MAJORITY: bool = false;
    const CROWN_IN_CAPTURE: bool = true;
}

/// A Russian draughts position.
pub type Position = draughts64::Position<RussianLaws>;

/// Plies in which both sides only moved kings without capturing after which the game is
/// drawn: 15 moves of each side (the Russian federation's rule).
pub const CLOCK_LIMIT: u16 = 30;

impl_draughts64! {
    Position: Russian;

    type Evaluator = NetStack<Position>;

    /// 326: the median depth-8 score of the start with one of Black's 12 men removed (docs/rules-russian.md;
    /// measured with network 3, and again with network 4: 100.5 centi-men).
    const MAN: i32 = 326;

    const BOOK: Option<&'static str> = Some(include_str!("../../../openings/russian.txt"));

    clock_rule!(CLOCK_LIMIT, "15-move-king-rule");

    /// 15 (25 before): +19.1 ± 10.8 Elo at 1+0.01, and fewer losses to Skifi
    /// (docs/measurements.md, "Time management").
    const MOVES_TO_GO: u32 = 15;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::rules::Rules;

    #[test]
    fn perft_from_the_start() {
        let p = Position::startpos();
        let expected = [1u64, 7, 49, 302, 1469, 7482, 37986, 190146];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(Rules::perft(&p, d as u32), n, "depth {d}");
        }
    }
}
