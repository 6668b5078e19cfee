//! Bashni's side of the network: its inputs ([`features`]) and its evaluator in the search
//! ([`AccumulatorStack`]); the machinery (layers, accumulator, file format) is the toolkit's
//! ([`crate::games::kit::nnue`]).

pub mod features;
mod stack;

pub use stack::AccumulatorStack;
