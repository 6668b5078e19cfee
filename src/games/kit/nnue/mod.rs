//! The learned evaluation: a small network over a game's board inputs, updated incrementally.
//!
//! Shape: `2 x (inputs -> HIDDEN)` perspective halves sharing one weight matrix, a clipped
//! ReLU, and one output in the game's internal units. Each side sees the board from its own
//! chair (Black's view turned 180 degrees), so the network is colour-symmetric by
//! construction. What the inputs are is the game's ([`FeatureSet`], [`NetShape`]): Bashni's
//! and Lasca's are (square, tower kind) pairs ([`towers`]), Turkish and Russian draughts' are
//! (square, own or enemy, man or king) ([`pieces`]). A move touches few squares, so the
//! search keeps each ply's first layer ([`Accumulator`], [`NetStack`]) and redoes only the
//! touched squares' inputs.
//!
//! The weights are integers (`i16`, [`network`]) so that the search never does floating
//! point; `bashni train` ([`crate::train`]) fits them in floating point and writes them
//! quantised.

pub mod accumulator;
pub mod network;
pub mod pieces;
pub mod stack;
pub mod towers;

pub use accumulator::Accumulator;
pub use network::{NetError, Network};
pub use stack::NetStack;

use crate::games::kit::color::Color;
use crate::games::kit::rules::Rules;
use std::sync::Arc;

/// What a game's network looks like from outside: whose it is and how many inputs it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetShape {
    /// The game's name as `UCI_Variant` spells it; written in the file, so that a network of
    /// another game is refused by name.
    pub game: &'static str,
    /// Inputs per perspective.
    pub inputs: usize,
    /// Kinds of piece an input tells apart on one square: input `i` is kind `i % kinds` on
    /// square `i / kinds` (the trainer's factoriser shares what it learns about a kind over
    /// every square).
    pub kinds: usize,
    /// Most inputs active at once (pieces or towers on a board): what the 16-bit accumulator
    /// must hold.
    pub max_active: usize,
}

impl NetShape {
    /// Whether a network of `other`'s game reads the same inputs as one of this game's (the
    /// same board and pieces: Russian and Brazilian draughts), so that training for one can
    /// start from the other's (`bashni train --init`).
    pub fn same_inputs(&self, other: &NetShape) -> bool {
        (self.inputs, self.kinds, self.max_active) == (other.inputs, other.kinds, other.max_active)
    }
}

/// A game's network inputs: which are active in a position (the position type implements
/// it), and which a move's recorded changes take out and put in.
pub trait FeatureSet: Rules {
    /// The game's network shape.
    const SHAPE: NetShape;

    /// The network's share of the evaluation the search uses, in eighths ([`blend`]); the
    /// linear evaluation has the rest. [`NETWORK_ALONE`] (8): the network alone, and the
    /// linear evaluation is not computed. Each game's choice, measured (see its `nnue`).
    const NETWORK_EIGHTHS: i32;

    /// What a move changed, recorded as the search plays it and applied to the first layer
    /// only where a node is evaluated.
    type Delta: Clone + Default + Send;

    /// The network compiled in for this game.
    fn embedded_network() -> Arc<Network>;

    /// Makes `delta` the changes of the move from `before` to `after`, in place (the search
    /// keeps one per ply).
    fn record(delta: &mut Self::Delta, before: &Self, after: &Self, m: &Self::Move);

    /// Calls `f` with each active input of the position from `persp`'s view.
    fn active_inputs(&self, persp: Color, f: impl FnMut(usize));

    /// Calls `sub` with each input `delta` takes out and `add` with each it puts in, from
    /// `persp`'s view (at most [`MAX_CHANGED`] of each).
    fn changed_inputs(
        delta: &Self::Delta,
        persp: Color,
        sub: impl FnMut(usize),
        add: impl FnMut(usize),
    );
}

/// Most inputs one move takes out (or puts in) of one perspective, in any game: every square
/// of the largest board (a capture can take no more pieces than a position set up from a FEN
/// holds, and a FEN may hold more than a game starts with).
pub const MAX_CHANGED: usize = 64;
/// Width of each perspective's hidden layer.
pub const HIDDEN: usize = 128;
/// Quantisation of the first layer: an activation of 1.0 is `QA`, where the clip is.
pub const QA: i32 = 255;
/// Quantisation of the output weights: a weight of 1.0 is `QB` (fine enough that rounding
/// them moves an evaluation by well under 1 %).
pub const QB: i32 = 512;
/// The network's raw output 1.0 is this many internal units.
pub const SCALE: i32 = 400;
/// Largest evaluation the network gives, internal units (well inside the search's win
/// scores).
pub const MAX_EVAL: i32 = 20_000;

/// Declares a game's compiled-in network: `EMBEDDED_BYTES` (the file, `$bytes`) and
/// `EMBEDDED`, parsed once as `$pos`'s shape on first use (each game's tests check that it
/// parses); the game's [`FeatureSet::embedded_network`] returns a clone of `EMBEDDED`.
macro_rules! embedded_network {
    ($pos:ty, $bytes:expr) => {
        /// The network compiled into the engine (its manifest, how to remake it, is beside it).
        pub const EMBEDDED_BYTES: &[u8] = $bytes;

        /// The embedded network, parsed once.
        static EMBEDDED: std::sync::LazyLock<std::sync::Arc<$crate::games::kit::nnue::Network>> =
            std::sync::LazyLock::new(|| {
                std::sync::Arc::new(
                    $crate::games::kit::nnue::Network::from_bytes(
                        EMBEDDED_BYTES,
                        <$pos as $crate::games::kit::nnue::FeatureSet>::SHAPE,
                    )
                    .expect("the embedded network is valid"),
                )
            });
    };
}
pub(crate) use embedded_network;

/// [`FeatureSet::NETWORK_EIGHTHS`] of a game that evaluates with its network alone.
pub const NETWORK_ALONE: i32 = 8;

/// The evaluation the search uses where a game blends: `eighths` of the network's and the rest
/// of the linear evaluation's ([`FeatureSet::NETWORK_EIGHTHS`]). The two err differently, and
/// for Bashni a blend plays far better than either alone: at 5,000 nodes a move the network
/// alone scored -7.5 +/- 27.2 Elo against the linear evaluation, the mean +175.7 +/- 30.3
/// (600 games each, docs/measurements.md).
#[inline]
pub fn blend(network: i32, linear: i32, eighths: i32) -> i32 {
    (eighths * network + (NETWORK_ALONE - eighths) * linear) / NETWORK_ALONE
}
