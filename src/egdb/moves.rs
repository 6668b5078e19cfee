//! The value of a position and of each of its legal moves by the tables, at the position's
//! clock: what a tablebase panel shows (the page), and what a front end needs to pick a move
//! that keeps a won ending won within the no-progress rule.
//!
//! A move's value is the value for the side that plays it, in the tables' own terms
//! ([`Value`], distances counted from the position before the move): a move to a position
//! its opponent loses in `d` plies is a win in `d + 1`, unless the move itself resets the
//! clock (a capture or a man's move), which makes it a win in 1 (the next reset is the move
//! itself, docs/egdb.md). The outcome at the clock follows from that value as from a stored
//! one ([`Value::at_clock`]).
//!
//! The probe is passed in as a function, so that any front end can use its own (the search's
//! [`crate::egdb::Probe`] behind a trait object, or a store's prober).

use super::value::{Outcome, Plies, Value};
use crate::games::kit::game::Game;
use std::cmp::Reverse;

/// A value at a clock: the value with the clock at 0, and what the no-progress rule makes of
/// it at the clock of the position it belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rated {
    /// The value with the clock at 0, for the side to move (of a move: for its mover).
    pub value: Value,
    /// The outcome under the rule at the position's clock.
    pub outcome: Outcome,
}

impl Rated {
    /// `value` at clock `clock` of `limit`.
    pub fn at(value: Value, clock: u16, limit: u16) -> Rated {
        Rated {
            value,
            outcome: value.at_clock(clock, limit),
        }
    }

    /// Whether the clock turns a win or a loss into a draw here.
    pub fn drawn_by_clock(&self) -> bool {
        matches!(self.value, Value::Win(_) | Value::Loss(_)) && self.outcome == Outcome::Draw
    }

    /// A key that sorts the best for the mover first: wins within the rule by shortest
    /// distance, then wins the rule draws (by the clock here, or cursed) by shortest
    /// distance, draws, losses the rule draws by longest, losses by longest.
    pub fn best_first(&self) -> (u8, Reverse<i32>) {
        let d = i32::from(self.value.distance().map_or(0, |d| d.0));
        match (self.value, self.outcome) {
            (Value::Win(_), Outcome::Win) => (0, Reverse(-d)),
            (Value::Win(_) | Value::CursedWin(_), _) => (1, Reverse(-d)),
            (Value::Draw, _) => (2, Reverse(0)),
            (Value::Loss(_), Outcome::Loss) => (4, Reverse(d)),
            (Value::Loss(_) | Value::BlessedLoss(_), _) => (3, Reverse(d)),
        }
    }
}

/// One legal move and its value for the side that plays it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Its value for the mover, at the position's clock.
    pub rated: Rated,
}

/// A position by the tables: its value and every legal move's, best first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Verdict<M> {
    /// The position's value for its side to move, at its clock.
    pub rated: Rated,
    /// The position's clock (plies since the last capture or man move).
    pub clock: u16,
    /// The rule's limit the values are solved under.
    pub limit: u16,
    /// Every legal move, best for the mover first (moves of equal value in the order the
    /// game generates them).
    pub moves: Vec<MoveValue<M>>,
}

/// The value for the mover of a move to a position of value `child` (for its side to move,
/// clock 0); `resets`: the move is a capture or a man's move.
pub fn mover_value(child: Value, resets: bool) -> Value {
    if resets {
        return child.after_reset();
    }
    let on = |d: Plies| Plies(d.0.saturating_add(1));
    match child {
        Value::Loss(d) => Value::Win(on(d)),
        Value::BlessedLoss(d) => Value::CursedWin(on(d)),
        Value::Draw => Value::Draw,
        Value::CursedWin(d) => Value::BlessedLoss(on(d)),
        Value::Win(d) => Value::Loss(on(d)),
    }
}

/// A move's value for its mover, at the clock of `pos`, the position it is played from:
/// `child` is the position after it and `child_value` that position's value (clock 0) for its
/// side to move, under a rule of `limit` plies.
pub fn rated_move<G: Game>(pos: &G, child: &G, child_value: Value, limit: u16) -> Rated {
    Rated::at(
        mover_value(child_value, child.clock() == 0),
        pos.clock(),
        limit,
    )
}

