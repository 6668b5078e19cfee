//! One search thread: iterative deepening with aspiration windows, principal variation
//! search, and a quiescence search that resolves capture chains.

use super::MAX_PLY;
use super::ordering::{Ordering, pick};
use super::time::TimeManager;
use super::tt::{Bound, Entry, TranspositionTable};
use super::{INFINITY, SearchControl, SearchLimits, WIN, WIN_BOUND, from_tt, to_tt};
use crate::eval::evaluate;
use crate::rules::movegen::{can_capture, generate_capture_moves, generate_quiets, has_legal_move};
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};

/// State all threads of one search share.
pub(super) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a SearchLimits,
    pub time: TimeManager,
    pub features: super::Features,
    /// Set by the main thread when it finishes, to stop the helpers.
    pub abort: AtomicBool,
    /// Nodes of each thread, flushed every few hundred nodes.
    pub nodes: Vec<AtomicU64>,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes
            .iter()
            .map(|n| n.load(AtomicOrdering::Relaxed))
            .sum()
    }
}

/// One finished principal variation at the root.
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub score: i32,
    pub bound: Bound,
    pub pv: Vec<Move>,
}

/// Reports of an iteration, given to the thread driver.
pub(super) trait Reporter {
    fn line(&mut self, depth: u32, seldepth: u32, index: usize, line: &Line);
}

/// Late-move reductions by depth and move index, computed once per thread.
fn reduction_table() -> Vec<[i8; 64]> {
    (0..64)
        .map(|d| {
            let mut row = [0i8; 64];
            for (i, r) in row.iter_mut().enumerate() {
                if d >= 3 && i >= 3 {
                    let v = 0.4 + (d as f64).ln() * (i as f64).ln() / 2.6;
                    *r = (v as i32).clamp(0, d - 2) as i8;
                }
            }
            row
        })
        .collect()
}

/// Per-thread search state.
pub(super) struct Worker<'a> {
    id: usize,
    shared: &'a Shared<'a>,
    ordering: Ordering,
    nodes: u64,
    flushed: u64,
    seldepth: u32,
    stopped: bool,
    /// Hashes of the positions before the current node (game history, then the path).
    hashes: Vec<u64>,
    pv: Vec<ArrayVec<Move, MAX_PLY>>,
    root_moves: Vec<Move>,
    excluded: Vec<Move>,
    root_depth: i32,
    reductions: Vec<[i8; 64]>,
    /// Reusable ordering-score buffers, one per ply.
    scores: Vec<Vec<i32>>,
    /// Score of the best root move found so far in the current iteration.
    root_score: i32,
}

impl<'a> Worker<'a> {
    pub fn new(id: usize, shared: &'a Shared<'a>, history: &[u64], root_moves: Vec<Move>) -> Self {
        Worker {
            id,
            shared,
            ordering: Ordering::new(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            hashes: history.to_vec(),
            pv: vec![ArrayVec::new(); MAX_PLY + 2],
            root_moves,
            excluded: Vec::new(),
            root_depth: 0,
            reductions: reduction_table(),
            scores: vec![Vec::new(); MAX_PLY + 2],
            root_score: -INFINITY,
        }
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes[self.id].fetch_add(self.nodes - self.flushed, AtomicOrdering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Counts a node and decides whether to stop; true = unwind now.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.check_limits();
        }
        self.stopped
    }

    /// Every few hundred nodes: publishes the node count and checks `stop` and the limits.
    /// Every thread checks the limits, so that a main thread starved of CPU by many helpers
    /// cannot overrun the clock; the first to notice stops them all.
    #[cold]
    #[inline(never)]
    fn check_limits(&mut self) {
        self.flush_nodes();
        let s = self.shared;
        if s.control.is_stopped() || s.abort.load(AtomicOrdering::Relaxed) {
            self.stopped = true;
        } else if s.time.hard_expired(s.control) || self.node_limit_reached() {
            self.stopped = true;
            s.abort.store(true, AtomicOrdering::Relaxed);
        }
    }

    fn node_limit_reached(&self) -> bool {
        let s = self.shared;
        s.limits.nodes.is_some_and(|limit| {
            let total = if s.nodes.len() == 1 {
                self.nodes
            } else {
                s.total_nodes()
            };
            total >= limit
        })
    }

    /// Iterative deepening. Returns the lines of the last completed depth (possibly
    /// improved by a partial one) and that depth.
    pub fn iterate(&mut self, pos: &Position, reporter: &mut dyn Reporter) -> (Vec<Line>, u32) {
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8) as i32;
        let multipv = if self.id == 0 {
            limits.multipv.clamp(1, self.root_moves.len().max(1))
        } else {
            1
        };
        let mut best: Vec<Line> = Vec::new();
        let mut completed = 0;
        let mut prev_scores: Vec<i32> = Vec::new();
        let mut depth = 1 + (self.id as i32 & 1);
        while depth <= max_depth {
            self.root_depth = depth;
            self.excluded.clear();
            let mut lines: Vec<Line> = Vec::new();
            for index in 0..multipv {
                let prev = prev_scores.get(index).copied();
                let Some(line) = self.aspiration(pos, depth, prev, index, reporter) else {
                    break;
                };
                if let Some(&m) = line.pv.first() {
                    self.excluded.push(m);
                }
                lines.push(line);
            }
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
            if self.id == 0 {
                for (i, l) in lines.iter().enumerate() {
                    reporter.line(depth as u32, self.seldepth, i + 1, l);
                }
            }
            prev_scores = lines.iter().map(|l| l.score).collect();
            completed = depth as u32;
            let top = lines[0].score;
            best = lines;
            if self.id == 0 {
                let s = self.shared;
                if s.time.soft_expired(s.control) {
                    break;
                }
                // A proven result cannot change with more depth.
                if top.abs() > WIN_BOUND && (WIN - top.abs()) < depth && !limits.infinite {
                    break;
                }
            }
            depth += 1;
        }
        // A helper that completes the requested depth first ends the search for everyone:
        // its result is as deep as the main thread's would be, and arrives sooner.
        if self.id != 0 && completed as i32 == max_depth && !limits.infinite && limits.multipv <= 1
        {
            self.shared.abort.store(true, AtomicOrdering::SeqCst);
        }
        self.flush_nodes();
        (best, completed)
    }

