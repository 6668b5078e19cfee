//! The API of `bashni serve` (web/CONTRACT.md) as functions, apart from any transport: a
//! request (method, path, query string, JSON body) becomes a status and a JSON answer, or a
//! refusal ([`ApiError`]: a status and one line) that changes nothing. The HTTP server
//! (`native/http.rs`) and the browser's back end (`browser/`) both answer through [`route`];
//! [`open_stream`] and [`pdn`] are the two answers that are not one JSON value.

use super::analysis::{Analysis, MAX_ANALYSIS_DEPTH};
use super::error::{ApiError, ErrorKind, quote};
use super::events::{EventSink, STREAMS_PER_GAME};
use super::json::{self, Value};
use super::notes::Note;
use super::pdn_export::game_pdn;
use super::registry::Registry;
use super::review::{Asked, Reviews};
use super::session::{Session, lock};
use crate::games::Variant;
use crate::platform::Instant;
use crate::search::egdb::Databases;
use std::sync::{Arc, OnceLock};

/// Largest request body read, bytes (a PDN upload of a long game fits many times over).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// What the API's calls share: the games, their reviews, and what the page is told.
pub struct Core {
    /// The games.
    pub registry: Registry,
    /// The game the page starts with (`--variant`; when absent, the one it played last).
    pub page_variant: Option<Variant>,
    /// The reviews running (`/api/games/<id>/review`; each game keeps its own report).
    pub reviews: Arc<Reviews>,
    /// The endgame databases (`--egdb`) the tablebase panel reads.
    pub egdb: Option<Databases>,
}

fn bad(what: impl Into<String>) -> ApiError {
    ApiError::new(ErrorKind::BadRequest, what)
}

fn optional_ply(body: &Value) -> Result<Option<usize>, ApiError> {
    body.get("ply")
        .map(|v| {
            v.as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| bad("'ply' must be a whole number"))
        })
        .transpose()
}

/// The whole number `name=<n>` of a query string (absent: None).
fn query_number(query: &str, name: &str) -> Result<Option<usize>, ApiError> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| {
            v.parse()
                .map_err(|_| bad(format!("'{name}' must be a whole number")))
        })
        .transpose()
}

/// Runs `f` on game `id` and answers with its state.
fn with_game(
    reg: &Registry,
    id: &str,
    f: impl FnOnce(&mut Session) -> Result<(), ApiError>,
) -> Result<(u16, Value), ApiError> {
    let s = reg.get(id)?;
    let mut s = lock(&s);
    f(&mut s)?;
    Ok((200, s.state(Instant::now())))
}

