//! Turkish draughts' static evaluation, centi-men from the side to move's view: a weighted
//! sum of [`features`] with opening and endgame weights ([`weights::WEIGHTS`], written by
//! `bashni tune --variant turkish`) blended by the number of pieces left.

pub mod features;
pub mod weights;

use super::moves::Move;
use super::position::Position;
use crate::games::kit::linear::{self, impl_linear_eval};

impl_linear_eval!(Position, "src/games/turkish/eval/weights.txt");

/// Material a capture takes, at the evaluation's values in the current phase: each man and
/// king it removes.
#[inline]
pub fn capture_gain(pos: &Position, m: &Move) -> i32 {
    let kings = (m.captured() & pos.kings()).count_ones() as i32;
    let men = m.capture_count() as i32 - kings;
    men * linear::weight_now(pos, features::MAN) + kings * linear::weight_now(pos, features::KING)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Rules};

    #[test]
    fn layout_terms_and_symmetry() {
        let all = linear::sample_positions::<Position>(11);
        assert!(
            all.iter().any(|p| p.kings() != 0),
            "some positions have kings"
        );
        linear::check_evaluation(&all, evaluate);
    }

    #[test]
    fn material_counts() {
        // The start with Black's h6 man gone, then with White's a3 man crowned as well.
        let start = Position::from_fen(crate::games::turkish::START_FEN).unwrap();
        let up = Position::from_fen("8/bbbbbbbb/bbbbbbb1/8/8/wwwwwwww/wwwwwwww/8 w 0 1").unwrap();
        assert!(evaluate(&up) > evaluate(&start) + 20, "{}", evaluate(&up));
        let king = Position::from_fen("8/bbbbbbbb/bbbbbbb1/8/8/Wwwwwwww/wwwwwwww/8 w 0 1").unwrap();
        assert!(evaluate(&king) > evaluate(&up) + 20, "{}", evaluate(&king));
    }

    #[test]
    fn capture_gain_is_the_material_taken() {
        // White's man on d4 must jump d5 (a man) and then d7 (a king).
        let pos = Position::from_fen("8/3B4/8/3b4/3w4/8/8/8 w 0 1").unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 1);
        let gain = pos.capture_gain(&moves[0]);
        let value = |f| linear::weight_now(&pos, f);
        assert_eq!(gain, value(features::MAN) + value(features::KING));
    }
}
