//! Perft over any [`Rules`]: counting move paths to a fixed depth, the proof of a move
//! generator. Bashni keeps its own faster perft (`games::bashni::perft`, reached through its
//! [`Rules`] impl); the other games use this one, which plays each move on a copy (their
//! positions are a few words) and bulk-counts the last ply.

use crate::games::kit::rules::Rules;
use rayon::prelude::*;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Nodes with at least this many plies to go read the stop flag: often enough to stop
/// within milliseconds, rarely enough (a few thousand leaves apart) to cost nothing.
pub const STOP_CHECK_DEPTH: u32 = 4;

/// The deepest perft accepted. Counts grow about fivefold per ply from the start (perft 11
/// is about 10^8 paths), so perft 16 is already about half an hour on one core; anything
/// deeper is refused rather than left to run for days.
pub const MAX_PERFT_DEPTH: u32 = 16;

/// A perft depth (the first) above the game's deepest (the second).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DepthTooLarge(pub u32, pub u32);

impl fmt::Display for DepthTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "perft depth {} is too large (the maximum is {})",
            self.0, self.1
        )
    }
}

impl std::error::Error for DepthTooLarge {}

/// `Ok(depth)` if perft accepts it in a game whose deepest is `most` (`Rules::MAX_PERFT_DEPTH`),
/// else the error to show.
pub fn check_depth(depth: u32, most: u32) -> Result<u32, DepthTooLarge> {
    if depth > most {
        Err(DepthTooLarge(depth, most))
    } else {
        Ok(depth)
    }
}

/// Number of move sequences of length `depth` from `pos`, or `None` once `stop` is set (read
/// before the work and at every node with [`STOP_CHECK_DEPTH`] or more plies to go).
pub fn perft_until<R: Rules>(pos: &R, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let n = count(pos, depth, stop);
    (!stop.load(Ordering::Relaxed)).then_some(n)
}

/// The count itself; partial once `stop` is seen (the caller reads the flag again).
fn count<R: Rules>(pos: &R, depth: u32, stop: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            if depth >= STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) {
                return 0;
            }
            pos.legal_moves()
                .iter()
                .map(|m| count(&pos.played(m), depth - 1, stop))
                .sum()
        }
    }
}

/// Per-root-move counts on `threads` threads (1 = the calling thread only; if no pool can be
/// built, the calling thread), or `None` once `stop` is set.
pub fn divide_until<R: Rules>(
    pos: &R,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Divide<R::Move>> {
    if depth == 0 {
        return (!stop.load(Ordering::Relaxed)).then(|| Divide::from_counts(Vec::new(), 1));
    }
    let moves: Vec<R::Move> = pos.legal_moves().to_vec();
    let one = |m: &R::Move| Some((*m, pos.played(m).perft_until(depth - 1, stop)?));
    let counts: Option<Vec<(R::Move, u64)>> = if threads <= 1 {
        moves.iter().map(one).collect()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(one).collect()),
            Err(_) => moves.iter().map(one).collect(),
        }
    };
    let counts = counts?;
    let nodes = counts.iter().map(|c| c.1).sum();
    Some(Divide::from_counts(counts, nodes))
}

/// A divided perft: the count below each root move, and the total.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Divide<M> {
    /// `(move, count)` per root move, sorted by the move's text.
    pub moves: Vec<(M, u64)>,
    /// Paths of the full depth (1 at depth 0, where there are no root moves).
    pub nodes: u64,
}

impl<M: std::fmt::Display> Divide<M> {
    /// Sorts the root moves by their text.
    pub fn from_counts(mut moves: Vec<(M, u64)>, nodes: u64) -> Divide<M> {
        moves.sort_by_cached_key(|(m, _)| m.to_string());
        Divide { moves, nodes }
    }

    /// The lines `<move> <count>`, one per root move, in order.
    pub fn lines(&self) -> impl Iterator<Item = String> + '_ {
        self.moves.iter().map(|(m, n)| format!("{m} {n}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{russian, turkish};

    #[test]
    fn divide_sums_and_threads_agree() {
        let t = turkish::Position::startpos();
        let never = AtomicBool::new(false);
        let d = divide_until(&t, 3, 1, &never).unwrap();
        assert_eq!(d.nodes, 708);
        assert_eq!(d.moves.len(), 8);
        assert_eq!(divide_until(&t, 3, 2, &never), Some(d));
        let r = russian::Position::startpos();
        assert_eq!(divide_until(&r, 4, 2, &never).unwrap().nodes, 1469);
        assert_eq!(divide_until(&r, 0, 1, &never).unwrap().nodes, 1);
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&r, 3, &stop), None);
        assert_eq!(divide_until(&t, 3, 2, &stop), None);
    }
}
