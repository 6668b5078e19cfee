//! Training positions as the network trainer keeps them: each position's active inputs from
//! the side to move's view and from the other side's, and its targets from the side to
//! move's view.

use crate::games::bashni::nnue::features::active;
use crate::games::bashni::position::Position;
use crate::games::kit::color::Color;
use crate::tune::data::Samples;

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
    /// The linear evaluation ([`crate::games::bashni::eval::evaluate`]), side to move's view: the yardstick
    /// the trainer reports the network against.
    pub linear: f32,
}

/// Positions and their inputs in one flat array (about 80 bytes a position).
#[derive(Default, Debug)]
pub struct NetDataset {
    entries: Vec<Entry>,
    inputs: Vec<u16>,
}

impl Samples for NetDataset {
    type Game = Position;

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn push(&mut self, pos: &Position, result: f32, score: i32) {
        let start = self.inputs.len() as u32;
        let us = pos.side();
        self.inputs.extend(active(pos, us).map(|i| i as u16));
        self.inputs
            .extend(active(pos, us.opponent()).map(|i| i as u16));
        let white = us == Color::White;
        self.entries.push(Entry {
            start,
            len: ((self.inputs.len() as u32 - start) / 2) as u8,
            result: if white { result } else { 1.0 - result },
            score: if white { score } else { -score } as f32,
            linear: crate::games::bashni::eval::evaluate(pos) as f32,
        });
    }
}

impl NetDataset {
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
        let mut d = NetDataset::default();
        d.push(&parse_fen("8/8/8/8/3(bw)4/8/8/w7 b").unwrap(), 1.0, 120);
        let e = d.entries()[0];
        assert_eq!((e.result, e.score), (0.0, -120.0));
        let (us, them) = d.inputs(&e);
        assert_eq!((us.len(), them.len()), (2, 2));
    }
}
