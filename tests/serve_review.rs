//! `POST /api/games/<id>/review` on `bashni serve`: a short review of a game's moves runs
//! beside the HTTP layer, reports progress as `review` events, and `GET` answers the last.

use crate::common;

use bashni::serve::json::Value;
use common::serve::*;

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
    let last = loop {
        let (e, v) = events.next();
        if e == "review" && v.get("running") == Some(&Value::Bool(false)) {
            break v;
        }
    };
    assert_eq!(last.get("done").and_then(Value::as_u64), Some(2), "{last}");
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
    assert_eq!(server.ok("GET", &path, ""), last);
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
    let last = loop {
        let (e, v) = events.next();
        if e == "review" && v.get("running") == Some(&Value::Bool(false)) {
            break v;
        }
    };
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
