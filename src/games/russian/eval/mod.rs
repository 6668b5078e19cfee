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
    use crate::games::Rules;
    use crate::games::russian::RussianLaws;
    use features::checks;

    #[test]
    fn layout_terms_and_symmetry() {
        checks::layout_terms_and_symmetry::<RussianLaws>(13);
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
        checks::capture_gain_is_the_material_taken::<RussianLaws>();
    }
}
