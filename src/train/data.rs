//! Training positions as the network trainer keeps them: each position's active inputs from
//! the side to move's view and from the other side's, and its targets from the side to
//! move's view.

use crate::games::Game;
use crate::games::kit::color::Color;
use crate::games::kit::nnue::FeatureSet;
use crate::tune::data::Samples;
use std::marker::PhantomData;

/// One position.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    start: u32,
    /// Number of inputs per perspective (the towers on the board).
    len: u8,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f32,
    /// The search score, centi-men, the side to move's view.
    pub score: f32,
    /// The linear evaluation ([`Game::evaluate`]), side to move's view: the yardstick
    /// the trainer reports the network against.
    pub linear: f32,
}

/// Positions of game `P` and their inputs in one flat array (about 80 bytes a position).
#[derive(Debug)]
pub struct NetDataset<P> {
    entries: Vec<Entry>,
    inputs: Vec<u16>,
    game: PhantomData<P>,
}

impl<P> Default for NetDataset<P> {
    fn default() -> Self {
        NetDataset {
            entries: Vec::new(),
            inputs: Vec::new(),
            game: PhantomData,
        }
    }
}

impl<P: FeatureSet + Game> Samples for NetDataset<P> {
    type Game = P;

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn push(&mut self, pos: &P, result: f32, score: i32) {
        let start = self.inputs.len() as u32;
        let us = pos.side_to_move();
        pos.active_inputs(us, |i| self.inputs.push(i as u16));
        pos.active_inputs(us.opponent(), |i| self.inputs.push(i as u16));
        let white = us == Color::White;
        self.entries.push(Entry {
            start,
            len: ((self.inputs.len() as u32 - start) / 2) as u8,
            result: if white { result } else { 1.0 - result },
            score: if white { score } else { -score } as f32,
            linear: pos.evaluate() as f32,
        });
    }
}

impl<P> NetDataset<P> {
    /// The positions.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The active inputs of `e`: the side to move's view, then the other side's.
    #[inline]
    pub fn inputs(&self, e: &Entry) -> (&[u16], &[u16]) {
        let n = e.len as usize;
        let all = &self.inputs[e.start as usize..e.start as usize + 2 * n];
        all.split_at(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::notation::parse_fen;

    #[test]
    fn targets_are_turned_to_the_side_to_move() {
        let mut d = NetDataset::<crate::games::bashni::Position>::default();
        d.push(&parse_fen("8/8/8/8/3(bw)4/8/8/w7 b").unwrap(), 1.0, 120);
        let e = d.entries()[0];
        assert_eq!((e.result, e.score), (0.0, -120.0));
        let (us, them) = d.inputs(&e);
        assert_eq!((us.len(), them.len()), (2, 2));
    }
}
