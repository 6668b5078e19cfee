//! The first layer of one position, both perspectives, kept per ply by the search.
//!
//! A child's accumulator is its parent's with the inputs of the squares the move touched
//! (where it started, where it ended and the towers it jumped) taken out and put back as
//! they stand after the move: a few rows of [`HIDDEN`] adds instead of a sum over the board.
//! The search records each move's [`Delta`] as it plays it and applies the deltas only when
//! a node is evaluated, so nodes that never evaluate (capture chains, cut-offs) cost nothing.

use super::HIDDEN;
use super::network::Network;
use crate::games::bashni::nnue::features::index;
use crate::games::bashni::position::Position;
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::color::Color;
use crate::games::kit::moves::{MAX_JUMPS, Move};
use crate::games::kit::square::Square;
use crate::games::kit::tower::Tower;
use arrayvec::ArrayVec;

/// What a move changed on the board: each touched square with its tower before and after.
#[derive(Clone, Default, Debug)]
pub struct Delta {
    changes: ArrayVec<(Square, Tower, Tower), { MAX_JUMPS + 2 }>,
}

impl Delta {
    /// The changes `m` made, `before` becoming `after`.
    #[inline]
    pub fn of_move(before: &Position, after: &Position, m: &Move) -> Delta {
        let mut delta = Delta::default();
        delta.record(before, after, m);
        delta
    }

    /// Makes this the changes `m` made, `before` becoming `after`, in place: the search
    /// keeps one per ply, and building a new one would copy its whole capacity each move.
    #[inline]
    pub fn record(&mut self, before: &Position, after: &Position, m: &Move) {
        // A bitboard, so that a square jumped twice (Bashni allows it) is counted once.
        let mut touched = Bitboard::from_square(m.from()) | Bitboard::from_square(m.to());
        for &sq in m.jumped() {
            touched.set(sq);
        }
        self.changes.clear();
        for sq in touched {
            let (old, new) = (before.tower(sq), after.tower(sq));
            if old != new {
                self.changes.push((sq, old, new));
            }
        }
    }
}

/// Hidden units updated together: a 256-bit register of `i16` (two 128-bit ones without AVX2).
const LANES: usize = 16;

/// Both perspectives' first-layer sums (before the clip), `i16`.
#[derive(Clone, PartialEq, Eq, Debug)]
#[repr(align(64))]
pub struct Accumulator {
    halves: [[i16; HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            halves: [[0; HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// The accumulator of `pos`, summed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.refresh(net, pos);
        acc
    }

    /// Sums `pos`'s inputs from scratch.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        for persp in [Color::White, Color::Black] {
            let half = &mut self.halves[persp.index()];
            *half = net.b1;
            for sq in pos.occupied() {
                add(half, &net.w1[index(persp, sq, pos.tower(sq))]);
            }
        }
    }

    /// Sets this to the accumulator of `after`, the position `m` leads to from `before`,
    /// whose accumulator is `parent`.
    pub fn update(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        before: &Position,
        after: &Position,
        m: &Move,
    ) {
        self.apply(parent, net, &Delta::of_move(before, after, m));
    }

    /// Sets this to `parent` changed by `delta`.
    #[inline]
    pub fn apply(&mut self, parent: &Accumulator, net: &Network, delta: &Delta) {
        #[cfg(target_arch = "x86_64")]
        if net.avx2 {
            // SAFETY: `apply_avx2` needs only that the CPU has AVX2, and `net.avx2` is true
            // only where `is_x86_feature_detected!("avx2")` said so (`Network::from_bytes`).
            return unsafe { self.apply_avx2(parent, net, delta) };
        }
        self.apply_portable(parent, net, delta);
    }

    /// [`Accumulator::apply`] compiled for AVX2 (the same loops, twice as wide).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_avx2(&mut self, parent: &Accumulator, net: &Network, delta: &Delta) {
        self.apply_portable(parent, net, delta);
    }

    /// [`Accumulator::apply`] for any CPU.
    #[inline(always)]
    fn apply_portable(&mut self, parent: &Accumulator, net: &Network, delta: &Delta) {
        for persp in [Color::White, Color::Black] {
            let mut subs: ArrayVec<&[i16; HIDDEN], { MAX_JUMPS + 2 }> = ArrayVec::new();
            let mut adds: ArrayVec<&[i16; HIDDEN], { MAX_JUMPS + 2 }> = ArrayVec::new();
            for &(sq, old, new) in &delta.changes {
                if !old.is_empty() {
                    subs.push(&net.w1[index(persp, sq, old)]);
                }
                if !new.is_empty() {
                    adds.push(&net.w1[index(persp, sq, new)]);
                }
            }
            let half = &mut self.halves[persp.index()];
            let from = &parent.halves[persp.index()];
            // One pass over the layer, a register's width at a time: the parent's lanes, every
            // row taken out and put in, stored once (a capture touches several squares).
            for lane in (0..HIDDEN).step_by(LANES) {
                let mut v: [i16; LANES] = from[lane..lane + LANES].try_into().expect("lanes");
                for s in &subs {
                    for (x, &w) in v.iter_mut().zip(&s[lane..lane + LANES]) {
                        *x = x.wrapping_sub(w);
                    }
                }
                for a in &adds {
                    for (x, &w) in v.iter_mut().zip(&a[lane..lane + LANES]) {
                        *x = x.wrapping_add(w);
                    }
                }
                half[lane..lane + LANES].copy_from_slice(&v);
            }
        }
    }

    /// The half of `persp`.
    #[inline]
    pub fn half(&self, persp: Color) -> &[i16; HIDDEN] {
        &self.halves[persp.index()]
    }
}

/// `acc += row`, wrapping (a loaded network cannot overflow: see `Network::from_bytes`).
#[inline(always)]
fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    acc.iter_mut()
        .zip(row)
        .for_each(|(a, &w)| *a = a.wrapping_add(w));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::movegen::legal_moves;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn incremental_equals_recomputed_after_every_move_of_random_games() {
        // On this CPU's fast path and on the portable one, bitwise.
        for avx2 in [crate::games::kit::nnue::network::cpu_has_avx2(), false] {
            let mut net = (*Network::embedded()).clone();
            net.avx2 = avx2;
            let mut rng = StdRng::seed_from_u64(11);
            let mut moves_checked = 0;
            for _ in 0..300 {
                let mut pos = Position::startpos();
                let mut acc = Accumulator::new(&net, &pos);
                loop {
                    let moves = legal_moves(&pos);
                    if moves.is_empty() || pos.clock_draw() {
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    let next = pos.played(&m);
                    let mut child = Accumulator::default();
                    child.update(&acc, &net, &pos, &next, &m);
                    assert_eq!(child, Accumulator::new(&net, &next));
                    let portable = Network {
                        avx2: false,
                        ..net.clone()
                    };
                    assert_eq!(
                        net.output(&child, next.side()),
                        portable.output(&child, next.side())
                    );
                    moves_checked += 1;
                    (pos, acc) = (next, child);
                }
            }
            assert!(moves_checked > 10_000, "{moves_checked}");
        }
    }
}
