//! One search thread's tree search: principal variation search with its pruning and
//! reductions, and a quiescence search that resolves capture chains. The iterative deepening
//! that drives it is in `deepen.rs`.

use super::MAX_PLY;
use super::abdada::Busy;
use super::egdb::{CachedProbe, Tablebase, value_score};
use super::ordering::Ordering;
use super::params::{
    LMR_BASE, LMR_DIVISOR, LMR_MIN_DEPTH, LMR_MIN_INDEX, RFP_MARGIN, RFP_MAX_DEPTH,
    RFP_MIN_COMMANDERS,
};
use super::report::{Line, Reporter};
use super::time::TimeManager;
use super::tt::{Bound, Entry, MAX_STORED_DEPTH, TranspositionTable};
use super::{INFINITY, SearchControl, SearchLimits, Turn, WIN, WIN_BOUND, from_tt, to_tt};
use crate::games::kit::color::Color;
use crate::games::{EvalConfig, Evaluator, Game, MoveBuf};
use arrayvec::ArrayVec;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering as AtomicOrdering};

/// State all threads of one search share.
pub(super) struct Shared<'a, G: Game> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub limits: &'a SearchLimits<G::Move>,
    pub time: TimeManager,
    pub features: super::Features,
    /// What shapes the evaluation (Bashni's network).
    pub eval: &'a EvalConfig,
    /// Set by the main thread when it finishes, to stop the helpers.
    pub abort: AtomicBool,
    /// Nodes of each thread, flushed every few hundred nodes.
    pub nodes: Vec<AtomicU64>,
    /// How many threads are searching each root depth now: a helper skips a depth that
    /// enough others already search (see `Worker::iterate`).
    pub searching: Vec<AtomicU32>,
    /// The positions being searched now, with more than one thread (see `abdada.rs`).
    pub busy: Option<Busy>,
    /// The deepest line a helper completed but could not show, and its depth (see
    /// `Worker::iterate`).
    pub unshown: Mutex<Option<(i32, Line<G::Move>)>>,
    /// The game's endgame databases, if any (`None`: the search never probes).
    pub tb: Option<&'a dyn Tablebase<G>>,
    /// Most pieces of a probed position.
    pub tb_limit: u32,
    /// Probes answered (all threads, flushed with the nodes).
    pub tbhits: AtomicU64,
}

impl<G: Game> Shared<'_, G> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes
            .iter()
            .map(|n| n.load(AtomicOrdering::Relaxed))
            .sum()
    }
}

/// The static evaluation of `pos` as the search sees it, computed from scratch.
pub(super) fn static_eval<G: Game>(config: &EvalConfig, pos: &G) -> i32 {
    let mut evaluator = G::Evaluator::new(config);
    evaluator.set_root(pos);
    evaluator.evaluate(pos, 0)
}

/// Late-move reductions by depth and move index.
pub(super) type Reductions = [[i8; 64]; 64];

/// The reductions, computed once per process (4,096 logarithms: per search, as they were,
/// they cost 1 % of a datagen run's instructions) and only read after.
static REDUCTIONS: std::sync::LazyLock<Reductions> = std::sync::LazyLock::new(|| {
    let mut table = [[0i8; 64]; 64];
    for (d, row) in (0i32..).zip(table.iter_mut()) {
        for (i, r) in row.iter_mut().enumerate() {
            if d >= LMR_MIN_DEPTH && i >= LMR_MIN_INDEX {
                let v = LMR_BASE + (d as f64).ln() * (i as f64).ln() / LMR_DIVISOR;
                *r = (v as i32).clamp(0, d - 2) as i8;
            }
        }
    }
    table
});

/// Whether only a proven win or loss can settle the window: alpha already is a win (only a
/// shorter one beats it) or beta already is a loss (only a faster one stays below it). In
/// such a window heuristics (reductions, futility, table bounds of reduced searches) could
/// hide the shorter result, so the search is exact there; mate-distance pruning keeps it
/// small.
#[inline]
fn mate_window(alpha: i32, beta: i32) -> bool {
    alpha >= WIN_BOUND || beta <= -WIN_BOUND
}

/// The score of a game decided `ply` plies from the root: won by the side to move or lost.
#[inline]
fn won_or_lost(won: bool, ply: usize) -> i32 {
    if won {
        WIN - ply as i32
    } else {
        -WIN + ply as i32
    }
}

/// Whether a side is down to a single commander, which a mating net can leave without a move
/// (captured or blocked) within a few plies: the evaluation cannot see it and pruning or
/// reductions would hide it. Such endgames are small, so they are searched exactly.
#[inline]
fn mating_net<G: Game>(pos: &G) -> bool {
    pos.commanders(Color::White) < 2 || pos.commanders(Color::Black) < 2
}

