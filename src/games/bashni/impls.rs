//! Bashni behind the [`Rules`](crate::games::Rules) and [`Game`](crate::games::Game) traits:
//! a thin impl over [`Position`] that calls its own functions (its move generator and its
//! own perft), so nothing on Bashni's paths changes.

use crate::games::bashni::nnue::AccumulatorStack;
use crate::games::bashni::{
    Color, Move, MoveList, Position, bench, eval, movegen, notation, perft,
};
use crate::games::kit::game::impl_game;
use crate::games::kit::square::{NUM_BITS, Square};
use crate::games::kit::tower::Tower;
use std::sync::atomic::AtomicBool;

impl_game! {
    Position: Bashni, Move, MoveList, squares = NUM_BITS;
    rules {
        #[inline]
        fn played(&self, m: &Move) -> Position {
            Position::played(self, m)
        }

        fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
            perft::perft_until(self, depth, stop)
        }
    }
    game {
        type Evaluator = AccumulatorStack;

        /// 35: the median depth-8 score of the start with one of Black's 12 men removed (docs/rules.md).
        const MAN: i32 = 35;

        const BOOK: Option<&'static str> = Some(include_str!("../../../openings/balanced.txt"));

        const CLOCK_RULE: &'static str = "30-ply-rule";
        const CLOCK_LIMIT: u16 = super::position::CLOCK_LIMIT;

        /// 15 (25 before): +41.9 ± 35.8 Elo at 1+0.01 (docs/measurements.md).
        const MOVES_TO_GO: u32 = 15;

        #[inline]
        fn clock_draw(&self) -> bool {
            Position::clock_draw(self)
        }

        #[inline]
        fn generate_captures(&self, list: &mut MoveList) -> bool {
            movegen::generate_capture_moves(self, list)
        }

        #[inline]
        fn commanders(&self, c: Color) -> u32 {
            self.commanded_by(c).count()
        }

        fn tower_at(&self, file: u8, rank: u8) -> Option<Tower> {
            Square::from_coords(file, rank).map(|sq| self.tower(sq))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::notation::parse_fen;
    use crate::games::kit::rules::Rules;

    #[test]
    fn the_trait_gives_bashnis_own_counts() {
        let p = Position::startpos();
        for d in 0..=5 {
            assert_eq!(Rules::perft(&p, d), perft::perft(&p, d), "depth {d}");
        }
        let never = AtomicBool::new(false);
        let d = Rules::divide_until(&p, 4, 1, &never).unwrap();
        let own = perft::divide(&p, 4, 1);
        assert_eq!(d.nodes, own.nodes);
        assert_eq!(
            d.lines().collect::<Vec<_>>(),
            own.lines().collect::<Vec<_>>()
        );
        let lost = parse_fen("8/8/8/8/8/8/8/w7 b").unwrap();
        assert_eq!(lost.winner(), Some(Color::White));
    }
}
