//! Lasca's perft: counting move paths to a fixed depth (docs/rules-lasca.md, "Perft"), the
//! proof of the move generator. Moves are played as they are generated (no move list), each
//! on a copy without the hash, and the last ply is counted without building its moves.

use crate::games::lasca::movegen::{count_legal_moves, count_moves, for_each_move};
use crate::games::lasca::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft `bashni perft --variant lasca` accepts: Lasca's counts grow about
/// threefold per ply, so depth 22 (4.6 * 10^9 paths) is minutes, not days.
pub const MAX_PERFT_DEPTH: u32 = 22;

/// Nodes with at least this many plies to go read the stop flag.
const STOP_CHECK_DEPTH: u32 = 5;

/// Number of move sequences of length `depth` from `pos`, or `None` once `stop` is set.
pub fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let n = count(pos, depth, stop);
    (!stop.load(Ordering::Relaxed)).then_some(n)
}

/// The count itself; partial once `stop` is seen (the caller reads the flag again).
fn count(pos: &Position, depth: u32, stop: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(pos),
        2 => {
            // The last ply reads only who commands what: no copy of the columns.
            let mut n = 0;
            for_each_move(pos, |m| n += count_moves(&pos.sets_after(&m)));
            n
        }
        _ => {
            if depth >= STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) {
                return 0;
            }
            let mut n = 0;
            for_each_move(pos, |m| {
                let mut next = *pos;
                next.play_unhashed(&m);
                n += count(&next, depth - 1, stop);
            });
            n
        }
    }
}

/// Perft from `pos` to the end.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let never = AtomicBool::new(false);
    perft_until(pos, depth, &never).expect("the flag is never set")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_from_the_start() {
        // docs/rules-lasca.md, "Perft": depths 0-12.
        let expected = [
            1u64, 6, 6, 18, 54, 116, 324, 846, 2148, 5692, 13898, 37124, 97440,
        ];
        let p = Position::startpos();
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&p, d as u32), n, "depth {d}");
        }
    }

    #[test]
    fn stops_when_asked() {
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&Position::startpos(), 3, &stop), None);
    }
}
