//! A Hub `info` line's pv where the endgame databases hold the position: the search, at a
//! root the tables hold, settles every move by them and reports a pv of one move; Hub has no
//! other field for a database result, so the pv goes on with the tables' own line (the
//! winner's quickest conversion against the loser's longest defence, [`move_values`]) up to
//! and including the next capture or man move, the move that converts.

use crate::egdb::move_values;
use crate::games::Game;
use crate::search::egdb::Tablebase;

/// The most plies the tables' line may add: a conversion is at most the rule's limit away.
const MOST_PLIES: usize = 64;

/// `pv` from `pos`, gone on by the tables' best moves while no move of it has reset the
/// clock yet (a capture or man move: the conversion), each position on the way one the
/// tables hold; `pv` as it is where they do not hold its end.
pub fn database_pv<G: Game>(pos: &G, pv: &[G::Move], tb: &dyn Tablebase<G>) -> Vec<G::Move> {
    let mut line = pv.to_vec();
    let mut at = pos.clone();
    for m in pv {
        at = at.played(m);
        if at.clock() == 0 {
            return line;
        }
    }
    let mut probe = tb.prober();
    let limit = tb.clock_limit();
    while line.len() < pv.len() + MOST_PLIES {
        let Some(verdict) = move_values(&at, limit, |p| probe.probe(p, u32::MAX)) else {
            break;
        };
        let Some(best) = verdict.moves.first() else {
            break;
        };
        line.push(best.mv);
        at = at.played(&best.mv);
        if at.clock() == 0 {
            break;
        }
    }
    line
}
