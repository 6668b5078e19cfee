//! The HTTP side: the routes of the page and of the game API, bounded request bodies read
//! with a deadline, and JSON answers. Every refused request gets a 4xx or 5xx status and a
//! body `{"error": "<one line>"}`, and changes nothing.
//!
//! Handlers are async only as far as HTTP needs: the games are plain synchronous code behind
//! a mutex, called on tokio's blocking pool ([`tokio::task::spawn_blocking`]), so a game
//! that takes a moment (starting an engine) never stalls another connection.

use super::analysis::{Analysis, MAX_ANALYSIS_DEPTH};
use super::assets::{self, Asset};
use super::error::{ApiError, ErrorKind, quote};
use super::guard::Guard;
use super::json::{self, Value};
use super::notes::Note;
use super::pdn_export::game_pdn;
use super::registry::Registry;
use super::session::{Session, lock};
use super::sse::STREAMS_PER_GAME;
use crate::games::Variant;
use crate::search::egdb::Databases;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper::header::{
    CACHE_CONTROL, CONNECTION, CONTENT_DISPOSITION, CONTENT_LENGTH, CONTENT_SECURITY_POLICY,
    CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use hyper::{Method, Request, Response, StatusCode};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Largest request body read, bytes (a PDN upload of a long game fits many times over).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Longest wait for a request's body once its head has arrived (then 408).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The Content-Security-Policy of every answer: the page's files, requests and event
/// streams come from this server only (no inline script or style: the page has none), its
/// icon is a `data:` image, and no page may frame it.
pub const CSP: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; \
                       base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A response body: a whole one or an event stream.
pub type Body = BoxBody<Bytes, Infallible>;

/// What the handlers share.
pub struct Shared {
    /// The games.
    pub registry: Registry,
    /// Which `Host` and `Origin` headers are this server's.
    pub guard: Guard,
    /// The game the page starts with (`--variant`; when absent, the one it played last).
    pub page_variant: Option<Variant>,
    /// The review threads (`/api/games/<id>/review`; each game keeps its own report).
    pub reviews: Arc<super::review::Reviews>,
    /// The endgame databases (`--egdb`) the tablebase panel reads.
    pub egdb: Option<Databases>,
}

fn respond(status: u16, content_type: &str, body: Body) -> Response<Body> {
    let mut r = Response::new(body);
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    // Only fixed ASCII values are set here.
    if let Ok(v) = content_type.parse() {
        h.insert(CONTENT_TYPE, v);
    }
    h.insert(CACHE_CONTROL, "no-store".parse().expect("ASCII"));
    // No other site may frame the page (clickjacking) or run script in it.
    h.insert(X_FRAME_OPTIONS, "DENY".parse().expect("ASCII"));
    h.insert(CONTENT_SECURITY_POLICY, CSP.parse().expect("ASCII"));
    h.insert(X_CONTENT_TYPE_OPTIONS, "nosniff".parse().expect("ASCII"));
    r
}

fn whole(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into()).boxed()
}

fn json_response(status: u16, v: &Value) -> Response<Body> {
    respond(status, "application/json", whole(v.to_string()))
}

/// The answer to a refused request. After a refusal about the body (too big, too slow) the
/// connection is closed: the rest of the body is not read.
fn error_response(e: &ApiError) -> Response<Body> {
    let body = json::object([("error", Value::from(e.message.as_str()))]);
    let mut r = json_response(e.status(), &body);
    if matches!(e.kind, ErrorKind::TooLarge | ErrorKind::Timeout) {
        r.headers_mut()
            .insert(CONNECTION, "close".parse().expect("ASCII"));
    }
    r
}

/// Handles one request; never fails (a refusal is a response too).
pub async fn handle(
    shared: Arc<Shared>,
    req: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    Ok(match answer(shared, req).await {
        Ok(r) => r,
        Err(e) => error_response(&e),
    })
}

/// The request's path split at `/`, and its query string.
fn path_and_query(req: &Request<Incoming>) -> (String, Vec<String>, String) {
    let path = req.uri().path().to_string();
    let parts = path
        .split('/')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    let query = req.uri().query().unwrap_or("").to_string();
    (path, parts, query)
}

