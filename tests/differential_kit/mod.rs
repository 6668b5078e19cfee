//! The differential test framework every game's differential test instantiates
//! (`differential.rs`, `differential_turkish.rs`, `differential_russian.rs`,
//! `differential_lasca.rs`): positions from
//! seeded random playouts and random placements, the engine's move list compared with its
//! reference generator's, and perft 3 of both on a sample of positions.

#![allow(dead_code)]

use bashni::games::Rules;
use rand::{RngExt, SeedableRng, rngs::StdRng};
use std::fmt::Debug;

/// Positions from `games` random games of at most `plies` plies each, from the start; a
/// game ends where its position has no move or `over` says so. With `capture_bias`, half the
/// moves are the one `size` ranks highest (the longest capture), so that kings and tall
/// towers appear.
pub fn playout_positions<R: Rules>(
    seed: u64,
    games: usize,
    plies: usize,
    capture_bias: bool,
    size: impl Fn(&R::Move) -> usize,
    over: impl Fn(&R) -> bool,
) -> Vec<R> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = R::startpos();
        for _ in 0..plies {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() || over(&pos) {
                break;
            }
            let m = if capture_bias && rng.random_bool(0.5) {
                *moves.iter().max_by_key(|m| size(m)).unwrap()
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.play(&m);
        }
    }
    out
}

/// Random placements: 1 to `most` men and kings of each side on squares `square` draws
/// (men never on their own far rank), either side to move.
pub fn random_positions<R: Rules>(
    seed: u64,
    n: usize,
    most: usize,
    mut square: impl FnMut(&mut StdRng) -> (usize, usize),
) -> Vec<R> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut board = [['.'; 8]; 8];
            for white in [true, false] {
                for _ in 0..rng.random_range(1..=most) {
                    let (f, r) = square(&mut rng);
                    let far = if white { 7 } else { 0 };
                    let king = r == far || rng.random_bool(0.3);
                    board[r][f] = match (white, king) {
                        (true, false) => 'w',
                        (true, true) => 'W',
                        (false, false) => 'b',
                        (false, true) => 'B',
                    };
                }
            }
            let ranks: Vec<String> = (0..8)
                .rev()
                .map(|r| {
                    board[r]
                        .iter()
                        .map(|&c| if c == '.' { '1' } else { c })
                        .collect()
                })
                .collect();
            let side = if rng.random_bool(0.5) { "w" } else { "b" };
            let fen = format!("{} {side}", ranks.join("/"));
            R::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
        })
        .collect()
}

/// Asserts that the engine's moves (`fast`) and the reference's (`slow`) of the position
/// `fen` are the same, in any order, each told by what identifies it (its text or its
/// squares, and the FEN after it).
pub fn same_moves<K: Ord + Debug>(fen: &str, mut fast: Vec<K>, mut slow: Vec<K>) {
    fast.sort();
    slow.sort();
    if fast != slow {
        let only_fast: Vec<_> = fast.iter().filter(|m| !slow.contains(m)).collect();
        let only_slow: Vec<_> = slow.iter().filter(|m| !fast.contains(m)).collect();
        panic!("{fen}\nonly fast: {only_fast:?}\nonly reference: {only_slow:?}");
    }
}

/// Perft 3 of the engine and of the reference (`reference`, given a FEN) on about `about`
/// positions spread over `positions`; at least 300 of them.
pub fn perft_3_agrees<R: Rules>(positions: &[R], about: usize, reference: impl Fn(&str) -> u64) {
    let step = (positions.len() / about).max(1);
    let mut n = 0;
    for pos in positions.iter().step_by(step) {
        let fen = pos.to_fen();
        assert_eq!(pos.perft(3), reference(&fen), "{fen}");
        n += 1;
    }
    assert!(n >= 300, "only {n} positions");
}