/// The API calls answered with JSON: `method` (`GET`, `POST`, `DELETE`, ...) on the path
/// `parts` (split at `/`), with its query string and its body (`{}` when it has none).
pub fn route(
    core: &Core,
    method: &str,
    parts: &[&str],
    query: &str,
    body: &Value,
) -> Result<(u16, Value), ApiError> {
    let reg = &core.registry;
    let now = Instant::now();
    match (method, parts) {
        ("GET", ["api", "info"]) => {
            let egdb = core.egdb.as_ref();
            Ok((200, super::info_json(&reg.limits, core.page_variant, egdb)))
        }
        ("GET", ["api", "status"]) => {
            let mut status = reg.status();
            if let Value::Object(m) = &mut status {
                m.insert("reviews".into(), Value::from(core.reviews.running()));
            }
            Ok((200, status))
        }
        ("POST", ["api", "games"]) => {
            let (s, variations) = reg.create(body)?;
            let mut state = lock(&s).state_with_notes(now);
            // Only this answer carries a PDN's variations: the session holds one line.
            if let Value::Object(m) = &mut state {
                m.insert("variations".into(), Value::from(variations));
            }
            Ok((201, state))
        }
        ("GET", ["api", "games", id]) => {
            let s = reg.get(id)?;
            let s = lock(&s);
            Ok((200, s.state_with_notes(now)))
        }
        ("GET", ["api", "games", id, "review"]) => Ok((200, core.reviews.whole(reg, id)?)),
        ("POST", ["api", "games", id, "review"]) => {
            Ok((202, core.reviews.start(Asked::read(reg, id, body)?)?))
        }
        ("POST", ["api", "games", id, "review", "try"]) => {
            Ok((200, core.reviews.try_move(Asked::read(reg, id, body)?)?))
        }
        ("GET", ["api", "games", id, "legal"]) => {
            let ply = query_number(query, "ply")?;
            let s = reg.get(id)?;
            let s = lock(&s);
            Ok((200, s.legal_at(ply)?))
        }
        ("GET", ["api", "games", id, "tablebase"]) => {
            let ply = query_number(query, "ply")?;
            let s = reg.get(id)?;
            let s = lock(&s);
            Ok((200, s.tablebase_at(ply, core.egdb.as_ref())?))
        }
        ("GET", ["api", "puzzles"]) => Ok((200, super::puzzles::index(query)?)),
        ("GET", ["api", "puzzles", variant, id]) => Ok((200, super::puzzles::one(variant, id)?)),
        ("DELETE", ["api", "games", id]) => {
            reg.remove(id)?;
            Ok((200, json::object([("closed", Value::from(*id))])))
        }
        ("POST", ["api", "games", id, action]) => game_action(reg, id, action, body, now),
        (_, ["api", ..]) => Err(ApiError::new(
            if known_path(parts) {
                ErrorKind::MethodNotAllowed
            } else {
                ErrorKind::NotFound
            },
            format!("{method} /{}: no such API call", quote(&parts.join("/"))),
        )),
        _ => Err(ApiError::new(
            ErrorKind::NotFound,
            format!("no page /{}", quote(&parts.join("/"))),
        )),
    }
}

/// `POST /api/games/<id>/<action>`.
fn game_action(
    reg: &Registry,
    id: &str,
    action: &str,
    body: &Value,
    now: Instant,
) -> Result<(u16, Value), ApiError> {
    match action {
        "move" => {
            let text = body
                .get("move")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("'move' must be a move string"))?;
            let ply = optional_ply(body)?;
            with_game(reg, id, |s| s.play_person(text, ply, now))
        }
        "note" => note(reg, id, body, now),
        "line" => {
            let moves = move_list(body)?;
            let main = match body.get("main") {
                None => true,
                Some(v) => v
                    .as_bool()
                    .ok_or_else(|| bad("'main' must be true or false"))?,
            };
            with_game(reg, id, |s| s.hold_line(&moves, main, now))
        }
        "takeback" => with_game(reg, id, |s| s.takeback(now)),
        "draw" => with_game(reg, id, |s| s.offer_draw(now)),
        "resign" => with_game(reg, id, |s| s.resign(now)),
        "hint" => with_game(reg, id, |s| s.request_hint()),
        "retry" => with_game(reg, id, |s| s.retry(now)),
        "analysis" => {
            let on = body
                .get("on")
                .and_then(Value::as_bool)
                .ok_or_else(|| bad("'on' must be true or false"))?;
            let ply = optional_ply(body)?;
            let multipv = match body.get("multipv") {
                None => 1,
                Some(v) => v
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| bad("'multipv' must be a whole number"))?,
            };
            let (threat, depth) = analysis_search(body)?;
            with_game(reg, id, |s| {
                let req = on.then(|| Analysis {
                    ply: ply.unwrap_or(s.game().moves().len()),
                    multipv,
                    threat,
                    depth,
                });
                s.set_analysis(req, now)
            })
        }
        other => Err(ApiError::new(
            ErrorKind::NotFound,
            format!(
                "unknown action '{}' (move, line, takeback, draw, resign, hint, retry, analysis, \
                 note)",
                quote(other)
            ),
        )),
    }
}

