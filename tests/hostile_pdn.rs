//! Hostile PDN, end to end (issue: a PDN nested 25,000 deep aborted `bashni serve` with
//! every game in it, 100,000 deep aborted `play` and `analyse`; a 21 KB PDN bought seconds
//! of the server's work and a 5 MB answer). Every reader refuses past its limits with one
//! line, before the work, and goes on: the server with its other games, `play` with its
//! game (on a terminal it still offers to save it). No verdict here depends on time: sizes,
//! answers and what is left.

use crate::common;

use bashni::record::pdn::{MAX_VARIATION_DEPTH, parse_games};
use bashni::serve::json::{self, Value};
use bashni::serve::variations::{MAX_TREE_MOVES, MAX_VARIATIONS};
use common::gui::run_to_end;
use common::serve::*;
use common::terminal::run_on_terminal;
use std::path::PathBuf;

/// The refusal of a game nested too deep, after `file: ` or `PDN: `.
fn too_deep() -> String {
    format!("line 1: variations nested over {MAX_VARIATION_DEPTH} levels deep")
}

/// `1. c3-d4` then `levels` variations, each inside the one before, each opened by `open`.
fn nested(open: &str, levels: usize) -> String {
    format!("1. c3-d4 {}{} *", open.repeat(levels), ")".repeat(levels))
}

/// A PDN file of 1.1 MB nested 100,000 deep, in a fresh folder.
fn deep_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-hostile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("deep.pdn");
    let text = nested("(1. c3-d4 ", 100_000) + "\n";
    assert_eq!(text.len(), 1_100_012);
    std::fs::write(&file, text).unwrap();
    file
}

fn pdn_body(pdn: &str) -> String {
    json::object([("pdn", Value::from(pdn))]).to_string()
}

/// A game the server keeps (watched, so the reaper leaves it), to check it outlives abuse.
fn a_game_in_progress(server: &Server) -> (String, Events) {
    let (id, _) = server.new_game(r#"{"level":0,"human":"both","moves":["c3-d4"]}"#);
    let events = Events::open(server, &id);
    (id, events)
}

fn still_there(server: &Server, id: &str) {
    let v = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(moves_of(&v), ["c3-d4"]);
}

#[test]
fn a_pdn_nested_25000_deep_is_refused_and_the_server_keeps_its_games() {
    let server = Server::start(&[]);
    let (id, _events) = a_game_in_progress(&server);
    // What the page's 'Load PDN' sends for such a file: about 100 KB.
    let pdn = nested("(a ", 25_000);
    assert_eq!(pdn.len(), 100_011);
    let body = pdn_body(&pdn);
    let (status, text) = server.raw("POST", "/api/games", body.as_bytes());
    assert_eq!(status, 400, "{text}");
    let v = json::parse(&text).unwrap();
    assert_eq!(error_of(&v), format!("PDN: {}", too_deep()));
    still_there(&server, &id);
    assert_eq!(server.status().get("games"), Some(&Value::from(1)));
    // As deep as the most variations a game may bring (the page's own PDN of them, each
    // inside the one before, nests so deep): a game opens, its variations read (here all
    // one line).
    let at_limit = pdn_body(&nested("(1. c3-b4 ", MAX_VARIATIONS));
    let (_, v) = server.new_game(&at_limit);
    assert_eq!(
        v.get("variations"),
        Some(&json::parse(r#"[["c3-b4"]]"#).unwrap())
    );
}

#[test]
fn a_full_server_refuses_a_pdn_before_reading_it() {
    // Reading a new game's start is work of a game: it waits for a slot like one.
    let server = Server::start(&["--max-games", "1"]);
    let (id, _events) = a_game_in_progress(&server);
    let body = pdn_body(&nested("(a ", 25_000));
    let (status, text) = server.raw("POST", "/api/games", body.as_bytes());
    assert_eq!(status, 503, "{text}");
    let v = json::parse(&text).unwrap();
    assert!(error_of(&v).starts_with("the server is busy"), "{text}");
    still_there(&server, &id);
}

/// Kings shuffling from [`KINGS`]: White a1-b2-a1, Black h2-g1-h2.
const KINGS: &str = "8/8/8/8/8/8/7B/W7 w";

fn shuffle(ply: usize) -> &'static str {
    ["a1-b2", "h2-g1", "b2-a1", "g1-h2"][ply % 4]
}

/// A 1,999-ply game from [`KINGS`] with one-move variations at White's last `variations`
/// moves: each names a line of about 2,000 moves from the start in 13 bytes.
fn long_lines_pdn(variations: usize) -> String {
    let mut pdn = format!("[FEN \"{KINGS}\"]\n\n");
    let first_varied = 1999 - 2 * variations;
    for ply in 0..1999 {
        if ply % 2 == 0 {
            pdn.push_str(&format!("{}. ", ply / 2 + 1));
        }
        pdn.push_str(shuffle(ply));
        pdn.push(if ply % 16 == 15 { '\n' } else { ' ' });
        if ply % 2 == 0 && ply >= first_varied {
            let other = if ply % 4 == 0 { "a1-c3" } else { "b2-c1" };
            pdn.push_str(&format!("({}. {other}) ", ply / 2 + 1));
        }
    }
    pdn.push_str("*\n");
    pdn
}

#[test]
fn a_small_pdn_naming_long_lines_many_times_is_refused_before_the_work() {
    let pdn = long_lines_pdn(300);
    assert!((20_000..22_000).contains(&pdn.len()), "{}", pdn.len());
    let g = &parse_games(&pdn).unwrap()[0];
    assert_eq!(g.moves.len(), 1999);
    let varied: usize = g.moves.iter().map(|m| m.variations.len()).sum();
    assert_eq!(varied, MAX_VARIATIONS);
    let server = Server::start(&[]);
    let (id, _events) = a_game_in_progress(&server);
    let rss = server.rss_kib();
    // Four at once (they cost 41 s and 224 MB that stayed): each a one-line refusal.
    let body = pdn_body(&pdn);
    std::thread::scope(|scope| {
        let asks: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| server.raw("POST", "/api/games", body.as_bytes())))
            .collect();
        for ask in asks {
            let (status, text) = ask.join().unwrap();
            assert_eq!(status, 400, "{}", &text[..text.len().min(300)]);
            assert!(text.len() < 300, "{} bytes", text.len());
            let e = json::parse(&text).unwrap();
            assert_eq!(
                error_of(&e),
                format!(
                    "PDN: over {MAX_TREE_MOVES} moves in the main line and the variations \
                     together, each variation counted from the start"
                )
            );
        }
    });
    let grown_kib = server.rss_kib().saturating_sub(rss);
    assert!(grown_kib < 32 << 10, "the server grew by {grown_kib} KiB");
    still_there(&server, &id);
    // The most such a PDN may name: 9 variations late in the same game, about 20,000 moves
    // from the start. It opens, and its answer stays within what the count allows.
    let (status, text) = server.raw(
        "POST",
        "/api/games",
        pdn_body(&long_lines_pdn(9)).as_bytes(),
    );
    assert_eq!(status, 201, "{}", &text[..text.len().min(300)]);
    assert!(text.len() < MAX_TREE_MOVES * 16, "{} bytes", text.len());
    let v = json::parse(&text).unwrap();
    let lines = v.get("variations").and_then(Value::as_array).unwrap();
    assert_eq!(lines.len(), 9);
    assert_eq!(server.status().get("games"), Some(&Value::from(2)));
}

