//! The user docs as the doc tests read them: which files they are, and the tables marked for
//! `tests/doc_facts.rs` with an HTML comment `<!-- doc-facts: NAME -->` right above them.

use std::path::PathBuf;

/// The repository's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every user doc, relative to the root: README.md, engine-protocol.md and each page of
/// `docs/` (sorted, so failures come in a stable order).
pub fn files() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is part of the repository")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    let mut all = vec!["README.md".to_string(), "engine-protocol.md".to_string()];
    all.extend(pages);
    all
}

/// The text of the doc at `path` (relative to the root).
pub fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The rows of the table marked `<!-- doc-facts: NAME -->` in the doc at `path`: each row's
/// cells, trimmed and with the backticks of code spans removed; the header row first, the
/// `|---|` row left out. Panics, naming the doc, when the marker or its table is missing.
pub fn marked_table(path: &str, name: &str) -> Vec<Vec<String>> {
    let text = read(path);
    let marker = format!("<!-- doc-facts: {name} -->");
    let at = text
        .find(&marker)
        .unwrap_or_else(|| panic!("{path}: no table marked `{marker}`"));
    let rows: Vec<Vec<String>> = text[at + marker.len()..]
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.trim_start().starts_with('|'))
        .filter(|l| !l.chars().all(|c| "|-: ".contains(c)))
        .map(cells)
        .collect();
    assert!(
        rows.len() > 1,
        "{path}: the table marked `{marker}` is empty"
    );
    rows
}

/// The cells of a table row.
fn cells(row: &str) -> Vec<String> {
    let inner = row.trim().trim_start_matches('|').trim_end_matches('|');
    inner
        .split('|')
        .map(|c| c.trim().replace('`', ""))
        .collect()
}

/// The column of `rows` (a marked table) headed `title`.
pub fn column(rows: &[Vec<String>], title: &str) -> usize {
    rows[0]
        .iter()
        .position(|h| h == title)
        .unwrap_or_else(|| panic!("no column '{title}' in {:?}", rows[0]))
}

/// The perft table of the rules doc at `path` (marked `<!-- doc-facts: perft -->`): its
/// `(depth, paths)` rows in order, the counts' thousands separators (commas or spaces)
/// removed. Panics, naming the doc, on a row that does not read.
pub fn perft_table(path: &str) -> Vec<(u32, u64)> {
    let rows = marked_table(path, "perft");
    let (depth, paths) = (column(&rows, "depth"), column(&rows, "paths"));
    rows[1..]
        .iter()
        .map(|r| {
            let number = |c: usize| r[c].replace([',', ' '], "");
            let d = number(depth).parse().ok();
            let n = number(paths).parse().ok();
            d.zip(n)
                .unwrap_or_else(|| panic!("{path}: a perft row that does not read: {r:?}"))
        })
        .collect()
}
