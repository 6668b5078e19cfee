//! The work a session hands to a worker thread, a search or a perft of the current game:
//! built by generic functions for the game being played and handed over type-erased, so
//! that what the worker sends back is text, the same in every game. A search writes its
//! `info` lines itself as they come; its final lines (notes and `bestmove`) and a perft's
//! lines go back to the session, which writes them when it marks the engine idle.

use super::command::{GameInputError, GoArgs};
use super::{Output, bestmove_line, info_line};
use crate::games::kit::color::Color;
use crate::games::kit::perft::{DepthTooLarge, check_depth};
use crate::games::{Game, Record};
use crate::search::{Engine, Score, SearchControl, SearchInfo, SearchResult};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::AtomicBool;

/// A search ready to run: given the engine, the control and the output, it searches and
/// returns its final lines (`info string` notes, then `bestmove`).
pub(crate) type SearchJob =
    Box<dyn FnOnce(&mut Engine, &SearchControl, &Output) -> Vec<String> + Send>;

/// A perft ready to run: its lines, or `None` when the flag stopped it.
pub(crate) type PerftJob = Box<dyn FnOnce(&AtomicBool) -> Option<Vec<String>> + Send>;

/// A `go` made ready in the current game.
pub(crate) struct PreparedSearch {
    /// The search.
    pub job: SearchJob,
    /// The `bestmove` line to give if the search cannot even start.
    pub fallback: String,
    /// When `go` gave only the other side's clock: (the side to move, the side whose clock
    /// is used for both).
    pub borrowed: Option<(Color, Color)>,
}

/// Makes `go` ready in the current position of `game`: its limits checked there
/// (`searchmoves` in the game's notation), the position and history copied for the worker.
pub(crate) fn prepare_search<G: Game>(
    game: &Record<G>,
    args: &GoArgs,
    multipv: usize,
) -> Result<PreparedSearch, GameInputError<G>> {
    let limits = args.to_limits(game, multipv)?;
    let pos = game.position().clone();
    let borrowed = args
        .borrowed_clock(game)
        .map(|side| (pos.side_to_move(), side));
    let history = game.history().to_vec();
    let fallback = bestmove_line(&fallback_result(&pos));
    let job = move |engine: &mut Engine, control: &SearchControl, out: &Output| {
        let mut report = |info: &SearchInfo<G::Move>| out.line(&info_line(info));
        let run = AssertUnwindSafe(|| engine.search(&pos, &history, &limits, control, &mut report));
        let result = catch_unwind(run).unwrap_or_else(|_| {
            out.line("info string error: internal error in the search");
            fallback_result(&pos)
        });
        let mut lines: Vec<String> = result
            .notes
            .iter()
            .map(|note| format!("info string {note}"))
            .collect();
        lines.push(bestmove_line(&result));
        lines
    };
    Ok(PreparedSearch {
        job: Box::new(job),
        fallback,
        borrowed,
    })
}

/// `go perft <depth>` of `pos` on `threads` threads: `<move> <count>` per root move sorted
/// by move text, then `nodes <N>`.
pub(crate) fn perft_job<G: Game>(
    pos: &G,
    depth: u32,
    threads: usize,
) -> Result<PerftJob, DepthTooLarge> {
    check_depth(depth, G::MAX_PERFT_DEPTH)?;
    let pos = pos.clone();
    Ok(Box::new(move |stop: &AtomicBool| {
        let divided = pos.divide_until(depth, threads, stop)?;
        let mut lines: Vec<String> = divided.lines().collect();
        lines.push(format!("nodes {}", divided.nodes));
        Some(lines)
    }))
}

/// A legal answer when the search failed: the first legal move, if any.
fn fallback_result<G: Game>(pos: &G) -> SearchResult<G::Move> {
    let best = pos.legal_moves().iter().next().copied();
    SearchResult {
        best,
        ponder: None,
        score: Score::Cp(0),
        depth: 0,
        nodes: 0,
        pv: best.into_iter().collect(),
        notes: Vec::new(),
    }
}
