//! Perft: counting move paths to a fixed depth, the proof of the move generator.

use crate::movegen::{count_legal_moves, legal_moves};
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;

/// Number of legal move sequences of length `depth` (bulk-counted at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(pos),
        _ => {
            let moves = legal_moves(pos);
            let mut n = 0;
            for m in moves.iter() {
                n += perft(&pos.played(m), depth - 1);
            }
            n
        }
    }
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
