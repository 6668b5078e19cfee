//! Differential testing: the fast generator against the simple reference in `reference/`,
//! on positions reached by seeded random playouts (full move lists and resulting FENs), and
//! perft 3 on a few hundred of them.

mod reference;

use bashni::games::bashni::movegen::legal_moves;
use bashni::games::bashni::notation::{START_FEN, parse_fen, to_fen};
use bashni::games::bashni::perft::perft;
use bashni::games::bashni::position::Position;
use bashni::games::kit::square::Square;
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// Positions from random games; `capture_bias` prefers captures so that tall towers form.
fn playout_positions(seed: u64, games: usize, capture_bias: bool) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = parse_fen(START_FEN).unwrap();
        for _ in 0..200 {
            out.push(pos.clone());
            let moves = legal_moves(&pos);
            if moves.is_empty() || pos.clock_draw() {
                break;
            }
            // Longest captures first when biased, so towers grow.
            let m = if capture_bias && rng.random_bool(0.5) {
                *moves.iter().max_by_key(|m| m.landings().len()).unwrap()
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            pos.play(&m);
        }
    }
    out
}

fn compare(pos: &Position) {
    let fen = to_fen(pos);
    let rpos = reference::parse_fen(&fen).unwrap();
    assert_eq!(reference::to_fen(&rpos), fen);
    let mut fast: Vec<(String, String)> = legal_moves(pos)
        .iter()
        .map(|m| (m.to_string(), to_fen(&pos.played(m))))
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
}

#[test]
fn move_lists_agree_on_random_playouts() {
    let mut positions = playout_positions(1, 90, false);
    positions.extend(playout_positions(2, 90, true));
    assert!(
        positions.len() >= 10_000,
        "only {} positions",
        positions.len()
    );
    let mut with_king = 0;
    let mut with_tall = 0;
    let mut tallest = 0;
    for pos in &positions {
        compare(pos);
        with_king += !pos.kings().is_empty() as usize;
        let h = Square::all()
            .map(|s| pos.tower(s).height())
            .max()
            .unwrap_or(0);
        tallest = tallest.max(h);
        with_tall += (h >= 4) as usize;
    }
    println!(
        "{} positions, {with_king} with kings, {with_tall} with towers of 4+, tallest {tallest}",
        positions.len()
    );
    assert!(
        with_king >= 1000 && with_tall >= 1000,
        "{with_king} {with_tall}"
    );
}

#[test]
fn perft_3_agrees_on_sampled_positions() {
    let mut positions = playout_positions(3, 40, false);
    positions.extend(playout_positions(4, 40, true));
    let step = (positions.len() / 320).max(1);
    let mut n = 0;
    for pos in positions.iter().step_by(step) {
        let fen = to_fen(pos);
        let r = reference::perft(&reference::parse_fen(&fen).unwrap(), 3);
        assert_eq!(perft(pos, 3), r, "{fen}");
        n += 1;
    }
    assert!(n >= 300, "only {n} positions");
}
