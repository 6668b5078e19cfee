//! The HTTP side: the routes of the page and of the game API, bounded request bodies, and
//! JSON answers. Every refused request gets a 4xx or 5xx status and a body
//! `{"error": "<one line>"}`, and changes nothing.

use super::assets::{self, Asset};
use super::engine_worker::lock;
use super::json::{self, Value};
use super::pdn_export::game_pdn;
use super::registry::{Registry, SharedSession};
use super::sse;
use crate::games::Variant;
use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tiny_http::{Header, Method, Request, Response};

/// Largest request body read, bytes (a PDN upload of a long game fits many times over).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// A refused request: the HTTP status and one line saying why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// Why, in one line.
    pub message: String,
}

impl ApiError {
    /// An error with `status` and `message`.
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

/// What the handlers share.
pub struct Shared {
    /// The games.
    pub registry: Registry,
    /// Event streams open now.
    pub streams: AtomicUsize,
    /// Most event streams at once.
    pub max_streams: usize,
    /// The game the page starts with (`--variant`; when absent, the one it played last).
    pub page_variant: Option<Variant>,
}

fn header(name: &str, value: &str) -> Header {
    // Only called with fixed ASCII names and values.
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

fn send(req: Request, status: u16, content_type: &str, body: Vec<u8>, extra: &[(&str, &str)]) {
    let mut resp = Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"));
    for (n, v) in extra {
        resp.add_header(header(n, v));
    }
    // A client that went away needs no answer.
    let _ = req.respond(resp);
}

fn send_json(req: Request, status: u16, v: &Value) {
    send(
        req,
        status,
        "application/json",
        v.to_string().into_bytes(),
        &[],
    );
}

fn send_error(req: Request, e: &ApiError) {
    let body = json::object([("error", Value::from(e.message.as_str()))]);
    send_json(req, e.status, &body);
}

/// Reads the body, refusing one over [`MAX_BODY_BYTES`] (413) or not UTF-8 (400).
fn read_body(req: &mut Request) -> Result<String, ApiError> {
    let too_big = || ApiError::new(413, format!("request body over {MAX_BODY_BYTES} bytes"));
    if req.body_length().is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(too_big());
    }
    let mut buf = Vec::new();
    req.as_reader()
        .take(MAX_BODY_BYTES as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| ApiError::new(400, format!("cannot read the body: {e}")))?;
    if buf.len() > MAX_BODY_BYTES {
        return Err(too_big());
    }
    String::from_utf8(buf).map_err(|_| ApiError::new(400, "the body is not UTF-8"))
}

/// Reads a JSON body (an empty body reads as `{}`).
fn json_body(req: &mut Request) -> Result<Value, ApiError> {
    let text = read_body(req)?;
    if text.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    let v = json::parse(&text).map_err(|e| ApiError::new(400, e.to_string()))?;
    match v {
        Value::Object(_) => Ok(v),
        _ => Err(ApiError::new(400, "the body must be a JSON object")),
    }
}

fn optional_ply(body: &Value) -> Result<Option<usize>, ApiError> {
    body.get("ply")
        .map(|v| {
            v.as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| ApiError::new(400, "'ply' must be a whole number"))
        })
        .transpose()
}

/// Handles one request (an event stream is handed to a thread of its own).
pub fn handle(shared: &Arc<Shared>, mut req: Request) {
    let url = req.url().to_string();
    let path = url.split(['?', '#']).next().unwrap_or("");
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let method = req.method().clone();
    if let Some(asset) = assets::find(path) {
        if method == Method::Get || method == Method::Head {
            serve_asset(req, asset);
        } else {
            send_error(
                req,
                &ApiError::new(405, format!("{method} {path}: use GET")),
            );
        }
        return;
    }
    match (&method, parts.as_slice()) {
        (Method::Get, ["api", "games", id, "events"]) => {
            let id = id.to_string();
            open_stream(shared, req, &id);
            return;
        }
        (Method::Get, ["api", "games", id, "pdn"]) => {
            match shared.registry.get(id) {
                Ok(s) => {
                    let text = game_pdn(&lock(&s));
                    let disposition = format!("attachment; filename=\"bashni-{id}.pdn\"");
                    send(
                        req,
                        200,
                        "application/x-pdn; charset=utf-8",
                        text.into_bytes(),
                        &[("Content-Disposition", &disposition)],
                    );
                }
                Err(e) => send_error(req, &e),
            }
            return;
        }
        _ => {}
    }
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let result = route(shared, &mut req, &method, &parts, query);
    match result {
        Ok((status, v)) => send_json(req, status, &v),
        Err(e) => send_error(req, &e),
    }
}

/// The whole number `name=<n>` of a query string (absent: None).
fn query_number(query: &str, name: &str) -> Result<Option<usize>, ApiError> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| {
            v.parse()
                .map_err(|_| ApiError::new(400, format!("'{name}' must be a whole number")))
        })
        .transpose()
}

