//! Differential testing of Turkish draughts: the fast generator against the simple reference
//! in `reference_turkish/`, on positions from seeded random playouts and on random placements
//! with kings (full move lists and resulting FENs), and perft 3 on a few hundred of them.

mod reference_turkish;

use bashni::games::Rules;
use bashni::games::turkish::Position;
use rand::{RngExt, SeedableRng, rngs::StdRng};
use reference_turkish as reference;

/// Positions from random games; `capture_bias` prefers the longest captures, so that kings
/// appear and men are crowned during captures.
fn playout_positions(seed: u64, games: usize, capture_bias: bool) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..150 {
            out.push(pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = if capture_bias && rng.random_bool(0.5) {
                *moves.iter().max_by_key(|m| m.capture_count()).unwrap()
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.play(&m);
        }
    }
    out
}

/// Random placements: a few men and kings of each side anywhere (men never on their own far
/// rank), either side to move.
fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut board = [['.'; 8]; 8];
            for white in [true, false] {
                for _ in 0..rng.random_range(1..=8) {
                    let (f, r) = (rng.random_range(0..8), rng.random_range(0..8));
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
            Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
        })
        .collect()
}

fn compare(pos: &Position) {
    let fen = pos.to_fen();
    let rpos = reference::parse_fen(&fen).unwrap();
    assert_eq!(reference::to_fen(&rpos), fen);
    let mut fast: Vec<(String, String)> = pos
        .legal_moves()
        .iter()
        .map(|m| (m.to_string(), pos.played(m).to_fen()))
        .collect();
    let mut slow: Vec<(String, String)> = reference::legal_moves(&rpos)
        .into_iter()
        .map(|(m, p)| (m, reference::to_fen(&p)))
        .collect();
    fast.sort();
    slow.sort();
    if fast != slow {
        let only_fast: Vec<_> = fast.iter().filter(|m| !slow.contains(m)).collect();
        let only_slow: Vec<_> = slow.iter().filter(|m| !fast.contains(m)).collect();
        panic!("{fen}\nonly fast: {only_fast:?}\nonly reference: {only_slow:?}");
    }
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
    let step = (positions.len() / 400).max(1);
    let mut n = 0;
    for pos in positions.iter().step_by(step) {
        let fen = pos.to_fen();
        let r = reference::perft(&reference::parse_fen(&fen).unwrap(), 3);
        assert_eq!(pos.perft(3), r, "{fen}");
        n += 1;
    }
    assert!(n >= 300, "only {n} positions");
}

#[test]
fn reference_perft_from_the_start() {
    let start = reference::parse_fen(bashni::games::turkish::START_FEN).unwrap();
    let expected = [8u64, 64, 708, 7538];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(reference::perft(&start, d as u32 + 1), n, "depth {}", d + 1);
    }
}
