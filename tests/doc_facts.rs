//! The figures the docs state that the program can print, checked against the built binary,
//! so that a doc cannot go on quoting a fingerprint, a default or a list of games the program
//! no longer has. Each fact is read from one marked table (`<!-- doc-facts: NAME -->` right
//! above it, see `common::docs`) or found by a simple pattern, and the binary is asked:
//!
//! - `bench fingerprints` (docs/measurements.md): the node count of each command;
//! - `ladder` (docs/measurements.md): each level's depth and Elo, as `bashni play` describes it;
//! - `the games` (docs/games.md): the games of `UCI_Variant`, and the evaluation each game's
//!   search uses, as `eval` names it;
//! - `subcommands` (docs/README.md): the subcommands of `bashni --help`;
//! - `options of bashni play` / `options of bashni serve`: each option and its default, as
//!   their `--help` gives them;
//! - `options` (engine-protocol.md): each option's type, default and range, as `uci` declares;
//! - every list of the games written `bashni|turkish|...` in any doc names them all;
//! - every perft count of the rules pages' tables small enough to count in a moment.
//!
//! Tables are compared both ways: a doc row the binary lacks fails, and so does a subcommand,
//! option or game the binary has and the table leaves out.

use crate::common::deadline::{HEAVY, type_input, wait_output_within};
use crate::common::docs;
use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Stdio};

/// Runs the binary with `args`, `input` on its standard input; its standard output.
fn run(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start bashni");
    type_input(&mut child, input);
    let out = wait_output_within(child, HEAVY, format!("bashni {args:?}"));
    String::from_utf8(out.stdout).unwrap()
}

/// The words of a doc cell that names a command (`bashni bench --variant turkish`), without
/// the program's name.
fn command_args(cell: &str) -> Vec<&str> {
    let words: Vec<&str> = cell.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"bashni"), "not a command: {cell}");
    words[1..].to_vec()
}

/// The games the binary plays, as `UCI_Variant` declares them.
fn games() -> Vec<String> {
    let uci = run(&["uci"], "uci\n");
    let line = uci
        .lines()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .expect("UCI_Variant is declared");
    let words: Vec<&str> = line.split(' ').collect();
    words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1].to_string())
        .collect()
}

#[test]
fn bench_fingerprints() {
    let rows = docs::marked_table("docs/measurements.md", "bench fingerprints");
    let (cmd, nodes) = (docs::column(&rows, "Command"), docs::column(&rows, "Nodes"));
    let mut wrong = Vec::new();
    for row in &rows[1..] {
        let out = run(&command_args(&row[cmd]), "");
        let last = out.lines().last().unwrap_or_default();
        let printed = last.split_whitespace().nth(1).unwrap_or_default();
        if last.starts_with("nodes ") && printed == row[nodes] {
            continue;
        }
        wrong.push(format!(
            "`{}`: the doc says {}, the binary printed '{last}'",
            row[cmd], row[nodes]
        ));
    }
    assert!(
        wrong.is_empty(),
        "docs/measurements.md:\n{}",
        wrong.join("\n")
    );
    assert_eq!(rows.len() - 1, games().len(), "one fingerprint per game");
}

/// Each level's (depth, Elo) as `bashni play` describes it (`level 20` as depth "full").
fn levels_described() -> BTreeMap<u32, (String, String)> {
    let input: String = (0..=20).map(|n| format!("level {n}\n")).collect();
    let out = run(&["play", "--level", "20"], &(input + "quit\n"));
    let mut levels = BTreeMap::new();
    for line in out.lines().filter(|l| l.starts_with("level ")) {
        let n: u32 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        let elo = line.split("Elo ").nth(1).unwrap();
        let elo: String = elo.chars().take_while(char::is_ascii_digit).collect();
        let depth = match line.split("looks ").nth(1) {
            Some(rest) => rest.split_whitespace().next().unwrap().to_string(),
            None => "full".to_string(),
        };
        levels.insert(n, (depth, elo));
    }
    levels
}

#[test]
fn the_ladder_is_the_levels() {
    let rows = docs::marked_table("docs/measurements.md", "ladder");
    let (level, depth) = (docs::column(&rows, "Level"), docs::column(&rows, "Depth"));
    let elo = docs::column(&rows, "Elo (LADDER)");
    let doc: BTreeMap<u32, (String, String)> = rows[1..]
        .iter()
        .map(|r| {
            (
                r[level].parse().unwrap(),
                (r[depth].clone(), r[elo].clone()),
            )
        })
        .collect();
    assert_eq!(
        doc,
        levels_described(),
        "docs/measurements.md's ladder (level: depth, Elo) against `bashni play`'s levels"
    );
}

