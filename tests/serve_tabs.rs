//! One game in several tabs (issue 65 #1), on the server's side: every event stream of a
//! game gets every change, one stream's close frees nothing another holds, a game's own
//! address serves the page, a line of the page's tree is held in one change (a following
//! tab never sees the plies between two lines), notes reach every tab, a game closed for
//! another tells its streams which, and a game every page left gives its slot to a new one.

use crate::common;

use bashni::serve::json::Value;
use common::serve::*;
use std::thread::sleep;
use std::time::{Duration, Instant};

fn moves(v: &Value) -> Vec<String> {
    moves_of(v)
}

#[test]
fn every_stream_follows_and_one_closed_frees_nothing() {
    let server = Server::start(&[]);
    let (id, _) = server.new_game(r#"{"human":"both"}"#);
    let mut a = Events::open(&server, &id);
    let mut b = Events::open(&server, &id);
    a.next();
    b.next();
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"c3-d4"}"#,
    );
    for s in [&mut a, &mut b] {
        let st = s.state_until(|st| version(st) >= version(&v));
        assert_eq!(moves(&st), ["c3-d4"]);
    }
    // The first tab goes away (a reload, a closed tab): the game stays for the other, past
    // the time after which a game nobody watches is ended.
    drop(a);
    sleep(Duration::from_millis(5500));
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"f6-e5"}"#,
    );
    let st = b.state_until(|st| version(st) >= version(&v));
    assert_eq!(moves(&st), ["c3-d4", "f6-e5"]);
    // A reloaded tab takes it up again: the same game, as it is.
    let mut again = Events::open(&server, &id);
    let (e, st) = again.next();
    assert_eq!(
        (e.as_str(), moves(&st)),
        ("state", vec!["c3-d4".into(), "f6-e5".into()])
    );
}

