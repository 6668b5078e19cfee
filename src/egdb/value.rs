//! A database value: who wins under the game's no-progress rule, and how far it is to the
//! next move that resets the rule's clock.
//!
//! The rule: the game is drawn when the clock (plies since the last capture or man move)
//! reaches the game's limit `L` (Russian 30, Turkish 50), unless the side to move has no
//! legal move (then it loses). A position's value under the rule depends on the clock `c`;
//! a table stores it for `c = 0` with a distance `d` that gives it for every `c`:
//!
//! - [`Value::Win`]`(d)`: the side to move wins with `c + d <= L`, and is held to a draw
//!   otherwise. `d` is the number of plies, the winner's moves and the loser's, up to and
//!   including the next capture or man move after which the winner still wins with the new
//!   clock at 0 (or the winner's move that leaves the loser without a move), with the winner
//!   hurrying and the loser delaying. `1 <= d <= L`.
//! - [`Value::Loss`]`(d)`: the same seen from the loser (`d` = 0: no legal move now, lost at
//!   any clock).
//! - [`Value::CursedWin`]`(d)`: won if there were no rule, drawn under it even with the
//!   clock at 0; `d` is the distance to the next capture or man move on a winning path with
//!   the rule ignored (Syzygy's cursed win). [`Value::BlessedLoss`] likewise for the loser.
//! - [`Value::Draw`]: drawn with or without the rule.

use std::fmt;

/// A number of plies.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Plies(pub u16);

impl fmt::Display for Plies {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The value of a position for the side to move with the no-progress clock at 0 (module
/// documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// Won under the rule, the next capture or man move `d` plies away.
    Win(Plies),
    /// Won without the rule, drawn under it.
    CursedWin(Plies),
    /// Drawn.
    Draw,
    /// Lost without the rule, drawn under it.
    BlessedLoss(Plies),
    /// Lost under the rule.
    Loss(Plies),
}

/// The value under the rule at a given clock.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move wins.
    Win,
    /// Drawn.
    Draw,
    /// The side to move loses.
    Loss,
}

/// Largest distance a value holds (a longer one is stored as this).
pub const MAX_DISTANCE: u16 = (1 << 12) - 1;

impl Value {
    /// The value for the other side: what a move to a position of value `self` is worth to
    /// the side that made it, when that move resets the clock (a capture or a man move).
    pub fn after_reset(self) -> Value {
        let one = Plies(1);
        match self {
            Value::Loss(_) => Value::Win(one),
            Value::BlessedLoss(_) => Value::CursedWin(one),
            Value::Draw => Value::Draw,
            Value::CursedWin(_) => Value::BlessedLoss(one),
            Value::Win(_) => Value::Loss(one),
        }
    }

    /// The best of `self` and `other` for the side to choosing between them: a win beats a
    /// cursed win beats a draw beats a blessed loss beats a loss; a nearer win and a further
    /// loss are better.
    pub fn best(self, other: Value) -> Value {
        if other.order() > self.order() {
            other
        } else {
            self
        }
    }

    /// A number that orders values as [`Value::best`] does.
    fn order(self) -> i32 {
        match self {
            Value::Win(d) => 40000 - i32::from(d.0),
            Value::CursedWin(d) => 30000 - i32::from(d.0),
            Value::Draw => 0,
            Value::BlessedLoss(d) => -30000 + i32::from(d.0),
            Value::Loss(d) => -40000 + i32::from(d.0),
        }
    }

    /// The outcome under the rule with the clock at `clock` plies of `limit`.
    pub fn at_clock(self, clock: u16, limit: u16) -> Outcome {
        match self {
            Value::Win(d) if clock.saturating_add(d.0) <= limit => Outcome::Win,
            Value::Loss(d) if clock.saturating_add(d.0) <= limit => Outcome::Loss,
            _ => Outcome::Draw,
        }
    }

    /// The distance, if the value has one.
    pub fn distance(self) -> Option<Plies> {
        match self {
            Value::Win(d) | Value::CursedWin(d) | Value::BlessedLoss(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value as 16 bits: the class in the top 4, the distance in the low 12.
    pub fn encode(self) -> u16 {
        let (class, d) = match self {
            Value::Draw => (0, 0),
            Value::Win(d) => (1, d.0),
            Value::CursedWin(d) => (2, d.0),
            Value::BlessedLoss(d) => (3, d.0),
            Value::Loss(d) => (4, d.0),
        };
        class << 12 | d.min(MAX_DISTANCE)
    }

    /// The value of 16 bits written by [`Value::encode`], or `None` for another code.
    pub fn decode(code: u16) -> Option<Value> {
        let d = Plies(code & MAX_DISTANCE);
        Some(match code >> 12 {
            0 if d.0 == 0 => Value::Draw,
            1 => Value::Win(d),
            2 => Value::CursedWin(d),
            3 => Value::BlessedLoss(d),
            4 => Value::Loss(d),
            _ => return None,
        })
    }

    /// The class alone, as the value layer of a file stores it: 0 win, 1 cursed win, 2 draw,
    /// 3 blessed loss, 4 loss ([`Value::with_class`] inverts it).
    pub fn class(self) -> u8 {
        match self {
            Value::Win(_) => 0,
            Value::CursedWin(_) => 1,
            Value::Draw => 2,
            Value::BlessedLoss(_) => 3,
            Value::Loss(_) => 4,
        }
    }

    /// The value of class `class` ([`Value::class`]) and distance `d` (ignored for a draw);
    /// `None` for another class.
    pub fn with_class(class: u8, d: Plies) -> Option<Value> {
        Some(match class {
            0 => Value::Win(d),
            1 => Value::CursedWin(d),
            2 => Value::Draw,
            3 => Value::BlessedLoss(d),
            4 => Value::Loss(d),
            _ => return None,
        })
    }

    /// The class's name as `probe` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::CursedWin(_) => "cursed-win",
            Value::Draw => "draw",
            Value::BlessedLoss(_) => "blessed-loss",
            Value::Loss(_) => "loss",
        }
    }
}

impl fmt::Display for Value {
    /// `win 7`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.distance() {
            Some(d) => write!(f, "{} {d}", self.name()),
            None => f.write_str(self.name()),
        }
    }
}

