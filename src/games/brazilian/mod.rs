//! Brazilian draughts (docs/rules-brazilian.md): international draughts on Bashni's board,
//! start and squares. Russian draughts' moves but for two laws: only the captures that take
//! the most pieces are legal (kings count as men), and a man that reaches its far rank during
//! a capture that goes on stays a man (it is crowned only where its move ends). Jumped pieces
//! stay on the board until the move ends (they block and may not be jumped twice), and
//! sequences with the same start, end and captured pieces are one move.
//!
//! The position, moves and notation are the kit's draughts-64 ([`crate::games::kit::draughts64`],
//! shared with Russian draughts) under [`BrazilianLaws`]; here are what is Brazilian draughts'
//! own: its laws, draw rule, evaluation weights, bench positions and book.

pub mod bench;
pub mod eval;
pub mod nnue;

pub use crate::games::kit::draughts64::notation::{FenError, START_FEN};

use crate::games::kit::draughts64::{self, Laws, impl_draughts64, movegen, notation};
use crate::games::kit::game::clock_rule;
use crate::games::kit::nnue::NetStack;

/// Brazilian draughts' laws: the majority rule, and no crowning in the middle of a capture.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct BrazilianLaws;

impl Laws for BrazilianLaws {
    const NAME: &'static str = "Brazilian draughts";
    const MAJORITY: bool = true;
    const CROWN_IN_CAPTURE: bool = false;
}

/// A Brazilian draughts position.
pub type Position = draughts64::Position<BrazilianLaws>;

/// Plies in which both sides only moved kings without capturing after which the game is
/// drawn: 20 moves of each side (the Brazilian confederation's rule, docs/rules-brazilian.md).
pub const CLOCK_LIMIT: u16 = 40;

impl_draughts64! {
    Position: Brazilian;

    type Evaluator = NetStack<Position>;

    /// The network's value of a man: measured as docs/rules-brazilian.md says, section 8.
    const MAN: i32 = 341;

    const BOOK: Option<&'static str> = Some(include_str!("../../../openings/brazilian.txt"));

    clock_rule!(CLOCK_LIMIT, "20-move-king-rule");

    /// Russian draughts' 15: the same men on the same board, games as long (not measured in
    /// Brazilian draughts on its own).
    const MOVES_TO_GO: u32 = 15;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::rules::Rules;

    #[test]
    fn perft_from_the_start() {
        let p = Position::startpos();
        let expected = [1u64, 7, 49, 302, 1469, 7473];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(Rules::perft(&p, d as u32), n, "depth {d}");
        }
    }
}
