//! Reviews at a fixed budget on `bashni serve`: a game reviewed twice at a node budget gets
//! the same report (marks, scores, best moves, accuracy), on the same game and on another
//! game of the same moves; the budget is in the report; `POST .../review/try` judges a move
//! of the person's the same way every time, and refuses bad input with one line.

use crate::common;

use bashni::serve::json::Value;
use common::serve::*;
use std::time::{Duration, Instant};

/// Nodes a position: small, so that the test is quick on a busy machine; a node budget does
/// not depend on the machine's speed.
const NODES: &str = r#"{"nodes": 3000}"#;

/// A Bashni game of `plies` plies, each move chosen by a fixed rule, both sides the person's.
fn a_game(server: &Server, plies: usize) -> (String, Vec<String>) {
    let (id, mut v) = server.new_game(r#"{"human":"both"}"#);
    while moves_of(&v).len() < plies && v.get("result") == Some(&Value::Null) {
        let legal = legal_of(&v);
        let mv = &legal[(moves_of(&v).len() * 5 + 3) % legal.len()];
        v = server.ok(
            "POST",
            &format!("/api/games/{id}/move"),
            &format!(r#"{{"move":"{mv}"}}"#),
        );
    }
    (id, moves_of(&v))
}

/// Starts a review of game `id` at `budget` and waits for its whole report.
fn review(server: &Server, id: &str, budget: &str) -> Value {
    let path = format!("/api/games/{id}/review");
    let (status, first) = server.call("POST", &path, budget);
    assert_eq!(status, 202, "{first}");
    let start = Instant::now();
    loop {
        let r = server.ok("GET", &path, "");
        if r.get("running") == Some(&Value::Bool(false)) {
            return r;
        }
        // A node budget is quick; the limit only keeps a broken server from hanging the test
        // (a whole review: a few deadlines).
        assert!(
            start.elapsed() < DEADLINE * 3,
            "the review never ended: {r}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What a review found, without `run` (which counts the game's reviews).
fn findings(r: &Value) -> (Value, Value, Value) {
    (
        r.get("moves").unwrap().clone(),
        r.get("summary").unwrap().clone(),
        r.get("budget").unwrap().clone(),
    )
}

#[test]
fn a_game_reviewed_twice_at_a_node_budget_gets_the_same_marks() {
    let server = Server::start(&[]);
    let (id, line) = a_game(&server, 24);
    let _events = Events::open(&server, &id);
    let first = review(&server, &id, NODES);
    assert_eq!(
        first.get("done").and_then(Value::as_u64),
        Some(line.len() as u64),
        "{first}"
    );
    assert_eq!(
        first.get("budget").unwrap().to_string(),
        NODES.replace(' ', "")
    );
    let again = review(&server, &id, NODES);
    assert_eq!(again.get("run").and_then(Value::as_u64), Some(2));
    assert_eq!(findings(&first), findings(&again));
    // Another game of the same moves, reviewed beside a third review of another game.
    let moves = Value::Array(line.iter().map(|m| Value::from(m.as_str())).collect());
    let (other, _) = server.new_game(&format!(r#"{{"human":"both","moves":{moves}}}"#));
    let _other_events = Events::open(&server, &other);
    let third = review(&server, &other, NODES);
    assert_eq!(findings(&first), findings(&third));
    // Each side's accuracy is a percentage.
    for side in ["white", "black"] {
        let acc = first["summary"][side]["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&acc), "{side}: {acc}");
    }
}

#[test]
fn a_tried_move_is_judged_the_same_every_time_and_bad_tries_are_refused() {
    let server = Server::start(&[]);
    let (id, line) = a_game(&server, 6);
    let _events = Events::open(&server, &id);
    let path = format!("/api/games/{id}/review/try");
    // Black's second move tried again, as "learn from your mistakes" does.
    let body = format!(r#"{{"ply":3,"move":"{}","nodes":3000}}"#, line[3]);
    let (status, a) = server.call("POST", &path, &body);
    assert_eq!(status, 200, "{a}");
    assert_eq!(a.get("ply").and_then(Value::as_u64), Some(4), "{a}");
    assert_eq!(str_of(&a, "move"), line[3]);
    assert_eq!(
        a.get("accepted"),
        Some(&Value::Bool(a.get("mark") == Some(&Value::Null))),
        "{a}"
    );
    assert!(a.get("best").and_then(Value::as_str).is_some(), "{a}");
    assert_eq!(server.ok("POST", &path, &body), a, "the same answer again");
    // The engine's own move loses nothing: accepted.
    let best = str_of(&a, "best").to_string();
    let b = server.ok(
        "POST",
        &path,
        &format!(r#"{{"ply":3,"move":"{best}","nodes":3000}}"#),
    );
    assert_eq!(
        (b.get("loss_cp"), b.get("accepted")),
        (Some(&Value::from(0)), Some(&Value::Bool(true))),
        "{b}"
    );
    // Bad tries: one line each, and the game is kept.
    for (body, want) in [
        (r#"{"ply":3,"move":"c3-d4"}"#.to_string(), 400),
        (r#"{"ply":3,"nodes":3000}"#.to_string(), 400),
        (r#"{"ply":99,"move":"c3-d4","nodes":3000}"#.to_string(), 400),
        (r#"{"ply":3,"move":"a1-h8","nodes":3000}"#.to_string(), 422),
        (r#"{"ply":3,"move":"c3-d4","nodes":0}"#.to_string(), 400),
    ] {
        let (status, e) = server.call("POST", &path, &body);
        assert_eq!(status, want, "{body}: {e}");
        assert!(!error_of(&e).contains('\n'), "{e}");
    }
    let (status, e) = server.call("GET", &path, "");
    assert_eq!(status, 405, "{e}");
    let state = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(moves_of(&state), line);
}

#[test]
fn no_move_is_tried_where_the_game_is_over() {
    let server = Server::start(&[]);
    // White's man takes Black's last piece.
    let (id, _) = server.new_game(
        r#"{"variant":"russian","human":"both","fen":"8/8/8/8/8/8/1b6/w7 w","moves":["a1:c3"]}"#,
    );
    let (status, e) = server.call(
        "POST",
        &format!("/api/games/{id}/review/try"),
        r#"{"ply":1,"move":"c3-d4","depth":2}"#,
    );
    assert_eq!(status, 409, "{e}");
}
