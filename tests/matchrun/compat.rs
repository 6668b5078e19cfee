//! `bashni match` run with cutechess-cli's and fastchess's spellings (`-engine`, `-each`,
//! `-games`, `-pgnout`, ...), as their match scripts write them; a match that cannot start;
//! and every example of `bashni match --help`, started as written.

use super::{BASHNI, Run, bashni, parse_games, temp};
use crate::common::deadline::{Bounded, Lines, wait_output};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The first `plies` move texts of each game of the PDN file `path`, in file order.
fn openings_of(path: &Path, plies: usize) -> Vec<String> {
    let games = parse_games(&std::fs::read_to_string(path).unwrap()).unwrap();
    games
        .iter()
        .map(|g| {
            let first: Vec<&str> = g.moves[..plies].iter().map(|m| m.text.as_str()).collect();
            first.join(" ")
        })
        .collect()
}

/// Asserts that `run` failed with exit code 2 and one error line holding `needle`, and
/// printed nothing else.
fn fails_with(run: &Run, needle: &str) {
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "", "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(lines[0].starts_with("error: "), "{}", run.stderr);
    assert!(lines[0].contains(needle), "{}", run.stderr);
}

/// The issue's own command: two games, written as PDN.
#[test]
fn cutechess_spellings_play_and_write_the_pdn() {
    let pdn = temp("compat.pdn");
    let run = bashni(
        "match -engine cmd=@B name=a -engine cmd=@B name=b -each nodes=1000 -games 2 \
         -pgnout @F",
        &[&pdn],
    );
    run.ok();
    assert!(
        run.stdout
            .starts_with("Match a (nodes 1000) vs b (nodes 1000)")
    );
    assert_eq!(run.finished().len(), 2, "{}", run.stdout);
    assert_eq!(run.number("Games:", "Games:"), 2);
    let games = parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    for (g, white) in games.iter().zip(["a", "b"]) {
        assert_eq!(g.tag("GameType"), Some("Bashni"));
        assert_eq!(g.tag("White"), Some(white));
        assert_eq!(g.tag("Result"), Some(g.result.as_str()));
        assert!(g.moves.len() > 4);
    }
}

/// fastchess: `-pgnout file=..`, `-rounds` alone (pairs), `plies=` (depth), `args=`.
#[test]
fn fastchess_spellings_play_and_write_the_pdn() {
    let pdn = temp("fastchess.pdn");
    let run = bashni(
        "match -engine cmd=@B name=a -engine cmd=@B name=b args=uci -each plies=1 proto=uci \
         restart=off -rounds 1 -repeat -pgnout file=@F notation=san nodes=false \
         -report penta=true -force-concurrency",
        &[&pdn],
    );
    run.ok();
    assert!(
        run.stdout.starts_with("Match a (depth 1) vs b (depth 1)"),
        "{}",
        run.stdout
    );
    assert_eq!(run.finished().len(), 2, "{}", run.stdout);
    assert_eq!(
        parse_games(&std::fs::read_to_string(&pdn).unwrap())
            .unwrap()
            .len(),
        2
    );
}

/// `-openings file=.. order=random -srand N` plays the openings bashni's `--openings ..
/// --openings-order random --seed N` plays, in the same order; `-games G -rounds R` is G x R
/// games.
#[test]
fn random_openings_order_matches_ours() {
    let file = temp("compat-openings.txt");
    bashni(
        "openings --plies 4 --count 3 --seed 9 --depth 2 --out @F",
        &[&file],
    )
    .ok();
    let (theirs, ours) = (temp("compat-theirs.pdn"), temp("compat-ours.pdn"));
    bashni(
        "match -engine cmd=@B -engine cmd=@B -each depth=1 -games 2 -rounds 3 -srand 4 \
         -openings file=@G format=epd order=random policy=round -pgnout @F",
        &[&theirs, &file],
    )
    .ok();
    bashni(
        "match --engine cmd=@B --engine cmd=@B --depth 1 --games 6 --seed 4 --openings @G \
         --openings-order random --pdn @F",
        &[&ours, &file],
    )
    .ok();
    let used = openings_of(&theirs, 4);
    assert_eq!(used.len(), 6);
    assert_eq!(used, openings_of(&ours, 4));
    // Each opening a pair, colours swapped.
    let text = std::fs::read_to_string(&file).unwrap();
    for pair in used.chunks(2) {
        assert_eq!(pair[0], pair[1]);
        assert!(
            text.lines().any(|l| l == pair[0]),
            "{} not in {text}",
            pair[0]
        );
    }
}

/// `-openings format=pgn plies=N start=S`: the PDN's games cut to N moves, from the S-th.
#[test]
fn pdn_openings_are_cut_and_started_where_asked() {
    let (book, out) = (temp("compat-book.pdn"), temp("compat-from-book.pdn"));
    bashni(
        "match --engine cmd=@B --engine cmd=@B --depth 1 --games 2 --random-openings 2 \
         --seed 3 --pdn @F",
        &[&book],
    )
    .ok();
    let run = bashni(
        "match -engine cmd=@B -engine cmd=@B -each depth=1 -games 4 \
         -openings file=@G format=pgn plies=3 start=2 -pgnout @F",
        &[&out, &book],
    );
    run.ok();
    let source = openings_of(&book, 3);
    let used = openings_of(&out, 3);
    assert_eq!(
        used,
        [&source[1], &source[1], &source[0], &source[0]].map(String::clone)
    );
    let beyond = bashni(
        "match -engine cmd=@B -engine cmd=@B -each depth=1 -openings file=@F plies=3 start=3",
        &[&book],
    );
    fails_with(&beyond, "--openings-start: 3 is past the file's 2 openings");
}

