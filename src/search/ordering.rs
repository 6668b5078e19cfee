//! Move ordering: TT move first, then captures by what they take, killers, history.

use super::MAX_PLY;
use super::params::{HISTORY_MAX, HISTORY_MAX_BONUS, ORDER_CAPTURE, ORDER_KILLER, ORDER_TT_MOVE};
use crate::games::Game;

/// Per-thread ordering state.
pub struct Ordering<G: Game> {
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
}

impl<G: Game> Default for Ordering<G> {
    fn default() -> Self {
        Ordering::new()
    }
}

impl<G: Game> Ordering<G> {
    /// Empty killers and history.
    pub fn new() -> Ordering<G> {
        Ordering {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; G::HISTORY_SLOTS],
        }
    }

    /// Scores moves for ordering (higher first) into `scores`.
    pub fn score(
        &self,
        pos: &G,
        moves: &[G::Move],
        tt_key: u32,
        ply: usize,
        scores: &mut Vec<i32>,
    ) {
        scores.clear();
        let killers = self.killers[ply.min(MAX_PLY)];
        for m in moves {
            let s = if tt_key != 0 && G::move_key(m) == tt_key {
                ORDER_TT_MOVE
            } else if G::is_capture(m) {
                ORDER_CAPTURE + pos.capture_gain(m)
            } else if killers[0] == Some(*m) {
                ORDER_KILLER
            } else if killers[1] == Some(*m) {
                ORDER_KILLER - 1
            } else {
                self.history[pos.history_slot(m)]
            };
            scores.push(s);
        }
    }

    /// Records a quiet move that caused a cutoff at `depth`, and penalises the quiet moves
    /// tried before it.
    pub fn record_cutoff(
        &mut self,
        pos: &G,
        m: &G::Move,
        tried: &[G::Move],
        depth: i32,
        ply: usize,
    ) {
        if G::is_capture(m) {
            return;
        }
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(*m) {
            k[1] = k[0];
            k[0] = Some(*m);
        }
        let bonus = (depth * depth).min(HISTORY_MAX_BONUS);
        Self::update(&mut self.history[pos.history_slot(m)], bonus);
        for t in tried {
            if !G::is_capture(t) && t != m {
                Self::update(&mut self.history[pos.history_slot(t)], -bonus);
            }
        }
    }

    fn update(h: &mut i32, bonus: i32) {
        // Gravity keeps values within +-HISTORY_MAX, well below the killer scores.
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

/// Moves the best-scored of `moves[i..]` to index `i` (lazy selection sort: most nodes cut
/// off after a move or two, so sorting everything would be wasted).
#[inline]
pub fn pick<M>(moves: &mut [M], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