/// The kind of bound a fail-soft result `best` of a search with window `alpha..beta` is.
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Whether a table entry with score `s` (already relative to this node) ends the search of a
/// node with this window. A win score is a proof only as a lower bound (the path that found
/// it may have been reduced, so a shorter win may exist), a loss score only as an upper bound;
/// and inside a mate window only a `proof` entry (one whose subtree was searched without
/// reductions or pruning, as such a window's is) settles anything else.
fn tt_cuts(bound: Bound, s: i32, alpha: i32, beta: i32, proof: bool) -> bool {
    if s > WIN_BOUND {
        bound != Bound::Upper && s >= beta
    } else if s < -WIN_BOUND {
        bound != Bound::Lower && s <= alpha
    } else if mate_window(alpha, beta) && !proof {
        false
    } else {
        match bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        }
    }
}

mod eval_cache;
mod move_loop;
mod qsearch;

use eval_cache::EvalCache;

/// Per-thread search state.
pub(super) struct Worker<'a, G: Game> {
    pub(super) id: usize,
    pub(super) shared: &'a Shared<'a, G>,
    pub(super) reporter: Box<dyn Reporter<G::Move> + Send + 'a>,
    ordering: Ordering<G>,
    nodes: u64,
    flushed: u64,
    pub(super) seldepth: u32,
    pub(super) stopped: bool,
    /// Hashes of the positions before the current node (game history, then the path).
    hashes: Vec<u64>,
    pub(super) pv: Vec<ArrayVec<G::Move, MAX_PLY>>,
    pub(super) root_moves: Vec<G::Move>,
    pub(super) excluded: Vec<G::Move>,
    pub(super) root_depth: i32,
    reductions: &'static Reductions,
    /// Reusable ordering-score buffers, one per ply.
    scores: Vec<Vec<i32>>,
    /// Score of the best root move found so far in the current iteration.
    pub(super) root_score: i32,
    /// The game's evaluation, told of every move along the path.
    eval: G::Evaluator,
    /// Evaluations of positions seen lately.
    eval_cache: EvalCache,
    /// This thread's probe of the endgame databases, if the search has them.
    tb: Option<CachedProbe<'a, G>>,
    /// Probes answered, and how many of them were flushed to [`Shared::tbhits`].
    tbhits: u64,
    tbhits_flushed: u64,
}

/// What the move loop of one node needs besides its moves and alpha (see
/// [`Worker::search`]).
#[derive(Clone, Copy)]
struct Node {
    beta: i32,
    depth: i32,
    ply: usize,
    pv_node: bool,
    /// The one-reply extension (0 or 1).
    extend: i32,
    /// Whether late moves may be reduced.
    reducible: bool,
}

