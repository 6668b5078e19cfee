//! The sparring suite (bench/sparring/russian.epd, docs/sparring.md) is well formed: every line
//! has an id, a FEN, right moves and a reason; every FEN is a legal Russian-draughts position
//! with the game still on, and every move it names (right or played) is legal there, spelled as
//! the engine's `moves` lists it, so that `bench/sparring.py suite` can compare `bestmove` with
//! it as text.

use crate::common::docs;
use crate::common::gui::Gui;
use std::collections::HashSet;

const SUITE: &str = "bench/sparring/russian.epd";

/// One position of the suite: `id | FEN | bm M.. | am M | reason`.
struct Entry {
    id: String,
    fen: String,
    right: Vec<String>,
    played: Vec<String>,
    reason: String,
}

fn parse(line: &str) -> Entry {
    let f: Vec<&str> = line.split('|').map(str::trim).collect();
    assert_eq!(f.len(), 5, "{SUITE}: not 5 fields: {line}");
    let moves = |field: &str, key: &str| -> Vec<String> {
        let rest = field
            .strip_prefix(key)
            .unwrap_or_else(|| panic!("{SUITE}: '{field}' should start with '{key}': {line}"));
        rest.split_whitespace().map(String::from).collect()
    };
    Entry {
        id: f[0].to_string(),
        fen: f[1].to_string(),
        right: moves(f[2], "bm "),
        played: moves(f[3], "am "),
        reason: f[4].to_string(),
    }
}

fn entries() -> Vec<Entry> {
    let text = std::fs::read_to_string(docs::root().join(SUITE)).expect("the suite file");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(parse)
        .collect()
}

#[test]
fn every_line_has_an_id_right_moves_and_a_reason() {
    let all = entries();
    assert!(!all.is_empty(), "{SUITE}: no position");
    let mut ids = HashSet::new();
    for e in &all {
        assert!(ids.insert(e.id.clone()), "{SUITE}: id {} twice", e.id);
        assert!(!e.right.is_empty(), "{}: no right move", e.id);
        assert!(e.reason.len() > 20, "{}: no reason", e.id);
        for m in &e.played {
            assert!(
                !e.right.contains(m),
                "{}: {m} is both right and wrong",
                e.id
            );
        }
    }
}

#[test]
fn every_position_is_legal_russian_and_every_move_legal_there() {
    let mut gui = Gui::new();
    gui.handshake();
    gui.send("setoption name UCI_Variant value russian");
    for e in entries() {
        gui.send(&format!("position fen {}", e.fen));
        gui.send("state");
        let said = gui.until(|l| l.starts_with("state "));
        assert!(
            said.iter().all(|l| !l.contains("error")),
            "{}: {said:?}",
            e.id
        );
        let state = said.last().unwrap();
        assert!(state.contains(" result none "), "{}: {state}", e.id);
        gui.send("moves");
        let listed = gui.until(|l| l.starts_with("moves"));
        let legal: Vec<&str> = listed.last().unwrap().split_whitespace().skip(1).collect();
        assert!(legal.len() > 1, "{}: a forced move tests nothing", e.id);
        for m in e.right.iter().chain(&e.played) {
            assert!(
                legal.contains(&m.as_str()),
                "{}: {m} is not among the legal moves {legal:?}",
                e.id
            );
        }
    }
}
