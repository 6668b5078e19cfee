//! Differential testing of Lasca: the fast generator against the simple reference in
//! `reference/` (with Lasca's rule values), on positions from seeded random playouts and on random placements of
//! columns of any make-up (buried officers, alternating colours, tall columns): full move
//! lists and resulting FENs, and perft 3 on a few hundred of them. The reference's own perft
//! from the start is checked against the rules' table.

use crate::differential_kit;
use crate::reference;

use differential_kit as kit;

use bashni::games::Rules;
use bashni::games::kit::Color;
use bashni::games::lasca::board::{Square, promotion_mask};
use bashni::games::lasca::{Move, Position};
use rand::{RngExt, SeedableRng, rngs::StdRng};
use reference::games::LASCA;

/// Positions from random games; `capture_bias` prefers the longest captures, so that tall
/// columns and officers appear.
fn playout_positions(seed: u64, games: usize, capture_bias: bool) -> Vec<Position> {
    kit::playout_positions(
        seed,
        games,
        200,
        capture_bias,
        |m: &Move| m.capture_count() as usize,
        |_: &Position| false,
    )
}

/// A random column of `height` pieces of any colours and ranks in any order, written as
/// FEN writes it (its commander `top` if given), the commander made an officer on its own
/// far rank.
fn random_column(rng: &mut StdRng, height: usize, top: Option<char>, sq: Square) -> String {
    let mut col: Vec<char> = (0..height)
        .map(|_| match (rng.random_bool(0.5), rng.random_bool(0.3)) {
            (true, false) => 'w',
            (true, true) => 'W',
            (false, false) => 'b',
            (false, true) => 'B',
        })
        .collect();
    if let Some(t) = top {
        col[0] = t;
    }
    let white = col[0] == 'w' || col[0] == 'W';
    let far = promotion_mask(if white { Color::White } else { Color::Black });
    if sq.bit() & far != 0 {
        col[0] = col[0].to_ascii_uppercase();
    }
    if height == 1 {
        col[0].to_string()
    } else {
        format!("({})", col.iter().collect::<String>())
    }
}

/// The position of the columns `cells` (FEN text per square index, empty for none).
fn position_of(cells: &[String], side: &str) -> Position {
    let ranks: Vec<String> = (0..7u8)
        .rev()
        .map(|r| {
            (0..7u8)
                .map(|f| match Square::from_coords(f, r) {
                    Some(s) if !cells[s.index()].is_empty() => cells[s.index()].clone(),
                    _ => "1".to_string(),
                })
                .collect()
        })
        .collect();
    let fen = format!("{} {side}", ranks.join("/"));
    Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Random columns added to `cells` (`count` tries, at most 22 pieces in all, `total` so far).
fn scatter(rng: &mut StdRng, cells: &mut [String], count: usize, mut total: usize) {
    for _ in 0..count {
        let sq = Square::from_index(rng.random_range(0..25));
        let height = rng.random_range(1..=4usize).min(22 - total);
        if height == 0 || !cells[sq.index()].is_empty() {
            continue;
        }
        total += height;
        cells[sq.index()] = random_column(rng, height, None, sq);
    }
}

/// Random placements: 2 to 12 columns of 1 to 4 pieces each, of any colours and ranks in
/// any order (at most 22 pieces), a soldier never commanding on its own far rank.
fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let mut cells = vec![String::new(); 25];
            let count = rng.random_range(2..=12);
            scatter(&mut rng, &mut cells, count, 0);
            let side = if rng.random_bool(0.5) { "w" } else { "b" };
            position_of(&cells, side)
        })
        .collect()
}

