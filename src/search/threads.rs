//! Lazy SMP: every thread searches the same root with its own ordering state, sharing only
//! the transposition table; helpers start at staggered depths so they explore different
//! trees and fill the table for the main thread, whose result is the answer.

use super::negamax::{Line, Reporter, Shared, Worker};
use super::time::TimeManager;
use super::tt::{Bound, TranspositionTable};
use super::{Score, SearchControl, SearchInfo, SearchLimits, SearchResult};
use crate::eval::evaluate;
use crate::rules::movegen::legal_moves;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

/// Stack of each search thread: deep recursion with move lists on the stack.
const STACK_BYTES: usize = 64 << 20;

struct NoReport;

impl Reporter for NoReport {
    fn line(&mut self, _: u32, _: u32, _: usize, _: &Line) {}
}

struct ChannelReporter<'a> {
    tx: Sender<SearchInfo>,
    shared: &'a Shared<'a>,
}

impl Reporter for ChannelReporter<'_> {
    fn line(&mut self, depth: u32, seldepth: u32, index: usize, line: &Line) {
        let _ = self
            .tx
            .send(make_info(self.shared, depth, seldepth, index, line));
    }
}

fn make_info(shared: &Shared, depth: u32, seldepth: u32, index: usize, line: &Line) -> SearchInfo {
    let time_ms = shared.time.elapsed_ms();
    let nodes = shared.total_nodes();
    SearchInfo {
        depth,
        seldepth: seldepth.max(depth),
        multipv: index,
        score: Score::from_internal(line.score),
        bound: line.bound,
        nodes,
        nps: nodes * 1000 / time_ms.max(1),
        hashfull: shared.tt.hashfull(),
        time_ms,
        pv: line.pv.clone(),
    }
}

fn wait_for_release(limits: &SearchLimits, control: &SearchControl) {
    while (limits.infinite && !control.is_stopped()) || control.is_pondering() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs one search on `threads` threads; see [`super::Engine::search`].
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    tt: &TranspositionTable,
    threads: usize,
    overhead_ms: u64,
    features: super::Features,
    pos: &Position,
    history: &[u64],
    limits: &SearchLimits,
    control: &SearchControl,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    tt.new_search();
    let mut root_moves: Vec<Move> = legal_moves(pos).to_vec();
    if !limits.searchmoves.is_empty() {
        root_moves.retain(|m| limits.searchmoves.contains(m));
    }
    let shared = Shared {
        tt,
        control,
        limits,
        time: TimeManager::new(limits, pos.side(), overhead_ms),
        features,
        abort: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
    };
    let timed = limits.movetime.is_some() || limits.wtime.is_some() || limits.btime.is_some();
    if root_moves.is_empty()
        || (root_moves.len() == 1 && timed && !limits.infinite && !control.is_pondering())
    {
        // Nothing to think about: no move at all, or a single forced one under a clock.
        let score = if root_moves.is_empty() {
            -super::WIN
        } else {
            evaluate(pos)
        };
        let pv: Vec<Move> = root_moves.clone();
        if !pv.is_empty() {
            let line = Line {
                score,
                bound: Bound::Exact,
                pv: pv.clone(),
            };
            on_info(&make_info(&shared, 1, 1, 1, &line));
        }
        wait_for_release(limits, control);
        return SearchResult {
            best: pv.first().copied(),
            ponder: None,
            score: Score::from_internal(score),
            depth: if pv.is_empty() { 0 } else { 1 },
            nodes: 0,
            pv,
        };
    }
    let (tx, rx) = channel::<SearchInfo>();
    let (lines, depth) = std::thread::scope(|s| {
        let shared = &shared;
        let root = &root_moves;
        let helpers: Vec<_> = (1..threads)
            .filter_map(|id| {
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(id, shared, history, root.clone());
                        w.iterate(pos, &mut NoReport)
                    })
                    .ok()
            })
            .collect();
        let main = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, move || {
                let mut w = Worker::new(0, shared, history, root.clone());
                let mut rep = ChannelReporter { tx, shared };
                let result = w.iterate(pos, &mut rep);
                drop(rep);
                wait_for_release(limits, control);
                shared.abort.store(true, Ordering::SeqCst);
                result
            })
            .expect("cannot spawn the search thread");
        for info in rx {
            on_info(&info);
        }
        let mut result = main.join().unwrap_or((Vec::new(), 0));
        shared.abort.store(true, Ordering::SeqCst);
        for h in helpers {
            // A helper that completed a deeper iteration than the main thread wins (only
            // possible when it reached the depth limit first).
            if let Ok(r) = h.join()
                && limits.multipv <= 1
                && r.1 > result.1
                && !r.0.is_empty()
            {
                let line = &r.0[0];
                on_info(&make_info(shared, r.1, r.1, 1, line));
                result = r;
            }
        }
        result
    });
    let nodes = shared.total_nodes();
    match lines.into_iter().next() {
        Some(line) if !line.pv.is_empty() => SearchResult {
            best: Some(line.pv[0]),
            ponder: line.pv.get(1).copied(),
            score: Score::from_internal(line.score),
            depth,
            nodes,
            pv: line.pv,
        },
        _ => SearchResult {
            best: Some(root_moves[0]),
            ponder: None,
            score: Score::Cp(evaluate(pos)),
            depth,
            nodes,
            pv: vec![root_moves[0]],
        },
    }
}
