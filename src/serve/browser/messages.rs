//! The messages between the page and its back end in the browser, each one line of JSON.
//!
//! From the page:
//! - `{"id": n, "method": "POST", "path": "/api/games/<id>/move", "body": "<JSON text>"}`: a
//!   request of the HTTP API (web/CONTRACT.md), its path with its query string, its body the
//!   text an HTTP request would carry (absent or empty: `{}`; at most
//!   [`MAX_BODY_BYTES`]);
//! - `{"close": n}`: the page closed the event stream it opened with request `n`;
//! - `{"restore": {...}}`: the clocks kept over a reload, as `keep` gave them.
//!
//! To the page:
//! - `{"id": n, "status": 200, "body": {...}}` (a refusal's body `{"error": "<one line>"}`),
//!   or `"text"` instead of `"body"` for a PDN (`GET .../pdn`);
//! - `{"stream": n, "event": "state", "data": {...}}`: an event of the stream opened by
//!   request `n` (`GET .../events`: its events follow an answer with a null body), `gone` its
//!   last when the game is closed;
//! - `{"keep": {"<game id>": {"left": [ms, ms], "running": "white" | "black" | null,
//!   "start_fen", "moves", "unix_ms"}}}`: the clocks of every open clock game, for the
//!   browser's storage, after every change.

