//! The opening books stay balanced: a fixed sample of each book (`openings/*.txt`) re-scored at
//! the depth its first line records, through the protocol as `bench/books.sh check` does, must
//! score within the book's own limit. An evaluation or search change that moves the books out of
//! range fails here, so the books are made again (`bench/books.sh make`) in the same change.
//! Fixed-depth searches on one thread: the verdict does not depend on the machine's speed.

use crate::common;

use common::gui::Gui;
use std::path::Path;

/// How many openings of each book are re-scored, spread evenly over it.
const SAMPLE: usize = 16;

/// A book: its game and its file.
const BOOKS: [(&str, &str); 5] = [
    ("bashni", "openings/balanced.txt"),
    ("turkish", "openings/turkish.txt"),
    ("russian", "openings/russian.txt"),
    ("brazilian", "openings/brazilian.txt"),
    ("lasca", "openings/lasca.txt"),
];

/// The number after `flag` in a book's first line (`--depth 10`).
fn header_value(header: &str, flag: &str) -> i32 {
    let words: Vec<&str> = header.split_whitespace().collect();
    let at = words.iter().position(|w| *w == flag);
    let value = at
        .and_then(|i| words.get(i + 1))
        .and_then(|v| v.parse().ok());
    value.unwrap_or_else(|| panic!("no {flag} in the book's first line {header:?}"))
}

/// The last `score cp` of a search's `info depth` lines, `None` for a proven result.
fn last_score(lines: &[String]) -> Option<i32> {
    let scored = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "));
    let words: Vec<&str> = scored?.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "score")?;
    match (words.get(at + 1), words.get(at + 2)) {
        (Some(&"cp"), Some(v)) => v.parse().ok(),
        _ => None,
    }
}

#[test]
fn a_sample_of_every_book_scores_within_its_limit() {
    let mut outside = Vec::new();
    for (game, file) in BOOKS {
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut lines = text.lines();
        let header = lines.next().expect("a book has a first line");
        let (depth, limit) = (
            header_value(header, "--depth"),
            header_value(header, "--max-score"),
        );
        let openings: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
        assert!(
            openings.len() >= SAMPLE,
            "{file} has {} openings",
            openings.len()
        );
        let mut gui = Gui::new();
        gui.handshake();
        gui.send(&format!("setoption name UCI_Variant value {game}"));
        for k in 0..SAMPLE {
            let moves = openings[k * openings.len() / SAMPLE];
            gui.send("ucinewgame");
            gui.send(&format!("position startpos moves {moves}"));
            gui.send(&format!("go depth {depth}"));
            let (lines, _) = gui.bestmove();
            match last_score(&lines) {
                Some(s) if s.abs() <= limit => {}
                s => outside.push(format!("{file}: {moves}: {s:?} (limit {limit})")),
            }
        }
    }
    assert!(
        outside.is_empty(),
        "openings outside their book's limit (run bench/books.sh make): {outside:#?}"
    );
}