/// Placements made for loops: an officer-led column of the side to move on one corner of a
/// diamond round a playable centre, enemy-led columns on the four squares between the
/// corners, the other corners empty, and a few random columns elsewhere.
fn loop_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let (cf, cr) = loop {
                let (f, r) = (rng.random_range(2..=4u8), rng.random_range(2..=4u8));
                if (f + r) % 2 == 0 {
                    break (f, r);
                }
            };
            let white = rng.random_bool(0.5);
            let (us, them) = if white {
                ('W', ['b', 'B'])
            } else {
                ('B', ['w', 'W'])
            };
            let at = |df: i8, dr: i8| {
                Square::from_coords((cf as i8 + df) as u8, (cr as i8 + dr) as u8).unwrap()
            };
            let mut cells = vec![String::new(); 25];
            let corners = [at(2, 0), at(0, 2), at(-2, 0), at(0, -2)];
            let start = corners[rng.random_range(0..4)];
            let h = rng.random_range(1..=3);
            cells[start.index()] = random_column(&mut rng, h, Some(us), start);
            let mut total = h;
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let sq = at(df, dr);
                let h = rng.random_range(1..=3);
                let top = them[rng.random_range(0..2)];
                cells[sq.index()] = random_column(&mut rng, h, Some(top), sq);
                total += h;
            }
            let extra = rng.random_range(0..4);
            scatter(&mut rng, &mut cells, extra, total);
            for c in corners.iter().filter(|&&c| c != start) {
                cells[c.index()].clear();
            }
            position_of(&cells, if white { "w" } else { "b" })
        })
        .collect()
}

fn compare(pos: &Position) {
    let fen = pos.to_fen();
    let fast: Vec<(String, String)> = pos
        .legal_moves()
        .iter()
        .map(|m| (m.to_string(), pos.played(m).to_fen()))
        .collect();
    kit::same_moves(&fen, fast, kit::reference_paths(&LASCA, &fen));
    assert_eq!(
        pos.count_legal_moves(),
        pos.legal_moves().len() as u64,
        "{fen}"
    );
    assert_eq!(pos.has_legal_move(), !pos.legal_moves().is_empty(), "{fen}");
    for m in pos.legal_moves().iter() {
        assert_eq!(pos.parse_move(&m.to_string()), Ok(*m), "{fen} {m}");
        let after = pos.played(m);
        assert_eq!(after.hash(), after.compute_hash(), "{fen} {m}");
    }
}

/// Whether a column of the FEN holds an officer below its commander (FEN writes columns top
/// first in parentheses, officers in capitals).
fn has_buried_officer(fen: &str) -> bool {
    let board = fen.split(' ').next().unwrap_or("");
    board.split('(').skip(1).any(|col| {
        let col = col.split(')').next().unwrap_or("");
        col.chars().skip(1).any(|c| c.is_ascii_uppercase())
    })
}

/// What a position shows of the hard cases: a buried officer, a capture back to its start
/// square, a soldier promoted by a capture.
fn hard_cases(pos: &Position) -> [bool; 3] {
    let moves = pos.legal_moves();
    let far = promotion_mask(pos.side());
    let soldier = |m: &Move| pos.officers() & m.from().bit() == 0;
    [
        has_buried_officer(&pos.to_fen()),
        moves.iter().any(|m| m.is_capture() && m.from() == m.to()),
        moves
            .iter()
            .any(|m| m.is_capture() && soldier(m) && m.to().bit() & far != 0),
    ]
}

#[test]
fn move_lists_agree_on_random_playouts_and_placements() {
    let mut positions = playout_positions(1, 60, false);
    positions.extend(playout_positions(2, 60, true));
    positions.extend(random_positions(3, 20_000));
    positions.extend(loop_positions(7, 2_000));
    assert!(positions.len() >= 20_000, "only {}", positions.len());
    let mut seen = [0usize; 3];
    for pos in &positions {
        compare(pos);
        for (n, hit) in seen.iter_mut().zip(hard_cases(pos)) {
            *n += hit as usize;
        }
    }
    println!(
        "{} positions: {} with a buried officer, {} with a loop back to the start, {} with a \
         promotion in a capture",
        positions.len(),
        seen[0],
        seen[1],
        seen[2]
    );
    assert!(
        seen[0] >= 2000 && seen[1] >= 500 && seen[2] >= 200,
        "{seen:?}"
    );
}

#[test]
fn perft_3_agrees_on_sampled_positions() {
    let mut positions = playout_positions(4, 30, false);
    positions.extend(playout_positions(5, 30, true));
    positions.extend(random_positions(6, 300));
    positions.extend(loop_positions(8, 100));
    kit::perft_3_agrees(&positions, 400, &LASCA);
}

#[test]
fn reference_perft_from_the_start() {
    let start = bashni::games::lasca::START_FEN;
    kit::reference_perft_is(&LASCA, start, &[6, 6, 18, 54, 116, 324, 846]);
}
