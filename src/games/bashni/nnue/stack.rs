//! Bashni's evaluator in the search: the network's first layer at each ply of the path,
//! brought up to date only where a node is evaluated, and the mean of the network and the
//! linear evaluation ([`blend`](crate::games::kit::nnue::blend)).

use super::Delta;
use crate::games::bashni::eval::evaluate;
use crate::games::bashni::position::Position;
use crate::games::kit::game::MAX_PLY;
use crate::games::kit::game::{EvalConfig, Evaluator};
use crate::games::kit::moves::Move;
use crate::games::kit::nnue::{Accumulator, Network};
use std::sync::Arc;

/// One search thread's accumulators, one per ply of the current path.
pub struct AccumulatorStack {
    /// The network (`None`: the linear evaluation alone, and no accumulators are kept).
    net: Option<Arc<Network>>,
    /// The first layer at each ply, valid where `fresh` says so; otherwise `delta` says how
    /// it differs from the ply before (see [`up_to_date`]).
    acc: Vec<Accumulator>,
    fresh: Vec<bool>,
    delta: Vec<Delta>,
}

/// The accumulator of ply `ply`, bringing it (and the plies before it) up to date: the
/// stack's fields apart, so that the network can stay borrowed from the stack meanwhile.
#[inline]
fn up_to_date<'a>(
    acc: &'a mut [Accumulator],
    fresh: &mut [bool],
    delta: &[Delta],
    net: &Network,
    ply: usize,
) -> &'a Accumulator {
    let mut first = ply;
    while !fresh[first] {
        first -= 1; // Ply 0, the root, is always fresh.
    }
    for p in first + 1..=ply {
        let (done, next) = acc.split_at_mut(p);
        next[0].apply::<Position>(&done[p - 1], net, &delta[p]);
        fresh[p] = true;
    }
    &acc[ply]
}

impl Evaluator<Position> for AccumulatorStack {
    fn new(config: &EvalConfig) -> AccumulatorStack {
        // Without a network nothing is kept per ply.
        let plies = if config.network.is_some() {
            MAX_PLY + 2
        } else {
            0
        };
        AccumulatorStack {
            net: config.network.clone(),
            acc: vec![Accumulator::default(); plies],
            fresh: vec![false; plies],
            delta: vec![Delta::default(); plies],
        }
    }

    fn set_root(&mut self, pos: &Position) {
        if let Some(net) = &self.net {
            self.acc[0].refresh(net, pos);
            self.fresh[0] = true;
        }
    }

    #[inline]
    fn played(&mut self, ply: usize, before: &Position, after: &Position, m: &Move) {
        if self.net.is_some() {
            self.delta[ply + 1].record(before, after, m);
            self.fresh[ply + 1] = false;
        }
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let Some(net) = self.net.as_deref() else {
            return evaluate(pos);
        };
        let acc = up_to_date(&mut self.acc, &mut self.fresh, &self.delta, net, ply);
        crate::games::kit::nnue::blend(net.output(acc, pos.side()), evaluate(pos))
    }
}
