//! The first layer of one position, both perspectives, kept per ply by the search.
//!
//! A child's accumulator is its parent's with the inputs of the squares the move touched
//! (where it started, where it ended and the towers it jumped) taken out and put back as
//! they stand after the move: a few rows of [`HIDDEN`] adds instead of a sum over the board.
//! The search records each move's changes (a game's [`FeatureSet::Delta`]) as it plays it and applies the deltas only when
//! a node is evaluated, so nodes that never evaluate (capture chains, cut-offs) cost nothing.

use super::network::Network;
use super::{FeatureSet, HIDDEN, MAX_CHANGED};
use crate::games::kit::color::Color;
use arrayvec::ArrayVec;

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
    pub fn new<P: FeatureSet>(net: &Network, pos: &P) -> Accumulator {
        let mut acc = Accumulator::default();
        acc.refresh(net, pos);
        acc
    }

    /// Sums `pos`'s inputs from scratch.
    pub fn refresh<P: FeatureSet>(&mut self, net: &Network, pos: &P) {
        for persp in [Color::White, Color::Black] {
            let half = &mut self.halves[persp.index()];
            *half = net.b1;
            pos.active_inputs(persp, |i| add(half, &net.w1[i]));
        }
    }

    /// Sets this to `parent` changed by `delta`, a move's changes in a position of `P`.
    #[inline]
    pub fn apply<P: FeatureSet>(&mut self, parent: &Accumulator, net: &Network, delta: &P::Delta) {
        #[cfg(target_arch = "x86_64")]
        if net.avx2 {
            // SAFETY: `apply_avx2` needs only that the CPU has AVX2, and `net.avx2` is true
            // only where `is_x86_feature_detected!("avx2")` said so (`Network::from_bytes`).
            return unsafe { self.apply_avx2::<P>(parent, net, delta) };
        }
        self.apply_portable::<P>(parent, net, delta);
    }

    /// [`Accumulator::apply`] compiled for AVX2 (the same loops, twice as wide).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_avx2<P: FeatureSet>(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        delta: &P::Delta,
    ) {
        self.apply_portable::<P>(parent, net, delta);
    }

    /// [`Accumulator::apply`] for any CPU.
    #[inline(always)]
    fn apply_portable<P: FeatureSet>(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        delta: &P::Delta,
    ) {
        for persp in [Color::White, Color::Black] {
            let mut subs: ArrayVec<&[i16; HIDDEN], MAX_CHANGED> = ArrayVec::new();
            let mut adds: ArrayVec<&[i16; HIDDEN], MAX_CHANGED> = ArrayVec::new();
            P::changed_inputs(
                delta,
                persp,
                |i| subs.push(&net.w1[i]),
                |i| adds.push(&net.w1[i]),
            );
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

    /// The evaluation by `net` of the position whose first layer this is, internal units
    /// from `side`'s view.
    #[inline]
    pub fn evaluate(&self, net: &Network, side: Color) -> i32 {
        net.output(self.half(side), self.half(side.opponent()))
    }
}

/// `acc += row`, wrapping (a loaded network cannot overflow: see `Network::from_bytes`).
#[inline(always)]
fn add(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    acc.iter_mut()
        .zip(row)
        .for_each(|(a, &w)| *a = a.wrapping_add(w));
}
