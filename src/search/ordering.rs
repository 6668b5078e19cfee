//! Move ordering: TT move first, then captures by what they take, killers, history.

use super::MAX_PLY;
use super::params::{HISTORY_MAX, HISTORY_MAX_BONUS, ORDER_CAPTURE, ORDER_KILLER, ORDER_TT_MOVE};
use crate::eval::features::{KING_PRISONER, MAN_PRISONER};
use crate::eval::weights::WEIGHTS;
use crate::eval::{commander_value, phase, taper};
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::NUM_BITS;

/// Per-thread ordering state.
pub struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering::new()
    }
}

fn hist_index(pos: &Position, m: &Move) -> usize {
    (pos.side().index() * NUM_BITS + m.from().index()) * NUM_BITS + m.to().index()
}

impl Ordering {
    /// Empty killers and history.
    pub fn new() -> Ordering {
        Ordering {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * NUM_BITS * NUM_BITS],
        }
    }

    /// Material a capture takes, at the evaluation's values: each commander it removes, plus
    /// what each of our pieces it frees gains by going from prisoner to commander.
    pub fn capture_gain(pos: &Position, m: &Move) -> i32 {
        let phase = phase(pos);
        let mut gain = 0;
        for (i, &c) in m.jumped().iter().enumerate() {
            // A square jumped twice gives up its second piece the second time.
            let times = m.jumped()[..i].iter().filter(|&&x| x == c).count();
            let t = pos.tower(c);
            let piece = t.piece(times.min(t.height().saturating_sub(1)));
            gain += commander_value(piece.is_king(), phase);
            if t.height() > times + 1 {
                let freed = t.piece(times + 1);
                if freed.color() == pos.side() {
                    let king = freed.is_king();
                    let p = WEIGHTS[if king { KING_PRISONER } else { MAN_PRISONER }];
                    gain += commander_value(king, phase) - taper(p[0], p[1], phase);
                }
            }
        }
        gain
    }

    /// Scores moves for ordering (higher first) into `scores`.
    pub fn score(
        &self,
        pos: &Position,
        moves: &[Move],
        tt_key: u32,
        ply: usize,
        scores: &mut Vec<i32>,
    ) {
        scores.clear();
        let killers = self.killers[ply.min(MAX_PLY)];
        for m in moves {
            let s = if tt_key != 0 && m.key() == tt_key {
                ORDER_TT_MOVE
            } else if m.is_capture() {
                ORDER_CAPTURE + Self::capture_gain(pos, m)
            } else if killers[0] == Some(*m) {
                ORDER_KILLER
            } else if killers[1] == Some(*m) {
                ORDER_KILLER - 1
            } else {
                self.history[hist_index(pos, m)]
            };
            scores.push(s);
        }
    }

    /// Records a quiet move that caused a cutoff at `depth`, and penalises the quiet moves
    /// tried before it.
    pub fn record_cutoff(
        &mut self,
        pos: &Position,
        m: &Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        if m.is_capture() {
            return;
        }
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(*m) {
            k[1] = k[0];
            k[0] = Some(*m);
        }
        let bonus = (depth * depth).min(HISTORY_MAX_BONUS);
        Self::update(&mut self.history[hist_index(pos, m)], bonus);
        for t in tried {
            if !t.is_capture() && t != m {
                Self::update(&mut self.history[hist_index(pos, t)], -bonus);
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
pub fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
