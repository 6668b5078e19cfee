//! The two fixpoints of a sub-problem's graph (module `solve`): under the rule (distances up
//! to the game's limit count, a longer one is no win) and without it (for cursed wins and
//! blessed losses).
//!
//! A position's estimate is fixed by its successors' ([`evaluate`]); the values are the
//! least fixpoint reached from "unknown" everywhere. Where no edge of the sub-problem resets
//! the clock (every Russian one: a man's move leaves its sub-problem), each decided position
//! is justified by successors of a smaller distance, so the fixpoint is unique and
//! [`by_distance`] finds it in one pass over the distances, each edge followed once. A
//! Turkish man's sideways move is an edge that resets the clock (its distance is one ply
//! whatever the distance of the position it leads to), so there [`by_queue`] iterates until
//! nothing changes, as the solver always did.

use super::value::{Plies, Value};
use std::collections::VecDeque;

/// The top bit of an edge: the move resets the clock (a man's move).
pub(super) const RESETS: u32 = 1 << 31;

/// What the moves that leave the sub-problem give, for one of the two fixpoints.
#[derive(Clone, Copy, Default)]
pub(super) struct Exits {
    /// One of them wins.
    pub win: bool,
    /// Each of them loses (true when there is none).
    pub all_lose: bool,
}

/// Per position: how it ends if it has no choice, and its exits under the rule and without.
#[derive(Clone, Copy, Default)]
pub(super) struct Node {
    /// `Some` for a position decided before any move: no legal move, or the game's own rule.
    pub fixed: Option<Value>,
    /// What the exits give under the rule (0) and without it (1).
    pub exits: [Exits; 2],
    /// The position has a capture to play.
    pub capture: bool,
}

/// The graph of one sub-problem, on its local slots.
pub(super) struct Graph {
    /// By local slot.
    pub nodes: Vec<Node>,
    /// Where each local slot's edges start in `edges` (one more entry at the end).
    pub start: Vec<u32>,
    /// Each edge: the local slot it leads to, with [`RESETS`] if the move resets the clock.
    pub edges: Vec<u32>,
}

/// An estimate: 0 unknown (a draw at the fixpoint), `d + 1` a win in `d`, `-(d + 1)` a loss
/// in `d`.
pub(super) type Estimate = i32;

fn win(d: u16) -> Estimate {
    i32::from(d) + 1
}

fn loss(d: u16) -> Estimate {
    -i32::from(d) - 1
}

/// The fixpoint with distances up to `limit` (the rule's, or
/// [`MAX_DISTANCE`](super::value::MAX_DISTANCE) for none), `which` picking the exits (0
/// under the rule, 1 without): [`by_distance`] where no edge resets the clock, else
/// [`by_queue`] (module documentation).
pub(super) fn fixpoint(graph: &Graph, preds: &Preds, limit: u16, which: usize) -> Vec<Estimate> {
    if graph.edges.iter().any(|&e| e & RESETS != 0) {
        by_queue(graph, preds, limit, which)
    } else {
        by_distance(graph, preds, limit, which)
    }
}

/// The fixpoint of a graph without an edge that resets the clock, the distances in
/// increasing order: a position whose successor loses in `n` wins in `n + 1` unless it won
/// nearer; one whose exits all lose loses in `n + 1` when its last successor is found to win
/// in `n`. The same values as [`by_queue`] (the fixpoint is unique, module documentation).
pub(super) fn by_distance(graph: &Graph, preds: &Preds, limit: u16, which: usize) -> Vec<Estimate> {
    let n = graph.nodes.len();
    let limit = i32::from(limit);
    let mut est = vec![0; n];
    // Successors not yet known to win within the limit.
    let mut left = vec![0u32; n];
    // The positions decided at each estimate's magnitude.
    let mut found: Vec<Vec<u32>> = vec![Vec::new(); limit as usize + 2];
    for (p, node) in graph.nodes.iter().enumerate() {
        let exits = node.exits[which];
        let edges = graph.start[p + 1] - graph.start[p];
        est[p] = match node.fixed {
            Some(Value::Win(d)) => win(d.0),
            Some(Value::Loss(d)) => loss(d.0),
            // A winning exit is one ply to a reset; with no edge the exits decide.
            _ if exits.win => win(1),
            _ if exits.all_lose && edges == 0 => loss(1),
            _ => {
                left[p] = edges;
                continue;
            }
        };
        found[est[p].unsigned_abs() as usize].push(p as u32);
    }
    for m in 1..=limit {
        let now = std::mem::take(&mut found[m as usize]);
        for c in now {
            let lost = est[c as usize] < 0;
            let c = c as usize;
            for &q in &preds.1[preds.0[c] as usize..preds.0[c + 1] as usize] {
                let q = q as usize;
                if est[q] != 0 {
                    continue;
                }
                if lost {
                    est[q] = m + 1;
                } else {
                    left[q] -= 1;
                    if left[q] > 0 || !graph.nodes[q].exits[which].all_lose {
                        continue;
                    }
                    est[q] = -(m + 1);
                }
                found[m as usize + 1].push(q as u32);
            }
        }
    }
    est
}