/// `POST /api/games/<id>/note`: `{"moves": [...], "comment": "...", "glyph": "?!"}` sets
/// the comment and glyph of the move ending `moves` (empty both: removes them); the answer
/// is the state with the game's tags and notes.
fn note(reg: &Registry, id: &str, body: &Value, now: Instant) -> Result<(u16, Value), ApiError> {
    let moves = move_list(body)?;
    let text = |name: &str| match body.get(name) {
        None | Some(Value::Null) => Ok(""),
        Some(v) => v
            .as_str()
            .ok_or_else(|| bad(format!("'{name}' must be a string"))),
    };
    let note = Note::new(text("comment")?, text("glyph")?, "")?;
    let s = reg.get(id)?;
    let mut s = lock(&s);
    s.annotate(&moves, note)?;
    Ok((200, s.state_with_notes(now)))
}

/// A body's `moves`: an array of move strings.
fn move_list(body: &Value) -> Result<Vec<String>, ApiError> {
    body.get("moves")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().map(|m| m.as_str().map(str::to_string)).collect())
        .ok_or_else(|| bad("'moves' must be an array of move strings"))
}

/// An analysis request's `threat` (default false) and `depth` (default none: no end).
fn analysis_search(body: &Value) -> Result<(bool, Option<u32>), ApiError> {
    let threat = match body.get("threat") {
        None => false,
        Some(v) => v
            .as_bool()
            .ok_or_else(|| bad("'threat' must be true or false"))?,
    };
    let depth = match body.get("depth") {
        None => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| (1..=MAX_ANALYSIS_DEPTH).contains(n))
                .ok_or_else(|| bad(format!("'depth' must be from 1 to {MAX_ANALYSIS_DEPTH}")))?,
        ),
    };
    Ok((threat, depth))
}

/// Whether an API path exists for some other method (then the answer is 405).
fn known_path(parts: &[&str]) -> bool {
    matches!(
        parts,
        ["api", "info" | "status" | "games" | "puzzles"]
            | ["api", "puzzles", _, _]
            | ["api", "games", _]
            | ["api", "games", _, _]
            | ["api", "games", _, "review", "try"]
    )
}

/// A request's body as the API reads it: a JSON object, or `{}` when it is empty.
pub fn json_body(bytes: &[u8]) -> Result<Value, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ApiError::new(ErrorKind::BadRequest, "the body is not UTF-8"))?;
    let v = json::parse(text).map_err(|e| ApiError::new(ErrorKind::BadRequest, e.to_string()))?;
    match v {
        Value::Object(_) => Ok(v),
        _ => Err(ApiError::new(
            ErrorKind::BadRequest,
            "the body must be a JSON object",
        )),
    }
}

/// `GET /api/games/<id>/pdn`: the game as PDN, as `bashni match` writes it.
pub fn pdn(core: &Core, id: &str) -> Result<String, ApiError> {
    let s = core.registry.get(id)?;
    Ok(game_pdn(&lock(&s)))
}

/// `GET /api/games/<id>/events`: opens one of the game's event streams. `open` makes the
/// stream from the events it starts with (the state, then the analysis's last lines and the
/// whole review if the game has them: a page that comes back, a stream dropped for falling
/// behind that reconnects, a reload, or another tab of the game has all it needs) and the
/// game's closed flag (set, the stream ends with `gone` and its data); it gives the sending
/// end for the game and what the caller keeps.
pub fn open_stream<T>(
    core: &Core,
    id: &str,
    open: impl FnOnce(&[(&str, Value)], Arc<OnceLock<String>>) -> (Box<dyn EventSink>, T),
) -> Result<T, ApiError> {
    let session = core.registry.get(id)?;
    let now = Instant::now();
    let mut s = lock(&session);
    if !s.subscribers.has_room(now) {
        return Err(ApiError::new(
            ErrorKind::Busy,
            format!(
                "game {id} has {STREAMS_PER_GAME} event streams open already (the most one \
                 game may have); close another tab of it"
            ),
        ));
    }
    let mut first = vec![("state", s.state(now))];
    if let Some(lines) = &s.last_analysis {
        first.push(("analysis", lines.clone()));
    }
    if let Some(report) = s.review.whole() {
        first.push(("review", report));
    }
    let (sink, kept) = open(&first, s.subscribers.closed_flag());
    s.subscribers.add(sink, now);
    Ok(kept)
}