/// `pos` and each of its legal moves by the tables (`probe`: the value of a position for its
/// side to move at clock 0, `None` outside the tables), under a rule of `limit` plies. `None`
/// if `pos` or a position after one of its moves is outside the tables.
pub fn move_values<G: Game>(
    pos: &G,
    limit: u16,
    mut probe: impl FnMut(&G) -> Option<Value>,
) -> Option<Verdict<G::Move>> {
    let clock = pos.clock();
    let rated = Rated::at(probe(pos)?, clock, limit);
    let mut moves = Vec::new();
    for m in pos.legal_moves().iter() {
        let child = pos.played(m);
        moves.push(MoveValue {
            mv: *m,
            rated: rated_move(pos, &child, probe(&child)?, limit),
        });
    }
    moves.sort_by_key(|m| m.rated.best_first());
    Some(Verdict {
        rated,
        clock,
        limit,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Rules;
    use crate::games::russian::Position;

    fn win(d: u16) -> Value {
        Value::Win(Plies(d))
    }
    fn loss(d: u16) -> Value {
        Value::Loss(Plies(d))
    }

    #[test]
    fn a_move_adds_a_ply_unless_it_resets_the_clock() {
        assert_eq!(mover_value(loss(17), false), win(18));
        assert_eq!(mover_value(loss(17), true), win(1));
        assert_eq!(mover_value(loss(0), false), win(1));
        assert_eq!(mover_value(win(4), false), loss(5));
        assert_eq!(mover_value(Value::Draw, false), Value::Draw);
        assert_eq!(
            mover_value(Value::BlessedLoss(Plies(40)), false),
            Value::CursedWin(Plies(41))
        );
        assert_eq!(
            mover_value(Value::CursedWin(Plies(3)), true),
            Value::BlessedLoss(Plies(1))
        );
    }

    #[test]
    fn moves_sort_best_first_with_the_clock() {
        let clock = 20;
        let mut v: Vec<Rated> = [
            loss(3),
            Value::Draw,
            win(12),
            Value::CursedWin(Plies(2)),
            win(5),
            loss(9),
            Value::BlessedLoss(Plies(7)),
            win(10),
            loss(12),
        ]
        .into_iter()
        .map(|v| Rated::at(v, clock, 30))
        .collect();
        v.sort_by_key(Rated::best_first);
        let order: Vec<Value> = v.iter().map(|r| r.value).collect();
        assert_eq!(
            order,
            [
                win(5),
                win(10),
                Value::CursedWin(Plies(2)),
                win(12),
                Value::Draw,
                loss(12),
                Value::BlessedLoss(Plies(7)),
                loss(9),
                loss(3),
            ]
        );
        // A win of 12 plies does not fit in the 10 the rule leaves: a draw, by the clock.
        assert!(v[3].drawn_by_clock());
        assert_eq!(v[3].outcome, Outcome::Draw);
        assert!(!v[0].drawn_by_clock());
    }

    #[test]
    fn every_legal_move_is_valued_through_the_probe() {
        // Two kings against one; the probe here: every position after a move is lost for
        // Black in 2, the position itself a win in 3.
        let pos = Position::from_fen("W:WKa1,Kc3:BKh8").unwrap();
        let probe = |p: &Position| Some(if p.clock() > 0 { loss(2) } else { win(3) });
        let verdict = move_values(&pos, 30, probe).unwrap();
        assert_eq!(verdict.rated, Rated::at(win(3), 0, 30));
        assert_eq!(verdict.moves.len(), pos.legal_moves().len());
        assert!(verdict.moves.iter().all(|m| m.rated.value == win(3)));
        // With 28 plies on the clock, a win in 3 is a draw by the rule.
        let late = Position::from_fen("W:WKa1,Kc3:BKh8:H28:F20").unwrap();
        let verdict = move_values(&late, 30, probe).unwrap();
        assert!(verdict.moves.iter().all(|m| m.rated.drawn_by_clock()));
        // A position after a move outside the tables: no verdict.
        assert_eq!(
            move_values(&pos, 30, |p| (p.clock() == 0).then_some(win(3))),
            None
        );
    }
}
