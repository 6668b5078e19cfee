//! Bashni behind the [`Rules`] trait: a thin impl over [`crate::games::bashni::Position`] that calls
//! the same functions as before (its move generator, its own perft and divide), so nothing on
//! Bashni's paths changes.

use crate::games::bashni::nnue::AccumulatorStack;
use crate::games::bashni::notation::{
    FenError, MoveError, START_FEN, parse_fen, parse_move, to_fen,
};
use crate::games::bashni::{Color, Move, MoveList, Position, movegen, perft};
use crate::games::kit::game::Game;
use crate::games::kit::perft::Divide;
use crate::games::kit::rules::Rules;
use crate::games::kit::square::{NUM_BITS, Square};
use crate::games::kit::tower::Tower;
use crate::games::kit::variant::Variant;
use std::sync::atomic::AtomicBool;

impl Rules for Position {
    type Move = Move;
    type MoveList = MoveList;
    type FenError = FenError;
    type MoveError = MoveError;

    const VARIANT: Variant = Variant::Bashni;
    const START_FEN: &'static str = START_FEN;

    fn startpos() -> Position {
        Position::startpos()
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.side()
    }

    #[inline]
    fn legal_moves(&self) -> MoveList {
        movegen::legal_moves(self)
    }

    #[inline]
    fn has_legal_move(&self) -> bool {
        movegen::has_legal_move(self)
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        movegen::count_legal_moves(self)
    }

    #[inline]
    fn play(&mut self, m: &Move) {
        Position::play(self, m);
    }

    #[inline]
    fn played(&self, m: &Move) -> Position {
        Position::played(self, m)
    }

    #[inline]
    fn is_capture(m: &Move) -> bool {
        m.is_capture()
    }

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn from_fen(text: &str) -> Result<Position, FenError> {
        parse_fen(text)
    }

    fn to_fen(&self) -> String {
        to_fen(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        parse_move(self, text)
    }

    fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        perft::perft_until(self, depth, stop)
    }

    fn divide_until(&self, depth: u32, threads: usize, stop: &AtomicBool) -> Option<Divide<Move>> {
        let d = perft::divide_until(self, depth, threads, stop)?;
        Some(Divide {
            moves: d.moves,
            nodes: d.nodes,
        })
    }
}

impl Game for Position {
    type Evaluator = AccumulatorStack;

    /// 44: the median depth-8 score of the start with one of Black's 12 men removed (docs/rules.md).
    const MAN: i32 = 44;

    const CLOCK_RULE: &'static str = "30-ply-rule";

    #[inline]
    fn clock(&self) -> u16 {
        Position::clock(self)
    }

    #[inline]
    fn clock_draw(&self) -> bool {
        Position::clock_draw(self)
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) -> bool {
        movegen::generate_capture_moves(self, list)
    }

    #[inline]
    fn generate_quiets(&self, list: &mut MoveList) {
        movegen::generate_quiets(self, list)
    }

    #[inline]
    fn can_capture(&self) -> bool {
        movegen::can_capture(self)
    }

    #[inline]
    fn commanders(&self, c: Color) -> u32 {
        self.commanded_by(c).count()
    }

    #[inline]
    fn move_key(m: &Move) -> u32 {
        m.key()
    }

    const HISTORY_SLOTS: usize = 2 * NUM_BITS * NUM_BITS;

    #[inline]
    fn history_slot(&self, m: &Move) -> usize {
        (self.side().index() * NUM_BITS + m.from().index()) * NUM_BITS + m.to().index()
    }

    #[inline]
    fn capture_gain(&self, m: &Move) -> i32 {
        crate::games::bashni::eval::capture_gain(self, m)
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        crate::games::bashni::eval::evaluate(self)
    }

    fn fullmove(&self) -> u16 {
        Position::fullmove(self)
    }

    fn tower_at(&self, file: u8, rank: u8) -> Option<Tower> {
        Square::from_coords(file, rank).map(|sq| self.tower(sq))
    }

    fn move_squares(m: &Move) -> Vec<(u8, u8)> {
        m.path().map(|sq| (sq.file(), sq.rank())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
