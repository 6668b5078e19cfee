//! Differential testing of Turkish draughts: the fast generator against the simple reference
//! in `reference/` (with Turkish rule values), on positions from seeded random playouts and
//! on random placements with kings (full move lists and resulting FENs), and perft 3 on a few
//! hundred of them.

use crate::differential_kit;
use crate::reference;

use differential_kit as kit;
use reference::games::TURKISH;

use bashni::games::Rules;
use bashni::games::turkish::Move;
use bashni::games::turkish::Position;
use rand::RngExt;

/// Positions from random games; `capture_bias` prefers the longest captures, so that kings
/// appear and men are crowned during captures.
fn playout_positions(seed: u64, games: usize, capture_bias: bool) -> Vec<Position> {
    kit::playout_positions(
        seed,
        games,
        150,
        capture_bias,
        |m: &Move| m.capture_count() as usize,
        |_: &Position| false,
    )
}

/// Random placements: a few men and kings of each side anywhere (men never on their own far
/// rank), either side to move.
fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    kit::random_positions(&TURKISH, seed, n, 8, |rng| {
        (rng.random_range(0..8), rng.random_range(0..8))
    })
}

fn compare(pos: &Position) {
    let fen = pos.to_fen();
    let fast: Vec<(String, String)> = pos
        .legal_moves()
        .iter()
        .map(|m| (m.to_string(), pos.played(m).to_fen()))
        .collect();
    kit::same_moves(&fen, fast, kit::reference_paths(&TURKISH, &fen));
    for m in pos.legal_moves().iter() {
        assert_eq!(pos.parse_move(&m.to_string()), Ok(*m), "{fen} {m}");
        let after = pos.played(m);
        assert_eq!(after.hash(), after.compute_hash(), "{fen} {m}");
    }
}

#[test]
fn move_lists_agree_on_random_playouts_and_placements() {
    let mut positions = playout_positions(1, 60, false);
    positions.extend(playout_positions(2, 60, true));
    positions.extend(random_positions(3, 8000));
    assert!(positions.len() >= 10_000, "only {}", positions.len());
    let (mut with_king, mut long, mut crowned_mid) = (0, 0, 0);
    for pos in &positions {
        compare(pos);
        with_king += (pos.kings() != 0) as usize;
        let moves = pos.legal_moves();
        long += moves.iter().any(|m| m.capture_count() >= 3) as usize;
        let far = if pos.side() == bashni::games::kit::Color::White {
            7
        } else {
            0
        };
        crowned_mid += moves.iter().any(|m| {
            pos.kings() & m.from().bit() == 0
                && m.landings()[..m.landings().len() - 1]
                    .iter()
                    .any(|s| s.rank() == far)
        }) as usize;
    }
    println!(
        "{} positions, {with_king} with kings, {long} with captures of 3+, {crowned_mid} with a man crowned mid-capture",
        positions.len()
    );
    assert!(
        with_king >= 2000 && long >= 200 && crowned_mid >= 30,
        "{with_king} {long} {crowned_mid}"
    );
}

#[test]
fn perft_3_agrees_on_sampled_positions() {
    let mut positions = playout_positions(4, 30, false);
    positions.extend(playout_positions(5, 30, true));
    positions.extend(random_positions(6, 300));
    kit::perft_3_agrees(&positions, 400, &TURKISH);
}

#[test]
fn reference_perft_from_the_start() {
    let start = bashni::games::turkish::START_FEN;
    kit::reference_perft_is(&TURKISH, start, &[8, 64, 708, 7538]);
}
