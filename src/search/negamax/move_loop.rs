//! Step 6 of the search, the move loop: each move in order, searched the PVS way with late-move
//! reductions; with several threads, a move another thread is searching now is left for later
//! (see `abdada.rs`).

use super::{Node, Worker};
use crate::games::Game;
use crate::search::INFINITY;
use crate::search::ordering::pick;
use crate::search::params::{CURRMOVE_REPORT_MS, DEFER_MAX, DEFER_MIN_DEPTH};
use arrayvec::ArrayVec;

/// What became of one move of the move loop (see [`Worker::try_move`]).
enum Tried {
    /// Searched: its score from the parent's view.
    Score(i32),
    /// Left for later: another thread is searching its position.
    Deferred,
    /// The search was stopped.
    Stopped,
}

/// The window and depth of one child search (see [`Worker::search_child`]).
struct Child {
    /// Our alpha and beta at the parent.
    alpha: i32,
    beta: i32,
    /// Depth the child gets when searched in full.
    depth: i32,
    /// Late-move reduction for the first, null-window try (0 = none).
    reduction: i32,
    /// Whether this is the node's first move (searched with the full window at once).
    first: bool,
    /// Whether the parent is a PV node.
    pv_node: bool,
}

impl<G: Game> Worker<'_, G> {
    /// Step 6 of [`Self::search`], the move loop: each move in order (the table's move
    /// `tt_key` first), searched the PVS way, until one fails high. With several threads, a
    /// move (not the first) whose position another thread is searching now is left for after
    /// the others (see `abdada.rs`). The best score and move, or `None` once the search is
    /// stopped.
    #[inline(always)]
    pub(super) fn move_loop(
        &mut self,
        pos: &G,
        moves: &mut G::MoveList,
        tt_key: u32,
        mut alpha: i32,
        node: &Node,
    ) -> Option<(i32, Option<G::Move>)> {
        let (beta, depth, ply) = (node.beta, node.depth, node.ply);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.ordering.score(pos, moves, tt_key, ply, &mut scores);
        let mut best = -INFINITY;
        let mut best_move: Option<G::Move> = None;
        let n = moves.len();
        let list = &mut moves[..];
        let may_defer = self.shared.busy.is_some() && depth >= DEFER_MIN_DEPTH;
        let mut deferred: ArrayVec<(G::Move, usize), DEFER_MAX> = ArrayVec::new();
        let (mut next, mut next_deferred) = (0, 0);
        loop {
            // The next move in order, then the deferred ones (never deferred twice).
            let (m, i, defer) = if next < n {
                pick(list, &mut scores, next);
                next += 1;
                let defer = may_defer && next > 1 && !deferred.is_full();
                (list[next - 1], next - 1, defer)
            } else if let Some(&(m, i)) = deferred.get(next_deferred) {
                next_deferred += 1;
                (m, i, false)
            } else {
                break;
            };
            let score = match self.try_move(pos, m, i, alpha, node, defer) {
                Tried::Score(score) => score,
                Tried::Deferred => {
                    deferred.push((m, i));
                    continue;
                }
                Tried::Stopped => {
                    self.scores[ply] = scores;
                    return None;
                }
            };
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
                        // The moves before it in order lose history (those another thread
                        // took are counted as tried; after a deferred one: all).
                        let tried = if next_deferred == 0 {
                            &list[..i]
                        } else {
                            &list[..]
                        };
                        self.ordering.record_cutoff(pos, &m, tried, depth, ply);
                        break;
                    }
                }
            }
        }
        self.scores[ply] = scores;
        Some((best, best_move))
    }

    /// Searches move `m`, the `i`th in order, of the move loop with the window's lower end
    /// `alpha`; when `defer` allows, leaves it for later if another thread is searching its
    /// position now.
    #[inline(always)]
    fn try_move(
        &mut self,
        pos: &G,
        m: G::Move,
        i: usize,
        alpha: i32,
        node: &Node,
        defer: bool,
    ) -> Tried {
        let ply = node.ply;
        let next = self.play(pos, &m, ply);
        let shared = self.shared;
        let busy = shared
            .busy
            .as_ref()
            .filter(|_| node.depth >= DEFER_MIN_DEPTH);
        if let Some(busy) = busy {
            if defer && busy.is_busy(next.hash()) {
                return Tried::Deferred;
            }
            busy.enter(next.hash());
        }
        if ply == 0 {
            self.report_currmove(m, i);
        }
        let child = Child {
            alpha,
            beta: node.beta,
            depth: node.depth - 1 + node.extend,
            reduction: if node.reducible && i > 0 {
                self.reductions[node.depth.min(63) as usize][i.min(63)] as i32
            } else {
                0
            },
            first: i == 0,
            pv_node: node.pv_node,
        };
        self.hashes.push(pos.hash());
        let score = self.search_child(&next, &child, ply + 1);
        self.hashes.pop();
        if let Some(busy) = busy {
            busy.leave(next.hash());
        }
        if self.stopped {
            Tried::Stopped
        } else {
            Tried::Score(score)
        }
    }

    /// Searches one child the PVS way and returns its score from the parent's view: the first
    /// move with the node's window; any other with a null window, reduced first
    /// (and again unreduced if it beats alpha, so a win or a good move found by a reduced
    /// search is confirmed at full depth), then with the full window if it lands inside it.
    fn search_child(&mut self, pos: &G, c: &Child, ply: usize) -> i32 {
        let (alpha, beta) = (c.alpha, c.beta);
        if c.first {
            return -self.search(pos, -beta, -alpha, c.depth, ply, c.pv_node);
        }
        let mut score = -self.search(pos, -alpha - 1, -alpha, c.depth - c.reduction, ply, false);
        if score > alpha && c.reduction > 0 {
            score = -self.search(pos, -alpha - 1, -alpha, c.depth, ply, false);
        }
        if score > alpha && c.pv_node && score < beta {
            score = -self.search(pos, -beta, -alpha, c.depth, ply, true);
        }
        score
    }

    /// `info currmove` for the main thread once the search has run a while.
    fn report_currmove(&mut self, m: G::Move, i: usize) {
        if self.id == 0 && self.shared.time.elapsed_ms() >= CURRMOVE_REPORT_MS {
            let number = self.excluded.len() + i + 1;
            self.reporter.currmove(self.root_depth as u32, m, number);
        }
    }
}