use super::post;
use crate::games::kit::color::Color;
use crate::platform::{Instant, unix_ms};
use crate::serve::api::{self, Core, MAX_BODY_BYTES};
use crate::serve::clocks::Retired;
use crate::serve::error::{ApiError, ErrorKind};
use crate::serve::events::EventSink;
use crate::serve::json::{self, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// A message from the page.
#[derive(Debug)]
pub enum Request {
    /// A request of the API: its number, method, path and query string, and body.
    Call {
        id: u64,
        method: String,
        path: String,
        body: String,
    },
    /// The page closed the event stream of request `n`.
    Close(u64),
    /// The clocks kept over a reload.
    Restore(Value),
}

impl Request {
    /// Whether answering it searches (`POST .../review/try`): it waits for a turn that may
    /// search.
    pub fn searches(&self) -> bool {
        matches!(self, Request::Call { method, path, .. }
            if method == "POST" && path.split('?').next().is_some_and(|p| p.ends_with("/review/try")))
    }
}

/// A message the host cannot read: the request's number when it has one, and why.
#[derive(Debug)]
pub struct Unread(Option<u64>, ApiError);

fn bad(what: impl Into<String>) -> ApiError {
    ApiError::new(ErrorKind::BadRequest, what)
}

/// Reads one message from the page.
pub fn parse(text: &str) -> Result<Request, Unread> {
    let v = json::parse(text).map_err(|e| Unread(None, bad(format!("a message: {e}"))))?;
    if let Some(n) = v.get("close").and_then(Value::as_u64) {
        return Ok(Request::Close(n));
    }
    if let Some(kept) = v.get("restore") {
        return Ok(Request::Restore(kept.clone()));
    }
    let id = v
        .get("id")
        .and_then(Value::as_u64)
        .ok_or_else(|| Unread(None, bad("a message without its number ('id')")))?;
    let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let (Some(method), Some(path)) = (text("method"), text("path")) else {
        return Err(Unread(Some(id), bad("a request needs 'method' and 'path'")));
    };
    let body = text("body").unwrap_or_default();
    Ok(Request::Call {
        id,
        method,
        path,
        body,
    })
}

/// Answers one message (a message it cannot read is answered with its refusal, when it has a
/// number to answer).
pub fn serve(core: &Core, request: Result<Request, Unread>) {
    match request {
        Ok(Request::Call {
            id,
            method,
            path,
            body,
        }) => call(core, id, &method, &path, &body),
        Ok(Request::Close(n)) => {
            if let Some(closed) = STREAMS.with(|s| s.borrow_mut().remove(&n)) {
                closed.store(true, Ordering::SeqCst);
            }
        }
        Ok(Request::Restore(kept)) => restore(core, &kept),
        Err(Unread(Some(id), e)) => answer(id, Err(e)),
        Err(Unread(None, _)) => {}
    }
}

/// A request of the API.
fn call(core: &Core, id: u64, method: &str, path: &str, body: &str) {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    match (method, parts.as_slice()) {
        ("GET", ["api", "games", game, "events"]) => {
            if let Err(e) = open_stream(core, id, game) {
                answer(id, Err(e));
            }
        }
        ("GET", ["api", "games", game, "pdn"]) => match api::pdn(core, game) {
            Ok(text) => post(
                &json::object([
                    ("id", Value::from(id)),
                    ("status", Value::from(200)),
                    ("text", Value::from(text)),
                ])
                .to_string(),
            ),
            Err(e) => answer(id, Err(e)),
        },
        _ => {
            let body = if method != "POST" {
                Ok(Value::Null)
            } else if body.len() > MAX_BODY_BYTES {
                Err(ApiError::new(
                    ErrorKind::TooLarge,
                    format!("request body over {MAX_BODY_BYTES} bytes"),
                ))
            } else {
                api::json_body(body.as_bytes())
            };
            let answered = body.and_then(|b| api::route(core, method, &parts, query, &b));
            answer(id, answered);
        }
    }
}

/// Posts the answer to request `id`.
fn answer(id: u64, result: Result<(u16, Value), ApiError>) {
    let (status, body) = match result {
        Ok(ok) => ok,
        Err(e) => (
            e.status(),
            json::object([("error", Value::from(e.message.as_str()))]),
        ),
    };
    post(
        &json::object([
            ("id", Value::from(id)),
            ("status", Value::from(status)),
            ("body", body),
        ])
        .to_string(),
    );
}

thread_local! {
    /// The flag of each open stream, by the request that opened it: set when the page closes
    /// it.
    static STREAMS: RefCell<HashMap<u64, Arc<AtomicBool>>> = RefCell::new(HashMap::new());
}

/// One event stream of the page: its events are messages.
struct PageStream {
    id: u64,
    /// Set when the page closed it.
    closed: Arc<AtomicBool>,
    /// Set when its game was closed, to the data of the `gone` the stream then ends with.
    game_closed: Arc<OnceLock<String>>,
}

/// An event of stream `id`.
fn event(id: u64, event: &str, data: &str) -> String {
    format!(r#"{{"stream":{id},"event":"{event}","data":{data}}}"#)
}

impl EventSink for PageStream {
    fn send(&mut self, name: &str, data: &str) -> bool {
        post(&event(self.id, name, data));
        true
    }

    fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

impl Drop for PageStream {
    /// A stream dropped because its game was closed ends with `gone`.
    fn drop(&mut self) {
        let _ = STREAMS.try_with(|s| s.borrow_mut().remove(&self.id));
        if let Some(gone) = self.game_closed.get()
            && !self.is_closed()
        {
            post(&event(self.id, "gone", gone));
        }
    }
}

/// `GET .../events` of request `id`: the answer (a null body), then the stream's events.
fn open_stream(core: &Core, id: u64, game: &str) -> Result<(), ApiError> {
    api::open_stream(core, game, |first, game_closed| {
        answer(id, Ok((200, Value::Null)));
        for (name, data) in first {
            post(&event(id, name, &data.to_string()));
        }
        let closed = Arc::new(AtomicBool::new(false));
        STREAMS.with(|s| s.borrow_mut().insert(id, closed.clone()));
        let stream = PageStream {
            id,
            closed,
            game_closed,
        };
        (Box::new(stream) as Box<dyn EventSink>, ())
    })
}

/// The `keep` message of `clocks` (each open clock game's, taken now).
pub fn keep(clocks: &[(String, Retired)]) -> String {
    let now = unix_ms();
    let games = clocks.iter().map(|(id, r)| {
        let v = json::object([
            ("left", Value::from(r.left.to_vec())),
            ("running", Value::from(r.running.map(Color::name))),
            ("start_fen", Value::from(r.start_fen.as_str())),
            ("moves", Value::from(r.moves.clone())),
            ("unix_ms", Value::from(now)),
        ]);
        (id.clone(), v)
    });
    json::object([("keep", json::object(games))]).to_string()
}

/// The clocks the page kept over a reload, charged the time it was away to the side whose
/// clock ran: each game opened again with `"resume"` goes on with its own.
fn restore(core: &Core, kept: &Value) {
    let Some(games) = kept.as_object() else {
        return;
    };
    let (now, wall) = (Instant::now(), unix_ms());
    for (id, v) in games {
        if let Some(r) = retired(v, now, wall) {
            core.registry.keep_retired(id, r);
        }
    }
}

/// One game's kept clocks as the registry keeps them, at `now` (the wall clock's `wall`);
/// None when it is not what `keep` writes.
fn retired(v: &Value, now: Instant, wall: u64) -> Option<Retired> {
    let left = v.get("left")?.as_array()?;
    let mut left: [i64; 2] = [left.first()?.as_i64()?, left.get(1)?.as_i64()?];
    let running = match v.get("running")?.as_str() {
        None => None,
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        Some(_) => return None,
    };
    let away = wall.saturating_sub(v.get("unix_ms")?.as_u64()?);
    if let Some(side) = running {
        let i = side.index();
        left[i] = left[i].saturating_sub(i64::try_from(away).unwrap_or(i64::MAX));
    }
    let moves = v.get("moves")?.as_array()?;
    Some(Retired {
        left,
        running,
        start_fen: v.get("start_fen")?.as_str()?.to_string(),
        moves: moves
            .iter()
            .map(|m| m.as_str().map(str::to_string))
            .collect::<Option<_>>()?,
        at: now,
    })
}