async fn answer(shared: Arc<Shared>, req: Request<Incoming>) -> Result<Response<Body>, ApiError> {
    shared.guard.check(req.headers())?;
    let method = req.method().clone();
    let (path, parts, query) = path_and_query(&req);
    if let Some(asset) = assets::find(&path) {
        return if method == Method::GET || method == Method::HEAD {
            Ok(serve_asset(asset))
        } else {
            Err(ApiError::new(
                ErrorKind::MethodNotAllowed,
                format!("{method} {}: use GET", quote(&path)),
            ))
        };
    }
    let parts_ref: Vec<&str> = parts.iter().map(String::as_str).collect();
    match (&method, parts_ref.as_slice()) {
        (&Method::GET, ["api", "games", id, "events"]) => return open_stream(&shared, id),
        (&Method::GET, ["api", "games", id, "pdn"]) => return pdn(&shared, id),
        _ => {}
    }
    let body = if method == Method::POST {
        json_body(req).await?
    } else {
        Value::Null
    };
    let (status, v) = tokio::task::spawn_blocking(move || {
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        route(&shared, &method, &parts, &query, &body)
    })
    .await
    .map_err(failed)??;
    Ok(json_response(status, &v))
}

/// The answer to a request whose handler failed (a panic: a bug): 500 with a fixed message.
/// What the panic said (an index, a file's line) goes to the server's log, stderr, where the
/// panic hook printed it, never to the client.
fn failed(_: tokio::task::JoinError) -> ApiError {
    ApiError::new(
        ErrorKind::Internal,
        "internal error: the request failed (the server's log says why)",
    )
}

