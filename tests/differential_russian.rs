//! Differential testing of Russian draughts: the fast generator against the simple reference
//! in `reference/` (with Russian rule values), on positions from seeded random playouts and
//! on random placements with kings (moves compared by start, end and captured set, and by
//! resulting FEN), and perft 3 on a few hundred of them.

use crate::differential_kit;
use crate::reference;

use differential_kit as kit;
use reference::games::RUSSIAN;

use bashni::games::Rules;
use bashni::games::bashni::Move;
use bashni::games::kit::square::Square;
use bashni::games::russian::Position;
use rand::RngExt;

/// Positions from random games; `capture_bias` prefers the longest captures.
fn playout_positions(seed: u64, games: usize, capture_bias: bool) -> Vec<Position> {
    kit::playout_positions(
        seed,
        games,
        150,
        capture_bias,
        |m: &Move| m.jumped().len(),
        |_: &Position| false,
    )
}

/// Random placements on the dark squares: a few men and kings of each side (men never on
/// their own far rank), either side to move.
fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let squares: Vec<Square> = Square::all().collect();
    kit::random_positions(&RUSSIAN, seed, n, 7, |rng| {
        let sq = squares[rng.random_range(0..squares.len())];
        (sq.file() as usize, sq.rank() as usize)
    })
}

/// A move as the rules identify it: start, end, captured squares (sorted), and the FEN after.
fn key(pos: &Position, m: &Move) -> (String, String, Vec<String>, String) {
    let mut captured: Vec<String> = m.jumped().iter().map(|s| s.to_string()).collect();
    captured.sort();
    (
        m.from().to_string(),
        m.to().to_string(),
        captured,
        pos.played(m).to_fen(),
    )
}

fn compare(pos: &Position) {
    let fen = pos.to_fen();
    let rpos = kit::reference_position(&RUSSIAN, &fen);
    let legal = pos.legal_moves();
    let fast: Vec<_> = legal.iter().map(|m| key(pos, m)).collect();
    let slow_moves = reference::legal_moves(&rpos);
    let slow: Vec<_> = slow_moves
        .iter()
        .map(|m| {
            let after = reference::to_fen(&m.after);
            (m.from(), m.to(), m.captured(), after)
        })
        .collect();
    kit::same_moves(&fen, fast.clone(), slow);
    let mut merged = fast.clone();
    merged.sort();
    merged.dedup();
    assert_eq!(merged.len(), fast.len(), "{fen}: a move listed twice");
    // Every path the reference chose for a move names the engine's move for it.
    for m in &slow_moves {
        let parsed = pos
            .parse_move(&m.text())
            .unwrap_or_else(|e| panic!("{fen} {}: {e}", m.text()));
        let k = key(pos, &parsed);
        assert_eq!(
            (&k.0, &k.1, &k.2),
            (&m.from(), &m.to(), &m.captured()),
            "{fen} {}",
            m.text()
        );
    }
    for m in legal.iter() {
        let after = pos.played(m);
        assert_eq!(after.hash(), after.compute_hash(), "{fen} {m}");
    }
}

#[test]
fn move_lists_agree_on_random_playouts_and_placements() {
    let mut positions = playout_positions(1, 60, false);
    positions.extend(playout_positions(2, 60, true));
    positions.extend(random_positions(3, 4000));
    assert!(positions.len() >= 10_000, "only {}", positions.len());
    let (mut with_king, mut long) = (0, 0);
    for pos in &positions {
        compare(pos);
        with_king += !pos.kings().is_empty() as usize;
        long += pos.legal_moves().iter().any(|m| m.jumped().len() >= 3) as usize;
    }
    println!(
        "{} positions, {with_king} with kings, {long} with captures of 3+",
        positions.len()
    );
    assert!(with_king >= 2000 && long >= 100, "{with_king} {long}");
}

#[test]
fn perft_3_agrees_on_sampled_positions() {
    let mut positions = playout_positions(4, 30, false);
    positions.extend(playout_positions(5, 30, true));
    positions.extend(random_positions(6, 300));
    kit::perft_3_agrees(&positions, 400, &RUSSIAN);
}

#[test]
fn reference_perft_from_the_start() {
    let start = bashni::games::russian::START_FEN;
    let expected = [7, 49, 302, 1469, 7482, 37986];
    kit::reference_perft_is(&RUSSIAN, start, &expected);
}
