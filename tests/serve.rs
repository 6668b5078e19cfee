//! `bashni serve` driven over HTTP as a page would: the real binary on a free loopback
//! port, requests written by hand on a TcpStream (no HTTP crate needed).

use crate::common;
use crate::common::deadline::Bounded;

use bashni::serve::json::{self, Value};
use common::serve::*;
use std::process::Command;

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let server = Server::start(&[]);
    let (id, v0) = server.new_game(r#"{"level":0}"#);
    // Watched, as its page watches it: the server ends a game nobody has watched for 5 s,
    // and on a busy machine the requests below may take that long.
    let _events = Events::open(&server, &id);
    let path = format!("/api/games/{id}/move");
    let (status, e) = server.call("POST", &path, r#"{"move":"c3-c4"}"#);
    assert_eq!(status, 422);
    assert!(
        error_of(&e).starts_with("illegal move c3-c4: legal moves are a3-b4"),
        "{e}"
    );
    let (status, e) = server.call("POST", &path, r#"{"move":"c3d4"}"#);
    assert_eq!(status, 400);
    assert!(error_of(&e).starts_with("bad move 'c3d4'"), "{e}");
    for (body, msg) in [
        (
            r#"{"move":"#,
            "malformed JSON: EOF while parsing a value at line 1 column 8",
        ),
        ("[1]", "the body must be a JSON object"),
        (r#"{"move":7}"#, "'move' must be a move string"),
        (
            r#"{"move":"c3-d4","ply":-1}"#,
            "'ply' must be a whole number",
        ),
        ("\u{0}", "malformed JSON: expected value at line 1 column 1"),
    ] {
        let (status, e) = server.call("POST", &path, body);
        assert_eq!((status, error_of(&e)), (400, msg), "{body}");
    }
    let big = vec![b' '; 300 * 1024];
    let (status, text) = server.raw("POST", &path, &big);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("request body over 262144 bytes"), "{text}");
    let (status, e) = server.call("POST", "/api/games", r#"{"level":21}"#);
    assert_eq!(status, 400);
    assert_eq!(error_of(&e), "'level' must be a whole number from 0 to 20");
    for (method, p) in [
        ("GET", "/api/games/0123456789abcdef".to_string()),
        ("POST", "/api/games/0123456789abcdef/move".to_string()),
        ("GET", "/api/games/0123456789abcdef/events".to_string()),
        ("GET", "/api/games/0123456789abcdef/pdn".to_string()),
        ("DELETE", "/api/games/0123456789abcdef".to_string()),
    ] {
        let (status, e) = server.call(method, &p, r#"{"move":"c3-d4"}"#);
        assert_eq!(status, 404, "{method} {p}");
        assert!(
            error_of(&e).starts_with("no game '0123456789abcdef'"),
            "{e}"
        );
    }
    let (status, _) = server.call("POST", &format!("/api/games/{id}/fly"), "");
    assert_eq!(status, 404);
    let (status, _) = server.call("PUT", &format!("/api/games/{id}"), "");
    assert_eq!(status, 405);
    let (status, _) = server.raw("GET", "/nothing", b"");
    assert_eq!(status, 404);
    // Nothing changed: same moves, same version.
    let v1 = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(v1.get("version"), v0.get("version"));
    assert!(moves_of(&v1).is_empty());
    // The page itself is served.
    let (status, html) = server.raw("GET", "/?fen=8/8/8/8/8/8/8/8%20w", b"");
    assert_eq!(status, 200);
    assert!(html.contains("app.js"));
}

#[test]
fn a_game_against_the_engine_with_takeback_resign_and_pdn() {
    let server = Server::start(&[]);
    let (id, v) = server.new_game(r#"{"level":0,"human":"black","movetime_ms":100}"#);
    let mut events = Events::open(&server, &id);
    // The engine plays White's first move by itself.
    let v = if your_turn(&v) {
        v
    } else {
        events.state_until(my_turn_after(&v))
    };
    assert_eq!(moves_of(&v).len(), 1);
    assert_eq!(str_of(&v, "turn"), "black");
    let mine = legal_of(&v)[0].clone();
    let v = play_and_wait(&server, &mut events, &id, &mine);
    let played = moves_of(&v);
    assert_eq!(played.len(), 3);
    assert_eq!(played[1], mine);
    let fens = v.get("fens").and_then(Value::as_array).unwrap();
    assert_eq!(fens.len(), 4);
    // Takeback: my move and the engine's reply go.
    let v = server.ok("POST", &format!("/api/games/{id}/takeback"), "");
    assert_eq!(moves_of(&v), played[..1]);
    let v = server.ok("POST", &format!("/api/games/{id}/resign"), "");
    let result = v.get("result").unwrap();
    assert_eq!(str_of(result, "result"), "1-0");
    assert_eq!(str_of(result, "reason"), "resignation");
    assert!(str_of(&v, "status").starts_with("1-0 White wins: Black resigned"));
    let (status, e) = server.call(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"c7-d6"}"#,
    );
    assert_eq!(status, 409);
    assert!(error_of(&e).starts_with("the game is over"), "{e}");
    let (status, pdn) = server.raw("GET", &format!("/api/games/{id}/pdn"), b"");
    assert_eq!(status, 200);
    assert!(pdn.contains("[Result \"1-0\"]") && pdn.contains("[Termination \"resignation\"]"));
    assert!(pdn.contains("[GameType \"Bashni\"]"), "{pdn}");
    assert!(pdn.contains(&format!("1. {}", played[0])), "{pdn}");
    // Loaded back: the same moves.
    let body = json::object([
        ("pdn", Value::from(pdn.as_str())),
        ("human", Value::from("both")),
    ]);
    let (_, back) = server.new_game(&body.to_string());
    assert_eq!(moves_of(&back), played[..1]);
    // With its end: the PDN's resignation.
    let result = back.get("result").unwrap();
    assert_eq!(str_of(result, "reason"), "resignation", "{back}");
    assert!(str_of(&back, "status").starts_with("1-0 White wins: Black resigned"));
}

#[test]
fn rules_end_games_and_ambiguous_captures_need_the_full_path() {
    let server = Server::start(&[]);
    // White's only move takes Black's last piece: Black has no move and loses.
    let (id, _) = server.new_game(r#"{"human":"both","fen":"8/8/8/8/8/8/1b6/w7 w"}"#);
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"a1:c3"}"#,
    );
    let fens = v.get("fens").and_then(Value::as_array).unwrap();
    assert_eq!(fens[1].as_str(), Some("8/8/8/8/8/2(wb)5/8/8 b 0 1"));
    let result = v.get("result").unwrap();
    assert_eq!(str_of(result, "reason"), "no legal move");
    assert_eq!(str_of(result, "winner"), "white");
    assert!(legal_of(&v).is_empty());
    // Two captures from c3 back to c3 by opposite ways round.
    let (id, v) = server.new_game(r#"{"human":"both","fen":"7b/8/1b1b4/8/1b1b4/2w5/8/8 w"}"#);
    let mut legal = legal_of(&v);
    legal.sort();
    assert_eq!(legal, ["c3:a5:c7:e5:c3", "c3:e5:c7:a5:c3"]);
    let (status, e) = server.call(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"c3:c3"}"#,
    );
    assert_eq!(status, 422);
    assert!(error_of(&e).starts_with("ambiguous move c3:c3"), "{e}");
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"c3:e5:c7:a5:c3"}"#,
    );
    assert_eq!(moves_of(&v), ["c3:e5:c7:a5:c3"]);
}

#[test]
fn a_clock_runs_out() {
    let server = Server::start(&[]);
    // (each side's first move is not timed: the clocks run from the third ply)
    let (id, _) = server
        .new_game(r#"{"level":0,"clock":{"base_ms":1000,"inc_ms":0},"moves":["c3-d4","f6-g5"]}"#);
    let mut events = Events::open(&server, &id);
    let v = events.state_until(|v| v.get("result") != Some(&Value::Null));
    let result = v.get("result").unwrap();
    assert_eq!(str_of(result, "reason"), "time forfeit");
    assert_eq!(str_of(result, "result"), "0-1");
}

#[test]
fn hint_and_analysis_come_as_events() {
    let server = Server::start(&[]);
    let (id, _) = server.new_game(r#"{"level":0,"human":"both"}"#);
    let mut events = Events::open(&server, &id);
    server.ok("POST", &format!("/api/games/{id}/hint"), "");
    let v = events.state_until(|v| v.get("hint") != Some(&Value::Null));
    let hint = str_of(v.get("hint").unwrap(), "move").to_string();
    assert!(legal_of(&v).contains(&hint), "{hint}");
    let score = &v["hint"]["score"];
    assert!(score["cp"].is_i64() || score["mate"].is_i64(), "{v}");
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/analysis"),
        r#"{"on":true,"multipv":2}"#,
    );
    assert_eq!(str_of(&v, "thinking"), "analysis");
    // Lines come, deeper and deeper.
    let mut depth = 0;
    while depth < 6 {
        let (e, a) = events.next();
        if e != "analysis" {
            continue;
        }
        let lines = a.get("lines").and_then(Value::as_array).unwrap();
        assert!(!lines.is_empty() && lines.len() <= 2, "{a}");
        assert!(lines[0].get("score").unwrap().get("cp").is_some(), "{a}");
        depth = lines[0].get("depth").and_then(Value::as_u64).unwrap();
    }
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/analysis"),
        r#"{"on":false}"#,
    );
    assert_eq!(v.get("thinking"), Some(&Value::Null));
    assert_eq!(v.get("analysis"), Some(&Value::Null));
    let (status, e) = server.call(
        "POST",
        &format!("/api/games/{id}/analysis"),
        r#"{"on":true,"multipv":9}"#,
    );
    assert_eq!(
        (status, error_of(&e)),
        (400, "'multipv' must be from 1 to 5")
    );
}

#[test]
fn a_closed_stream_frees_its_game_and_engine() {
    let server = Server::start(&[]);
    let (id, _) = server.new_game(r#"{"level":0}"#);
    let mut events = Events::open(&server, &id);
    events.next();
    assert_eq!(server.children(), 1);
    drop(events);
    wait_until(format!("game {id} and its engine to be closed"), || {
        let (status, _) = server.call("GET", &format!("/api/games/{id}"), "");
        let engines = server.status().get("engines").and_then(Value::as_u64);
        status == 404 && engines == Some(0) && server.children() == 0
    });
}

/// Plays one game against level 0 to the end or `plies` plies, always the first legal move.
fn play_out(server: &Server, plies: usize) -> Result<usize, String> {
    let (id, v) = server.new_game(r#"{"level":0,"movetime_ms":100}"#);
    let mut events = Events::open(server, &id);
    let mut v = v;
    let mut played = 0;
    while v.get("result") == Some(&Value::Null) && played < plies {
        let mv = legal_of(&v)[0].clone();
        let (status, after) = server.call(
            "POST",
            &format!("/api/games/{id}/move"),
            &format!("{{\"move\":\"{mv}\"}}"),
        );
        if status != 200 {
            return Err(format!("{id}: {mv}: {status} {after}"));
        }
        played += 1;
        v = if your_turn(&after) {
            after
        } else {
            events.state_until(my_turn_after(&after))
        };
    }
    server.ok("DELETE", &format!("/api/games/{id}"), "");
    Ok(played)
}

#[test]
fn twenty_games_at_once_and_the_cap() {
    const GAMES: usize = 20;
    let server = Server::start(&["--max-games", "20"]);
    let server = &server;
    // Twenty games at once, each up to 40 of its own moves.
    std::thread::scope(|scope| {
        let games: Vec<_> = (0..GAMES)
            .map(|_| scope.spawn(move || play_out(server, 40)))
            .collect();
        for g in games {
            let played = g.join().unwrap().unwrap();
            assert!(played > 0);
        }
    });
    assert_eq!(
        server.status().get("opened").and_then(Value::as_u64),
        Some(GAMES as u64)
    );
    // The cap: 20 open games, the 21st is refused with a reason.
    let open: Vec<(String, Events)> = (0..GAMES)
        .map(|_| {
            let (id, _) = server.new_game(r#"{"level":0}"#);
            let ev = Events::open(server, &id);
            (id, ev)
        })
        .collect();
    let (status, e) = server.call("POST", "/api/games", r#"{"level":0}"#);
    assert_eq!(status, 503);
    assert!(error_of(&e).contains("--max-games"), "{e}");
    server.ok("DELETE", &format!("/api/games/{}", open[0].0), "");
    server.new_game(r#"{"level":0}"#);
}

#[test]
fn a_turkish_game_with_its_own_rules_and_engine() {
    let server = Server::start(&[]);
    let (status, e) = server.call("POST", "/api/games", r#"{"variant":"chess"}"#);
    assert_eq!(status, 400);
    assert_eq!(
        error_of(&e),
        "unknown variant 'chess' (expected one of: bashni, turkish, russian, brazilian, lasca)"
    );
    let (id, v) = server.new_game(r#"{"variant":"turkish","level":0,"movetime_ms":100}"#);
    assert_eq!(str_of(&v, "variant"), "turkish");
    assert_eq!(
        str_of(&v, "start_fen"),
        "8/bbbbbbbb/bbbbbbbb/8/8/wwwwwwww/wwwwwwww/8 w 0 1"
    );
    let legal = v.get("legal").and_then(Value::as_array).unwrap();
    assert_eq!(legal.len(), 8);
    let d3 = legal
        .iter()
        .find(|m| str_of(m, "move") == "d3-d4")
        .expect("d3-d4 is legal");
    assert_eq!(
        d3.get("path"),
        Some(&json::parse(r#"["d3","d4"]"#).unwrap())
    );
    let mut events = Events::open(&server, &id);
    let path = format!("/api/games/{id}/move");
    // A diagonal step is Bashni's, not Turkish draughts'.
    let (status, e) = server.call("POST", &path, r#"{"move":"c3-d4"}"#);
    assert_eq!(status, 422);
    assert!(
        error_of(&e).starts_with("illegal move c3-d4: legal moves are a3-a4 b3-b4"),
        "{e}"
    );
    let (status, e) = server.call("POST", &path, r#"{"move":"d3-d9"}"#);
    assert_eq!(status, 400, "{e}");
    let v = server.ok("POST", &path, r#"{"move":"d3-d4"}"#);
    // The engine answers with a Turkish move, which the server has checked.
    let v = if your_turn(&v) {
        v
    } else {
        events.state_until(my_turn_after(&v))
    };
    let played = moves_of(&v);
    assert_eq!(played.len(), 2, "{v}");
    assert_eq!(v.get("notice"), Some(&Value::Null), "{v}");
    type Turkish = bashni::games::turkish::Position;
    let replayed = bashni::games::Record::<Turkish>::from_fen_and_moves(
        bashni::games::turkish::START_FEN,
        &played,
    )
    .expect("the engine's reply is a legal Turkish move");
    let fens = v.get("fens").and_then(Value::as_array).unwrap();
    use bashni::games::Rules;
    assert_eq!(
        fens[2].as_str(),
        Some(replayed.position().to_fen().as_str())
    );
    let (_, pdn) = server.raw("GET", &format!("/api/games/{id}/pdn"), b"");
    assert!(pdn.contains("[GameType \"30,W,8,8,A0,0\"]"), "{pdn}");
    assert!(pdn.contains("1. d3-d4 "), "{pdn}");
    // Loaded back, the PDN's GameType names the game.
    let body = json::object([
        ("pdn", Value::from(pdn.as_str())),
        ("human", Value::from("both")),
    ]);
    let (_, back) = server.new_game(&body.to_string());
    assert_eq!(str_of(&back, "variant"), "turkish");
    assert_eq!(moves_of(&back), played);
}

#[test]
fn turkish_russian_and_brazilian_games_end_by_their_own_rules() {
    let server = Server::start(&[]);
    // One king against one man wins in Turkish draughts.
    let (id, _) =
        server.new_game(r#"{"variant":"turkish","human":"both","fen":"8/8/8/8/8/8/b6b/W7 w"}"#);
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"a1:a3"}"#,
    );
    let result = v.get("result").unwrap();
    assert_eq!(str_of(result, "reason"), "one king against one man");
    assert_eq!(str_of(result, "winner"), "white");
    // Its no-progress rule: 50 plies without a capture or a man's move.
    let (id, _) = server
        .new_game(r#"{"variant":"turkish","human":"both","fen":"8/8/8/3B4/8/8/8/W6W w 49 30"}"#);
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"a1-a2"}"#,
    );
    let result = v.get("result").unwrap();
    assert_eq!(str_of(result, "reason"), "50-ply rule");
    assert_eq!(
        str_of(result, "text"),
        "Draw by the 50-ply rule (50 plies without a capture or a man's move)"
    );
    // Russian draughts: the captured man leaves the board, and a side without pieces loses.
    let (id, v) =
        server.new_game(r#"{"variant":"russian","human":"both","fen":"8/8/8/8/8/8/1b6/w7 w"}"#);
    assert_eq!(legal_of(&v), ["a1:c3"]);
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"a1:c3"}"#,
    );
    let fens = v.get("fens").and_then(Value::as_array).unwrap();
    assert_eq!(fens[1].as_str(), Some("8/8/8/8/8/2w5/8/8 b 0 1"));
    assert_eq!(str_of(v.get("result").unwrap(), "reason"), "no legal move");
    let (_, pdn) = server.raw("GET", &format!("/api/games/{id}/pdn"), b"");
    assert!(pdn.contains("[GameType \"25,W,8,8,A0,0\"]"), "{pdn}");
    // A Russian game against the engine: its first move is a Russian one.
    let (id, v) =
        server.new_game(r#"{"variant":"russian","level":0,"human":"black","movetime_ms":100}"#);
    let mut events = Events::open(&server, &id);
    let v = if your_turn(&v) {
        v
    } else {
        events.state_until(my_turn_after(&v))
    };
    let played = moves_of(&v);
    assert_eq!(played.len(), 1);
    assert_eq!(v.get("notice"), Some(&Value::Null), "{v}");
    assert!(
        bashni::games::Record::<bashni::games::russian::Position>::from_fen_and_moves(
            bashni::games::russian::START_FEN,
            &played
        )
        .is_ok()
    );
    // Brazilian draughts: only the capture that takes the most pieces; a shorter one is
    // refused and the game stays as it was; the PDN is GameType 26.
    let (id, v) = server
        .new_game(r#"{"variant":"brazilian","human":"both","fen":"8/8/5b2/8/1b1b4/2w5/8/8 w"}"#);
    assert_eq!(legal_of(&v), ["c3:e5:g7"]);
    let (status, _) = server.call(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"c3:a5"}"#,
    );
    assert_eq!(status, 422, "an illegal move");
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"c3:e5:g7"}"#,
    );
    let fens = v.get("fens").and_then(Value::as_array).unwrap();
    assert_eq!(fens[1].as_str(), Some("8/6w1/8/8/1b6/8/8/8 b 0 1"));
    let (_, pdn) = server.raw("GET", &format!("/api/games/{id}/pdn"), b"");
    assert!(pdn.contains("[GameType \"26,W,8,8,A0,0\"]"), "{pdn}");
}

#[test]
fn serve_variant_names_the_game_the_page_starts_with() {
    let plain = Server::start(&[]);
    let info = plain.ok("GET", "/api/info", "");
    assert!(info.get("default_variant").unwrap().is_null(), "{info}");
    let names: Vec<&str> = info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| str_of(v, "name"))
        .collect();
    assert_eq!(
        names,
        ["bashni", "turkish", "russian", "brazilian", "lasca"]
    );
    let turkish = Server::start(&["--variant", "turkish"]);
    let info = turkish.ok("GET", "/api/info", "");
    assert_eq!(str_of(&info, "default_variant"), "turkish");
    let refused = Command::new(BASHNI)
        .args(["serve", "--port", "0", "--variant", "chess"])
        .output_bounded()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("unknown variant 'chess'"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

#[test]
fn a_pdns_variations_come_with_the_new_game() {
    let server = Server::start(&[]);
    let pdn = "[GameType \"Bashni\"]\n\n1. c3-d4 (1. c3-b4 f6-g5 (1... f6-e5 2. b4-a5) \
               2. g3-h4) 1... f6-e5 (1... b6-a5) 2. d4xf6 g7:e5 1-0\n";
    let body = json::object([("pdn", Value::from(pdn)), ("human", Value::from("both"))]);
    let (status, v) = server.call("POST", "/api/games", &body.to_string());
    assert_eq!(status, 201, "{v}");
    assert_eq!(moves_of(&v), ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]);
    let lines: Vec<Vec<String>> = v
        .get("variations")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .map(|l| {
            let a = l.as_array().unwrap();
            a.iter().map(|m| m.as_str().unwrap().to_string()).collect()
        })
        .collect();
    assert_eq!(
        lines,
        [
            vec!["c3-b4", "f6-g5", "g3-h4"],
            vec!["c3-b4", "f6-e5", "b4-a5"],
            vec!["c3-d4", "b6-a5"],
        ]
    );
    // A page sends its tree back as whole lines: checked, one inside the main line left out.
    let (_, v) = server.new_game(
        r#"{"human":"both","moves":["c3-d4"],"variations":[["c3-b4","f6-g5"],["c3-d4"]]}"#,
    );
    assert_eq!(
        v.get("variations").unwrap().to_string(),
        r#"[["c3-b4","f6-g5"]]"#
    );
    // Every new game's answer has the field; the game's state does not.
    let (id, v) = server.new_game("{}");
    assert_eq!(v.get("variations"), Some(&Value::Array(Vec::new())));
    assert_eq!(
        server
            .ok("GET", &format!("/api/games/{id}"), "")
            .get("variations"),
        None
    );
    // A bad move in a variation refuses the whole PDN, in one line.
    let bad = pdn.replace("b4-a5", "b4-c7");
    let body = json::object([("pdn", Value::from(bad.as_str()))]);
    let (status, e) = server.call("POST", "/api/games", &body.to_string());
    assert_eq!(status, 400);
    assert!(
        error_of(&e).starts_with("PDN: in the variation 'c3-b4 f6-e5 b4-c7': move 3: illegal"),
        "{e}"
    );
}

#[test]
fn a_resignation_stays_with_its_line_when_lines_are_switched() {
    let server = Server::start(&[]);
    let (id, v) = server.new_game(r#"{"level":0,"human":"white","movetime_ms":50}"#);
    let mut events = Events::open(&server, &id);
    let mine = legal_of(&v)[0].clone();
    let v = play_and_wait(&server, &mut events, &id, &mine);
    let main = moves_of(&v);
    assert_eq!(main.len(), 2);
    let v = server.ok("POST", &format!("/api/games/{id}/resign"), "");
    let result_of = |v: &Value| v.get("result").and_then(|r| r.get("reason")).cloned();
    let resigned = Some(Value::from("resignation"));
    assert_eq!(result_of(&v), resigned);
    // As the page shows a variation: analysis on, a ply back, another move there.
    let path = |a: &str| format!("/api/games/{id}/{a}");
    server.ok("POST", &path("analysis"), r#"{"on":true,"ply":2}"#);
    let v = server.ok("POST", &path("takeback"), "");
    assert!(v.get("result") == Some(&Value::Null), "{v}");
    let other = legal_of(&v).into_iter().find(|m| *m != main[1]).unwrap();
    let v = server.ok(
        "POST",
        &path("move"),
        &format!("{{\"move\":\"{other}\",\"ply\":1}}"),
    );
    assert!(v.get("result") == Some(&Value::Null), "{v}");
    // Back to the main line: its end comes back with it.
    server.ok("POST", &path("takeback"), "");
    let v = server.ok(
        "POST",
        &path("move"),
        &format!("{{\"move\":\"{}\",\"ply\":1}}", main[1]),
    );
    assert_eq!(moves_of(&v), main);
    assert_eq!(result_of(&v), resigned, "{v}");
    assert!(
        str_of(&v, "status").starts_with("0-1 Black wins: White resigned"),
        "{v}"
    );
    let v = server.ok("POST", &path("analysis"), r#"{"on":false}"#);
    assert_eq!(result_of(&v), resigned);
    // Outside analysis mode a finished game's moves are not taken back: the resignation
    // stands (issue 44: take back in play only while the game is on).
    let (status, e) = server.call("POST", &path("takeback"), "");
    assert_eq!(status, 409, "{e}");
    let v = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(result_of(&v), resigned);
    assert_eq!(moves_of(&v), main);
}

/// The analysis event that ends the search (`done`), after the others.
fn analysis_done(events: &mut Events) -> Value {
    loop {
        let (e, a) = events.next();
        if e == "analysis" && a.get("done") == Some(&Value::Bool(true)) {
            return a;
        }
    }
}

#[test]
fn threat_analysis_searches_for_the_other_side_to_a_depth() {
    let server = Server::start(&[]);
    // White to move has no capture; Black, were it its move, would have to take c3.
    let (id, _) = server.new_game(r#"{"human":"both","fen":"7b/8/8/b7/1b6/2w5/7w/8 w 0 1"}"#);
    let mut events = Events::open(&server, &id);
    let path = format!("/api/games/{id}/analysis");
    let v = server.ok("POST", &path, r#"{"on":true,"threat":true,"depth":4}"#);
    assert_eq!(v["analysis"]["threat"], Value::Bool(true), "{v}");
    assert_eq!(v["analysis"]["depth"].as_u64(), Some(4), "{v}");
    assert_eq!(str_of(&v, "turn"), "white", "the game itself is unchanged");
    let a = analysis_done(&mut events);
    assert_eq!(a["threat"], Value::Bool(true), "{a}");
    assert_eq!(a["lines"][0]["pv"][0].as_str(), Some("b4:d2"), "{a}");
    assert!(a["lines"][0]["depth"].as_u64() <= Some(4), "{a}");
    // Refused: a depth out of range, a threat that is no boolean; nothing changes.
    for (body, why) in [
        (r#"{"on":true,"depth":0}"#, "'depth' must be from 1 to 64"),
        (r#"{"on":true,"depth":65}"#, "'depth' must be from 1 to 64"),
        (
            r#"{"on":true,"threat":1}"#,
            "'threat' must be true or false",
        ),
    ] {
        let (status, e) = server.call("POST", &path, body);
        assert_eq!((status, error_of(&e)), (400, why), "{body}");
    }
    assert_eq!(
        server.ok("GET", &format!("/api/games/{id}"), "")["analysis"]["threat"],
        Value::Bool(true)
    );
    // Where the other side would have no move: no lines, and the search ends.
    let (id, _) = server.new_game(r#"{"human":"both","fen":"8/8/8/8/8/b7/1w6/2w5 w 0 1"}"#);
    let mut events = Events::open(&server, &id);
    server.ok(
        "POST",
        &format!("/api/games/{id}/analysis"),
        r#"{"on":true,"threat":true,"depth":4}"#,
    );
    let a = analysis_done(&mut events);
    assert_eq!(a["lines"].as_array().map(Vec::len), Some(0), "{a}");
}

/// The drawing tables name Russian and Brazilian games by ballot (issue 65 item 7 with issue
/// 63's ballot files): `/api/info` lists the four tables, a game from the initial position is
/// named by the longest ballot its moves begin with, in its state and its PDN's `Opening`
/// tag; the same moves from another position, or in Bashni, name none.
#[test]
fn ballots_name_russian_and_brazilian_openings() {
    let server = Server::start(&[]);
    let info = server.ok("GET", "/api/info", "");
    let tables: Vec<String> = info["ballots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| format!("{} {}", str_of(t, "variant"), str_of(t, "table")))
        .collect();
    assert_eq!(
        tables,
        [
            "russian FMJD",
            "russian IDF",
            "brazilian FMJD",
            "brazilian IDF"
        ]
    );
    let moves = r#"["a3-b4","b6-a5","b2-a3","f6-e5","g3-h4","h6-g5"]"#;
    for variant in ["russian", "brazilian"] {
        let (id, v) = server.new_game(&format!(
            r#"{{"variant":"{variant}","human":"both","moves":{moves}}}"#
        ));
        assert_eq!(str_of(&v["opening"], "table"), "FMJD", "{v}");
        assert_eq!(str_of(&v["opening"], "code"), "1-IV", "{v}");
        let (_, pdn) = server.raw("GET", &format!("/api/games/{id}/pdn"), b"");
        assert!(pdn.contains("[Opening \"FMJD 1-IV\"]"), "{pdn}");
    }
    // Only the IDF's basic positions know this one.
    let (_, v) = server
        .new_game(r#"{"variant":"brazilian","human":"both","moves":["g3-h4","h6-g5","a3-b4"]}"#);
    assert_eq!(str_of(&v["opening"], "table"), "IDF", "{v}");
    assert_eq!(str_of(&v["opening"], "code"), "1-III", "{v}");
    // A man fewer (a1): not the initial position, no ballot.
    let fen = "W:Wc1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";
    let (_, v) = server.new_game(&format!(
        r#"{{"variant":"brazilian","human":"both","fen":"{fen}","moves":["a3-b4","b6-a5"]}}"#
    ));
    assert!(v["opening"].is_null(), "{v}");
    let (_, v) = server.new_game(r#"{"variant":"bashni","human":"both","moves":["a3-b4"]}"#);
    assert!(v["opening"].is_null(), "{v}");
}
