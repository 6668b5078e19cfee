//! The HTTP side: the page's files, the game API's routes ([`crate::serve::api`]) over HTTP,
//! bounded request bodies read with a deadline, JSON answers and event streams. Every refused
//! request gets a 4xx or 5xx status and a body `{"error": "<one line>"}`, and changes nothing.
//!
//! Handlers are async only as far as HTTP needs: the games are plain synchronous code behind
//! a mutex, called on tokio's blocking pool ([`tokio::task::spawn_blocking`]), so a game
//! that takes a moment (starting an engine) never stalls another connection.

use super::assets::{self, Asset};
use super::guard::Guard;
use super::sse;
use crate::serve::api::{self, Core};
use crate::serve::error::{ApiError, ErrorKind, quote};
use crate::serve::json::{self, Value};
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
use std::time::Duration;

pub use crate::serve::api::MAX_BODY_BYTES;

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
    /// The games and what the API's calls share.
    pub core: Core,
    /// Which `Host` and `Origin` headers are this server's.
    pub guard: Guard,
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
        api::route(&shared.core, method.as_str(), &parts, &query, &body)
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
    api::json_body(&bytes)
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
    let text = api::pdn(&shared.core, id)?;
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
    let body = api::open_stream(&shared.core, id, |first, closed| {
        let first: String = first
            .iter()
            .map(|(event, data)| sse::format_event(event, data))
            .collect();
        sse::stream(&first, closed)
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
