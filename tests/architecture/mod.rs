//! The shape of `src/`, checked: the import graph between files and the length of functions.
//!
//! It reads every `src/**/*.rs` (but `main.rs`, the binary), resolves every path that starts
//! at the crate (`use crate::...`, grouped `use crate::{a::b, c}` over several lines, and
//! paths written inline in code, `crate::a::f(...)`) and every `use super::...` and
//! `use self::...` to the file that defines the module it names, and asserts:
//!
//! 1. no two files import each other, directly or through others (no strongly connected
//!    component of the file graph has more than one file), but the circles of
//!    [`CIRCLES_ALLOWED`];
//! 2. no function runs over 100 lines (from its `fn` line to its closing brace at the same
//!    indentation);
//! 3. the layering of `src/games/`: a file of the toolkit, `src/games/kit/`, imports only
//!    the toolkit; a file of a game, `src/games/<game>/`, only its own folder and the
//!    toolkit; and nothing under `src/games/` imports from outside `src/games/` (the
//!    engine, front ends and tools stand above the games and know them through the traits);
//! 4. the floors of `src/` ([`FLOORS`]): a file imports from its own top-level module and
//!    from the floors below its own, never from a floor above, nor from another module of its
//!    own floor (the front ends do not know each other), but the imports of
//!    [`SIDEWAYS_ALLOWED`]; every top-level module stands on a floor.
//!
//! 5. every `unsafe` block and `unsafe impl` has a `// SAFETY:` comment at most
//!    [`SAFETY_REACH`] lines above it that argues why it is sound.
//!
//! Test modules (`#[cfg(test)] mod ... { ... }`) are left out of 1 to 4: a test may reach
//! anywhere.

mod graph;

use graph::{File, absolute, components, expand, graph, load, strip};
use std::collections::{BTreeMap, BTreeSet};

/// Longest function, in lines.
const MAX_FN_LINES: usize = 100;

/// Imports that break the layering on purpose, `(from, to)` relative to `src/`, each with
/// why it stays.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "games/kit/nnue/network.rs",
        "files.rs",
        "Network::load reads a network file through the project's bounded read; files.rs \
         imports nothing from the crate, so this is no cycle",
    ),
    (
        "games/russian/notation.rs",
        "games/bashni/notation.rs",
        "Russian draughts' FEN is Bashni's format with one piece per square, read by Bashni's \
         reader; to cut this, the FEN reader (towers, setup checks) would move to the kit",
    ),
];

/// The floors of `src/`, bottom up, each with its top-level modules (`lib` is the crate
/// root: what reaches it is a macro such as `for_variant!`).
const FLOORS: &[(&str, &[&str])] = &[
    (
        "what differs between the native build and WebAssembly (clock, seeds)",
        &["platform"],
    ),
    (
        "the crate root and files that import nothing of the crate",
        &["lib", "files", "closed_pipe", "shard"],
    ),
    ("the games", &["games"]),
    ("endgame databases", &["egdb"]),
    ("the engine", &["search"]),
    (
        "what the front ends share of games and searches",
        &["display", "record", "review"],
    ),
    (
        "what the front ends say differently per game (names, rules in words)",
        &["game_text"],
    ),
    ("the protocol", &["protocol"]),
    ("Hub", &["hub"]),
    ("an engine as a child process", &["client"]),
    (
        "the front ends",
        &[
            "analyse", "bench", "datagen", "matchrun", "play", "puzzles", "serve", "train", "tune",
        ],
    ),
    ("the command line, which ties them together", &["cli"]),
];

/// Imports from one front end into another that stay for now, `(from module, to file)`,
/// each with why and how it would be cut.
const SIDEWAYS_ALLOWED: &[(&str, &str, &str)] = &[
    (
        "analyse",
        "play/save.rs",
        "a POSITION file is loaded as `bashni play` loads one (a PDN game or a FEN) and --out \
         is checked as play checks a file it writes; to cut, the loader moves to record/",
    ),
    (
        "serve",
        "matchrun/signals.rs",
        "the server stops on Ctrl-C and SIGTERM as a match does; to cut, signals.rs moves down",
    ),
    (
        "tune",
        "datagen/format.rs",
        "the tuner reads the training data in the format datagen writes",
    ),
    (
        "puzzles",
        "datagen/format.rs",
        "the miner reads the games of datagen files by the end-of-game line datagen writes",
    ),
    (
        "train",
        "tune/data.rs",
        "the network trainer reads its samples with the tuner's reader",
    ),
    (
        "train",
        "tune/optimise.rs",
        "the network trainer picks its learning rate with the tuner's golden-section search",
    ),
    (
        "train",
        "tune/mod.rs",
        "the network trainer refuses an output that is one of its inputs as the tuner does",
    ),
];

