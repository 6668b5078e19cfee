//! The examples in README.md, engine-protocol.md and every page of docs/ (the user guide) are
//! run against the built binary, so a change of the engine that makes an example wrong breaks
//! this test, not the docs.
//!
//! # Marking convention
//!
//! A fenced code block is run when its info string is `console` or `protocol`:
//!
//! - **`console`**: lines starting with `$ ` are shell commands, run one by one with `sh -c`
//!   in a scratch directory, with the built `bashni` first on the `PATH` and empty standard
//!   input; the lines after a command, up to the next `$ ` line, are its expected output
//!   (standard output and standard error together).
//! - **`protocol`**: a session with one `bashni` in protocol mode. `> ` lines are sent to it
//!   in order; the `< ` lines after a `>` line are what it answers to that line, read (up to
//!   a generous timeout) before the next line is sent. After the last `>` line its input is
//!   closed and the last answers are read to its exit. A bare `<` is an empty line.
//!
//! In expected lines:
//! - `<n>` stands for a number (`12`, `-79`, `+0.68`), `<move>` for a move (`c3-d4`,
//!   `a1:c3:e5`), and any other `<word>` for one word (`<version>`);
//! - `...` inside a line stands for any text, and a line that is only `...` for any number
//!   of lines (none included);
//! - in `info depth` lines the values of `nodes`, `nps`, `hashfull` and `time` may differ
//!   as they are (they depend on the machine), so docs can show real figures;
//! - a `#` after two or more spaces starts a comment, which is not part of the line.
//!
//! Everything else must match exactly. Other blocks (`sh`, `text`, none) are not run: they
//! are formats, or commands that take minutes. So that no example escapes by a missing
//! tag, a block that is not run must not contain `$ `, `> ` or `< ` lines.

use crate::common::deadline::{DEADLINE, HEAVY};
use crate::common::docs;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Instant;

/// One fenced block: its info string, first line number (1-based) and lines.
struct Block {
    tag: String,
    line: usize,
    lines: Vec<String>,
}

/// The fenced code blocks of a Markdown text.
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(tag)) => {
                open = Some(Block {
                    tag: tag.trim().to_string(),
                    line: i + 2,
                    lines: Vec::new(),
                })
            }
            (Some(_), Some(_)) => out.extend(open.take()),
            (Some(b), None) => b.lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    out
}

/// One expected line.
#[derive(Clone, Debug)]
enum Expect {
    /// A line matching this pattern.
    Line(String),
    /// Any number of lines.
    AnyLines,
}

/// An expected line as written in a doc: the comment removed, and in `info depth` lines
/// the machine-dependent figures replaced by `<n>`.
fn expect(written: &str) -> Expect {
    let text = match written.find("  #") {
        Some(i) => &written[..i],
        None => written,
    }
    .trim_end();
    if text.trim() == "..." {
        return Expect::AnyLines;
    }
    if !text.starts_with("info depth ") {
        return Expect::Line(text.to_string());
    }
    let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
    for i in 1..words.len() {
        if ["nodes", "nps", "hashfull", "time"].contains(&words[i - 1].as_str()) {
            words[i] = "<n>".to_string();
        }
    }
    Expect::Line(words.join(" "))
}

/// Whether `text` matches `pattern` (see the module's conventions).
fn line_matches(pattern: &str, text: &str) -> bool {
    if pattern.is_empty() {
        return text.is_empty();
    }
    if let Some(rest) = pattern.strip_prefix("...") {
        return (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .any(|i| line_matches(rest, &text[i..]));
    }
    if pattern.starts_with('<')
        && let Some(end) = pattern.find('>')
        && end > 1
    {
        let (name, rest) = (&pattern[1..end], &pattern[end + 1..]);
        let word_end = text.find(' ').unwrap_or(text.len());
        return (1..=word_end)
            .filter(|&i| text.is_char_boundary(i))
            .any(|i| placeholder_fits(name, &text[..i]) && line_matches(rest, &text[i..]));
    }
    let c = pattern.chars().next().unwrap();
    text.starts_with(c) && line_matches(&pattern[c.len_utf8()..], &text[c.len_utf8()..])
}

/// Whether `word` is what the placeholder `<name>` stands for.
fn placeholder_fits(name: &str, word: &str) -> bool {
    match name {
        "n" => {
            let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
            let (int, frac) = digits.split_once('.').unwrap_or((digits, "0"));
            [int, frac]
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        }
        "move" => {
            let squares: Vec<&str> = word.split(['-', ':']).collect();
            squares.len() >= 2
                && squares.iter().all(|s| {
                    let b = s.as_bytes();
                    b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1])
                })
        }
        _ => !word.is_empty(),
    }
}

