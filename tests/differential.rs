//! Differential testing: the fast generator against the simple reference in `reference/`
//! (with Bashni's rule values), on positions reached by seeded random playouts (full move
//! lists and resulting FENs), and perft 3 on a few hundred of them.

use crate::differential_kit;
use crate::reference;

use differential_kit as kit;
use reference::games::BASHNI;

use bashni::games::bashni::Move;
use bashni::games::bashni::movegen::legal_moves;
use bashni::games::bashni::notation::to_fen;
use bashni::games::bashni::position::Position;
use bashni::games::kit::square::Square;

/// Positions from random games; `capture_bias` prefers captures so that tall towers form.
fn playout_positions(seed: u64, games: usize, capture_bias: bool) -> Vec<Position> {
    kit::playout_positions(
        seed,
        games,
        200,
        capture_bias,
        |m: &Move| m.landings().len(),
        |p: &Position| p.clock_draw(),
    )
}

fn compare(pos: &Position) {
    let fen = to_fen(pos);
    let fast: Vec<(String, String)> = legal_moves(pos)
        .iter()
        .map(|m| (m.to_string(), to_fen(&pos.played(m))))
        .collect();
    kit::same_moves(&fen, fast, kit::reference_paths(&BASHNI, &fen));
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
    kit::perft_3_agrees(&positions, 320, &BASHNI);
}
