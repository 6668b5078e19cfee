//! Perft: counting move paths to a fixed depth, the proof of the move generator.
//!
//! The last ply is bulk-counted. One ply before it, quiet moves are not played on a full
//! position: a quiet move changes only two squares, so the reply count is computed from the
//! bitboards alone whenever the opponent then has no capture (captures need the towers).
//!
//! Every count can be stopped: [`perft_until`] and [`divide_until`] read a stop flag before
//! each root move and at every node with [`STOP_CHECK_DEPTH`] or more plies to go, and give
//! `None` once it is set. Depths above [`MAX_PERFT_DEPTH`] are refused by [`check_depth`].

use crate::games::bashni::captures::{AfterQuiet, count_capture_paths_sets};
use crate::games::bashni::movegen::{
    can_capture, count_legal_moves, count_quiets_sets, forward, generate_capture_moves,
    generate_quiets,
};
use crate::games::bashni::position::{Position, ScratchUndo};
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::moves::{Move, MoveList};
use crate::games::kit::perft;
pub use crate::games::kit::perft::{
    DepthTooLarge, Divide, MAX_PERFT_DEPTH, STOP_CHECK_DEPTH, check_depth,
};
use crate::games::kit::square::{Direction, Square};
use std::sync::atomic::{AtomicBool, Ordering};

/// Number of legal move sequences of length `depth` (bulk-counted at the last ply). Runs
/// to the end: use [`perft_until`] for a count that can be stopped.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let never = AtomicBool::new(false);
    perft_until(pos, depth, &never).expect("the flag is never set")
}

/// [`perft()`] that gives up once `stop` is set (read before the work starts and then at
/// every node [`STOP_CHECK_DEPTH`] or more plies from the leaves): `None` if stopped.
pub fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let n = match depth {
        0 => 1,
        1 => count_legal_moves(pos),
        _ => perft_in_place(&mut pos.clone(), depth, stop),
    };
    (!stop.load(Ordering::Relaxed)).then_some(n)
}

/// Perft on a scratch position, played and taken back in place (no copies, no hashing).
/// Once `stop` is seen the count returned is partial; the caller reads the flag again.
fn perft_in_place(pos: &mut Position, depth: u32, stop: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(pos),
        2 if !can_capture(pos) => perft2_quiet(pos),
        _ => {
            if depth >= STOP_CHECK_DEPTH && stop.load(Ordering::Relaxed) {
                return 0;
            }
            let mut moves = MoveList::new();
            if !generate_capture_moves(pos, &mut moves) {
                generate_quiets(pos, &mut moves);
            }
            let mut n = 0;
            let mut undo = ScratchUndo::default();
            for m in moves.iter() {
                pos.play_scratch(m, &mut undo);
                n += perft_in_place(pos, depth - 1, stop);
                pos.undo_scratch(m, &undo);
            }
            n
        }
    }
}

/// Perft 2 of a position whose side to move has only quiet moves.
fn perft2_quiet(pos: &Position) -> u64 {
    let us = pos.side();
    let them = us.opponent();
    let ours = pos.commanded_by(us);
    let kings = pos.kings();
    let empty = pos.empty_squares();
    let their_men = pos.commanded_by(them) & !kings;
    let their_kings = pos.commanded_by(them) & kings;
    let kings_ours = ours & kings;
    // Reply count after moving the tower on `from` to `to`.
    let replies = |from: Square, to: Square| -> u64 {
        let ours_after = ours ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
        let empty_after = empty ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
        let after = AfterQuiet {
            pos,
            from: from.index(),
            to: to.index(),
        };
        let captures = count_capture_paths_sets(
            &after,
            them,
            their_men.0,
            their_kings.0,
            ours_after.0,
            (!empty_after).0,
        );
        if captures > 0 {
            return captures;
        }
        count_quiets_sets(them, their_men, their_kings, empty_after)
    };
    let mut n = 0;
    let men = ours & !kings;
    for dir in forward(us) {
        for to in men.shift(dir) & empty {
            let from = to
                .step(dir.reverse())
                .expect("a step back stays on the board");
            n += replies(from, to);
        }
    }
    for from in kings_ours {
        for dir in Direction::ALL {
            let mut next = from.step(dir);
            while let Some(to) = next {
                if !empty.has(to) {
                    break;
                }
                n += replies(from, to);
                next = to.step(dir);
            }
        }
    }
    n
}

/// Per-root-move counts, computed on `threads` threads (1 = the calling thread only).
/// Runs to the end: use [`divide_until`] for one that can be stopped.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Divide<Move> {
    let never = AtomicBool::new(false);
    divide_until(pos, depth, threads, &never).expect("the flag is never set")
}

/// [`divide`] that gives up once `stop` is set (read before each root move and inside each
/// count, see [`perft_until`]): `None` if stopped. The toolkit's divide, whose count below
/// each root move is this module's [`perft_until`] (through Bashni's `Rules` impl).
pub fn divide_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Divide<Move>> {
    perft::divide_until(pos, depth, threads, stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    #[test]
    fn divide_sums_to_perft_and_is_sorted() {
        let pos = Position::startpos();
        let d = divide(&pos, 4, 1);
        assert_eq!(d.nodes, perft(&pos, 4));
        assert_eq!(d.nodes, d.moves.iter().map(|m| m.1).sum::<u64>());
        let lines: Vec<String> = d.lines().collect();
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[0], "a3-b4 237");
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(lines, sorted);
        assert_eq!(divide(&pos, 4, 2), d, "threads change nothing");
        let zero = divide(&pos, 0, 1);
        assert_eq!((zero.moves.len(), zero.nodes), (0, 1));
    }

    #[test]
    fn a_set_flag_stops_at_once() {
        let stop = AtomicBool::new(true);
        let pos = Position::startpos();
        assert_eq!(perft_until(&pos, 3, &stop), None);
        assert_eq!(perft_until(&pos, 0, &stop), None);
        assert_eq!(divide_until(&pos, 3, 1, &stop), None);
        assert_eq!(divide_until(&pos, 3, 2, &stop), None);
        let go = AtomicBool::new(false);
        assert_eq!(perft_until(&pos, 5, &go), Some(7482));
    }

    #[test]
    fn a_flag_set_during_the_count_stops_it() {
        // Perft 16 from the start would run for about half an hour.
        let stop = Arc::new(AtomicBool::new(false));
        let setter = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            })
        };
        let t = Instant::now();
        let pos = Position::startpos();
        assert_eq!(divide_until(&pos, MAX_PERFT_DEPTH, 1, &stop), None);
        setter.join().unwrap();
        assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
        stop.store(false, Ordering::Relaxed);
        let setter = {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            })
        };
        assert_eq!(perft_until(&pos, MAX_PERFT_DEPTH, &stop), None);
        setter.join().unwrap();
    }

    #[test]
    fn depth_limit() {
        assert_eq!(
            check_depth(MAX_PERFT_DEPTH, MAX_PERFT_DEPTH),
            Ok(MAX_PERFT_DEPTH)
        );
        assert_eq!(check_depth(0, MAX_PERFT_DEPTH), Ok(0));
        let e = check_depth(100, MAX_PERFT_DEPTH).unwrap_err();
        assert_eq!(e, DepthTooLarge(100, 16));
        assert_eq!(check_depth(22, 22), Ok(22));
        assert_eq!(
            e.to_string(),
            "perft depth 100 is too large (the maximum is 16)"
        );
    }
}
