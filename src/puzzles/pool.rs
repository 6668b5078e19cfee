//! The miner's games on the engine pool ([`run_in_order`]): each thread takes the next game as
//! soon as it is free, with its own engine, and the games' results are handed on in the
//! input's order, so the output is the same whatever the number of threads.

use super::Job;
use super::candidates::candidates;
use super::mine::{Settings, Stop, mine};
use crate::games::Game;
use crate::record::puzzle::Puzzle;
use crate::search::Engine;
use crate::search::pool::run_in_order;
use std::collections::HashSet;

/// What mining one game gave: for each candidate first seen there, its puzzle or where it
/// stopped.
pub type GameResults = Vec<Result<Puzzle, Stop>>;

/// The hashes of the positions a puzzle's line passes through, from the solver's first
/// position on (its moves replay: the miner made them).
fn line_positions<G: Game>(p: &Puzzle) -> Vec<u64> {
    let Ok(record) = p.replay::<G>() else {
        return Vec::new();
    };
    let mut pos = record.start().clone();
    let mut out = Vec::new();
    for m in record.moves() {
        pos.play(m);
        out.push(pos.hash());
    }
    out
}

/// Mines one game's candidates that are first seen there. A candidate whose position a
/// puzzle of the same game already passes through is a part of that puzzle, not another one
/// ([`Stop::InLine`]).
fn mine_game<G: Game>(job: &Job, settings: &Settings, engine: &mut Engine) -> GameResults {
    // The jobs were made from these candidates: they read.
    let Ok(cands) = candidates::<G>(&job.game) else {
        return Vec::new();
    };
    let mut covered = HashSet::new();
    let mut out = Vec::new();
    for (c, first) in cands.iter().zip(&job.first) {
        if !first {
            continue;
        }
        if covered.contains(&c.after.hash()) {
            out.push(Err(Stop::InLine));
            continue;
        }
        let source = format!("{} game {} ply {}", job.game.file, job.game.number, c.ply);
        let found = mine(engine, c, settings, &source);
        if let Ok(p) = &found {
            covered.extend(line_positions::<G>(p));
        }
        out.push(found);
    }
    out
}

/// Mines `jobs` on one thread per engine and hands `take(games done, results)` each game's
/// results in order; `take` returning false stops the run (the games under way are finished
/// and dropped).
pub fn mine_in_order<G: Game>(
    jobs: &[Job],
    settings: &Settings,
    engines: Vec<Engine>,
    mut take: impl FnMut(usize, GameResults) -> bool,
) -> Result<(), String> {
    let work = |i: u64, engine: &mut Engine| mine_game::<G>(&jobs[i as usize], settings, engine);
    run_in_order(0..jobs.len() as u64, engines, work, |i, results| {
        Ok(take(i as usize + 1, results))
    })
}
