//! `bashni serve` against a hostile client's second pass: requests from clients that
//! half-close their side, a binary replaced under the running server, inputs of thousands of
//! characters in every field, framing by another site's page, and body-less posts of the
//! wrong type. Each test failed on the server before its fix.

use crate::common;

use bashni::serve::json::{self, Value};
use common::serve::*;
use std::io::Write;
use std::net::Shutdown;

/// Sends `request`, shuts the sending side (as `nc -N` does), and reads the answer to its
/// end; the status (0 when none came).
fn half_closed(server: &Server, request: &str) -> u16 {
    let mut s = server.connect();
    s.write_all(request.as_bytes()).unwrap();
    s.shutdown(Shutdown::Write).unwrap();
    let out = read_to_close(&mut s, &format!("the answer to {request:?}"));
    String::from_utf8_lossy(&out)
        .strip_prefix("HTTP/1.1 ")
        .and_then(|r| r.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn count(v: &Value, key: &str) -> u64 {
    v.get(key)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("no {key} in {v}"))
}

/// A request is answered even when the client shut its sending side right after it, and a
/// request that acts (opening a game) is never left unanswered: before, `GET /api/status`
/// was answered 11 times of 30 and `POST /api/games` never, while it opened games.
#[test]
fn a_half_closed_request_gets_its_answer() {
    let server = Server::start(&["--max-games", "16"]);
    let addr = server.addr.clone();
    for _ in 0..10 {
        let status = half_closed(
            &server,
            &format!("GET /api/status HTTP/1.1\r\nHost: {addr}\r\n\r\n"),
        );
        assert_eq!(status, 200);
    }
    let body = r#"{"human":"both"}"#;
    let mut created = 0;
    for _ in 0..10 {
        let status = half_closed(
            &server,
            &format!(
                "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\n\r\n{body}",
                body.len()
            ),
        );
        assert_eq!(status, 201);
        created += 1;
    }
    assert_eq!(count(&server.status(), "opened"), created);
}

/// A rebuild replaces the binary while the server runs: new games still start their engine
/// (the server's own program, held open), where every one failed with `cannot start
/// '.../bashni (deleted)'`.
#[test]
fn new_games_start_after_the_binary_is_replaced() {
    let dir = std::env::temp_dir().join(format!("bashni-serve-rebuilt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("bashni");
    std::fs::copy(BASHNI, &copy).unwrap();
    let server = Server::start_from(&copy, &[]);
    // The file goes, and another that is not bashni takes its name (as a rebuild does).
    std::fs::remove_file(&copy).unwrap();
    std::fs::write(&copy, "#!/bin/sh\nexit 1\n").unwrap();
    let (id, v) = server.new_game(r#"{"human":"black","level":0,"movetime_ms":50}"#);
    let mut events = Events::open(&server, &id);
    let after = if your_turn(&v) {
        v
    } else {
        events.state_until(my_turn_after(&v))
    };
    assert_eq!(moves_of(&after).len(), 1, "the engine moved: {after}");
    assert_eq!(count(&server.status(), "engines"), 1);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// An error body is one line of at most 1,000 characters quoting at most 200 of the input,
/// whatever field the input came in: before, an unknown variant or a bad move quoted 990
/// characters and the body reached 1,003.
#[test]
fn error_bodies_keep_their_bounds_whatever_the_input() {
    let server = Server::start(&[]);
    let x = "x".repeat(5000);
    let (id, _) = server.new_game(r#"{"human":"both"}"#);
    let games = "/api/games";
    let move_path = format!("/api/games/{id}/move");
    let cases: Vec<(&str, String, String)> = vec![
        ("POST", games.into(), format!(r#"{{"variant":"{x}"}}"#)),
        ("POST", games.into(), format!(r#"{{"human":"{x}"}}"#)),
        ("POST", games.into(), format!(r#"{{"fen":"{x}"}}"#)),
        (
            "POST",
            games.into(),
            format!(r#"{{"fen":"8/8/8/8/8/8/8/8 w {x}"}}"#),
        ),
        ("POST", games.into(), format!(r#"{{"moves":["{x}"]}}"#)),
        (
            "POST",
            games.into(),
            format!(r#"{{"moves":["c3-d4","{x}"]}}"#),
        ),
        (
            "POST",
            games.into(),
            format!(r#"{{"pdn":"[GameType \"{x}\"]\n*"}}"#),
        ),
        ("POST", games.into(), format!(r#"{{"pdn":"1. {x} *"}}"#)),
        ("POST", move_path.clone(), format!(r#"{{"move":"{x}"}}"#)),
        ("POST", move_path.clone(), format!(r#"{{"move":"c3:{x}"}}"#)),
        ("POST", format!("/api/games/{id}/{x}"), "{}".into()),
        ("GET", format!("/api/games/{x}"), String::new()),
        ("GET", format!("/api/{x}"), String::new()),
        ("GET", format!("/{x}"), String::new()),
        (
            "GET",
            format!("/api/games/{id}/legal?ply={x}"),
            String::new(),
        ),
    ];
    for (method, path, body) in &cases {
        let (status, text) = server.raw(method, path, body.as_bytes());
        let what = format!(
            "{method} {}.. {}..",
            &path[..path.len().min(30)],
            &body[..body.len().min(30)]
        );
        assert!((400..500).contains(&status), "{what}: {status} {text}");
        let v = json::parse(&text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
        let e = error_of(&v);
        assert!(
            e.chars().count() <= 1000,
            "{what}: {} characters",
            e.chars().count()
        );
        assert!(!e.contains(&"x".repeat(201)), "{what}: {e}");
    }
    // A bad variation is named by its first moves, unquoted (settings.rs): bounded in all.
    let body = format!(r#"{{"variations":[["{x}"]]}}"#);
    let (status, text) = server.raw("POST", games, body.as_bytes());
    assert_eq!(status, 400, "{text}");
    let v = json::parse(&text).unwrap();
    assert!(error_of(&v).chars().count() <= 1000, "{text}");
}

/// The page cannot be framed by another site, and runs under a Content-Security-Policy that
/// allows only its own files: no inline script or style needed (the browser tests run the
/// page under it).
#[test]
fn the_page_cannot_be_framed_and_has_a_content_security_policy() {
    let server = Server::start(&[]);
    let mut s = server.connect();
    write!(
        s,
        "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let answer = String::from_utf8_lossy(&read_to_close(&mut s, "the page")).into_owned();
    let (head, html) = answer.split_once("\r\n\r\n").unwrap();
    let header = |name: &str| {
        head.lines()
            .find_map(|l| {
                l.split_once(':')
                    .filter(|(k, _)| k.eq_ignore_ascii_case(name))
            })
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_else(|| panic!("no {name} in {head}"))
    };
    assert_eq!(header("x-frame-options"), "DENY");
    let csp = header("content-security-policy");
    for part in ["default-src 'self'", "frame-ancestors 'none'"] {
        assert!(csp.split(';').any(|p| p.trim() == part), "{csp}");
    }
    assert!(
        !csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"),
        "{csp}"
    );
    // Nothing inline that the policy would block.
    let lower = html.to_ascii_lowercase();
    for script in lower.split("<script").skip(1) {
        let tag = &script[..script.find('>').unwrap()];
        assert!(tag.contains("src="), "an inline script: <script{tag}>");
    }
    assert!(!lower.contains("<style"), "an inline style sheet");
    assert!(!lower.contains(" style="), "an inline style attribute");
    assert!(
        !lower.contains(" onclick=") && !lower.contains(" onload="),
        "an inline handler"
    );
}

/// A body-less POST is held to the rule of one with a body: `Content-Type:
/// application/json` (so no other site's form can send one); a `text/plain` one opened a
/// game (201).
#[test]
fn a_post_without_a_body_must_be_json_too() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let post = |path: &str, content_type: &str| {
        let mut s = server.connect();
        write!(
            s,
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{content_type}\
             Content-Length: 0\r\n\r\n"
        )
        .unwrap();
        let answer = read_to_close(&mut s, &format!("the answer to POST {path}"));
        String::from_utf8_lossy(&answer)
            .strip_prefix("HTTP/1.1 ")
            .and_then(|r| r.get(..3))
            .and_then(|c| c.parse::<u16>().ok())
            .unwrap_or(0)
    };
    assert_eq!(post("/api/games", "Content-Type: text/plain\r\n"), 415);
    assert_eq!(post("/api/games", ""), 415);
    assert_eq!(count(&server.status(), "opened"), 0);
    let (id, v) = server.new_game(r#"{"human":"both","moves":["c3-d4"]}"#);
    let takeback = format!("/api/games/{id}/takeback");
    assert_eq!(post(&takeback, "Content-Type: text/plain\r\n"), 415);
    let now = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(
        moves_of(&now),
        moves_of(&v),
        "a refused takeback changes nothing"
    );
    assert_eq!(
        post(&takeback, "Content-Type: application/json\r\n"),
        200,
        "an empty JSON body reads as {{}}"
    );
    assert_eq!(
        post("/api/games", "Content-Type: application/json\r\n"),
        201
    );
}