/// A value's class alone: what the value layer of a file holds, and all a search needs of
/// a position that is drawn whatever the clock (a draw, a cursed win, a blessed loss).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Wdl {
    /// [`Value::Win`].
    Win,
    /// [`Value::CursedWin`].
    CursedWin,
    /// [`Value::Draw`].
    Draw,
    /// [`Value::BlessedLoss`].
    BlessedLoss,
    /// [`Value::Loss`].
    Loss,
}

impl Wdl {
    const ALL: [Wdl; 5] = [
        Wdl::Win,
        Wdl::CursedWin,
        Wdl::Draw,
        Wdl::BlessedLoss,
        Wdl::Loss,
    ];

    /// The class of a value.
    pub fn of(v: Value) -> Wdl {
        Wdl::ALL[usize::from(v.class())]
    }

    /// The class of code `c` ([`Value::class`]), if it is one.
    pub fn from_class(c: u8) -> Option<Wdl> {
        Wdl::ALL.get(usize::from(c)).copied()
    }

    /// What a move that resets the clock to a position of class `self` is worth to the side
    /// that made it (as [`Value::after_reset`]).
    pub fn after_reset(self) -> Wdl {
        Wdl::ALL[4 - self as usize]
    }
}

/// The class of a position whose every legal move resets the clock, from the classes of the
/// positions they lead to (as [`after_resets`]).
pub fn wdl_after_resets(children: impl IntoIterator<Item = Wdl>) -> Wdl {
    children
        .into_iter()
        .map(Wdl::after_reset)
        .min_by_key(|&w| w as u8)
        .unwrap_or(Wdl::Loss)
}

/// The value of a position whose every legal move resets the clock (captures), from the
/// values of the positions they lead to; `None` if there is no move (then the side to move
/// has lost: [`Value::Loss`]`(0)`).
pub fn after_resets(children: impl IntoIterator<Item = Value>) -> Value {
    children
        .into_iter()
        .map(Value::after_reset)
        .reduce(Value::best)
        .unwrap_or(Value::Loss(Plies(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for v in [
            Value::Win(Plies(3)),
            Value::CursedWin(Plies(40)),
            Value::Draw,
            Value::BlessedLoss(Plies(9)),
            Value::Loss(Plies(0)),
        ] {
            assert_eq!(Value::decode(v.encode()), Some(v));
        }
        assert_eq!(Value::decode(0xF000), None);
        for v in [Value::Win(Plies(3)), Value::Draw, Value::Loss(Plies(8))] {
            assert_eq!(
                Value::with_class(v.class(), v.distance().unwrap_or(Plies(0))),
                Some(v)
            );
        }
        assert_eq!(Value::with_class(5, Plies(1)), None);
    }

    #[test]
    fn the_clock_turns_a_slow_win_into_a_draw() {
        let v = Value::Win(Plies(7));
        assert_eq!(v.at_clock(23, 30), Outcome::Win);
        assert_eq!(v.at_clock(24, 30), Outcome::Draw);
        assert_eq!(Value::Loss(Plies(0)).at_clock(30, 30), Outcome::Loss);
        assert_eq!(Value::CursedWin(Plies(1)).at_clock(0, 30), Outcome::Draw);
    }

    #[test]
    fn captures_pick_the_best() {
        let v = after_resets([Value::Win(Plies(3)), Value::BlessedLoss(Plies(5))]);
        assert_eq!(v, Value::CursedWin(Plies(1)));
        assert_eq!(after_resets([]), Value::Loss(Plies(0)));
        assert_eq!(after_resets([Value::Win(Plies(2))]), Value::Loss(Plies(1)));
        for children in [
            vec![Value::Win(Plies(3)), Value::BlessedLoss(Plies(5))],
            vec![Value::Draw, Value::Win(Plies(1))],
            vec![Value::Loss(Plies(2)), Value::Draw],
            vec![],
        ] {
            assert_eq!(
                wdl_after_resets(children.iter().map(|&v| Wdl::of(v))),
                Wdl::of(after_resets(children))
            );
        }
    }
}
