//! Iterative deepening with aspiration windows: the driver of one search thread, which hands
//! its lines and progress to the thread driver ([`super::report`]).

use super::negamax::Worker;
use super::params::{
    ASPIRATION_DELTA, ASPIRATION_GROWTH, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH,
    ASPIRATION_REPORT_MS, TIME_TREND_MIN_DEPTH,
};
use super::report::Line;
use super::time::Trend;
use super::tt::Bound;
use super::{INFINITY, MAX_DEPTH, WIN, WIN_BOUND};
use crate::games::Game;
use std::sync::atomic::Ordering as AtomicOrdering;

impl<G: Game> Worker<'_, G> {
    /// Iterative deepening. Returns the lines of the last completed depth (possibly
    /// improved by a partial one) and that depth.
    ///
    /// Every depth up to the limit is searched: a win found on the way ends the search early
    /// only under `go mate N` (once it is short enough) or a clock (once it is proven, as no
    /// deeper search can refute it and the time is better kept).
    pub fn iterate(&mut self, pos: &G) -> (Vec<Line<G::Move>>, u32) {
        self.set_root(pos);
        let limits = self.shared.limits;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH) as i32;
        let multipv = if self.id == 0 {
            limits.multipv.clamp(1, self.root_moves.len().max(1))
        } else {
            1
        };
        let mut best: Vec<Line<G::Move>> = Vec::new();
        let mut completed = 0;
        let mut prev_scores: Vec<i32> = Vec::new();
        let mut depth = 1;
        let mut trend = Trend::new();
        while depth <= max_depth {
            if self.id != 0 {
                depth = self.helper_depth(depth, max_depth);
            }
            self.root_depth = depth;
            self.excluded.clear();
            let searching = &self.shared.searching[depth as usize];
            searching.fetch_add(1, AtomicOrdering::Relaxed);
            let mut lines: Vec<Line<G::Move>> = Vec::new();
            for index in 0..multipv {
                let prev = prev_scores.get(index).copied();
                let Some(line) = self.aspiration(pos, depth, prev, index) else {
                    break;
                };
                if let Some(&m) = line.pv.first() {
                    self.excluded.push(m);
                }
                lines.push(line);
            }
            searching.fetch_sub(1, AtomicOrdering::Relaxed);
            if self.stopped {
                // A partial first line that already beat the previous best is kept.
                if let (Some(l), Some(b)) = (lines.first(), best.first())
                    && l.score > b.score
                {
                    best[0] = l.clone();
                }
                break;
            }
            lines.sort_by_key(|l| -l.score);
            self.flush_nodes();
            // Helpers report too (with one line only the main thread reports anything):
            // a depth a helper completes first is shown by it.
            let mut shown = false;
            for (i, l) in lines.iter().enumerate() {
                shown |= self.reporter.line(depth as u32, self.seldepth, i + 1, l);
            }
            if self.id != 0 && !shown {
                self.keep_unshown(depth, &lines[0]);
            }
            prev_scores = lines.iter().map(|l| l.score).collect();
            completed = depth as u32;
            best = lines;
            // A helper's iteration one deeper, completed before this one was shown, is shown
            // now and taken over: without it the main thread would search that depth again
            // (and at the depth limit, alone: the helper has nothing left to search).
            if self.id == 0
                && multipv == 1
                && let Some(line) = self.unshown(depth + 1)
            {
                self.reporter
                    .line(depth as u32 + 1, self.seldepth, 1, &line);
                depth += 1;
                prev_scores = vec![line.score];
                completed = depth as u32;
                best = vec![line];
            }
            if self.id == 0 && self.ends_early(&mut trend, &best[0], depth) {
                break;
            }
            // A helper that completes the requested depth first, right after the depth
            // before it was shown, ends the search for everyone: its result is as deep as the
            // main thread's would be, and arrives sooner. (One that skipped ahead leaves the
            // main thread to complete and show the depths in between.)
            if self.id != 0
                && depth == max_depth
                && shown
                && !limits.infinite
                && limits.multipv <= 1
            {
                self.shared.abort.store(true, AtomicOrdering::SeqCst);
            }
            depth += 1;
        }
        self.flush_nodes();
        (best, completed)
    }

    /// The depth a helper searches next, from `depth` on: it skips a depth that at least
    /// half of the threads already search, so that the threads spread over the next
    /// depths instead of duplicating one tree (with two threads the helper keeps a depth
    /// ahead of the main thread, filling the table with deeper results for it).
    fn helper_depth(&self, mut depth: i32, max_depth: i32) -> i32 {
        let threads = self.shared.nodes.len() as u32;
        while depth < max_depth
            && self.shared.searching[depth as usize].load(AtomicOrdering::Relaxed) * 2 >= threads
        {
            depth += 1;
        }
        depth
    }

    /// Keeps the first line of `depth`, which this helper completed but could not show (the
    /// depth before it was not shown yet), for the main thread to show and take over, unless
    /// a deeper one is kept already.
    fn keep_unshown(&self, depth: i32, line: &Line<G::Move>) {
        let mut kept = self
            .shared
            .unshown
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if kept.as_ref().is_none_or(|(d, _)| *d < depth) {
            *kept = Some((depth, line.clone()));
        }
    }

    /// The line a helper completed at `depth` and could not show, if any.
    fn unshown(&self, depth: i32) -> Option<Line<G::Move>> {
        let kept = self
            .shared
            .unshown
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        kept.as_ref()
            .filter(|(d, _)| *d == depth)
            .map(|(_, line)| line.clone())
    }

    /// Whether the main thread stops after completing `depth` with the best line `line`
    /// (`trend` follows the lines of the iterations).
    fn ends_early(&self, trend: &mut Trend<G::Move>, line: &Line<G::Move>, depth: i32) -> bool {
        let s = self.shared;
        let top = line.score;
        let factor = trend.update(line.pv.first().copied(), top, G::MAN);
        let stretch = s.features.time_trend && depth >= TIME_TREND_MIN_DEPTH;
        if s.time
            .soft_expired_by(s.control, if stretch { factor } else { 1.0 })
        {
            return true;
        }
        // `go mate N`: a win in at most N own moves (at most 2N - 1 plies) is proven.
        if let Some(n) = s.limits.mate
            && top > WIN_BOUND
            && WIN - top < 2 * n as i32
        {
            return true;
        }
        // Under a clock, a result proven within the depth searched is final.
        let l = s.limits;
        let timed = l.movetime.is_some() || l.wtime.is_some() || l.btime.is_some();
        timed && !l.infinite && top.abs() > WIN_BOUND && WIN - top.abs() < depth
    }

    /// Searches the root at `depth` with aspiration windows around `prev`, the previous
    /// iteration's score of line `index`; `None` when stopped before any move of the line.
    fn aspiration(
        &mut self,
        pos: &G,
        depth: i32,
        prev: Option<i32>,
        index: usize,
    ) -> Option<Line<G::Move>> {
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = match prev {
            Some(p)
                if self.shared.features.aspiration
                    && depth >= ASPIRATION_MIN_DEPTH
                    && p.abs() < WIN_BOUND =>
            {
                (p - delta, p + delta)
            }
            _ => (-INFINITY, INFINITY),
        };
        loop {
            self.root_score = -INFINITY;
            let score = self.search(pos, alpha, beta, depth, 0, true);
            if self.stopped {
                let pv = self.pv[0].to_vec();
                return if pv.is_empty() || self.excluded.contains(&pv[0]) {
                    None
                } else {
                    Some(Line {
                        score: self.root_score,
                        bound: Bound::Lower,
                        pv,
                    })
                };
            }
            let bound = if score <= alpha {
                Bound::Upper
            } else if score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let line = Line {
                score,
                bound,
                pv: self.pv[0].to_vec(),
            };
            if bound == Bound::Exact {
                return Some(line);
            }
            if self.id == 0 && self.shared.time.elapsed_ms() > ASPIRATION_REPORT_MS {
                self.reporter
                    .line(depth as u32, self.seldepth, index + 1, &line);
            }
            delta *= ASPIRATION_GROWTH;
            if bound == Bound::Upper {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else {
                beta = (score + delta).min(INFINITY);
            }
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}