/// The fixpoint with distances up to `limit` (the rule's, or
/// [`MAX_DISTANCE`](super::value::MAX_DISTANCE) for none), `which` picking the exits (0
/// under the rule, 1 without): re-evaluates each position whenever a successor changed.
pub(super) fn by_queue(graph: &Graph, preds: &Preds, limit: u16, which: usize) -> Vec<Estimate> {
    let n = graph.nodes.len();
    let mut est = vec![0; n];
    let mut queued = vec![false; n];
    let mut queue = VecDeque::new();
    for (p, node) in graph.nodes.iter().enumerate() {
        match node.fixed {
            Some(Value::Win(d)) => est[p] = win(d.0),
            Some(Value::Loss(d)) => est[p] = loss(d.0),
            _ => {
                queue.push_back(p as u32);
                queued[p] = true;
            }
        }
    }
    while let Some(p) = queue.pop_front() {
        let p = p as usize;
        queued[p] = false;
        let e = evaluate(graph, &est, p, limit, which);
        if e != est[p] {
            est[p] = e;
            for &q in &preds.1[preds.0[p] as usize..preds.0[p + 1] as usize] {
                if !queued[q as usize] {
                    queued[q as usize] = true;
                    queue.push_back(q);
                }
            }
        }
    }
    est
}

/// The predecessors of each position within the sub-problem, as (starts, list).
pub(super) type Preds = (Vec<u32>, Vec<u32>);

/// The predecessors of each position within the sub-problem.
pub(super) fn predecessors(graph: &Graph) -> Preds {
    let n = graph.nodes.len();
    let mut start = vec![0u32; n + 1];
    for &e in &graph.edges {
        start[(e & !RESETS) as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut list = vec![0u32; graph.edges.len()];
    for p in 0..n {
        for &e in &graph.edges[graph.start[p] as usize..graph.start[p + 1] as usize] {
            let c = (e & !RESETS) as usize;
            list[fill[c] as usize] = p as u32;
            fill[c] += 1;
        }
    }
    (start, list)
}

/// The estimate of `p` from its successors' (module documentation of `value`).
fn evaluate(graph: &Graph, est: &[Estimate], p: usize, limit: u16, which: usize) -> Estimate {
    let node = &graph.nodes[p];
    let exits = node.exits[which];
    let limit = i32::from(limit);
    let mut best_win = if exits.win { 1 } else { i32::MAX };
    let mut all_lose = exits.all_lose;
    let mut longest_loss = 1;
    for &e in &graph.edges[graph.start[p] as usize..graph.start[p + 1] as usize] {
        let c = est[(e & !RESETS) as usize];
        // A move that resets the clock is worth the child's value with a fresh clock: one
        // ply to the reset; any other move one ply more than the child's distance.
        let (child_loses, child_wins) = (c < 0, c > 0);
        let d = if e & RESETS != 0 { 1 } else { c.abs() };
        if child_loses && d <= limit {
            best_win = best_win.min(d);
        } else if child_wins && d <= limit {
            longest_loss = longest_loss.max(d);
        } else {
            all_lose = false;
        }
    }
    if best_win != i32::MAX {
        best_win + 1
    } else if all_lose {
        -longest_loss - 1
    } else {
        0
    }
}

/// The value from the two fixpoints' estimates.
pub(super) fn combine(rule: Estimate, free: Estimate) -> Value {
    let d = |e: Estimate| Plies((e.abs() - 1) as u16);
    match (rule, free) {
        (r, _) if r > 0 => Value::Win(d(r)),
        (r, _) if r < 0 => Value::Loss(d(r)),
        (_, f) if f > 0 => Value::CursedWin(d(f)),
        (_, f) if f < 0 => Value::BlessedLoss(d(f)),
        _ => Value::Draw,
    }
}
