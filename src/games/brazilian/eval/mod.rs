//! Brazilian draughts' static evaluation, centi-men from the side to move's view: a weighted
//! sum of the draughts-64 [`features`] with opening and endgame weights ([`weights::WEIGHTS`],
//! for now Russian draughts' own, copied: see `weights.txt`) blended by the number of pieces
//! left.

pub mod weights;

use super::Position;
pub use crate::games::kit::draughts64::features;
pub use crate::games::kit::draughts64::features::capture_gain;
use crate::games::kit::linear::impl_linear_eval;

impl_linear_eval!(Position, "src/games/brazilian/eval/weights.txt");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::brazilian::BrazilianLaws;
    use features::checks;

    #[test]
    fn layout_terms_and_symmetry() {
        checks::layout_terms_and_symmetry::<BrazilianLaws>(17);
    }

    #[test]
    fn capture_gain_is_the_material_taken() {
        checks::capture_gain_is_the_material_taken::<BrazilianLaws>();
    }
}