/// The line printed right after the echo of `typed`: its answer.
fn answer<'a>(out: &'a str, typed: &str) -> &'a str {
    let echo = format!("> {typed}");
    let mut lines = out.lines().skip_while(|l| *l != echo);
    assert!(lines.next().is_some(), "'{typed}' not typed:\n{out}");
    lines.next().unwrap_or("")
}

#[test]
fn play_refuses_to_load_a_file_nested_100000_deep_and_its_game_goes_on() {
    let file = deep_file("play");
    let load = format!("load {}", file.display());
    let input = format!("c3 d4\n{load}\nfen\n");
    let (code, out, err) = run_to_end(&["play", "--level", "1", "--seed", "1"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        answer(&out, &load),
        format!("{}: {}", file.display(), too_deep())
    );
    // The game loaded before is still the one played: the engine's reply came after c3-d4.
    assert!(answer(&out, "fen").ends_with(" w 2 2"), "{out}");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn play_on_a_terminal_offers_to_save_its_game_after_a_file_nested_100000_deep() {
    let file = deep_file("terminal");
    let kept = file.with_file_name("kept.pdn");
    // A move, the hostile load, leave; the offer to save is answered with a file name.
    let typed = format!("c3 d4\nload {}\nquit\n{}\n", file.display(), kept.display());
    let (code, shown) = run_on_terminal(&["play", "--level", "1", "--seed", "1"], &typed);
    assert_eq!(code, 0, "{shown}");
    let refusal = format!("{}: {}", file.display(), too_deep());
    assert!(shown.contains(&format!("{refusal}\r\n")), "{shown}");
    assert!(shown.contains("save the game before leaving?"), "{shown}");
    assert!(shown.ends_with("bye\r\n"), "{shown}");
    // What was saved is the game played before the load: c3-d4 and the engine's reply.
    let saved = std::fs::read_to_string(&kept).unwrap();
    let g = &parse_games(&saved).unwrap()[0];
    assert_eq!(g.moves.len(), 2, "{saved}");
    assert_eq!(g.moves[0].text, "c3-d4");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn analyse_and_match_refuse_a_file_nested_100000_deep_in_one_line() {
    let file = deep_file("analyse");
    let path = file.to_str().unwrap();
    let why = format!("{path}: {}", too_deep());
    for args in [
        vec!["analyse", "--pdn", path, "--depth", "1"],
        vec!["analyse", path, "--depth", "1"],
    ] {
        let (code, out, err) = run_to_end(&args, "");
        assert_eq!(
            (code, err.as_str()),
            (2, format!("error: {why}\n").as_str()),
            "{args:?}"
        );
        assert!(out.is_empty(), "{out}");
    }
    let bashni = env!("CARGO_BIN_EXE_bashni");
    let engine = format!("cmd={bashni}");
    let args = [
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--depth",
        "1",
        "--openings",
        path,
    ];
    let (code, _, err) = run_to_end(&args, "");
    assert_eq!(code, 2, "{err}");
    let line = format!("openings file '{path}': {}", too_deep());
    assert!(err.contains(&line), "{err}");
    assert!(
        !err.contains("overflow") && !err.contains("panicked"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}
