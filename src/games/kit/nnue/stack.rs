//! A network game's evaluator in the search: the network's first layer at each ply of the
//! path, brought up to date only where a node is evaluated, and the network's evaluation
//! (or its blend with the linear one, [`blend`], where the game chose that:
//! [`FeatureSet::NETWORK_EIGHTHS`]).

use super::{Accumulator, FeatureSet, NETWORK_ALONE, Network, blend};
use crate::games::kit::game::{EvalConfig, Evaluator, Game, MAX_PLY};
use std::sync::Arc;

/// One search thread's accumulators, one per ply of the current path.
pub struct NetStack<P: FeatureSet> {
    /// The network (`None`: the linear evaluation alone, and no accumulators are kept).
    net: Option<Arc<Network>>,
    /// The first layer at each ply, valid where `fresh` says so; otherwise `delta` says how
    /// it differs from the ply before (see [`up_to_date`]).
    acc: Vec<Accumulator>,
    fresh: Vec<bool>,
    delta: Vec<P::Delta>,
}

/// The accumulator of ply `ply`, bringing it (and the plies before it) up to date: the
/// stack's fields apart, so that the network can stay borrowed from the stack meanwhile.
#[inline]
fn up_to_date<'a, P: FeatureSet>(
    acc: &'a mut [Accumulator],
    fresh: &mut [bool],
    delta: &[P::Delta],
    net: &Network,
    ply: usize,
) -> &'a Accumulator {
    let mut first = ply;
    while !fresh[first] {
        first -= 1; // Ply 0, the root, is always fresh.
    }
    for p in first + 1..=ply {
        let (done, next) = acc.split_at_mut(p);
        next[0].apply::<P>(&done[p - 1], net, &delta[p]);
        fresh[p] = true;
    }
    &acc[ply]
}

/// The network `config` asks `P`'s search to use: none where the network is off, else the
/// one loaded for `P`'s game, else the one compiled in.
pub fn network_for<P: FeatureSet>(config: &EvalConfig) -> Option<Arc<Network>> {
    if !config.use_network {
        return None;
    }
    Some(match &config.network {
        Some(net) if net.shape() == P::SHAPE => Arc::clone(net),
        _ => P::embedded_network(),
    })
}

/// The evaluation the search uses from the network's (`network`) and the linear one.
#[inline]
pub fn combine<P: FeatureSet + Game>(network: i32, pos: &P) -> i32 {
    if P::NETWORK_EIGHTHS < NETWORK_ALONE {
        blend(network, pos.evaluate(), P::NETWORK_EIGHTHS)
    } else {
        network
    }
}

impl<P: FeatureSet + Game> Evaluator<P> for NetStack<P> {
    fn new(config: &EvalConfig) -> NetStack<P> {
        let net = network_for::<P>(config);
        // Without a network nothing is kept per ply.
        let plies = if net.is_some() { MAX_PLY + 2 } else { 0 };
        NetStack {
            net,
            acc: vec![Accumulator::default(); plies],
            fresh: vec![false; plies],
            delta: vec![P::Delta::default(); plies],
        }
    }

    fn set_root(&mut self, pos: &P) {
        if let Some(net) = &self.net {
            self.acc[0].refresh(net, pos);
            self.fresh[0] = true;
        }
    }

    #[inline]
    fn played(&mut self, ply: usize, before: &P, after: &P, m: &P::Move) {
        if self.net.is_some() {
            P::record(&mut self.delta[ply + 1], before, after, m);
            self.fresh[ply + 1] = false;
        }
    }

    #[inline]
    fn evaluate(&mut self, pos: &P, ply: usize) -> i32 {
        let Some(net) = self.net.as_deref() else {
            return pos.evaluate();
        };
        let acc = up_to_date::<P>(&mut self.acc, &mut self.fresh, &self.delta, net, ply);
        combine(acc.evaluate(net, pos.side_to_move()), pos)
    }
}

