//! Perft: counting move paths to a fixed depth, the proof of the move generator.
//!
//! The last ply is bulk-counted. One ply before it, quiet moves are not played on a full
//! position: a quiet move changes only two squares, so the reply count is computed from the
//! bitboards alone whenever the opponent then has no capture (captures need the towers).

use crate::rules::bitboard::Bitboard;
use crate::rules::captures::{AfterQuiet, count_capture_paths_sets};
use crate::rules::movegen::{
    can_capture, count_legal_moves, count_quiets_sets, forward, generate_capture_moves,
    generate_quiets, legal_moves,
};
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::square::{Direction, Square};
use rayon::prelude::*;

/// Number of legal move sequences of length `depth` (bulk-counted at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth <= 1 {
        return if depth == 0 {
            1
        } else {
            count_legal_moves(pos)
        };
    }
    perft_in_place(&mut pos.clone(), depth)
}

/// Perft on a scratch position, played and taken back in place (no copies, no hashing).
fn perft_in_place(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(pos),
        2 if !can_capture(pos) => perft2_quiet(pos),
        _ => {
            let mut moves = MoveList::new();
            if !generate_capture_moves(pos, &mut moves) {
                generate_quiets(pos, &mut moves);
            }
            let mut n = 0;
            for m in moves.iter() {
                let undo = pos.play_scratch(m);
                n += perft_in_place(pos, depth - 1);
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
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = legal_moves(pos).to_vec();
    let count = |m: &Move| (*m, perft(&pos.played(m), depth - 1));
    if threads <= 1 {
        return moves.iter().map(count).collect();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
        Err(_) => moves.iter().map(count).collect(),
    }
}
