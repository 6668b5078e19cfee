//! Lasca at the weakest strength level still beats a random mover: at least 95 % of 40
//! games (the other games' own check is in `levels.rs`).

use bashni::games::kit::Color;
use bashni::games::lasca::Position;
use bashni::games::{Record, Rules};
use bashni::search::{Engine, SearchControl, SearchLimits, Strength};
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// One game of level 0 against a random mover from the start; the result for level 0 (1,
/// 0.5 or 0), the engine's draw policy included.
fn game_against_random(level0_color: Color, seed: u64) -> f64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = Engine::new();
    engine.set_strength(Strength::level(0).unwrap());
    engine.seed_choices(seed);
    let control = SearchControl::new(false);
    let mut game = Record::new(Position::startpos());
    for _ in 0..400 {
        if let Some(outcome) = game.outcome() {
            return match outcome.winner() {
                Some(w) if w == level0_color => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let pos = *game.position();
        let m = if pos.side() == level0_color {
            let limits = SearchLimits::default();
            let r = engine.search(&pos, game.history(), &limits, &control, &mut |_| {});
            r.best.unwrap()
        } else {
            let moves = pos.legal_moves();
            moves[rng.random_range(0..moves.len())]
        };
        game.play(m);
    }
    0.5
}

#[test]
fn level_zero_beats_a_random_mover_in_lasca() {
    let mut wins = 0;
    let mut points = 0.0;
    for g in 0..40u64 {
        let color = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let p = game_against_random(color, 3300 + g);
        points += p;
        wins += (p == 1.0) as u32;
    }
    eprintln!("Lasca, level 0 against a random mover: {wins} wins of 40 ({points} points)");
    assert!(wins >= 38, "level 0 won {wins} of 40 ({points} points)");
}
