//! `POST /api/games/<id>/review` on `bashni serve`: a short review of a game's moves runs
//! beside the HTTP layer, sends each move reviewed as a `review` event, and `GET` answers the
//! whole report; closing the game stops its review and frees its report.

use crate::common;

use bashni::serve::json::Value;
use common::serve::*;

fn count(v: &Value, key: &str) -> u64 {
    v.get(key)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("no {key} in {v}"))
}

/// Reads `review` events until the one that ends the review; all of them.
fn review_events(events: &mut Events) -> Vec<Value> {
    let mut all = Vec::new();
    loop {
        let (e, v) = events.next();
        if e == "review" {
            let done = v.get("running") == Some(&Value::Bool(false));
            all.push(v);
            if done {
                return all;
            }
        }
    }
}

/// A line of up to `plies` plies of a game of Bashni the person plays for both sides
/// (fewer when it ends first), each move chosen by a fixed rule.
fn a_line(server: &Server, plies: usize) -> Vec<String> {
    let (id, mut v) = server.new_game(r#"{"human":"both"}"#);
    // Watched, so that the server keeps it however long this takes.
    let _events = Events::open(server, &id);
    while moves_of(&v).len() < plies && v.get("result") == Some(&Value::Null) {
        let legal = legal_of(&v);
        let mv = &legal[(moves_of(&v).len() * 7) % legal.len()];
        v = server.ok(
            "POST",
            &format!("/api/games/{id}/move"),
            &format!(r#"{{"move":"{mv}"}}"#),
        );
    }
    server.ok("DELETE", &format!("/api/games/{id}"), "");
    moves_of(&v)
}

/// A game of Bashni holding `line`, both sides the person's.
fn game_of(server: &Server, line: &[String]) -> String {
    let moves = Value::Array(line.iter().map(|m| Value::from(m.as_str())).collect());
    server
        .new_game(&format!(r#"{{"human":"both","moves":{moves}}}"#))
        .0
}

#[test]
fn a_short_review_has_one_entry_per_move() {
    let server = Server::start(&[]);
    let (id, v) = server.new_game(r#"{"level":0,"human":"white","movetime_ms":50}"#);
    let mut events = Events::open(&server, &id);
    let mine = legal_of(&v)[0].clone();
    let v = play_and_wait(&server, &mut events, &id, &mine);
    let played = moves_of(&v);
    assert_eq!(played.len(), 2);
    let path = format!("/api/games/{id}/review");
    let (status, e) = server.call("POST", &path, r#"{"depth": 0}"#);
    assert_eq!(status, 400, "{e}");
    let (status, first) = server.call("POST", &path, r#"{"depth": 3}"#);
    assert_eq!(status, 202, "{first}");
    assert_eq!(first.get("total").and_then(Value::as_u64), Some(2));
    review_events(&mut events);
    let last = server.ok("GET", &path, "");
    assert_eq!(last.get("done").and_then(Value::as_u64), Some(2), "{last}");
    assert_eq!(last.get("running"), Some(&Value::Bool(false)), "{last}");
    let entries = last.get("moves").and_then(Value::as_array).unwrap();
    assert_eq!(entries.len(), played.len(), "{last}");
    for (i, (entry, mv)) in entries.iter().zip(&played).enumerate() {
        assert_eq!(entry.get("ply").and_then(Value::as_u64), Some(i as u64 + 1));
        assert_eq!(str_of(entry, "move"), mv);
        assert!(
            entry.get("eval").is_some() && entry.get("best").is_some(),
            "{entry}"
        );
        assert!(entry.get("mark").is_some(), "{entry}");
    }
    assert!(last.get("summary").and_then(|s| s.get("white")).is_some());
}

/// A game the rules have ended is worth its result in the review, not a mate in 0 (which
/// lost who won: the page drew a White win at Black's edge).
#[test]
fn a_finished_game_is_reviewed_as_its_result() {
    let server = Server::start(&[]);
    // White's man takes Black's last piece.
    let (id, v) = server.new_game(
        r#"{"variant":"russian","human":"both","fen":"8/8/8/8/8/8/1b6/w7 w","moves":["a1:c3"]}"#,
    );
    assert_eq!(moves_of(&v).len(), 1, "{v}");
    let mut events = Events::open(&server, &id);
    let path = format!("/api/games/{id}/review");
    let (status, first) = server.call("POST", &path, r#"{"depth": 2}"#);
    assert_eq!(status, 202, "{first}");
    review_events(&mut events);
    let last = server.ok("GET", &path, "");
    let entry = &last.get("moves").and_then(Value::as_array).unwrap()[0];
    assert_eq!(
        entry.get("eval").unwrap().to_string(),
        r#"{"result":"1-0"}"#
    );
}

/// Counts in the server's answers read in their number: `1 ply`, `1 game is open`.
#[test]
fn counts_in_answers_read_in_their_number() {
    let server = Server::start(&["--max-games", "1"]);
    let (id, _) = server.new_game(r#"{"human":"both","moves":["c3-d4"]}"#);
    let (status, e) = server.call(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"f6-e5","ply":2}"#,
    );
    assert_eq!(
        (status, error_of(&e)),
        (400, "'ply' 2 is beyond the game's 1 ply"),
        "{e}"
    );
    let (status, e) = server.call("POST", "/api/games", r#"{"level":0}"#);
    assert_eq!(status, 503, "{e}");
    assert!(
        error_of(&e).starts_with("the server is busy: 1 game is open (its --max-games)"),
        "{e}"
    );
}

/// Each `review` event carries what changed, the move just reviewed, not the whole report
/// (which made a review's events grow with the square of its length: 201 MB for 2,000
/// plies, and a page fell behind and lost its stream); the events add up to the whole report
/// `GET` answers, and a stream opened later gets that whole report first.
#[test]
fn review_events_carry_the_new_move_and_a_new_stream_gets_the_whole_report() {
    let server = Server::start(&[]);
    let line = a_line(&server, 60);
    assert!(line.len() >= 30, "{line:?}");
    let id = game_of(&server, &line);
    let mut events = Events::open(&server, &id);
    let path = format!("/api/games/{id}/review");
    let first = server.ok("POST", &path, r#"{"depth": 1}"#);
    let mut entries: Vec<Value> = Vec::new();
    for ev in review_events(&mut events) {
        let moves = ev.get("moves").and_then(Value::as_array).unwrap();
        assert!(moves.len() <= 1, "{ev}");
        assert!(
            ev.to_string().len() < 2048,
            "{} bytes: {ev}",
            ev.to_string().len()
        );
        let from = entries.len() as u64;
        entries.extend(moves.iter().cloned());
        assert_eq!(count(&ev, "done"), entries.len() as u64, "{ev}");
        assert_eq!(count(&ev, "from"), from, "{ev}");
    }
    assert_eq!((count(&first, "from"), count(&first, "done")), (0, 0));
    let whole = server.ok("GET", &path, "");
    assert_eq!(count(&whole, "from"), 0);
    assert_eq!(count(&whole, "done"), line.len() as u64);
    assert_eq!(whole.get("moves"), Some(&Value::Array(entries)));
    // A page that comes back: its new stream starts with the state, then the whole report.
    let mut again = Events::open(&server, &id);
    assert_eq!(again.next().0, "state");
    assert_eq!(again.next(), ("review".to_string(), whole));
}

/// Closing a game stops its review at once and frees its place: before, the review ran on
/// for up to 300 s, and two of them made every other game's review answer 503. A game is
/// closed by `DELETE`, or by its page going away (its last event stream gone for 5 s).
#[test]
fn closing_a_game_stops_its_review_and_frees_its_place() {
    let server = Server::start(&[]);
    let line = a_line(&server, 24);
    let (a, b, c) = (
        game_of(&server, &line),
        game_of(&server, &line),
        game_of(&server, &line),
    );
    let (_stream_a, stream_b, _stream_c) = (
        Events::open(&server, &a),
        Events::open(&server, &b),
        Events::open(&server, &c),
    );
    // Reviews of 5 s a position: minutes for the line's positions.
    for id in [&a, &b] {
        let (status, v) = server.call(
            "POST",
            &format!("/api/games/{id}/review"),
            r#"{"movetime_ms": 5000}"#,
        );
        assert_eq!(status, 202, "{v}");
    }
    let review_c = format!("/api/games/{c}/review");
    let (status, e) = server.call("POST", &review_c, r#"{"depth": 1}"#);
    assert_eq!(status, 503, "{e}");
    assert_eq!(count(&server.status(), "reviews"), 2);
    server.ok("DELETE", &format!("/api/games/{a}"), "");
    // Each 503 changes nothing; the first 202 starts game c's review in game a's place.
    wait_until("a place for game c's review", || {
        server.call("POST", &review_c, r#"{"depth": 1}"#).0 == 202
    });
    let (status, e) = server.call("GET", &format!("/api/games/{a}/review"), "");
    assert_eq!(status, 404, "{e}");
    // Game b's page goes away: the server closes the game, and its review stops.
    drop(stream_b);
    wait_until("game b to be closed", || {
        count(&server.status(), "games") == 1
    });
    wait_until("every review to stop", || {
        count(&server.status(), "reviews") == 0
    });
    let report = server.ok("GET", &review_c, "");
    assert_eq!(report.get("running"), Some(&Value::Bool(false)), "{report}");
    assert_eq!(count(&report, "done"), line.len() as u64, "{report}");
}

/// The report of a closed game is freed with it: reviewing and closing game after game
/// leaves the server's memory where it was (before, each 300-ply game reviewed kept about
/// 1.5 MB for as long as the server ran). Sizes, not times: each review is waited for.
#[test]
fn reviewed_and_closed_games_leave_no_memory_behind() {
    let server = Server::start(&[]);
    let line = a_line(&server, 120);
    assert!(line.len() >= 60, "{line:?}");
    let review_and_close = || {
        let id = game_of(&server, &line);
        let _events = Events::open(&server, &id);
        let path = format!("/api/games/{id}/review");
        server.ok("POST", &path, r#"{"depth": 1}"#);
        wait_until("the review to end", || {
            server.ok("GET", &path, "").get("running") == Some(&Value::Bool(false))
        });
        server.ok("DELETE", &format!("/api/games/{id}"), "");
        wait_until("the review thread to end", || {
            count(&server.status(), "reviews") == 0
        });
    };
    // The first games grow the server's pools (threads, buffers) to their working size.
    for _ in 0..3 {
        review_and_close();
    }
    let before = server.rss_kib();
    let games = 30;
    for _ in 0..games {
        review_and_close();
    }
    let grew = server.rss_kib().saturating_sub(before);
    eprintln!(
        "{games} games of {} plies reviewed and closed: the server grew by {grew} KiB",
        line.len()
    );
    assert!(grew < 8 * 1024, "{grew} KiB");
    assert_eq!(count(&server.status(), "games"), 0);
}