fn route(
    shared: &Shared,
    req: &mut Request,
    method: &Method,
    parts: &[&str],
    query: &str,
) -> Result<(u16, Value), ApiError> {
    let reg = &shared.registry;
    let now = Instant::now();
    let with =
        |id: &str, f: &mut dyn FnMut(&mut super::session::Session) -> Result<(), ApiError>| {
            let s: SharedSession = reg.get(id)?;
            let mut s = lock(&s);
            f(&mut s)?;
            Ok((200, s.state(Instant::now())))
        };
    match (method, parts) {
        (Method::Get, ["api", "info"]) => {
            Ok((200, super::info_json(&reg.limits, shared.page_variant)))
        }
        (Method::Get, ["api", "status"]) => Ok((200, reg.status())),
        (Method::Post, ["api", "games"]) => {
            let body = json_body(req)?;
            let s = reg.create(&body)?;
            let state = lock(&s).state(now);
            Ok((201, state))
        }
        (Method::Get, ["api", "games", id]) => with(id, &mut |_| Ok(())),
        (Method::Get, ["api", "games", id, "legal"]) => {
            let ply = query_number(query, "ply")?;
            let s = reg.get(id)?;
            let s = lock(&s);
            Ok((200, s.legal_at(ply)?))
        }
        (Method::Delete, ["api", "games", id]) => {
            reg.remove(id)?;
            Ok((200, json::object([("closed", Value::from(*id))])))
        }
        (Method::Post, ["api", "games", id, action]) => {
            let body = json_body(req)?;
            match *action {
                "move" => {
                    let text = body
                        .get("move")
                        .and_then(Value::as_str)
                        .ok_or_else(|| ApiError::new(400, "'move' must be a move string"))?
                        .to_string();
                    let ply = optional_ply(&body)?;
                    with(id, &mut |s| s.play_person(&text, ply, now))
                }
                "takeback" => with(id, &mut |s| s.takeback(now)),
                "resign" => with(id, &mut |s| s.resign(now)),
                "hint" => with(id, &mut |s| s.request_hint()),
                "analysis" => {
                    let on = body
                        .get("on")
                        .and_then(Value::as_bool)
                        .ok_or_else(|| ApiError::new(400, "'on' must be true or false"))?;
                    let ply = optional_ply(&body)?;
                    let multipv = match body.get("multipv") {
                        None => 1,
                        Some(v) => {
                            v.as_u64()
                                .and_then(|n| u32::try_from(n).ok())
                                .ok_or_else(|| {
                                    ApiError::new(400, "'multipv' must be a whole number")
                                })?
                        }
                    };
                    with(id, &mut |s| {
                        let req = on.then(|| (ply.unwrap_or(s.game().moves().len()), multipv));
                        s.set_analysis(req, now)
                    })
                }
                other => Err(ApiError::new(
                    404,
                    format!("unknown action '{other}' (move, takeback, resign, hint, analysis)"),
                )),
            }
        }
        (_, ["api", ..]) => Err(ApiError::new(
            if known_path(parts) { 405 } else { 404 },
            format!("{method} /{}: no such API call", parts.join("/")),
        )),
        _ => Err(ApiError::new(404, format!("no page /{}", parts.join("/")))),
    }
}

/// Whether an API path exists for some other method (then the answer is 405).
fn known_path(parts: &[&str]) -> bool {
    matches!(
        parts,
        ["api", "info" | "status" | "games"] | ["api", "games", _] | ["api", "games", _, _]
    )
}

fn serve_asset(req: Request, asset: &Asset) {
    send(req, 200, asset.content_type, asset.body.to_vec(), &[]);
}

/// Counts an open stream; the count drops when it is dropped.
struct StreamTicket<'a>(&'a AtomicUsize);

impl Drop for StreamTicket<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Opens the event stream of game `id` on a thread of its own.
fn open_stream(shared: &Arc<Shared>, req: Request, id: &str) {
    let session = match shared.registry.get(id) {
        Ok(s) => s,
        Err(e) => return send_error(req, &e),
    };
    let max = shared.max_streams;
    if shared
        .streams
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
            (n < max).then_some(n + 1)
        })
        .is_err()
    {
        let e = ApiError::new(503, format!("too many event streams open (at most {max})"));
        return send_error(req, &e);
    }
    let shared2 = shared.clone();
    let id = id.to_string();
    let spawned = std::thread::Builder::new()
        .name("serve-events".into())
        .spawn(move || {
            let _ticket = StreamTicket(&shared2.streams);
            let (sub, rx, first) = {
                let mut s = lock(&session);
                let (sub, rx) = s.subscribers.add();
                (
                    sub,
                    rx,
                    sse::format_event("state", &s.state(Instant::now())),
                )
            };
            let mut out = req.into_writer();
            let closed_by_game = sse::pump(&mut out, &first, &rx).unwrap_or(false);
            if closed_by_game && !shared2.registry.contains(&id) {
                let _ = out.write_all(b"event: gone\ndata: {}\n\n");
                let _ = out.flush();
            }
            lock(&session).subscribers.remove(sub, Instant::now());
        });
    if spawned.is_err() {
        // The closure (with its ticket not yet made) is gone; give the count back.
        shared.streams.fetch_sub(1, Ordering::SeqCst);
    }
}

use std::io::Write as _;
