//! Russian draughts' static evaluation, centi-men from the side to move's view: a weighted
//! sum of the draughts-64 [`features`] with opening and endgame weights
//! ([`weights::WEIGHTS`], written by `bashni tune --variant russian`) blended by the number of
//! pieces left.

pub mod weights;

use super::Position;
pub use crate::games::kit::draughts64::features;
pub use crate::games::kit::draughts64::features::capture_gain;
use crate::games::kit::linear::impl_linear_eval;

impl_linear_eval!(Position, "src/games/russian/eval/weights.txt");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::linear;
    use crate::games::{Game, Rules};

    #[test]
    fn layout_terms_and_symmetry() {
        let all = linear::sample_positions::<Position>(13);
        assert!(
            all.iter().any(|p| !p.kings().is_empty()),
            "some positions have kings"
        );
        linear::check_evaluation(&all, evaluate);
    }

    #[test]
    fn material_counts() {
        // The start with Black's h6 man gone, then with White's a3 man crowned as well.
        let start = Position::from_fen(crate::games::russian::START_FEN).unwrap();
        let up =
            Position::from_fen("1b1b1b1b/b1b1b1b1/1b1b1b2/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1")
                .unwrap();
        assert!(evaluate(&up) > evaluate(&start) + 50, "{}", evaluate(&up));
        let king =
            Position::from_fen("1b1b1b1b/b1b1b1b1/1b1b1b2/8/8/W1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1")
                .unwrap();
        assert!(evaluate(&king) > evaluate(&up) + 50, "{}", evaluate(&king));
    }

    #[test]
    fn capture_gain_is_the_material_taken() {
        // White's man on c3 jumps d4 (a man) and then f6 (a king).
        let pos = Position::from_fen("8/8/5B2/8/3b4/2w5/8/8 w 0 1").unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 1, "{moves:?}");
        let gain = pos.capture_gain(&moves[0]);
        let value = |f| linear::weight_now(&pos, f);
        assert_eq!(gain, value(features::MAN) + value(features::KING));
    }
}
