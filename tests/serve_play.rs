//! The play side of `bashni serve` over HTTP: take back only while a game is on, clocks the
//! server keeps through a page's reload (a reloaded page opens its game again with
//! `"resume"`), a flag that falls without a move, the draw offer (the rule `bashni play`
//! uses), and an empty board refused. Every wait has a margin no slow machine can break: the
//! clocks are long where they must not run out, and a test that needs time to pass sleeps
//! at least that long.

use crate::common;

use bashni::serve::json::Value;
use common::serve::*;
use std::thread::sleep;
use std::time::Duration;

fn ms(v: &Value, side: &str) -> i64 {
    v["time"][side]
        .as_i64()
        .unwrap_or_else(|| panic!("no {side} in {v}"))
}

fn over(v: &Value) -> bool {
    v.get("result") != Some(&Value::Null)
}

#[test]
fn take_back_is_refused_once_the_game_has_ended() {
    let server = Server::start(&[]);
    let (id, _) = server.new_game(r#"{"level":0,"movetime_ms":50}"#);
    let mut events = Events::open(&server, &id);
    let v = play_and_wait(&server, &mut events, &id, "c3-d4");
    assert_eq!(moves_of(&v).len(), 2, "{v}");
    // While the game is on, take back removes the move and the reply.
    let v = server.ok("POST", &format!("/api/games/{id}/takeback"), "");
    assert!(moves_of(&v).is_empty(), "{v}");
    play_and_wait(&server, &mut events, &id, "c3-d4");
    let v = server.ok("POST", &format!("/api/games/{id}/resign"), "");
    assert_eq!(str_of(&v["result"], "reason"), "resignation");
    let moves = moves_of(&v);
    let (status, e) = server.call("POST", &format!("/api/games/{id}/takeback"), "");
    assert_eq!(status, 409, "{e}");
    assert!(
        error_of(&e).starts_with("the game is over (Black wins: White resigned)"),
        "{e}"
    );
    let v = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(moves_of(&v), moves, "the refusal changed the game");
    assert_eq!(str_of(&v["result"], "reason"), "resignation");
    // Analysis mode still walks back through the finished game (the page's other lines).
    server.ok(
        "POST",
        &format!("/api/games/{id}/analysis"),
        r#"{"on":true}"#,
    );
    let v = server.ok("POST", &format!("/api/games/{id}/takeback"), "");
    assert_eq!(moves_of(&v).len(), moves.len() - 1, "{v}");
}

#[test]
fn take_back_is_refused_after_a_flag() {
    let server = Server::start(&[]);
    let (id, _) = server
        .new_game(r#"{"level":0,"clock":{"base_ms":1000,"inc_ms":0},"moves":["c3-d4","f6-g5"]}"#);
    let mut events = Events::open(&server, &id);
    // White (the person) never moves: the server ends the game when the time is out.
    let v = events.state_until(over);
    assert_eq!(str_of(&v["result"], "reason"), "time forfeit");
    let v = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(
        ms(&v, "white_ms"),
        0,
        "a fallen flag shows 0, never less: {v}"
    );
    assert_eq!(v["time"]["running"], Value::Null, "{v}");
    let (status, e) = server.call("POST", &format!("/api/games/{id}/takeback"), "");
    assert_eq!(status, 409, "{e}");
    assert!(
        error_of(&e).starts_with("the game is over (Black wins on time)"),
        "{e}"
    );
}

const TEN_MINUTES: &str = r#""clock":{"base_ms":600000,"inc_ms":0}"#;

/// Three plies: each side has made its first move, so the clocks run (Black to move).
const THREE: &str = r#"["c3-d4","f6-g5","b2-c3"]"#;

/// Each side's first move is not timed (lichess' rule): the clocks wait for them, and those
/// moves earn no increment.
#[test]
fn the_clocks_start_after_each_sides_first_move() {
    let server = Server::start(&[]);
    let (id, v) = server.new_game(r#"{"level":0,"clock":{"base_ms":600000,"inc_ms":60000}}"#);
    let mut events = Events::open(&server, &id);
    assert_eq!(v["time"]["running"], Value::Null, "{v}");
    sleep(Duration::from_millis(1200));
    let v = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(
        (ms(&v, "white_ms"), ms(&v, "black_ms")),
        (600_000, 600_000),
        "{v}"
    );
    // White's first move and the engine's reply: free, no increment; then White's clock runs.
    let v = play_and_wait(&server, &mut events, &id, "c3-d4");
    assert_eq!(moves_of(&v).len(), 2, "{v}");
    assert_eq!(
        (ms(&v, "white_ms"), ms(&v, "black_ms")),
        (600_000, 600_000),
        "{v}"
    );
    assert_eq!(str_of(&v["time"], "running"), "white", "{v}");
    sleep(Duration::from_millis(1200));
    let v = server.ok("GET", &format!("/api/games/{id}"), "");
    assert!(ms(&v, "white_ms") <= 600_000 - 1200, "{v}");
    // A timed move earns the increment (a minute: more than the request can take).
    let before = ms(&v, "white_ms");
    let mv = legal_of(&v)[0].clone();
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        &format!("{{\"move\":\"{mv}\"}}"),
    );
    assert!(ms(&v, "white_ms") > before, "{v}");
}

#[test]
fn a_reload_goes_on_with_the_clock_the_server_kept() {
    let server = Server::start(&[]);
    let body = format!(r#"{{"level":0,{TEN_MINUTES},"moves":{THREE},"human":"black"}}"#);
    let (id, _) = server.new_game(&body);
    let _events = Events::open(&server, &id);
    // Black's clock runs for at least a second.
    sleep(Duration::from_millis(1200));
    let before = server.ok("GET", &format!("/api/games/{id}"), "");
    assert!(ms(&before, "black_ms") <= 600_000 - 1200, "{before}");
    // The game is closed (a restart of the server, say), and the page opens it again.
    server.ok("DELETE", &format!("/api/games/{id}"), "");
    let again =
        format!(r#"{{"level":0,{TEN_MINUTES},"moves":{THREE},"human":"black","resume":"{id}"}}"#);
    let (id2, v) = server.new_game(&again);
    let _events2 = Events::open(&server, &id2);
    assert!(
        ms(&v, "black_ms") <= ms(&before, "black_ms"),
        "refilled: {v}"
    );
    assert_eq!(ms(&v, "white_ms"), 600_000, "{v}");
    assert_eq!(str_of(&v["time"], "running"), "black");
    // A later GET (any reload of the state) says the same: the server keeps the clock.
    let later = server.ok("GET", &format!("/api/games/{id2}"), "");
    assert!(ms(&later, "black_ms") <= ms(&v, "black_ms"), "{later}");
    // A reload that arrives before the old page's close: the old game is closed for it.
    let third = again.replace(&id, &id2);
    let (id3, v) = server.new_game(&third);
    let _events3 = Events::open(&server, &id3);
    assert!(ms(&v, "black_ms") <= ms(&later, "black_ms"), "{v}");
    let (status, _) = server.call("GET", &format!("/api/games/{id2}"), "");
    assert_eq!(status, 404, "the game it replaces stays open");
    // A game the server does not know (it was restarted): fresh clocks; a bad id: refused.
    let (_, fresh) = server.new_game(&again.replace(&id, "0123456789abcdef"));
    assert!(ms(&fresh, "black_ms") > ms(&v, "black_ms"), "{fresh}");
    let (status, e) = server.call("POST", "/api/games", r#"{"resume":7}"#);
    assert_eq!(
        (status, error_of(&e)),
        (400, "'resume' must be a game's id")
    );
}

#[test]
fn a_clock_that_ran_out_while_the_page_was_closed_ends_the_game() {
    let server = Server::start(&[]);
    let body = r#"{"level":0,"clock":{"base_ms":2000,"inc_ms":0},"moves":["c3-d4","f6-g5","b2-c3"],"human":"black"}"#;
    let (id, _) = server.new_game(body);
    server.ok("DELETE", &format!("/api/games/{id}"), "");
    // Black's two seconds run out while no page shows the game.
    sleep(Duration::from_millis(2500));
    let again = body.replace("\"human\"", &format!("\"resume\":\"{id}\",\"human\""));
    let (_, v) = server.new_game(&again);
    assert!(over(&v), "{v}");
    assert_eq!(str_of(&v["result"], "reason"), "time forfeit");
    assert_eq!(str_of(&v["result"], "result"), "1-0");
    assert_eq!(ms(&v, "black_ms"), 0, "{v}");
}

/// A game whose flag fell while its page was open, reopened in its place (a reload sends
/// `resume`), has ended: its answer says so at once, with the result and the reason, and the
/// clock stays at 0, stopped (issue 66: it answered as a live game until the next move).
#[test]
fn a_game_reopened_after_its_flag_fell_has_ended() {
    let server = Server::start(&[]);
    // Three plies: each side's first move is free (`FREE_PLIES`), Black's second is timed.
    let body = r#"{"level":0,"clock":{"base_ms":1000,"inc_ms":0},"moves":["c3-d4","f6-g5","b2-c3"],"human":"black"}"#;
    let (id, _) = server.new_game(body);
    let mut events = Events::open(&server, &id);
    let v = events.state_until(over);
    assert_eq!(str_of(&v["result"], "reason"), "time forfeit", "{v}");
    let again = body.replace("\"human\"", &format!("\"resume\":\"{id}\",\"human\""));
    let (id2, v) = server.new_game(&again);
    for v in [v, server.ok("GET", &format!("/api/games/{id2}"), "")] {
        assert!(over(&v), "{v}");
        assert_eq!(str_of(&v["result"], "reason"), "time forfeit", "{v}");
        assert_eq!(str_of(&v["result"], "result"), "1-0", "{v}");
        assert_eq!(ms(&v, "black_ms"), 0, "{v}");
        assert_eq!(v["time"]["running"], Value::Null, "{v}");
    }
}

#[test]
fn a_draw_offer_is_answered_by_the_rule_of_play() {
    let server = Server::start(&[]);
    // Twelve towers each: not dead, declined at once with the reason.
    let (id, _) = server.new_game(r#"{"level":0,"movetime_ms":50}"#);
    let mut events = Events::open(&server, &id);
    let v = server.ok("POST", &format!("/api/games/{id}/draw"), "");
    assert_eq!(
        str_of(&v, "draw_answer"),
        "The engine declines the draw: the position is not dead (White commands 12 towers, \
         Black 12; a draw is agreed with at most 3 each)"
    );
    assert!(!over(&v));
    // The answer goes with the next move.
    let v = play_and_wait(&server, &mut events, &id, "c3-d4");
    assert_eq!(v["draw_answer"], Value::Null, "{v}");
    // A king each, far apart: dead and even, accepted after the engine's search.
    let (id, _) = server.new_game(r#"{"level":0,"fen":"1B6/8/8/8/8/8/8/6W1 w"}"#);
    let mut events = Events::open(&server, &id);
    let v = server.ok("POST", &format!("/api/games/{id}/draw"), "");
    assert_eq!(str_of(&v, "thinking"), "draw offer");
    let v = events.state_until(|v| v["thinking"] == Value::Null && v["draw_answer"] != Value::Null);
    assert_eq!(
        str_of(&v, "draw_answer"),
        "The engine accepts the draw",
        "{v}"
    );
    assert_eq!(str_of(&v["result"], "result"), "1/2-1/2");
    assert_eq!(str_of(&v["result"], "reason"), "draw agreement");
    let pdn = server.raw("GET", &format!("/api/games/{id}/pdn"), b"").1;
    assert!(pdn.contains("[Termination \"draw agreement\"]"), "{pdn}");
    // Refused: after the end, with no engine, on the engine's turn.
    let (status, e) = server.call("POST", &format!("/api/games/{id}/draw"), "");
    assert_eq!(
        (status, error_of(&e)),
        (409, "the game is over: Draw by agreement")
    );
    let (both, _) = server.new_game(r#"{"human":"both"}"#);
    let (status, e) = server.call("POST", &format!("/api/games/{both}/draw"), "");
    assert_eq!(status, 409);
    assert!(
        error_of(&e).starts_with("there is no engine to offer a draw to"),
        "{e}"
    );
}

#[test]
fn an_empty_board_is_refused_in_one_line() {
    let server = Server::start(&[]);
    for body in [
        r#"{"fen":"8/8/8/8/8/8/8/8 w"}"#,
        r#"{"variant":"turkish","fen":"8/8/8/8/8/8/8/8 b"}"#,
        r#"{"pdn":"[FEN \"8/8/8/8/8/8/8/8 w 0 1\"]\n\n*\n"}"#,
    ] {
        let (status, e) = server.call("POST", "/api/games", body);
        assert_eq!(
            (status, error_of(&e)),
            (400, "the board is empty: a game needs at least one piece"),
            "{body}"
        );
    }
    assert_eq!(server.status()["games"].as_u64(), Some(0));
}