/// Pairs of files that import each other and stay for now, each with why. Each pair is
/// two halves of one module's concern.
const CIRCLES_ALLOWED: &[(&str, &str, &str)] = &[
    (
        "games/kit/perft.rs",
        "games/kit/rules.rs",
        "the Rules trait's perft methods call perft.rs's walkers, which are generic over Rules",
    ),
    (
        "serve/engine_worker.rs",
        "serve/session.rs",
        "a session owns its engine worker, which writes its results back into the session \
         through a weak reference",
    ),
];

/// Functions allowed over [`MAX_FN_LINES`] for now, `(file, name)`, each with why.
const LONG_ALLOWED: &[(&str, &str, &str)] = &[];

/// The import circles of `g` that [`CIRCLES_ALLOWED`] does not list, each sorted.
fn circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    components(g)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|mut c| {
            c.sort();
            c
        })
        .filter(|c| {
            !CIRCLES_ALLOWED
                .iter()
                .any(|(a, b, _)| c.len() == 2 && c[0] == *a && c[1] == *b)
        })
        .collect()
}

#[test]
fn no_import_circle() {
    let big = circles(&graph(&load()));
    assert!(big.is_empty(), "import circles: {big:#?}");
}

/// The top-level module of a file: `play` for `play/save.rs`, `cli` for `cli.rs`.
fn top_module(rel: &str) -> &str {
    rel.split('/').next().unwrap_or(rel).trim_end_matches(".rs")
}

/// The floor of a top-level module (0 the lowest), if it has one.
fn floor(module: &str) -> Option<usize> {
    FLOORS.iter().position(|(_, mods)| mods.contains(&module))
}

/// The imports of `g` against [`FLOORS`] (upwards, or sideways to another module of the
/// same floor) that [`SIDEWAYS_ALLOWED`] does not list, and the modules on no floor.
fn against_floors(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, targets) in g {
        let from_mod = top_module(from);
        let Some(from_floor) = floor(from_mod) else {
            wrong.push(format!("{from}: its module '{from_mod}' is on no floor"));
            continue;
        };
        for to in targets {
            let to_mod = top_module(to);
            let to_floor = floor(to_mod).unwrap_or(usize::MAX);
            let allowed = SIDEWAYS_ALLOWED
                .iter()
                .any(|(f, t, _)| *f == from_mod && t == to);
            if to_mod != from_mod && to_floor >= from_floor && !allowed {
                let how = if to_floor > from_floor {
                    "up"
                } else {
                    "sideways"
                };
                wrong.push(format!("{from} -> {to} ({how})"));
            }
        }
    }
    wrong
}

#[test]
fn every_file_imports_only_from_its_module_and_the_floors_below() {
    let wrong = against_floors(&graph(&load()));
    assert!(wrong.is_empty(), "imports against the floors: {wrong:#?}");
}

#[test]
fn the_checker_finds_circles_and_imports_against_the_floors() {
    let g = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    // Two files of one module that import each other: a circle.
    let two = g(&[
        ("analyse/mod.rs", "analyse/review.rs"),
        ("analyse/review.rs", "analyse/mod.rs"),
    ]);
    assert_eq!(circles(&two), [["analyse/mod.rs", "analyse/review.rs"]]);
    let chain = g(&[
        ("analyse/mod.rs", "analyse/review.rs"),
        ("analyse/review.rs", "analyse/args.rs"),
    ]);
    assert!(circles(&chain).is_empty());
    // A front end importing another (play -> analyse), the engine importing a front end.
    let up = g(&[
        ("play/args.rs", "analyse.rs"),
        ("search/mod.rs", "review.rs"),
        ("play/args.rs", "protocol/engine_args.rs"),
        ("analyse/mod.rs", "play/save.rs"),
        ("nowhere.rs", "files.rs"),
    ]);
    assert_eq!(
        against_floors(&up),
        [
            "nowhere.rs: its module 'nowhere' is on no floor",
            "play/args.rs -> analyse.rs (sideways)",
            "search/mod.rs -> review.rs (up)",
        ]
    );
}

/// Where a file stands: `Some("kit")`, `Some(<game>)` or `Some("")` (`games/mod.rs`) under
/// `src/games/`; `None` above.
fn games_part(rel: &str) -> Option<&str> {
    let rest = rel.strip_prefix("games/")?;
    Some(rest.split_once('/').map_or("", |(dir, _)| dir))
}

