//! The page's puzzle mode (`/puzzles`, web/puzzles.js): the shipped puzzles of each game
//! (puzzles/<game>.csv, compiled in: [`shipped`]), answered by both back ends through
//! [`super::api::route`]. The page owns no rules: each puzzle comes with every position of
//! its line and the legal moves there, as a game's `legal` answer gives them.
//!
//! - `GET /api/puzzles?variant=V`: `{variant, puzzles: [{id, rating, themes}]}`, in the
//!   file's order.
//! - `GET /api/puzzles/<variant>/<id>`: `{id, variant, fen, moves, rating, themes, source,
//!   positions}`; `positions[i]` is `{fen, legal: [{move, path}]}` before `moves[i]`, and
//!   one more after the last move.

use super::error::{ApiError, ErrorKind, quote};
use super::json::{self, Value};
use crate::display::square_name;
use crate::games::{Game, Variant};
use crate::record::puzzle::{Puzzle, parse_file, shipped};

/// The shipped puzzles of `variant` (the files are checked by the suite: they read).
fn puzzles_of(variant: Variant) -> Vec<Puzzle> {
    parse_file(shipped(variant)).unwrap_or_default()
}

/// The game named by `text`, or a 400.
fn variant(text: &str) -> Result<Variant, ApiError> {
    text.parse::<Variant>().map_err(|_| {
        ApiError::new(
            ErrorKind::BadRequest,
            format!(
                "'{}' is not a game (bashni, turkish, russian, brazilian, lasca)",
                quote(text)
            ),
        )
    })
}

fn strings(items: &[String]) -> Value {
    Value::Array(items.iter().map(|s| Value::from(s.as_str())).collect())
}

/// `GET /api/puzzles?variant=V` (Bashni without one).
pub fn index(query: &str) -> Result<Value, ApiError> {
    let name = query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "variant")
        .map_or("bashni", |(_, v)| v);
    let v = variant(name)?;
    let list = puzzles_of(v)
        .iter()
        .map(|p| {
            json::object([
                ("id", Value::from(p.id.as_str())),
                ("rating", Value::from(u64::from(p.rating))),
                ("themes", strings(&p.themes)),
            ])
        })
        .collect();
    Ok(json::object([
        ("variant", Value::from(v.to_string())),
        ("puzzles", Value::Array(list)),
    ]))
}

/// A position of a puzzle's line: its FEN and its legal moves with their squares.
fn position<G: Game>(pos: &G) -> Value {
    let legal = if pos.decided().is_some() {
        Vec::new()
    } else {
        pos.legal_moves()
            .iter()
            .map(|m| {
                let path = G::move_squares(m)
                    .into_iter()
                    .map(|(f, r)| Value::from(square_name(f, r)))
                    .collect();
                json::object([
                    ("move", Value::from(m.to_string())),
                    ("path", Value::Array(path)),
                ])
            })
            .collect()
    };
    json::object([
        ("fen", Value::from(pos.to_fen())),
        ("legal", Value::Array(legal)),
    ])
}

/// Every position of `p`'s line in game `G`, or why it does not replay.
fn positions<G: Game>(p: &Puzzle) -> Result<Vec<Value>, ApiError> {
    let record = p
        .replay::<G>()
        .map_err(|e| ApiError::new(ErrorKind::Internal, format!("puzzle {}: {e}", p.id)))?;
    let mut pos = record.start().clone();
    let mut out = vec![position(&pos)];
    for m in record.moves() {
        pos = pos.played(m);
        out.push(position(&pos));
    }
    Ok(out)
}

/// `GET /api/puzzles/<variant>/<id>`.
pub fn one(variant_name: &str, id: &str) -> Result<Value, ApiError> {
    let v = variant(variant_name)?;
    let p = puzzles_of(v)
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| {
            ApiError::new(
                ErrorKind::NotFound,
                format!("no {v} puzzle '{}'", quote(id)),
            )
        })?;
    let positions = crate::for_variant!(v, G => positions::<G>(&p))?;
    Ok(json::object([
        ("id", Value::from(p.id.as_str())),
        ("variant", Value::from(v.to_string())),
        ("fen", Value::from(p.fen.as_str())),
        ("moves", strings(&p.moves)),
        ("rating", Value::from(u64::from(p.rating))),
        ("themes", strings(&p.themes)),
        ("source", Value::from(p.source.as_str())),
        ("positions", Value::Array(positions)),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_puzzle_is_answered_with_its_positions() {
        for v in Variant::ALL {
            let list = index(&format!("variant={v}")).unwrap();
            let list = list.get("puzzles").unwrap().as_array().unwrap();
            assert_eq!(list.len(), puzzles_of(v).len());
            for p in list {
                let id = p.get("id").unwrap().as_str().unwrap();
                let whole = one(&v.to_string(), id).unwrap();
                let moves = whole.get("moves").unwrap().as_array().unwrap().len();
                let positions = whole.get("positions").unwrap().as_array().unwrap();
                assert_eq!(positions.len(), moves + 1, "{v} {id}");
                // Every move of the line is among the legal moves of its position.
                for (i, m) in whole
                    .get("moves")
                    .unwrap()
                    .as_array()
                    .unwrap()
                    .iter()
                    .enumerate()
                {
                    let legal = positions[i].get("legal").unwrap().as_array().unwrap();
                    assert!(
                        legal.iter().any(|l| l.get("move") == Some(m)),
                        "{v} {id} {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn bad_names_are_refused() {
        assert!(index("variant=chess").is_err());
        assert!(one("bashni", "nosuch").is_err());
        assert!(one("chess", "x").is_err());
        assert_eq!(
            index("").unwrap().get("variant").unwrap().as_str(),
            Some("bashni")
        );
    }
}
