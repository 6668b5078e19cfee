//! The quiescence search: what the tree search calls at depth 0, so that no capture chain is
//! left half played at the horizon.

use super::{Worker, won_or_lost};
use crate::games::Game;
use crate::search::ordering::pick;
use crate::search::{INFINITY, MAX_PLY, WIN};

impl<G: Game> Worker<'_, G> {
    /// Quiescence: a side that must capture searches all its captures (no stand-pat, so a
    /// capture chain is always resolved); otherwise the static evaluation stands.
    pub(super) fn qsearch(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.clear_pv(ply);
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        if let Some(winner) = pos.decided() {
            return won_or_lost(winner == pos.side_to_move(), ply);
        }
        if !pos.can_capture() {
            if !pos.has_legal_move() {
                return -WIN + ply as i32;
            }
            if pos.clock_draw() || self.is_repetition(pos) {
                return 0;
            }
            if self.tb.is_some()
                && let Some(score) = self.probe_tables(pos, ply)
            {
                return score;
            }
            return self.evaluate(pos, ply);
        }
        let mut moves = G::MoveList::default();
        pos.generate_captures(&mut moves);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.ordering.score(pos, &moves, 0, ply, &mut scores);
        let mut best = -INFINITY;
        let n = moves.len();
        let list = &mut moves[..];
        for i in 0..n {
            pick(list, &mut scores, i);
            let m = list[i];
            let child = self.play(pos, &m, ply);
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
