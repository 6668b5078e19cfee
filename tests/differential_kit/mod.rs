//! The differential test framework every game's differential test instantiates
//! (`differential.rs`, `differential_turkish.rs`, `differential_russian.rs`,
//! `differential_lasca.rs`): positions from seeded random playouts and random placements, the
//! engine's move list compared with the reference generator's (`reference/`, which each of
//! them declares beside this module, with its game's rule values), and perft 3 of both on a
//! sample of positions.

#![allow(dead_code)]

use crate::reference;
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

/// Random placements in the game `rules`: 1 to `most` men and kings of each side on squares
/// `square` draws (men never on their own far rank), either side to move. The reference
/// writes each one's FEN and the engine reads it.
pub fn random_positions<R: Rules>(
    rules: &'static reference::Rules,
    seed: u64,
    n: usize,
    most: usize,
    mut square: impl FnMut(&mut StdRng) -> (usize, usize),
) -> Vec<R> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut board = reference::Board::new(rules.size);
            for white in [true, false] {
                for _ in 0..rng.random_range(1..=most) {
                    let (f, r) = square(&mut rng);
                    let far = if white { rules.size - 1 } else { 0 };
                    let king = r as i32 == far || rng.random_bool(0.3);
                    board[(f as i32, r as i32)] = vec![reference::Piece { white, king }];
                }
            }
            let white_to_move = rng.random_bool(0.5);
            let (clock, fullmove) = (0, 1);
            let pos = reference::Position {
                rules,
                board,
                white_to_move,
                clock,
                fullmove,
            };
            let fen = reference::to_fen(&pos);
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

/// The reference's position of `fen` in the game `rules`, which it must write back as `fen`
/// (both sides read and write the same FEN).
pub fn reference_position(rules: &'static reference::Rules, fen: &str) -> reference::Position {
    let pos = reference::parse_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(reference::to_fen(&pos), fen);
    pos
}

/// The reference's moves of `fen`, each as its text and the FEN after it: what identifies a
/// move in the games where a move is its path.
pub fn reference_paths(rules: &'static reference::Rules, fen: &str) -> Vec<(String, String)> {
    reference::legal_moves(&reference_position(rules, fen))
        .into_iter()
        .map(|m| (m.text(), reference::to_fen(&m.after)))
        .collect()
}

/// Perft 3 of the engine and of the reference (the game `rules`) on about `about` positions
/// spread over `positions`; at least 300 of them.
pub fn perft_3_agrees<R: Rules>(positions: &[R], about: usize, rules: &'static reference::Rules) {
    let step = (positions.len() / about).max(1);
    let mut n = 0;
    for pos in positions.iter().step_by(step) {
        let fen = pos.to_fen();
        let slow = reference::perft(&reference_position(rules, &fen), 3);
        assert_eq!(pos.perft(3), slow, "{fen}");
        n += 1;
    }
    assert!(n >= 300, "only {n} positions");
}

/// The reference's perft of `fen` at depths 1, 2, ... is `expected`.
pub fn reference_perft_is(rules: &'static reference::Rules, fen: &str, expected: &[u64]) {
    let pos = reference_position(rules, fen);
    let counts: Vec<u64> = (1..=expected.len() as u32)
        .map(|d| reference::perft(&pos, d))
        .collect();
    assert_eq!(counts, expected, "{fen}");
}
