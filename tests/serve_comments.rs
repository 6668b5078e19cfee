//! Comments, glyphs and tags on `bashni serve`: a PDN's are kept on import (`POST
//! /api/games`), given back with the state (`GET /api/games/<id>`), edited through `POST
//! /api/games/<id>/note`, and written into the game's PDN (`GET .../pdn`), which reads back
//! the same; every bound is a one-line 400 that changes nothing.

use crate::common;

use bashni::record::pdn::parse_games;
use bashni::serve::json::{self, Value};
use bashni::serve::notes::{MAX_COMMENT_CHARS, MAX_NOTES, MAX_TAGS};
use common::serve::*;

/// A Bashni game with the seven tags, one more, comments, glyphs and a variation with its
/// own comment, written in the game's own notation (so it reads back equal).
const ANNOTATED: &str = "[Event \"Club final\"]\n[Site \"Ufa\"]\n[Date \"2024.05.01\"]\n\
[Round \"3\"]\n[White \"Ann Petrova\"]\n[Black \"Boris \\\"B\\\" Ivanov\"]\n[Result \"*\"]\n\
[Annotator \"Kim\"]\n\n\
1. c3-d4! {the centre} (1. c3-b4?! {slower} f6-g5) 1... f6-e5 2. d4:f6?? {a blunder, \
on two\n  lines} g7:e5 *\n";

fn post_pdn(server: &Server, pdn: &str) -> (u16, Value) {
    let body = json::object([("pdn", Value::from(pdn)), ("human", Value::from("both"))]);
    server.call("POST", "/api/games", &body.to_string())
}

/// The notes of a state as (line, comment, glyph).
fn notes_of(v: &Value) -> Vec<(Vec<String>, String, String)> {
    v.get("notes")
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("no notes in {v}"))
        .iter()
        .map(|n| {
            (
                moves_of(n),
                str_of(n, "comment").to_string(),
                str_of(n, "glyph").to_string(),
            )
        })
        .collect()
}

fn tag<'a>(v: &'a Value, name: &str) -> Option<&'a str> {
    v.get("tags")?
        .as_array()?
        .iter()
        .find(|t| t[0].as_str() == Some(name))
        .and_then(|t| t[1].as_str())
}

fn line(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

fn note(moves: &[&str], comment: &str, glyph: &str) -> (Vec<String>, String, String) {
    (line(moves), comment.into(), glyph.into())
}

#[test]
fn a_pdns_comments_glyphs_and_tags_come_back_whole() {
    let server = Server::start(&[]);
    let (status, v) = post_pdn(&server, ANNOTATED);
    assert_eq!(status, 201, "{v}");
    let id = str_of(&v, "id").to_string();
    let _events = Events::open(&server, &id);
    let want = vec![
        note(&["c3-b4"], "slower", "?!"),
        note(&["c3-d4"], "the centre", "!"),
        note(
            &["c3-d4", "f6-e5", "d4:f6"],
            "a blunder, on two lines",
            "??",
        ),
    ];
    assert_eq!(notes_of(&v), want);
    assert_eq!(tag(&v, "White"), Some("Ann Petrova"));
    assert_eq!(tag(&v, "Black"), Some("Boris \"B\" Ivanov"));
    assert_eq!(tag(&v, "Annotator"), Some("Kim"));
    // GET gives them too; the state events leave them out.
    let got = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(notes_of(&got), want);
    assert_eq!(got.get("tags"), v.get("tags"));
    // The download: the tags as loaded, the comments and glyphs of the main line.
    let (status, pdn) = server.raw("GET", &format!("/api/games/{id}/pdn"), b"");
    assert_eq!(status, 200);
    for part in [
        "[Event \"Club final\"]",
        "[Site \"Ufa\"]",
        "[Date \"2024.05.01\"]",
        "[Round \"3\"]",
        "[White \"Ann Petrova\"]",
        "[Black \"Boris \\\"B\\\" Ivanov\"]",
        "[Annotator \"Kim\"]",
        "[GameType \"Bashni\"]",
    ] {
        assert!(pdn.contains(part), "{part} not in {pdn}");
    }
    assert!(!pdn.contains("person"), "{pdn}");
    let flat = pdn.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "1. c3-d4! {the centre} f6-e5",
        "d4:f6?? {a blunder, on two lines}",
    ] {
        assert!(flat.contains(part), "{part} not in {pdn}");
    }
    // Read back: the same main line, comments and glyphs; loaded again: the same notes of the
    // main line and the same tags.
    let original = &parse_games(ANNOTATED).unwrap()[0];
    let exported = &parse_games(&pdn).unwrap()[0];
    let strip = |g: &bashni::record::pdn::PdnGame| -> Vec<(String, Option<String>, String)> {
        g.moves
            .iter()
            .map(|m| (m.text.clone(), m.comment.clone(), m.mark.clone()))
            .collect()
    };
    let mut folded = strip(original);
    folded[2].1 = Some("a blunder, on two lines".into());
    assert_eq!(strip(exported), folded);
    let (status, again) = post_pdn(&server, &pdn);
    assert_eq!(status, 201, "{again}");
    assert_eq!(notes_of(&again), want[1..].to_vec());
    let exported_tags: Vec<Value> = exported
        .tags
        .iter()
        .map(|(n, v)| Value::from(vec![n.clone(), v.clone()]))
        .collect();
    assert_eq!(again.get("tags"), Some(&Value::Array(exported_tags)));
}

