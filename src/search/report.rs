//! What a search thread reports to the thread driver: its finished lines and the root move it
//! is searching. Below both the iterative deepening ([`super::deepen`]) that makes the
//! reports and the negamax worker ([`super::negamax`]) that holds the reporter.

use super::tt::Bound;

/// One finished principal variation at the root.
#[derive(Clone, Debug)]
pub(super) struct Line<M> {
    pub score: i32,
    pub bound: Bound,
    pub pv: Vec<M>,
}

/// Reports of a search thread, given to the thread driver.
pub(super) trait Reporter<M> {
    /// A finished (or, when slow, failed-high/low) line of an iteration; whether it was
    /// shown (each depth is shown once, in order, by the thread that completes it first).
    fn line(&mut self, depth: u32, seldepth: u32, index: usize, line: &Line<M>) -> bool;
    /// The root move `m`, `number`th in this iteration's order, is being searched now.
    fn currmove(&mut self, depth: u32, m: M, number: usize);
}
