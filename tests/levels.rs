//! Strength levels: every level answers legal moves everywhere, the weakest still beats a
//! random mover, and a GUI sets them through the protocol (`Skill Level`, `UCI_Elo`).

use crate::common;

use bashni::games::bashni::movegen::legal_moves;
use bashni::games::bashni::notation::START_FEN;
use bashni::games::bashni::notation::parse_fen;
use bashni::games::bashni::position::Position;
use bashni::games::kit::color::Color;
use bashni::games::{Record, lasca};
use bashni::search::skill::{LADDER, MAX_LEVEL};
use bashni::search::{Engine, SearchControl, SearchLimits, Strength};
use common::gui::Gui;
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// Positions from random games, sides to move of both colours, some far into the game.
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = parse_fen(START_FEN).unwrap();
        let plies = rng.random_range(0..80);
        for _ in 0..plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.played(&moves[rng.random_range(0..moves.len())]);
        }
        if !legal_moves(&pos).is_empty() {
            out.push(pos);
        }
    }
    out
}

fn engine_at(level: u32, seed: u64) -> Engine {
    let mut e = Engine::new();
    e.set_strength(Strength::level(level).unwrap());
    e.seed_choices(seed);
    e
}

#[test]
fn every_level_plays_legal_moves() {
    let positions = random_positions(25, 11);
    let control = SearchControl::new(false);
    // A node budget keeps the deep levels quick; the weak ones stop at their depth first.
    let limits = SearchLimits {
        nodes: Some(20_000),
        ..Default::default()
    };
    for level in 0..=u32::from(MAX_LEVEL) {
        let mut e = engine_at(level, u64::from(level));
        for pos in &positions {
            let r = e.search(pos, &[], &limits, &control, &mut |_| {});
            let best = r.best.expect("a move");
            assert!(
                legal_moves(pos).contains(&best),
                "level {level}: {best} is not legal"
            );
            assert_eq!(
                r.pv.first(),
                Some(&best),
                "level {level}: the pv starts with it"
            );
        }
    }
}

#[test]
fn weak_levels_vary_and_strong_ones_do_not() {
    // From the start position level 0 plays several different first moves. Level 19 picks
    // among moves within a few centi-men of the best (its temperature), so it is shown a
    // position with one clearly best move (after c3-d4 f6-g5: g3-f4), where it always plays it.
    let start = parse_fen(START_FEN).unwrap();
    let control = SearchControl::new(false);
    let limits = SearchLimits::default();
    let mut e = engine_at(0, 5);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..40 {
        seen.insert(e.search(&start, &[], &limits, &control, &mut |_| {}).best);
    }
    assert!(seen.len() >= 3, "level 0 played only {seen:?}");
    let limits = SearchLimits {
        depth: Some(6),
        ..Default::default()
    };
    let clear =
        parse_fen("1b1b1b1b/b1b1b1b1/1b1b3b/6b1/3w4/w3w1w1/1w1w1w1w/w1w1w1w1 w 2 2").unwrap();
    let mut e = engine_at(19, 5);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..10 {
        seen.insert(e.search(&clear, &[], &limits, &control, &mut |_| {}).best);
    }
    assert_eq!(seen.len(), 1, "level 19 played {seen:?}");
}