#[test]
fn the_games_import_only_downwards() {
    let g = graph(&load());
    let mut wrong = Vec::new();
    for (from, targets) in &g {
        let Some(part) = games_part(from) else {
            continue;
        };
        for to in targets {
            let ok = match (part, games_part(to)) {
                (_, None) => false,
                ("", Some(_)) => true,
                ("kit", Some(t)) => t == "kit",
                (game, Some(t)) => t == game || t == "kit",
            };
            let allowed = ALLOWED.iter().any(|(f, t, _)| f == from && t == to);
            if !ok && !allowed {
                wrong.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(wrong.is_empty(), "imports against the layering: {wrong:#?}");
}

#[test]
fn the_checker_reads_grouped_and_nested_uses() {
    let paths = expand("crate::a::{b::c, d::{self, e as f}, g}");
    assert_eq!(
        paths,
        [
            "crate::a::b::c",
            "crate::a::d",
            "crate::a::d::e",
            "crate::a::g"
        ]
    );
    let m = vec!["games".to_string(), "kit".to_string()];
    assert_eq!(
        absolute(&m, "super::bashni::Position"),
        ["games", "bashni", "Position"]
    );
    assert_eq!(
        strip(r#"let s = "crate::x"; // crate::y"#).trim_end(),
        r#"let s = "";"#
    );
}

/// `(file, first line, lines)` of every function longer than [`MAX_FN_LINES`].
fn long_functions(files: &[File]) -> Vec<(String, usize, usize)> {
    let mut long = Vec::new();
    for f in files {
        let lines: Vec<&str> = f.text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            let is_fn = t
                .split_whitespace()
                .take_while(|w| !w.starts_with("fn"))
                .all(|w| {
                    matches!(w, "pub" | "const" | "unsafe" | "async" | "extern" | "\"C\"")
                        || w.starts_with("pub(")
                })
                && t.split_whitespace().any(|w| w == "fn");
            if !is_fn || !t.contains("fn ") || t.starts_with("//") {
                continue;
            }
            let indent = &line[..line.len() - t.len()];
            let close = format!("{indent}}}");
            // A declaration without a body ends with `;` before any `{`.
            let mut j = i;
            while j < lines.len() && !lines[j].contains('{') && !lines[j].trim_end().ends_with(';')
            {
                j += 1;
            }
            if j >= lines.len() || !lines[j].contains('{') {
                continue;
            }
            let opened = lines[j].matches('{').count();
            let closed = lines[j].matches('}').count();
            if opened == closed {
                continue; // a one-line body
            }
            let end = (j..lines.len()).find(|&k| lines[k].trim_end() == close);
            if let Some(end) = end {
                let n = end - i + 1;
                let name = t[t.find("fn ").expect("fn") + 3..]
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("");
                let allowed = LONG_ALLOWED
                    .iter()
                    .any(|(fl, fname, _)| *fl == f.rel && *fname == name);
                if n > MAX_FN_LINES && !allowed {
                    long.push((f.rel.clone(), i + 1, n));
                }
            }
        }
    }
    long
}

#[test]
fn no_function_over_100_lines() {
    let long = long_functions(&load());
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines: {long:#?}"
    );
}

/// How far above an `unsafe` block its `// SAFETY:` comment may start, in lines (a long
/// argument may take several lines before the block).
const SAFETY_REACH: usize = 12;

/// `(file, line)` of every `unsafe` block or `unsafe impl` without a `// SAFETY:` comment in
/// the [`SAFETY_REACH`] lines above it (or on its own line).
fn unsafe_without_safety(files: &[File]) -> Vec<(String, usize)> {
    let mut bare = Vec::new();
    for f in files {
        let lines: Vec<&str> = f.text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if !(code.contains("unsafe {") || code.contains("unsafe impl")) {
                continue;
            }
            let argued = lines[i.saturating_sub(SAFETY_REACH)..=i]
                .iter()
                .any(|l| l.contains("// SAFETY:"));
            if !argued {
                bare.push((f.rel.clone(), i + 1));
            }
        }
    }
    bare
}

#[test]
fn every_unsafe_block_says_why_it_is_sound() {
    let files = load();
    assert!(
        files.iter().any(|f| f.text.contains("unsafe {")),
        "the checker should see the crate's unsafe blocks"
    );
    let bare = unsafe_without_safety(&files);
    assert!(
        bare.is_empty(),
        "unsafe without a SAFETY comment: {bare:#?}"
    );
    let made_up = [File {
        rel: "x.rs".into(),
        module: vec!["x".into()],
        text: "fn f() {\n    let p = 0;\n    unsafe { g(p) };\n}\n".into(),
    }];
    assert_eq!(unsafe_without_safety(&made_up), [("x.rs".to_string(), 3)]);
}