#[test]
fn a_comment_is_edited_cleared_and_refused_with_one_line() {
    let server = Server::start(&[]);
    let (id, v) = server.new_game(r#"{"human":"both","moves":["c3-d4","f6-e5"]}"#);
    let _events = Events::open(&server, &id);
    assert_eq!(notes_of(&v), vec![]);
    let path = format!("/api/games/{id}/note");
    // A move of the line held, and one of a line the server does not hold (a variation of
    // the page's tree), in any notation the rules read.
    let v = server.ok(
        "POST",
        &path,
        r#"{"moves":["c3-d4","f6-e5"],"comment":"  the usual\nreply ","glyph":"!?"}"#,
    );
    assert_eq!(
        notes_of(&v),
        vec![note(&["c3-d4", "f6-e5"], "the usual reply", "!?")]
    );
    let v = server.ok("POST", &path, r#"{"moves":["c3-b4"],"glyph":"?"}"#);
    assert_eq!(notes_of(&v).len(), 2);
    let (_, pdn) = server.raw("GET", &format!("/api/games/{id}/pdn"), b"");
    assert!(
        pdn.contains("1. c3-d4 f6-e5!? {the usual reply} *"),
        "{pdn}"
    );
    assert!(pdn.contains("[White \"person\"]"), "{pdn}");
    // Cleared: both empty.
    let v = server.ok(
        "POST",
        &path,
        r#"{"moves":["c3-b4"],"comment":"","glyph":""}"#,
    );
    assert_eq!(
        notes_of(&v),
        vec![note(&["c3-d4", "f6-e5"], "the usual reply", "!?")]
    );
    // Refused, one line each, nothing changed.
    let long = "x".repeat(MAX_COMMENT_CHARS + 1);
    let too_long = json::object([
        ("moves", Value::from(vec!["c3-d4".to_string()])),
        ("comment", Value::from(long.as_str())),
    ]);
    for (body, why) in [
        (
            too_long.to_string(),
            format!("a comment of over {MAX_COMMENT_CHARS} characters"),
        ),
        (
            r#"{"moves":["c3-d4"],"glyph":"!!!"}"#.into(),
            "'glyph' must be one of ! ? !! ?? !? ?! or empty, not '!!!'".into(),
        ),
        (
            r#"{"moves":["c3-d4"],"comment":"a } b"}"#.into(),
            "a comment may not hold '}'".into(),
        ),
        (
            r#"{"moves":["c3-d4","c3-d4"],"comment":"x"}"#.into(),
            "in the annotated line: move 2: illegal move c3-d4".into(),
        ),
        (
            r#"{"moves":[],"comment":"x"}"#.into(),
            "'moves' must hold 1 to 2000 moves".into(),
        ),
        (
            r#"{"comment":"x"}"#.into(),
            "'moves' must be an array of move strings".into(),
        ),
        (
            r#"{"moves":["c3-d4"],"comment":7}"#.into(),
            "'comment' must be a string".into(),
        ),
    ] {
        let (status, e) = server.call("POST", &path, &body);
        assert_eq!(status, 400, "{body}: {e}");
        let msg = error_of(&e);
        assert!(msg.starts_with(&why), "{msg} / {why}");
        assert!(!msg.contains('\n') && msg.chars().count() <= 1000, "{msg}");
    }
    let v = server.ok("GET", &format!("/api/games/{id}"), "");
    assert_eq!(
        notes_of(&v),
        vec![note(&["c3-d4", "f6-e5"], "the usual reply", "!?")]
    );
    let (status, _) = server.call(
        "POST",
        "/api/games/0123456789abcdef/note",
        r#"{"moves":["c3-d4"]}"#,
    );
    assert_eq!(status, 404);
}

#[test]
fn a_stored_game_brings_its_tags_and_notes_back() {
    let server = Server::start(&[]);
    // As the page sends its stored game on a reload: main line, variations, tags, notes.
    let body = r#"{"human":"both","moves":["c3-d4","f6-e5"],"variations":[["c3-b4"]],
        "tags":[["White","Ann"],["Event","Club"]],
        "notes":[{"moves":["c3-b4"],"comment":"side line","glyph":"?!"},
                 {"moves":["c3-d4","f6-e5"],"comment":"main","glyph":""}]}"#;
    let (id, v) = server.new_game(body);
    let _events = Events::open(&server, &id);
    assert_eq!(
        notes_of(&v),
        vec![
            note(&["c3-b4"], "side line", "?!"),
            note(&["c3-d4", "f6-e5"], "main", "")
        ]
    );
    assert_eq!(tag(&v, "White"), Some("Ann"));
    let (_, pdn) = server.raw("GET", &format!("/api/games/{id}/pdn"), b"");
    assert!(
        pdn.contains("[Event \"Club\"]") && pdn.contains("[White \"Ann\"]"),
        "{pdn}"
    );
    assert!(pdn.contains("[Black \"person\"]"), "{pdn}");
    assert!(pdn.contains("f6-e5 {main}"), "{pdn}");
}

#[test]
fn bounds_on_import_are_one_line_refusals() {
    let server = Server::start(&[]);
    let long = format!("1. c3-d4 {{{}}} *\n", "y".repeat(MAX_COMMENT_CHARS + 1));
    let many_tags: String = (0..=MAX_TAGS).map(|i| format!("[T{i} \"v\"]\n")).collect();
    let long_tag = format!("[White \"{}\"]\n\n*\n", "z".repeat(501));
    let notes: Vec<Value> = (0..=MAX_NOTES)
        .map(|_| json::object([("moves", Value::from(vec!["c3-d4".to_string()]))]))
        .collect();
    let too_many = json::object([("notes", Value::Array(notes))]).to_string();
    let long_line = json::object([(
        "notes",
        Value::Array(vec![json::object([(
            "moves",
            Value::from(vec!["c3-d4".to_string(); 2001]),
        )])]),
    )])
    .to_string();
    for (status, v, why) in [
        {
            let (s, v) = post_pdn(&server, &long);
            (
                s,
                v,
                format!("PDN: a comment of over {MAX_COMMENT_CHARS} characters"),
            )
        },
        {
            let (s, v) = post_pdn(&server, &format!("{many_tags}\n*\n"));
            (s, v, format!("PDN: more than {MAX_TAGS} tags"))
        },
        {
            let (s, v) = post_pdn(&server, &long_tag);
            (s, v, "PDN: the tag 'White' has over 500 characters".into())
        },
        {
            let (s, v) = server.call("POST", "/api/games", &too_many);
            (s, v, format!("more than {MAX_NOTES} annotated moves"))
        },
        {
            let (s, v) = server.call("POST", "/api/games", &long_line);
            (
                s,
                v,
                "an annotated move's line must hold 1 to 2000 moves, not 2001".into(),
            )
        },
        {
            let (s, v) = server.call(
                "POST",
                "/api/games",
                r#"{"notes":[{"moves":["c3-d5"],"comment":"x"}]}"#,
            );
            (
                s,
                v,
                "in the line of annotated move 1: move 1: illegal move c3-d5".into(),
            )
        },
        {
            let (s, v) = server.call("POST", "/api/games", r#"{"tags":[["a b","c"]]}"#);
            (s, v, "a tag name must be".into())
        },
        {
            let (s, v) = server.call("POST", "/api/games", r#"{"pdn":"*","tags":[["A","b"]]}"#);
            (s, v, "give 'pdn' or 'tags'/'notes', not both".into())
        },
    ] {
        assert_eq!(status, 400, "{why}: {v}");
        let msg = error_of(&v);
        assert!(msg.starts_with(&why), "{msg} / {why}");
        assert!(!msg.contains('\n'), "{msg}");
    }
    assert_eq!(
        server.status().get("games").and_then(Value::as_u64),
        Some(0)
    );
    // At the limits: accepted.
    let fits = format!("1. c3-d4 {{{}}} *\n", "y".repeat(MAX_COMMENT_CHARS));
    let (status, v) = post_pdn(&server, &fits);
    assert_eq!(status, 201, "{v}");
    assert_eq!(notes_of(&v)[0].1.len(), MAX_COMMENT_CHARS);
}
