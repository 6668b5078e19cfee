//! Lasca's static evaluation, centi-men from the side to move's view: a weighted sum of
//! [`features`] with opening and endgame weights ([`weights::WEIGHTS`], hand-set or written
//! by `bashni tune --variant lasca`) blended by the number of columns left.

pub mod features;
pub mod weights;

use super::moves::Move;
use super::position::Position;
use crate::games::kit::linear::{self, impl_linear_eval};

impl_linear_eval!(Position, "src/games/lasca/eval/weights.txt");

/// What a capture takes, at the evaluation's values in the current phase: the commander of
/// each jumped column, a soldier or an officer, becomes a prisoner.
#[inline]
pub fn capture_gain(pos: &Position, m: &Move) -> i32 {
    let officers = (m.jumped() & pos.officers()).count_ones() as i32;
    let soldiers = m.capture_count() as i32 - officers;
    soldiers * linear::weight_now(pos, features::SOLDIER)
        + officers * linear::weight_now(pos, features::OFFICER)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Rules};

    #[test]
    fn layout_terms_and_symmetry() {
        let all = linear::sample_positions::<Position>(11);
        assert!(all.iter().any(|p| p.officers() != 0), "some have officers");
        linear::check_evaluation(&all, evaluate);
    }

    #[test]
    fn material_counts() {
        // The start with Black's g7 soldier gone.
        let start = Position::startpos();
        let up = Position::from_fen("b1b1b2/1b1b1b1/b1b1b1b/7/w1w1w1w/1w1w1w1/w1w1w1w w").unwrap();
        assert!(evaluate(&up) > evaluate(&start) + 50, "{}", evaluate(&up));
        // An officer is worth more than a soldier, and a prisoner more than none.
        let soldier = Position::from_fen("7/7/7/3b3/7/7/w6 w").unwrap();
        let officer = Position::from_fen("7/7/7/3b3/7/7/W6 w").unwrap();
        assert!(
            evaluate(&officer) > evaluate(&soldier) + 50,
            "{}",
            evaluate(&officer)
        );
        let holding = Position::from_fen("7/7/7/3b3/7/7/(Wb)6 w").unwrap();
        assert!(
            evaluate(&holding) > evaluate(&officer),
            "{}",
            evaluate(&holding)
        );
    }

    #[test]
    fn capture_gain_is_the_commanders_taken() {
        // White's soldier on c3 must jump d4 (a soldier) and then d6 (an officer).
        let pos = Position::from_fen("7/3B3/7/3b3/2w4/7/7 w").unwrap();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), 1);
        let value = |f| linear::weight_now(&pos, f);
        let gain = pos.capture_gain(&moves[0]);
        assert_eq!(gain, value(features::SOLDIER) + value(features::OFFICER));
    }
}
