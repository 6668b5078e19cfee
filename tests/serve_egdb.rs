//! `bashni serve --egdb DIR`: the engine of a Russian game plays with the tables (a won
//! ending converted within the no-progress rule, against the tables' longest defence played
//! through the page's own `GET .../tablebase`), `/api/info` says the tables are there, and
//! a game whose tables are missing (Bashni) gets a null tablebase.

use crate::common;
use crate::egdb::russian_dir;

use bashni::serve::json::Value;
use common::serve::*;

/// Three kings against one off the long diagonal, White to move: won in 18 plies.
const WON: &str = "W:WKc1,Ka3,Kg1:BKb8";

/// More plies than the rule lets a game without a capture run.
const MOST_PLIES: usize = 80;

#[test]
fn the_engine_of_the_page_converts_a_won_ending() {
    let dir = russian_dir().to_str().unwrap().to_string();
    let server = Server::start(&["--egdb", &dir]);
    let info = server.ok("GET", "/api/info", "");
    assert!(info["egdb"]["tables"].as_u64().unwrap() > 0, "{info}");
    let body = format!(
        r#"{{"variant":"russian","human":"black","level":5,"movetime_ms":1000,"fen":"{WON}"}}"#
    );
    let (id, first) = server.new_game(&body);
    let mut events = Events::open(&server, &id);
    let mut v = events.state_until(my_turn_after(&first));
    for _ in 0..MOST_PLIES {
        if v.get("result") != Some(&Value::Null) {
            break;
        }
        let tb = server.ok("GET", &format!("/api/games/{id}/tablebase"), "");
        let defence = str_of(&tb["tablebase"]["moves"][0], "move").to_string();
        assert_eq!(str_of(&tb["tablebase"]["value"], "class"), "loss", "{tb}");
        v = play_and_wait(&server, &mut events, &id, &defence);
    }
    let result = &v["result"];
    assert_eq!(str_of(result, "result"), "1-0", "{v}");
    assert!(!str_of(result, "reason").contains("rule"), "{v}");
}

#[test]
fn a_game_without_tables_has_no_tablebase() {
    let dir = russian_dir().to_str().unwrap().to_string();
    let server = Server::start(&["--egdb", &dir]);
    let (id, _) = server.new_game(r#"{"human":"both","fen":"7b/8/8/8/8/8/8/W7 w"}"#);
    let tb = server.ok("GET", &format!("/api/games/{id}/tablebase"), "");
    assert_eq!(tb["tablebase"], Value::Null, "{tb}");
    let (status, e) = server.call("GET", &format!("/api/games/{id}/tablebase?ply=1"), "");
    assert_eq!(status, 400, "{e}");
}
