//! The tablebase panel's data: a position's value by the endgame databases (`bashni serve
//! --egdb`, docs/egdb.md) and every legal move's value for its mover, best first, at the
//! position's clock ([`crate::egdb::moves`]). `GET /api/games/<id>/tablebase?ply=n`
//! answers it (web/CONTRACT.md).

use super::json::{self, Value};
use crate::egdb::{Outcome, Rated, move_values};
use crate::games::Game;
use crate::search::egdb::{Databases, describe_value};

/// `pos` by the tables in `dbs`: `{"clock", "limit", "value", "text", "moves": [{"move",
/// ...value}]}`, each value as [`rated_json`] writes it, `text` the position's value in
/// words; null where the tables of its game do not hold it (or a position after one of its
/// moves).
pub fn verdict<G: Game>(pos: &G, dbs: &Databases) -> Value {
    let Some(tb) = dbs.of::<G>() else {
        return Value::Null;
    };
    let mut probe = tb.prober();
    let limit = tb.clock_limit();
    let Some(v) = move_values(pos, limit, |p| probe.probe(p, u32::MAX)) else {
        return Value::Null;
    };
    let moves: Vec<Value> = v
        .moves
        .iter()
        .map(|m| {
            let text = ("move", Value::from(m.mv.to_string()));
            json::object(std::iter::once(text).chain(rated_members(m.rated)))
        })
        .collect();
    json::object([
        ("clock", Value::from(v.clock)),
        ("limit", Value::from(v.limit)),
        ("value", rated_json(v.rated)),
        (
            "text",
            Value::from(describe_value(v.rated.value, v.clock, v.limit)),
        ),
        ("moves", Value::Array(moves)),
    ])
}

/// A value at a clock: `{"class": "win" | "cursed-win" | "draw" | "blessed-loss" | "loss",
/// "distance": n | null, "outcome": "win" | "draw" | "loss", "by_clock": bool}`
/// (`by_clock`: the rule's clock turns a win or a loss into a draw here).
pub fn rated_json(r: Rated) -> Value {
    json::object(rated_members(r))
}

/// The members of [`rated_json`].
fn rated_members(r: Rated) -> [(&'static str, Value); 4] {
    let outcome = match r.outcome {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    };
    [
        ("class", Value::from(r.value.name())),
        (
            "distance",
            r.value.distance().map(|d| Value::from(d.0)).into(),
        ),
        ("outcome", Value::from(outcome)),
        ("by_clock", Value::from(r.drawn_by_clock())),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egdb::{Plies, Value as Egdb};

    #[test]
    fn a_value_says_what_the_clock_makes_of_it() {
        let v = rated_json(Rated::at(Egdb::Win(Plies(18)), 20, 30));
        assert_eq!(v.get("class").and_then(Value::as_str), Some("win"));
        assert_eq!(v.get("distance").and_then(Value::as_u64), Some(18));
        assert_eq!(v.get("outcome").and_then(Value::as_str), Some("draw"));
        assert_eq!(v.get("by_clock").and_then(Value::as_bool), Some(true));
        let d = rated_json(Rated::at(Egdb::Draw, 0, 30));
        assert_eq!(d.get("distance"), Some(&Value::Null));
        assert_eq!(d.get("by_clock").and_then(Value::as_bool), Some(false));
    }
}