/// One game of game `G` of level 0 against a random mover from the start; the result for
/// level 0 (1, 0.5 or 0), the game's draw rules (or the engine's draw policy) included.
fn game_against_random<G: bashni::games::Game>(level0_color: Color, seed: u64) -> f64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = engine_at(0, seed);
    let control = SearchControl::new(false);
    let mut game = Record::new(G::startpos());
    for _ in 0..400 {
        if let Some(outcome) = game.outcome() {
            return match outcome.winner() {
                Some(w) if w == level0_color => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let pos = game.position().clone();
        let m = if pos.side_to_move() == level0_color {
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

/// Level 0's wins and points in `games` games of `G` against a random mover, colours
/// alternating, seeds from `seed`.
fn level_zero_against_random<G: bashni::games::Game>(games: u64, seed: u64) -> (u32, f64) {
    let (mut wins, mut points) = (0, 0.0);
    for g in 0..games {
        let color = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let p = game_against_random::<G>(color, seed + g);
        points += p;
        wins += (p == 1.0) as u32;
    }
    (wins, points)
}

#[test]
fn level_zero_beats_a_random_mover() {
    let (wins, points) = level_zero_against_random::<Position>(100, 1000);
    eprintln!("level 0 against a random mover: {wins} wins of 100 ({points} points)");
    assert!(wins >= 95, "level 0 won {wins} of 100 ({points} points)");
}

/// Lasca too: at least 95 % of 40 games.
#[test]
fn level_zero_beats_a_random_mover_in_lasca() {
    let (wins, points) = level_zero_against_random::<lasca::Position>(40, 3300);
    eprintln!("Lasca, level 0 against a random mover: {wins} wins of 40 ({points} points)");
    assert!(wins >= 38, "level 0 won {wins} of 40 ({points} points)");
}

#[test]
fn protocol_sets_levels_and_elo() {
    let mut gui = Gui::new();
    let options = gui.handshake();
    assert!(options.iter().any(|l| l
        == &format!(
            "option name Skill Level type spin default {MAX_LEVEL} min 0 max {MAX_LEVEL}"
        )));
    assert!(
        options
            .iter()
            .any(|l| l == "option name UCI_LimitStrength type check default false")
    );
    assert!(options.iter().any(|l| l.starts_with(&format!(
        "option name UCI_Elo type spin default {} min {} max {}",
        LADDER[20], LADDER[0], LADDER[20]
    ))));
    // Level 0 looks only 1 ply deep, and shows its candidate lines.
    gui.send("setoption name Skill Level value 0");
    gui.send("position startpos");
    gui.send("go depth 8");
    let (infos, best) = gui.bestmove();
    assert!(infos.iter().all(|l| !l.contains(" depth 2 ")), "{infos:?}");
    assert!(infos.iter().any(|l| l.contains(" multipv 4 ")), "{infos:?}");
    assert!(!best.is_empty());
    // An Elo between levels, and a bad value refused with the old one kept.
    gui.send("setoption name UCI_LimitStrength value true");
    gui.send(&format!("setoption name UCI_Elo value {}", LADDER[3] + 1));
    gui.send("setoption name UCI_Elo value 5");
    let err = gui.until(|l| l.contains("UCI_Elo"));
    assert!(
        err.last().unwrap().contains("UCI_Elo 5 is outside"),
        "{err:?}"
    );
    gui.send("go depth 8");
    let (infos, _) = gui.bestmove();
    let deepest = infos
        .iter()
        .filter_map(|l| {
            l.split(" depth ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<u32>()
                .ok()
        })
        .max()
        .unwrap();
    assert!(deepest <= 3, "level 3 to 4 searched {deepest} plies");
    // Back to full strength: the whole depth.
    gui.send("setoption name UCI_LimitStrength value false");
    gui.send("setoption name Skill Level value 20");
    gui.send("go depth 8");
    let (infos, _) = gui.bestmove();
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 8 ")),
        "{infos:?}"
    );
    gui.send("quit");
    assert!(gui.wait_exit().success());
}

/// The one-ply levels (0 and 1) evaluate with the linear evaluation whether or not the
/// network is in use; deeper levels with the network.
#[test]
fn one_ply_levels_evaluate_linearly() {
    let positions = random_positions(12, 21);
    let control = SearchControl::new(false);
    let limits = SearchLimits::default();
    let scores = |level: u32, network: bool| -> Vec<String> {
        positions
            .iter()
            .map(|pos| {
                let mut e = engine_at(level, 9);
                e.use_network(network);
                let r = e.search(pos, &[], &limits, &control, &mut |_| {});
                format!("{:?} {:?}", r.best, r.score)
            })
            .collect()
    };
    for level in [0, 1] {
        assert_eq!(scores(level, true), scores(level, false), "level {level}");
    }
    assert_ne!(scores(2, true), scores(2, false), "level 2");
}