    fn aspiration(
        &mut self,
        pos: &Position,
        depth: i32,
        prev: Option<i32>,
        index: usize,
        reporter: &mut dyn Reporter,
    ) -> Option<Line> {
        let mut delta = 40;
        let (mut alpha, mut beta) = match prev {
            Some(p) if self.shared.features.aspiration && depth >= 4 && p.abs() < WIN_BOUND => {
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
            if self.id == 0 && self.shared.time.elapsed_ms() > 1000 {
                reporter.line(depth as u32, self.seldepth, index + 1, &line);
            }
            delta *= 3;
            if bound == Bound::Upper {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else {
                beta = (score + delta).min(INFINITY);
            }
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The PV at `ply` becomes `m` followed by the child's PV.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        for &x in tail[0].iter() {
            if line.try_push(x).is_err() {
                break;
            }
        }
    }

    /// Whether the node at `ply` is a draw by repetition or by the 30-ply rule (a side with
    /// no legal move loses instead; the caller checks that first where it matters).
    fn is_repetition(&self, pos: &Position) -> bool {
        let window = (pos.clock() as usize).min(self.hashes.len());
        let n = self.hashes.len();
        (2..=window)
            .step_by(2)
            .any(|back| self.hashes[n - back] == pos.hash())
    }

    fn search(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if depth <= 0 && ply > 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply > 0 {
            if pos.clock_draw() {
                return if has_legal_move(pos) {
                    0
                } else {
                    -WIN + ply as i32
                };
            }
            if self.is_repetition(pos) {
                return 0;
            }
            alpha = alpha.max(-WIN + ply as i32);
            beta = beta.min(WIN - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return evaluate(pos);
            }
        }
        let tt = self.shared.tt.probe(pos.hash());
        let tt_key = tt.map_or(0, |e| e.move_key);
        if let Some(e) = tt
            && !pv_node
            && ply > 0
            && e.depth as i32 >= depth
        {
            let s = from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        let mut moves = if ply == 0 {
            let mut l = MoveList::new();
            for m in &self.root_moves {
                if !self.excluded.contains(m) {
                    l.push(*m);
                }
            }
            l
        } else {
            let mut l = MoveList::new();
            if !generate_capture_moves(pos, &mut l) {
                generate_quiets(pos, &mut l);
            }
            l
        };
        if moves.is_empty() {
            return -WIN + ply as i32;
        }
        let capturing = moves[0].is_capture();
        if self.shared.features.rfp && !pv_node && !capturing && depth <= 3 {
            let eval = evaluate(pos);
            if eval - 90 * depth >= beta && eval.abs() < WIN_BOUND {
                return eval;
            }
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.ordering.score(pos, &moves, tt_key, ply, &mut scores);
        let extend = (self.shared.features.single_reply_extension
            && moves.len() == 1
            && (ply as i32) < 2 * self.root_depth) as i32;
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<Move> = None;
        let n = moves.len();
        let list = moves.as_mut_slice();
        for i in 0..n {
            pick(list, &mut scores, i);
            let m = list[i];
            let child = pos.played(&m);
            let new_depth = depth - 1 + extend;
            self.hashes.push(pos.hash());
            let mut score;
            if i == 0 {
                score = -self.search(&child, -beta, -alpha, new_depth, ply + 1, pv_node);
            } else {
                let r = if capturing || extend > 0 || !self.shared.features.lmr {
                    0
                } else {
                    self.reductions[depth.min(63) as usize][i.min(63)] as i32
                };
                score = -self.search(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
                if score > alpha && r > 0 {
                    score = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if score > alpha && pv_node && score < beta {
                    score = -self.search(&child, -beta, -alpha, new_depth, ply + 1, true);
                }
            }
            self.hashes.pop();
            if self.stopped {
                self.scores[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if ply == 0 {
                        self.root_score = score;
                    }
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        self.ordering.record_cutoff(pos, &m, &list[..i], depth, ply);
                        break;
                    }
                }
            }
        }
        self.scores[ply] = scores;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if ply > 0 || self.excluded.is_empty() {
            self.shared.tt.store(
                pos.hash(),
                Entry {
                    move_key: best_move.map_or(0, |m| m.key()),
                    score: to_tt(best, ply),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best
    }

    /// Quiescence: a side that must capture searches all its captures (no stand-pat, so a
    /// capture chain is always resolved); otherwise the static evaluation stands.
    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        if !can_capture(pos) {
            if !has_legal_move(pos) {
                return -WIN + ply as i32;
            }
            if pos.clock_draw() || self.is_repetition(pos) {
                return 0;
            }
            return evaluate(pos);
        }
        let mut moves = MoveList::new();
        generate_capture_moves(pos, &mut moves);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.ordering.score(pos, &moves, 0, ply, &mut scores);
        let mut best = -INFINITY;
        let n = moves.len();
        let list = moves.as_mut_slice();
        for i in 0..n {
            pick(list, &mut scores, i);
            let m = list[i];
            let child = pos.played(&m);
            self.hashes.push(pos.hash());
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            self.hashes.pop();
            if self.stopped {
                self.scores[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.scores[ply] = scores;
        best
    }
}