/// The network's share, in eighths, of a doc cell (`5/8 network, 3/8 linear`, `network
/// alone`, `linear alone`).
fn doc_eighths(cell: &str) -> u32 {
    match cell {
        "network alone" => 8,
        "linear alone" => 0,
        _ => cell
            .split("/8 network")
            .next()
            .and_then(|k| k.parse().ok())
            .unwrap_or_else(|| panic!("docs/games.md: cannot read '{cell}'")),
    }
}

/// The network's share, in eighths, of what the search uses in `game`, as `eval` says.
fn eval_eighths(game: &str) -> u32 {
    let out = run(&["uci", "--variant", game], "eval\n");
    let Some(line) = out.lines().find(|l| l.starts_with("Network evaluation:")) else {
        return 0; // no network: the linear evaluation alone
    };
    let uses = line.split("the search uses ").nth(1).unwrap();
    if uses.starts_with("the network alone") {
        return 8;
    }
    uses.split("/8 of the network")
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn the_games_and_their_evaluations() {
    let rows = docs::marked_table("docs/games.md", "the games");
    let (variant, eval) = (
        docs::column(&rows, "--variant"),
        docs::column(&rows, "Evaluation the search uses"),
    );
    let doc: Vec<String> = rows[1..].iter().map(|r| r[variant].clone()).collect();
    assert_eq!(doc, games(), "docs/games.md's games against UCI_Variant's");
    for row in &rows[1..] {
        assert_eq!(
            doc_eighths(&row[eval]),
            eval_eighths(&row[variant]),
            "docs/games.md: {}: '{}' against `eval`",
            row[variant],
            row[eval]
        );
    }
}

/// Every `a|b|c` list of game names in `text` that names Bashni.
fn game_lists(text: &str, names: &BTreeSet<String>) -> Vec<BTreeSet<String>> {
    text.split(|c: char| !(c.is_ascii_lowercase() || c == '|'))
        .filter(|w| w.contains('|'))
        .map(|w| w.split('|').map(str::to_string).collect::<BTreeSet<_>>())
        .filter(|parts| parts.iter().all(|p| names.contains(p)) && parts.contains("bashni"))
        .collect()
}

#[test]
fn every_list_of_the_games_names_them_all() {
    let all: BTreeSet<String> = games().into_iter().collect();
    let mut wrong = Vec::new();
    for path in docs::files() {
        for (i, line) in docs::read(&path).lines().enumerate() {
            for list in game_lists(line, &all) {
                if list != all {
                    wrong.push(format!("{path}:{}: {list:?}", i + 1));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "lists that miss a game of {all:?}:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_subcommands() {
    let help = run(&["--help"], "");
    let binary: BTreeSet<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .filter(|c| c != "help")
        .collect();
    let rows = docs::marked_table("docs/README.md", "subcommands");
    let doc: BTreeSet<String> = rows[1..].iter().map(|r| r[0].clone()).collect();
    assert_eq!(
        doc, binary,
        "docs/README.md's subcommands against `bashni --help`"
    );
}

/// Each long option of `bashni <sub> --help` and its default: `[default: X]`, or a
/// description's `(default X)` of one word; `—` for none.
fn help_options(sub: &str) -> BTreeMap<String, String> {
    let help = run(&[sub, "--help"], "");
    let mut options: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in help.lines() {
        let trimmed = line.trim_start();
        // Options are indented 2 or 6 spaces; their possible values (`- white: ...`) deeper.
        if line.len() - trimmed.len() < 8 && trimmed.starts_with('-') {
            let long = trimmed.split([' ', ',']).find(|w| w.starts_with("--"));
            current = long.map(str::to_string);
            if let Some(name) = &current {
                options.insert(name.clone(), "—".to_string());
            }
            continue;
        }
        let Some(name) = &current else { continue };
        let found = [("[default: ", ']'), ("(default ", ')'), ("(default: ", ')')]
            .iter()
            .find_map(|(start, end)| trimmed.split(start).nth(1)?.split(*end).next());
        if let Some(value) = found.filter(|v| !v.contains(' ')) {
            options.insert(name.clone(), value.to_string());
        }
    }
    options.remove("--help");
    options
}

#[test]
fn the_options_of_play_and_serve() {
    for (sub, page) in [("play", "docs/play.md"), ("serve", "docs/serve.md")] {
        let rows = docs::marked_table(page, &format!("options of bashni {sub}"));
        let (option, default) = (
            docs::column(&rows, "Option"),
            docs::column(&rows, "Default"),
        );
        let doc: BTreeMap<String, String> = rows[1..]
            .iter()
            .map(|r| (r[option].clone(), r[default].clone()))
            .collect();
        let wrong = differences(&doc, &help_options(sub));
        assert!(
            wrong.is_empty(),
            "{page}'s options against `bashni {sub} --help`:\n{}",
            wrong.join("\n")
        );
    }
}

/// An option as the `uci` answer declares it: type, default and range in the doc's terms.
fn declared_options() -> BTreeMap<String, [String; 3]> {
    let uci = run(&["uci"], "uci\n");
    let mut options = BTreeMap::new();
    for line in uci.lines().filter_map(|l| l.strip_prefix("option name ")) {
        let (name, rest) = line.split_once(" type ").unwrap();
        let words: Vec<&str> = rest.split(' ').collect();
        let after = |key: &str| {
            let i = words.iter().position(|w| *w == key)?;
            Some(words[i + 1].to_string())
        };
        let kind = words[0].to_string();
        let default = after("default").unwrap_or_default();
        let vars: Vec<&str> = words
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1])
            .collect();
        let range = match kind.as_str() {
            "spin" => format!("{}-{}", after("min").unwrap(), after("max").unwrap()),
            "check" => "true/false".to_string(),
            "combo" => vars.join(", "),
            "string" => "a path".to_string(),
            _ => String::new(),
        };
        options.insert(name.to_string(), [kind, default, range]);
    }
    options
}

#[test]
fn the_protocol_options() {
    let rows = docs::marked_table("engine-protocol.md", "options");
    let col = |t| docs::column(&rows, t);
    let (name, kind, default, range) = (col("Name"), col("Type"), col("Default"), col("Range"));
    let mut declared = declared_options();
    // `Threads` goes up to the machine's hardware threads: the doc writes that maximum `N`.
    let threads = declared.get_mut("Threads").expect("Threads is declared");
    threads[2] = format!("{}-N", threads[2].split('-').next().unwrap());
    let doc: BTreeMap<String, [String; 3]> = rows[1..]
        .iter()
        .map(|r| {
            let fields = [r[kind].clone(), r[default].clone(), r[range].clone()];
            (r[name].clone(), fields)
        })
        .collect();
    let wrong = differences(&doc, &declared);
    assert!(
        wrong.is_empty(),
        "engine-protocol.md's options [type, default, range] against the `uci` answer:\n{}",
        wrong.join("\n")
    );
}

/// Where a doc's table and the binary disagree, one line per name.
fn differences<V: PartialEq + std::fmt::Debug>(
    doc: &BTreeMap<String, V>,
    binary: &BTreeMap<String, V>,
) -> Vec<String> {
    let names: BTreeSet<&String> = doc.keys().chain(binary.keys()).collect();
    names
        .into_iter()
        .filter(|n| doc.get(*n) != binary.get(*n))
        .map(|n| {
            format!(
                "{n}: the doc {:?}, the binary {:?}",
                doc.get(n),
                binary.get(n)
            )
        })
        .collect()
}

/// The perft tables of a rules page: (depth, count) for each row.
fn perft_table(page: &str) -> Vec<(u32, u64)> {
    let text = docs::read(page);
    let start = text.find("| depth | paths |").expect("a perft table");
    text[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<String> = l.split('|').map(|c| c.replace([',', ' '], "")).collect();
            (cells[1].parse().unwrap(), cells[2].parse().unwrap())
        })
        .collect()
}

/// Counts the binary gives in a moment; larger ones stay dated measurements.
const QUICK_PERFT: u64 = 2_000_000;

#[test]
fn the_perft_counts_of_the_rules_pages() {
    let pages = [
        ("bashni", "docs/rules.md"),
        ("turkish", "docs/rules-turkish.md"),
        ("russian", "docs/rules-russian.md"),
        ("brazilian", "docs/rules-brazilian.md"),
        ("lasca", "docs/rules-lasca.md"),
    ];
    let mut wrong = Vec::new();
    for (game, page) in pages {
        let table = perft_table(page);
        assert!(table.len() >= 5, "{page}: {table:?}");
        for (depth, count) in table.into_iter().filter(|(_, c)| *c <= QUICK_PERFT) {
            let d = depth.to_string();
            let out = run(&["perft", &d, "--variant", game], "");
            let printed = out.lines().last().unwrap_or_default();
            if !printed.starts_with(&format!("nodes {count} ")) {
                wrong.push(format!(
                    "{page}: perft {depth} is {count}, the binary: {printed}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