impl<'a, G: Game> Worker<'a, G> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a, G>,
        history: &[u64],
        root_moves: Vec<G::Move>,
        reporter: Box<dyn Reporter<G::Move> + Send + 'a>,
    ) -> Self {
        Worker {
            id,
            shared,
            reporter,
            ordering: Ordering::new(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            hashes: history.to_vec(),
            // Rows are added as the search reaches their ply (see `clear_pv`): a short search
            // does not pay for writing all of them.
            pv: vec![ArrayVec::new(); 2],
            root_moves,
            excluded: Vec::new(),
            root_depth: 0,
            reductions: &REDUCTIONS,
            scores: vec![Vec::new(); MAX_PLY + 2],
            root_score: -INFINITY,
            eval: G::Evaluator::new(shared.eval),
            eval_cache: EvalCache::new(shared.limits.nodes),
            tb: shared.tb.map(|tb| CachedProbe::new(tb, shared.tb_limit)),
            tbhits: 0,
            tbhits_flushed: 0,
        }
    }

    /// Makes `pos` the root of the evaluator's path.
    pub(super) fn set_root(&mut self, pos: &G) {
        self.eval.set_root(pos);
    }

    /// The static evaluation of `pos`, `ply` plies from the root.
    #[inline]
    fn evaluate(&mut self, pos: &G, ply: usize) -> i32 {
        if let Some(eval) = self.eval_cache.get(pos.hash()) {
            return eval;
        }
        let eval = self.eval.evaluate(pos, ply);
        self.eval_cache.put(pos.hash(), eval);
        eval
    }

    /// `pos.played(&m)`, telling the evaluator (whose ply `ply + 1` it is).
    #[inline]
    fn play(&mut self, pos: &G, m: &G::Move, ply: usize) -> G {
        let child = pos.played(m);
        // The child's probe is the next thing its search does; ask for its bucket now, so
        // that the memory access overlaps the evaluation's update.
        self.shared.tt.prefetch(child.hash());
        self.eval.played(ply, pos, &child, m);
        child
    }

    pub(super) fn flush_nodes(&mut self) {
        self.shared.nodes[self.id].fetch_add(self.nodes - self.flushed, AtomicOrdering::Relaxed);
        self.flushed = self.nodes;
        if self.tbhits != self.tbhits_flushed {
            let n = self.tbhits - self.tbhits_flushed;
            self.shared.tbhits.fetch_add(n, AtomicOrdering::Relaxed);
            self.tbhits_flushed = self.tbhits;
        }
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
        s.control.poll(Turn::Working);
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

    /// Empties the PV at `ply`, making its row and its child's if the search had not been
    /// that deep yet: every node calls it first, so `update_pv` finds both rows.
    #[inline]
    fn clear_pv(&mut self, ply: usize) {
        while self.pv.len() < ply + 2 {
            self.pv.push(ArrayVec::new());
        }
        self.pv[ply].clear();
    }

    /// The PV at `ply` becomes `m` followed by the child's PV (whose row the node's
    /// `clear_pv` made).
    fn update_pv(&mut self, ply: usize, m: G::Move) {
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

    /// Whether `pos` repeats a position of the game or of the search path with the same
    /// side to move since the last capture or man move (the clock bounds how far back a
    /// repetition can lie). The 30-ply rule is checked by the caller.
    fn is_repetition(&self, pos: &G) -> bool {
        let window = (pos.clock() as usize).min(self.hashes.len());
        let n = self.hashes.len();
        (2..=window)
            .step_by(2)
            .any(|back| self.hashes[n - back] == pos.hash())
    }

    /// The moves of an inner node, or the root moves still to search at the root.
    /// Fills `l`, which the caller owns: returning a list by value copied all of its inline
    /// capacity (kilobytes) at every node. Whether there is any.
    fn node_moves(&self, pos: &G, ply: usize, l: &mut G::MoveList) -> bool {
        if ply == 0 {
            for m in &self.root_moves {
                if !self.excluded.contains(m) {
                    l.push(*m);
                }
            }
        } else if !pos.generate_captures(l) {
            pos.generate_quiets(l);
        }
        !l.is_empty()
    }

    /// Principal variation search of `pos` at `depth` remaining plies, `ply` plies from the
    /// root. Fail-soft: the score may lie outside `alpha..beta`, as a bound.
    pub(super) fn search(
        &mut self,
        pos: &G,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        // Step 1. Out of depth: quiescence resolves the capture chains.
        self.clear_pv(ply);
        if depth <= 0 && ply > 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);

        // Step 2. Draws, and mate-distance pruning.
        if ply > 0
            && let Some(score) = self.settled(pos, &mut alpha, &mut beta, depth, ply)
        {
            return score;
        }

        // Step 3. Transposition table: a deep enough entry may settle a non-PV node; its
        // move is tried first either way.
        let tt = self.shared.tt.probe(pos.hash());
        let tt_key = tt.map_or(0, |e| e.move_key);
        if let Some(e) = tt
            && !pv_node
            && ply > 0
            && e.depth as i32 >= depth
            && tt_cuts(e.bound, from_tt(e.score, ply), alpha, beta, e.proof)
        {
            return from_tt(e.score, ply);
        }

        // Step 4. Moves; none is a loss (captures are compulsory, so a side that can capture
        // has only captures).
        let mut moves = G::MoveList::default();
        if !self.node_moves(pos, ply, &mut moves) {
            return -WIN + ply as i32;
        }
        let capturing = G::is_capture(&moves[0]);
        // In a mate window the whole subtree is searched exactly (its children's windows are
        // mate windows too), so what it stores is a proof.
        let proof = mate_window(alpha, beta);
        let exact = proof || mating_net(pos);

        // Step 5. Reverse futility pruning: far enough above beta near the leaves, a quiet
        // node fails high on its static evaluation. Never where the search must be exact
        // (the evaluation proves no mate), nor for a side with few commanders, which can be
        // left without a move (captured or blocked) within the plies the pruning skips.
        if self.shared.features.rfp
            && !pv_node
            && !capturing
            && !exact
            && depth <= RFP_MAX_DEPTH
            && pos.commanders(pos.side_to_move()) >= RFP_MIN_COMMANDERS
        {
            let eval = self.evaluate(pos, ply);
            if eval - RFP_MARGIN * depth >= beta && eval.abs() < WIN_BOUND {
                return eval;
            }
        }

        // Step 6. Move loop: ordered moves, one-reply extension, PVS with late-move
        // reductions (none where the search must be exact).
        let original_alpha = alpha;
        let extend = (self.shared.features.single_reply_extension
            && moves.len() == 1
            && (ply as i32) < 2 * self.root_depth) as i32;
        let node = Node {
            beta,
            depth,
            ply,
            pv_node,
            extend,
            reducible: !capturing && extend == 0 && !exact && self.shared.features.lmr,
        };
        let Some((best, best_move)) = self.move_loop(pos, &mut moves, tt_key, alpha, &node) else {
            return 0;
        };

        // Step 7. Store the result (not for a partial root of a multi-PV line, whose best
        // move is not the position's).
        if ply > 0 || self.excluded.is_empty() {
            let entry = Entry {
                move_key: best_move.map_or(0, |m| G::move_key(&m)),
                score: to_tt(best, ply),
                depth: depth.clamp(0, MAX_STORED_DEPTH as i32) as u8,
                bound: bound_of(best, original_alpha, beta),
                proof,
            };
            self.shared.tt.store(pos.hash(), entry);
        }
        best
    }

    /// Step 2 of [`Self::search`] at a node below the root: the score if the node is settled
    /// without a search (a decided game, a draw, a repetition, a window closed by
    /// mate-distance pruning, a position the endgame databases hold, the deepest ply); else
    /// `None`, with `alpha` and `beta` narrowed so that no result can beat a win already
    /// found closer to the root, nor be worse than losing right here.
    #[inline(always)]
    fn settled(
        &mut self,
        pos: &G,
        alpha: &mut i32,
        beta: &mut i32,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        if let Some(winner) = pos.decided() {
            return Some(won_or_lost(winner == pos.side_to_move(), ply));
        }
        if pos.clock_draw() {
            return Some(if pos.has_legal_move() {
                0
            } else {
                -WIN + ply as i32
            });
        }
        if self.is_repetition(pos) {
            return Some(0);
        }
        *alpha = (*alpha).max(-WIN + ply as i32);
        *beta = (*beta).min(WIN - ply as i32 - 1);
        if *alpha >= *beta {
            return Some(*alpha);
        }
        // A position the databases hold, without a capture to play: its exact value at this
        // clock.
        if self.tb.is_some()
            && let Some(score) = self.table_node(pos, depth, ply)
        {
            return Some(score);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(pos, ply));
        }
        None
    }

    /// The databases' score of `pos` (see [`Self::probe_tables`]) at a node of the main
    /// search, stored in the table as exact.
    #[inline(never)]
    fn table_node(&mut self, pos: &G, depth: i32, ply: usize) -> Option<i32> {
        let score = self.probe_tables(pos, ply)?;
        let entry = Entry {
            move_key: 0,
            score: to_tt(score, ply),
            depth: depth.clamp(0, MAX_STORED_DEPTH as i32) as u8,
            bound: Bound::Exact,
            proof: false,
        };
        self.shared.tt.store(pos.hash(), entry);
        Some(score)
    }

    /// The databases' score of `pos`, `ply` plies from the root, if they hold it, it has at
    /// most [`Shared::tb_limit`] pieces and no capture to play.
    #[inline(never)]
    fn probe_tables(&mut self, pos: &G, ply: usize) -> Option<i32> {
        let limit = self.shared.tb_limit;
        let clock_limit = self.shared.tb?.clock_limit();
        if pos.commanders(Color::White) + pos.commanders(Color::Black) > limit || pos.can_capture()
        {
            return None;
        }
        let v = self.tb.as_mut()?.probe(pos)?;
        self.tbhits += 1;
        Some(value_score(v, pos.clock(), clock_limit, ply))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_a_mate_window_only_a_proof_or_a_mate_score_cuts() {
        // Null window just above a loss in 10 plies: only a position lost faster fails low.
        let (alpha, beta) = (-WIN + 10, -WIN + 11);
        assert!(mate_window(alpha, beta));
        // "At least -3.00", from a search that may have reduced away a faster loss: no cut.
        assert!(!tt_cuts(Bound::Lower, -300, alpha, beta, false));
        // The same bound from a search without reductions holds.
        assert!(tt_cuts(Bound::Lower, -300, alpha, beta, true));
        // A proven loss in 8 plies settles it either way, as an upper bound only.
        assert!(tt_cuts(Bound::Upper, -WIN + 8, alpha, beta, false));
        assert!(!tt_cuts(Bound::Lower, -WIN + 8, alpha, beta, true));
        // Outside a mate window any deep enough bound cuts.
        assert!(tt_cuts(Bound::Lower, 50, 0, 40, false));
        assert!(!tt_cuts(Bound::Upper, 50, 0, 40, true));
    }
}