/// Whether `lines` can be the start of what `expected` describes (`whole`: all of it).
fn lines_match(expected: &[Expect], lines: &[String], whole: bool) -> bool {
    // reach[j]: the lines so far can be matched by the first j expectations.
    let mut reach = vec![false; expected.len() + 1];
    reach[0] = true;
    let close = |reach: &mut Vec<bool>| {
        for j in 0..expected.len() {
            if reach[j] && matches!(expected[j], Expect::AnyLines) {
                reach[j + 1] = true;
            }
        }
    };
    close(&mut reach);
    for line in lines {
        let mut next = vec![false; expected.len() + 1];
        for j in 0..expected.len() {
            if !reach[j] {
                continue;
            }
            match &expected[j] {
                Expect::AnyLines => next[j] = true,
                Expect::Line(p) if line_matches(p, line) => next[j + 1] = true,
                Expect::Line(_) => {}
            }
        }
        reach = next;
        close(&mut reach);
    }
    if whole {
        reach[expected.len()]
    } else {
        reach.iter().any(|&r| r)
    }
}

/// The directory holding the built binary, for the `PATH`.
fn bin_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_bashni"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A scratch directory for files the examples write.
fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("doc_examples");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a `console` block; returns the failures.
fn run_console(doc: &str, block: &Block) -> Vec<String> {
    let mut failures = Vec::new();
    let path = format!(
        "{}:{}",
        bin_dir().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut i = 0;
    while i < block.lines.len() {
        let Some(cmd) = block.lines[i].strip_prefix("$ ") else {
            failures.push(format!(
                "{doc}:{}: output without a command",
                block.line + i
            ));
            i += 1;
            continue;
        };
        let at = block.line + i;
        i += 1;
        let start = i;
        while i < block.lines.len() && !block.lines[i].starts_with("$ ") {
            i += 1;
        }
        let expected: Vec<Expect> = block.lines[start..i].iter().map(|l| expect(l)).collect();
        let out = run_shell(cmd, &path);
        if !lines_match(&expected, &out, true) {
            failures.push(format!(
                "{doc}:{at}: `{cmd}` printed\n{}\nexpected\n{}",
                out.join("\n"),
                block.lines[start..i].join("\n")
            ));
        }
    }
    failures
}

/// Runs `cmd` with `sh -c` (killed after [`HEAVY`]: an example may play a game or run a bench);
/// its output lines.
fn run_shell(cmd: &str, path: &str) -> Vec<String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{cmd} 2>&1"))
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .current_dir(scratch())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start sh");
    let rx = line_reader(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    let deadline = Instant::now() + HEAVY;
    loop {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(l) => lines.push(l),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                lines.push(format!("(still running after {HEAVY:?}: killed)"));
                break;
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    lines
}

/// A thread that hands over the lines of `r` until it ends.
fn line_reader(r: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Runs a `protocol` block; returns the failures.
fn run_protocol(doc: &str, block: &Block) -> Vec<String> {
    // Steps: a line to send (None first: answers before any input) and its answers.
    let mut steps: Vec<(Option<String>, Vec<Expect>, usize)> = vec![(None, Vec::new(), 0)];
    for (i, l) in block.lines.iter().enumerate() {
        let at = block.line + i;
        if let Some(sent) = l.strip_prefix("> ") {
            let sent = expect(sent);
            let Expect::Line(sent) = sent else {
                return vec![format!("{doc}:{at}: `...` cannot be sent")];
            };
            steps.push((Some(sent), Vec::new(), at));
        } else if let Some(answer) = l.strip_prefix("< ").or((l == "<").then_some("")) {
            steps.last_mut().unwrap().1.push(expect(answer));
        } else {
            return vec![format!(
                "{doc}:{at}: a protocol line starts with '> ' or '< '"
            )];
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start bashni");
    let rx = line_reader(child.stdout.take().unwrap());
    let mut stdin = child.stdin.take();
    let mut transcript = Vec::new();
    let last = steps.len() - 1;
    let mut failure = None;
    for (k, (sent, expected, at)) in steps.iter().enumerate() {
        if let (Some(sent), Some(input)) = (sent, stdin.as_mut()) {
            transcript.push(format!("> {sent}"));
            let _ = writeln!(input, "{sent}").and_then(|_| input.flush());
        }
        if k == last {
            stdin = None; // end of input: the engine finishes and exits
        }
        let mut got: Vec<String> = Vec::new();
        let deadline = Instant::now() + DEADLINE;
        let done = |got: &[String]| lines_match(expected, got, true);
        while !(k < last && done(&got)) {
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(l) => {
                    transcript.push(format!("< {l}"));
                    got.push(l);
                    if !lines_match(expected, &got, false) {
                        break;
                    }
                }
                Err(_) => break,
            }
        }
        if !done(&got) {
            failure = Some(format!(
                "{doc}:{at}: the answers do not match; transcript:\n{}",
                transcript.join("\n")
            ));
            break;
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    failure.into_iter().collect()
}

/// Checks every example of `doc`; returns the failures and how many blocks ran.
fn check_doc(doc: &str) -> (Vec<String>, usize) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for block in blocks(&text) {
        match block.tag.as_str() {
            "console" => failures.extend(run_console(doc, &block)),
            "protocol" => failures.extend(run_protocol(doc, &block)),
            _ => {
                let marked = |l: &&String| {
                    ["$ ", "> ", "< "].iter().any(|m| l.starts_with(m)) || l.as_str() == "<"
                };
                if let Some(l) = block.lines.iter().find(marked) {
                    failures.push(format!(
                        "{doc}:{}: a block tagged '{}' holds an example line, so it would not \
                         be checked (tag it console or protocol): {l}",
                        block.line, block.tag
                    ));
                }
                continue;
            }
        }
        ran += 1;
    }
    (failures, ran)
}

#[test]
fn engine_protocol_examples() {
    let (failures, ran) = check_doc("engine-protocol.md");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 10, "only {ran} examples found");
}

#[test]
fn readme_examples() {
    let (failures, ran) = check_doc("README.md");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 5, "only {ran} examples found");
}

#[test]
fn user_guide_examples() {
    let (mut failures, mut ran) = (Vec::new(), 0);
    for doc in docs::files().iter().filter(|d| d.starts_with("docs/")) {
        let (f, r) = check_doc(doc);
        failures.extend(f);
        ran += r;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 8, "only {ran} examples found in docs/");
}

#[test]
fn the_matcher_follows_the_conventions() {
    let m = |p: &str, t: &str| {
        let Expect::Line(p) = expect(p) else { panic!() };
        line_matches(&p, t)
    };
    assert!(m("nodes <n> time <n>", "nodes 12 time 3"));
    assert!(m("score <n> x", "score +0.68 x") && m("a <n>", "a -79"));
    assert!(!m("nodes <n>", "nodes x") && !m("nodes <n>", "nodes 1 2"));
    assert!(m(
        "bestmove <move> ponder <move>",
        "bestmove a1:c3:e5 ponder h2-g1"
    ));
    assert!(!m("bestmove <move>", "bestmove (none)"));
    assert!(m("id name bashni <version>", "id name bashni 0.1.0"));
    assert!(m("info ... pv a5-c3", "info depth 1 score cp 3 pv a5-c3"));
    assert!(!m("info ... pv a5-c3", "info depth 1 pv a5-c4"));
    assert!(m("readyok     # a comment", "readyok"));
    assert!(m(
        "info depth 2 seldepth 4 multipv 1 score cp 3 nodes 7 nps 9 hashfull 0 time 0 pv g3-f4",
        "info depth 2 seldepth 4 multipv 1 score cp 3 nodes 100 nps 5000 hashfull 1 time 2 pv g3-f4"
    ));
    assert!(!m(
        "info depth 2 seldepth 4 multipv 1 score cp 3 nodes 7 pv g3-f4",
        "info depth 2 seldepth 4 multipv 1 score cp 4 nodes 7 pv g3-f4"
    ));
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let exp = [expect("a"), expect("..."), expect("z")];
    assert!(lines_match(&exp, &lines(&["a", "b", "c", "z"]), true));
    assert!(lines_match(&exp, &lines(&["a", "z"]), true));
    assert!(!lines_match(&exp, &lines(&["a", "b"]), true));
    assert!(lines_match(&exp, &lines(&["a", "b"]), false));
    assert!(!lines_match(&exp, &lines(&["b"]), false));
}
