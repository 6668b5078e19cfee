//! The learned evaluation: a small network over (square, tower) inputs, updated incrementally.
//!
//! Shape: `2 x (INPUTS -> HIDDEN)` perspective halves sharing one weight matrix, a clipped
//! ReLU, and one output in centi-men. Each side sees the board from its own chair (Black's view
//! turned 180 degrees), so the network is colour-symmetric by construction. Every occupied
//! square is one active input per perspective (Bashni's [`features`](crate::games::bashni::nnue::features)): the square, what commands it
//! (own or enemy, man or king) and how many own and enemy pieces lie below (0, 1, 2, 3 or
//! more). A move touches few squares, so the search keeps each ply's first layer
//! ([`Accumulator`]) and redoes only the touched squares' inputs.
//!
//! The weights are integers (`i16`, [`network`]) so that the search never does floating
//! point; `bashni train` ([`crate::train`]) fits them in floating point and writes them
//! quantised.

pub mod accumulator;
pub mod network;

pub use accumulator::Accumulator;

use crate::games::kit::color::Color;

/// A game's network inputs: which are active in a position (the position type implements
/// it), and which a move's recorded changes take out and put in. Bashni's are in
/// `games::bashni::nnue`.
pub trait FeatureSet {
    /// What a move changed, recorded as the search plays it and applied to the first layer
    /// only where a node is evaluated.
    type Delta: Clone + Default + Send;

    /// Calls `f` with each active input of the position from `persp`'s view.
    fn active_inputs(&self, persp: Color, f: impl FnMut(usize));

    /// Calls `sub` with each input `delta` takes out and `add` with each it puts in, from
    /// `persp`'s view (at most `MAX_JUMPS + 2` of each).
    fn changed_inputs(
        delta: &Self::Delta,
        persp: Color,
        sub: impl FnMut(usize),
        add: impl FnMut(usize),
    );
}
pub use network::{NetError, Network};

/// Kinds of tower an input tells apart: 4 commanders x 4 own-below counts x 4 enemy-below
/// counts. (Telling apart also whose piece is directly under the commander, 192 kinds, played
/// no better and made the first layer three times as large: slower.)
pub const KINDS: usize = 4 * 4 * 4;
/// Inputs per perspective: a kind of tower on a square.
pub const INPUTS: usize = 32 * KINDS;
/// Width of each perspective's hidden layer.
pub const HIDDEN: usize = 128;
/// Quantisation of the first layer: an activation of 1.0 is `QA`, where the clip is.
pub const QA: i32 = 255;
/// Quantisation of the output weights: a weight of 1.0 is `QB` (fine enough that rounding
/// them moves an evaluation by well under 1 %).
pub const QB: i32 = 512;
/// The network's raw output 1.0 is this many centi-men.
pub const SCALE: i32 = 400;
/// Largest evaluation the network gives, centi-men (well inside the search's win scores).
pub const MAX_EVAL: i32 = 20_000;

/// The evaluation the search uses with the network on: the mean of the network's and the
/// linear evaluation's ([`crate::games::bashni::eval::evaluate`]). The two err differently, and their mean
/// plays far better than either alone: at 5,000 nodes a move the network alone scored
/// -7.5 +/- 27.2 Elo against the linear evaluation, the mean +175.7 +/- 30.3 (600 games each,
/// README "The network evaluation").
#[inline]
pub fn blend(network: i32, linear: i32) -> i32 {
    (network + linear) / 2
}