/// Reads the body: at most [`MAX_BODY_BYTES`] (413), within [`BODY_TIMEOUT`] (408).
async fn read_body(req: Request<Incoming>) -> Result<Bytes, ApiError> {
    let too_big = || {
        ApiError::new(
            ErrorKind::TooLarge,
            format!("request body over {MAX_BODY_BYTES} bytes"),
        )
    };
    let declared = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(too_big());
    }
    let limited = Limited::new(req.into_body(), MAX_BODY_BYTES);
    match tokio::time::timeout(BODY_TIMEOUT, limited.collect()).await {
        Err(_) => Err(ApiError::new(
            ErrorKind::Timeout,
            format!(
                "the request body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        )),
        Ok(Err(e)) if e.is::<LengthLimitError>() => Err(too_big()),
        Ok(Err(e)) => Err(ApiError::new(
            ErrorKind::BadRequest,
            format!("cannot read the body: {e}"),
        )),
        Ok(Ok(c)) => Ok(c.to_bytes()),
    }
}

/// Reads a JSON body (an empty body reads as `{}`). Every POST must say it is
/// `application/json`, with a body or without (so no other site's form can post one: a form
/// may send an empty `text/plain` body as well as a full one).
async fn json_body(req: Request<Incoming>) -> Result<Value, ApiError> {
    let is_json = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if !is_json {
        return Err(ApiError::new(
            ErrorKind::UnsupportedMediaType,
            "a POST must be JSON with Content-Type: application/json (an empty body too)",
        ));
    }
    let bytes = read_body(req).await?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    let text = std::str::from_utf8(&bytes)
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

/// The API calls answered with JSON (on the blocking pool).
fn route(
    shared: &Shared,
    method: &Method,
    parts: &[&str],
    query: &str,
    body: &Value,
) -> Result<(u16, Value), ApiError> {
    let reg = &shared.registry;
    let now = Instant::now();
    match (method, parts) {
        (&Method::GET, ["api", "info"]) => {
            let egdb = shared.egdb.as_ref();
            Ok((
                200,
                super::info_json(&reg.limits, shared.page_variant, egdb),
            ))
        }
        (&Method::GET, ["api", "status"]) => {
            let mut status = reg.status();
            if let Value::Object(m) = &mut status {
                m.insert("reviews".into(), Value::from(shared.reviews.running()));
            }
            Ok((200, status))
        }
        (&Method::POST, ["api", "games"]) => {
            let (s, variations) = reg.create(body)?;
            let mut state = lock(&s).state_with_notes(now);
            // Only this answer carries a PDN's variations: the session holds one line.
            if let Value::Object(m) = &mut state {
                m.insert("variations".into(), Value::from(variations));
            }
            Ok((201, state))
        }
        (&Method::GET, ["api", "games", id]) => {
            let s = reg.get(id)?;
            let s = lock(&s);
            Ok((200, s.state_with_notes(now)))
        }
        (&Method::GET, ["api", "games", id, "review"]) => Ok((200, shared.reviews.whole(reg, id)?)),
        (&Method::POST, ["api", "games", id, "review"]) => {
            Ok((202, shared.reviews.start(reg, id, body)?))
        }
        (&Method::POST, ["api", "games", id, "review", "try"]) => {
            Ok((200, shared.reviews.try_move(reg, id, body)?))
        }
        (&Method::GET, ["api", "games", id, "legal"]) => {
            let ply = query_number(query, "ply")?;
            let s = reg.get(id)?;
            let s = lock(&s);
            Ok((200, s.legal_at(ply)?))
        }
        (&Method::GET, ["api", "games", id, "tablebase"]) => {
            let ply = query_number(query, "ply")?;
            let s = reg.get(id)?;
            let s = lock(&s);
            Ok((200, s.tablebase_at(ply, shared.egdb.as_ref())?))
        }
        (&Method::DELETE, ["api", "games", id]) => {
            reg.remove(id)?;
            Ok((200, json::object([("closed", Value::from(*id))])))
        }
        (&Method::POST, ["api", "games", id, action]) => game_action(reg, id, action, body, now),
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
        ["api", "info" | "status" | "games"]
            | ["api", "games", _]
            | ["api", "games", _, _]
            | ["api", "games", _, "review", "try"]
    )
}

fn serve_asset(asset: &'static Asset) -> Response<Body> {
    respond(
        200,
        asset.content_type,
        whole(Bytes::from_static(asset.body)),
    )
}

/// `GET /api/games/<id>/pdn`: the game as a PDN download.
fn pdn(shared: &Shared, id: &str) -> Result<Response<Body>, ApiError> {
    let s = shared.registry.get(id)?;
    let text = game_pdn(&lock(&s));
    let mut r = respond(200, "application/x-pdn; charset=utf-8", whole(text));
    // The id was found, so it is one the server made: 16 hexadecimal digits.
    let disposition = format!("attachment; filename=\"bashni-{id}.pdn\"");
    if let Ok(v) = disposition.parse() {
        r.headers_mut().insert(CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

/// `GET /api/games/<id>/events`: the game's event stream, in one of its own slots.
fn open_stream(shared: &Shared, id: &str) -> Result<Response<Body>, ApiError> {
    let session = shared.registry.get(id)?;
    let now = Instant::now();
    let body = {
        let mut s = lock(&session);
        // The state, then the analysis's last lines and the whole review if the game has
        // them: a page that comes back (a stream dropped for falling behind reconnects, a
        // reload) or another tab of the game has all it needs.
        let mut first = super::sse::format_event("state", &s.state(now));
        if let Some(lines) = &s.last_analysis {
            first.push_str(&super::sse::format_event("analysis", lines));
        }
        if let Some(report) = s.review.whole() {
            first.push_str(&super::sse::format_event("review", &report));
        }
        s.subscribers.add(&first, now)
    };
    let body = body.ok_or_else(|| {
        ApiError::new(
            ErrorKind::Busy,
            format!(
                "game {id} has {STREAMS_PER_GAME} event streams open already (the most one \
                 game may have); close another tab of it"
            ),
        )
    })?;
    let mut r = respond(200, "text/event-stream", body.boxed());
    r.headers_mut()
        .insert(CACHE_CONTROL, "no-cache".parse().expect("ASCII"));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 66: a handler's panic answered 500 with the panic's own text (an index out of
    /// bounds in the tablebase call).
    #[test]
    fn a_panic_s_text_never_reaches_the_client() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let join = rt.block_on(async {
            tokio::task::spawn_blocking(|| -> u8 {
                panic!("index out of bounds: the len is 868 but the index is 886")
            })
            .await
        });
        let e = failed(join.unwrap_err());
        assert_eq!(e.status(), 500);
        for leak in ["868", "index", "panicked", "bounds"] {
            assert!(!e.message.contains(leak), "{}", e.message);
        }
    }
}