#[test]
fn a_games_address_serves_the_page() {
    let server = Server::start(&[]);
    let (id, _) = server.new_game(r#"{"human":"both"}"#);
    for path in [format!("/{id}"), "/0123456789abcdef".to_string()] {
        let (status, text) = server.raw("GET", &path, b"");
        assert_eq!(status, 200, "{path}");
        // (its addresses are relative, for a static host's subfolder too: at /<id> they are
        // the server's own, /app.js)
        assert!(
            text.contains("<script type=\"module\" src=\"app.js\">"),
            "{path}"
        );
    }
    for path in ["/0123456789abcdeg", "/0123456789abcdef/x", "/g"] {
        let (status, _) = server.raw("GET", path, b"");
        assert_eq!(status, 404, "{path}");
    }
}

#[test]
fn a_line_is_held_in_one_change() {
    let server = Server::start(&[]);
    let (id, _) = server.new_game(r#"{"human":"both","moves":["c3-d4","f6-g5","b2-c3","g7-f6"]}"#);
    let mut events = Events::open(&server, &id);
    let (_, first) = events.next();
    assert_eq!(first["main_line"], Value::Bool(true));
    let line = format!("/api/games/{id}/line");
    let v = server.ok(
        "POST",
        &line,
        r#"{"moves":["c3-d4","b6-a5","d4-c5"],"main":false}"#,
    );
    assert_eq!(moves(&v), ["c3-d4", "b6-a5", "d4-c5"]);
    assert_eq!(v["main_line"], Value::Bool(false));
    // One change: the next state is that line, none of the plies in between.
    let (e, st) = events.next();
    assert_eq!((e.as_str(), moves(&st)), ("state", moves(&v)));
    assert_eq!(version(&st), version(&first) + 1);
    // An illegal move anywhere: refused, nothing changed.
    let (status, e) = server.call("POST", &line, r#"{"moves":["c3-d4","b6-a5","d4-d5"]}"#);
    assert_eq!(status, 422, "{e}");
    assert!(error_of(&e).starts_with("move 3: "), "{e}");
    let now = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!((moves(&now), version(&now)), (moves(&v), version(&v)));
    // The same moves made the main line: only the flag changes.
    let v2 = server.ok(
        "POST",
        &line,
        r#"{"moves":["c3-d4","b6-a5","d4-c5"],"main":true}"#,
    );
    assert_eq!(
        (moves(&v2), &v2["main_line"]),
        (moves(&v), &Value::Bool(true))
    );
    for (body, msg) in [
        (
            r#"{"moves":"c3-d4"}"#,
            "'moves' must be an array of move strings",
        ),
        (r#"{"moves":[],"main":1}"#, "'main' must be true or false"),
    ] {
        let (status, e) = server.call("POST", &line, body);
        assert_eq!((status, error_of(&e)), (400, msg), "{body}");
    }
    // Against the engine, another line only in analysis mode.
    let (game, _) = server.new_game(r#"{"level":0,"human":"black","moves":["c3-d4"]}"#);
    let _watch = Events::open(&server, &game);
    let (status, e) = server.call(
        "POST",
        &format!("/api/games/{game}/line"),
        r#"{"moves":["c3-b4"],"main":false}"#,
    );
    assert_eq!(status, 409, "{e}");
    server.ok(
        "POST",
        &format!("/api/games/{game}/analysis"),
        r#"{"on":true,"ply":0}"#,
    );
    let v = server.ok(
        "POST",
        &format!("/api/games/{game}/line"),
        r#"{"moves":["c3-b4"],"main":false}"#,
    );
    assert_eq!(moves(&v), ["c3-b4"]);
}

#[test]
fn notes_reach_every_stream() {
    let server = Server::start(&[]);
    let (id, _) = server.new_game(r#"{"human":"both","moves":["c3-d4"]}"#);
    let mut other = Events::open(&server, &id);
    other.next();
    server.ok(
        "POST",
        &format!("/api/games/{id}/note"),
        r#"{"moves":["c3-d4"],"comment":"the centre","glyph":"!"}"#,
    );
    let (e, v) = other.next();
    assert_eq!(e, "notes", "{v}");
    assert_eq!(v["notes"][0]["comment"], "the centre", "{v}");
    assert_eq!(v["notes"][0]["glyph"], "!", "{v}");
}

#[test]
fn a_game_opened_in_anothers_place_says_which() {
    let server = Server::start(&[]);
    let body =
        r#"{"level":0,"clock":{"base_ms":600000,"inc_ms":0},"moves":["c3-d4"],"human":"black"}"#;
    let (old, _) = server.new_game(body);
    let mut stream = Events::open(&server, &old);
    stream.next();
    let again = body.replace("\"human\"", &format!("\"resume\":\"{old}\",\"human\""));
    let (new, _) = server.new_game(&again);
    loop {
        let (e, v) = stream.next();
        if e == "gone" {
            assert_eq!(str_of(&v, "replaced_by"), new, "{v}");
            break;
        }
    }
}

#[test]
fn a_game_every_page_left_gives_its_slot() {
    let server = Server::start(&["--max-games", "1"]);
    let (left, _) = server.new_game(r#"{"human":"both"}"#);
    let mut page = Events::open(&server, &left);
    page.next();
    drop(page);
    // Its page gone: a new game takes its slot rather than a 503, once the server has seen
    // the stream close (at its next heartbeat at the latest; each 503 changes nothing).
    let start = Instant::now();
    let v = loop {
        let (status, v) = server.call("POST", "/api/games", r#"{"human":"both"}"#);
        if status == 201 {
            break v;
        }
        assert_eq!(status, 503, "{v}");
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the slot was never given"
        );
        sleep(Duration::from_millis(50));
    };
    let (status, _) = server.call("GET", &format!("/api/games/{left}"), "");
    assert_eq!(status, 404);
    // A game watched now keeps its slot.
    let id = str_of(&v, "id").to_string();
    let _watch = Events::open(&server, &id);
    let (status, e) = server.call("POST", "/api/games", r#"{"human":"both"}"#);
    assert_eq!(status, 503, "{e}");
}

#[test]
fn a_later_stream_gets_the_analysis_so_far() {
    let server = Server::start(&[]);
    let (id, _) = server.new_game(r#"{"human":"both"}"#);
    let mut first = Events::open(&server, &id);
    server.ok(
        "POST",
        &format!("/api/games/{id}/analysis"),
        r#"{"on":true,"depth":4}"#,
    );
    let last = loop {
        let (e, v) = first.next();
        if e == "analysis" && v["done"] == Value::Bool(true) {
            break v;
        }
    };
    // A reload, or another tab: the state, then the lines found so far, not nothing until the
    // next change.
    let mut later = Events::open(&server, &id);
    assert_eq!(later.next().0, "state");
    let (e, v) = later.next();
    assert_eq!((e.as_str(), &v), ("analysis", &last));
}