#[test]
fn sprt_draw_resign_and_maxmoves_are_ours() {
    let base = "match -engine cmd=@B -engine cmd=@B -each depth=1 -games 2";
    let run = bashni(
        &format!("{base} -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic"),
        &[],
    );
    run.ok();
    assert!(
        run.line("SPRT:")
            .starts_with("SPRT: elo0 0 elo1 5 alpha 0.05 beta 0.05")
    );
    let run = bashni(&format!("{base} -maxmoves 5"), &[]);
    run.ok();
    assert_eq!(run.line("Terminations:"), "Terminations: max plies 2");
    let run = bashni(
        &format!("{base} -draw movenumber=1 movecount=1 score=100000"),
        &[],
    );
    assert_eq!(
        run.ok().line("Terminations:"),
        "Terminations: draw adjudication 2"
    );
    let run = bashni(&format!("{base} -resign movecount=1 score=1"), &[]);
    assert!(run.ok().line("Terminations:").contains("adjudication"));
    let refused = bashni(&format!("{base} -sprt elo0=0 elo1=5 model=normalized"), &[]);
    fails_with(&refused, "logistic Elo");
}

#[test]
fn concurrency_plays_every_game() {
    let run = bashni(
        "match -engine cmd=@B -engine cmd=@B -each nodes=1000 -games 4 -concurrency 2 -recover",
        &[],
    );
    run.ok();
    let mut numbers: Vec<u64> = run
        .finished()
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, [1, 2, 3, 4]);
}

#[test]
fn unknown_and_refused_flags_are_one_line_errors() {
    let base = "match -engine cmd=@B -engine cmd=@B -each depth=1";
    for (extra, needle) in [
        ("-foo", "unknown flag -foo: see bashni match --help"),
        (
            "-pdn @F",
            "unknown flag -pdn: bashni match spells it --pdn <PDN>",
        ),
        ("-pgn @F", "--pdn FILE"),
        ("-noswap", "-noswap is not supported by bashni match"),
        ("-repeat 4", "-repeat 4 is not supported"),
        ("-pgnout @F min", "-pgnout min is not supported"),
        ("-pgnout", "bashni: --pdn FILE"),
        ("-each ponder", "ponder is not supported"),
    ] {
        let out = temp("never.pdn");
        let run = bashni(&format!("{base} {extra}"), &[&out]);
        fails_with(&run, needle);
        assert!(!out.exists(), "{extra}");
    }
}

/// A match whose engine does not start says only that: no header, no empty report.
#[test]
fn a_match_that_cannot_start_prints_only_its_error() {
    for line in [
        "match --engine cmd=./nonexistent --engine cmd=@B --nodes 1000",
        "match -engine cmd=./nonexistent -engine cmd=@B -each nodes=1000 -games 2 \
         -concurrency 2",
    ] {
        let run = bashni(line, &[]);
        assert_ne!(run.code, 0);
        assert!(!run.stdout.contains("Games:"), "{}", run.stdout);
        assert!(!run.stdout.contains("Faults"), "{}", run.stdout);
        fails_with(&run, "cannot start './nonexistent'");
    }
}

/// The lines of `bashni match --help` that are example commands, each joined across its
/// `\` continuations.
fn help_examples() -> Vec<String> {
    let out = Command::new(BASHNI)
        .args(["match", "--help"])
        .output_bounded()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let mut examples = Vec::new();
    let mut current: Option<String> = None;
    for line in help.lines() {
        let line = line.trim();
        if let Some(cmd) = current.as_mut() {
            cmd.push(' ');
            cmd.push_str(line.trim_end_matches('\\').trim());
        } else if line.starts_with("bashni match ") {
            current = Some(line.trim_end_matches('\\').trim().to_string());
        }
        if !line.ends_with('\\')
            && let Some(cmd) = current.take()
        {
            examples.push(cmd);
        }
    }
    examples
}

/// Starts `words` (a `bashni match` command) in `dir` and waits for its first line (shown
/// once the engines run); then stops it with SIGTERM. Returns the output.
fn start_and_stop(dir: &Path, words: &[&str]) -> Run {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new(BASHNI)
        .args(&words[1..])
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let mut lines = Lines::new(child.stdout.take().unwrap(), words.join(" "));
    let mut stdout = String::new();
    if let Some(first) = lines.next() {
        stdout = first + "\n";
        let kill = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", child.id())])
            .status_bounded()
            .unwrap();
        assert!(kill.success());
    }
    for line in lines {
        stdout += &line;
        stdout.push('\n');
    }
    let out = wait_output(child, words.join(" "));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Every example of `bashni match --help` runs as written (`./bashni` and `./old` are this
/// bashni, `openings.txt` a small openings file): its engines start and it plays until
/// stopped.
#[test]
fn every_help_example_starts() {
    let dir: PathBuf = temp("help-examples");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["bashni", "old"] {
        let link = dir.join(name);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(BASHNI, &link).unwrap();
    }
    let openings = dir.join("openings.txt");
    bashni(
        "openings --plies 4 --count 4 --seed 1 --depth 2 --out @F",
        &[&openings],
    )
    .ok();
    let examples = help_examples();
    assert!(examples.len() >= 4, "{examples:?}");
    assert!(
        examples.iter().any(|e| e.contains(" -engine ")),
        "{examples:?}"
    );
    for example in &examples {
        let words: Vec<&str> = example.split_whitespace().collect();
        let run = start_and_stop(&dir, &words);
        assert!(
            run.stdout.starts_with("Match "),
            "{example}:\n{}\n{}",
            run.stdout,
            run.stderr
        );
        assert!(run.code == 0 || run.code == 1, "{example}: {}", run.stderr);
        assert!(run.stdout.contains("Games:"), "{example}: {}", run.stdout);
    }
}