/// Checks shared by every game's network (called from each game's `nnue` tests).
#[cfg(test)]
pub(crate) mod checks {
    use super::*;
    use crate::games::kit::fen::mirrored;
    use crate::games::kit::nnue::network::cpu_has_avx2;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Positions of random games of `P` from its start (`games` games, at most `plies`
    /// plies each), every position of each.
    pub fn random_games<P: Game>(games: usize, plies: usize, seed: u64) -> Vec<Vec<(P, P::Move)>> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..games)
            .map(|_| {
                let mut pos = P::startpos();
                let mut line = Vec::new();
                for _ in 0..plies {
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.clock_draw() || pos.decided().is_some() {
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    line.push((pos.clone(), m));
                    pos.play(&m);
                }
                line
            })
            .collect()
    }

    /// The first layer brought up move by move equals the one summed afresh, bitwise, on
    /// this CPU's fast path and on the portable one, and both paths' outputs agree.
    pub fn incremental_equals_recomputed<P: FeatureSet + Game>(games: usize, least: usize) {
        for avx2 in [cpu_has_avx2(), false] {
            let mut net = (*P::embedded_network()).clone();
            net.avx2 = avx2;
            let portable = Network {
                avx2: false,
                ..net.clone()
            };
            let mut checked = 0;
            for line in random_games::<P>(games, 400, 11) {
                let Some((first, _)) = line.first() else {
                    continue;
                };
                let mut acc = Accumulator::new(&net, first);
                for (pos, m) in &line {
                    let next = pos.played(m);
                    let mut delta = P::Delta::default();
                    P::record(&mut delta, pos, &next, m);
                    let mut child = Accumulator::default();
                    child.apply::<P>(&acc, &net, &delta);
                    assert_eq!(child, Accumulator::new(&net, &next), "{}", next.to_fen());
                    let side = next.side_to_move();
                    assert_eq!(child.evaluate(&net, side), child.evaluate(&portable, side));
                    checked += 1;
                    acc = child;
                }
            }
            assert!(checked > least, "{checked}");
        }
    }

    /// A position and its colour-swapped twin evaluate alike for the side to move (so from
    /// White's view the two scores are opposite), and the network says something.
    pub fn colour_symmetric<P: FeatureSet + Game>() {
        let net = P::embedded_network();
        let mut nonzero = 0;
        let mut seen = 0;
        for line in random_games::<P>(40, 90, 17) {
            for (pos, _) in line.iter().step_by(5) {
                let twin = P::from_fen(&mirrored(&pos.to_fen())).unwrap();
                let eval = |p: &P| Accumulator::new(&net, p).evaluate(&net, p.side_to_move());
                assert_eq!(eval(pos), eval(&twin), "{}", pos.to_fen());
                nonzero += (eval(pos) != 0) as usize;
                seen += 1;
            }
        }
        assert!(
            nonzero * 2 > seen,
            "the network says something: {nonzero} of {seen}"
        );
    }

    /// The compiled-in network parses, is `P`'s, and writes back the same bytes.
    pub fn embedded_round_trips<P: FeatureSet>(bytes: &[u8]) {
        let net = P::embedded_network();
        assert_eq!(net.shape(), P::SHAPE);
        assert_eq!(net.to_bytes(), bytes);
    }

    /// The checks of this module as the tests of a game's network module: `$pos` its position, the
    /// incremental check over `$games` random games and at least `$least` moves, `$bytes` its
    /// compiled-in network file.
    macro_rules! network_tests {
        ($pos:ty, games = $games:expr, least = $least:expr, bytes = $bytes:expr) => {
            use $crate::games::kit::nnue::stack::checks;

            #[test]
            fn incremental_equals_recomputed_after_every_move_of_random_games() {
                checks::incremental_equals_recomputed::<$pos>($games, $least);
            }

            #[test]
            fn a_position_and_its_colour_swapped_twin_evaluate_alike_for_the_side_to_move() {
                checks::colour_symmetric::<$pos>();
            }

            #[test]
            fn the_embedded_network_parses_and_round_trips() {
                checks::embedded_round_trips::<$pos>($bytes);
            }
        };
    }
    pub(crate) use network_tests;
}
