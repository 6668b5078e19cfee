//! Every example shown in a `--help` of `bashni` runs, so that a help text cannot show a
//! command the program refuses.
//!
//! # The pages and their examples
//!
//! The pages are `bashni --help` and `bashni <command> --help` for every command in the
//! "Commands:" section of `bashni --help` (and, the same way, the commands of any command that
//! has some), `help` left out: a new command is covered without touching this file. An
//! example is a line of a page's "Examples:" section (its indented lines, up to a blank line);
//! a line ending in `\` goes on with the next. No command line may stand outside those
//! sections (see [`no_command_line_escapes_the_examples_sections`]).
//!
//! # How an example is run
//!
//! With `sh -c` (quotes, pipes, `$VAR` and `# comments` act as a user's shell makes them act),
//! standard input empty, in a scratch directory of its page (under `CARGO_TARGET_TMPDIR`),
//! with the built `bashni` first on the `PATH`. The directory holds what the examples read
//! (see [`make_fixtures`]): `./bashni` and `./old` (the builds a match example pits against
//! each other, both this one), `openings.txt`, `games.pdn` (two games), `data.txt`, `a.txt`,
//! `b.txt` and `turkish.txt` (datagen data), `part-1.json` and `part-2.json` (a sharded
//! match's results), `src/games/<game>/eval/weights.txt` (the repository's) and `nets/`.
//! The environment is that of task 3 of `sbatch --array=1-8`, for `--shard auto`, and a
//! do-nothing `xdg-open` comes first on the `PATH`, so that `--open` opens no browser.
//!
//! Examples that stand for long runs are run smaller: [`REDUCTIONS`] lists each replacement,
//! and a replacement no example uses any more fails the test, so the list stays true. A
//! `bashni serve` example never ends: it is given `--port 0` when it names no port (the
//! example's port may be taken on the test machine), and is stopped with SIGTERM, the way
//! its help says it stops, once it has printed its address on standard output.
//!
//! # Verdict
//!
//! An example fails when it prints a line starting with `error:` (clap's usage errors and
//! `bashni`'s own), or exits with any code but 0 (2 is clap's, and `bashni`'s, for bad
//! arguments). A server passes if it stops on SIGTERM with code 0 or by that signal. Speed
//! never fails an example: one still running after [`DEADLINE`] (forty times the slowest
//! here) is stopped and judged only by the `error:` lines it printed, with a note.

use crate::common::deadline::{Bounded, DEADLINE};
use std::collections::BTreeSet;
use std::fs::{self, File};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// How often a running example is looked at.
const POLL: Duration = Duration::from_millis(20);

/// What the test runs instead of an example's long run: `(command, tokens in the example,
/// tokens run)`, for examples of that command (`bashni <command> ...`). Only sizes change.
const REDUCTIONS: &[(&str, &str, &str)] = &[
    // A match: one game pair, at a tenth of the clock, drawn at 30 plies.
    ("match", "--games 100", "--games 2 --max-plies 30"),
    ("match", "--games 400", "--games 2 --max-plies 30"),
    ("match", "--rounds 500", "--rounds 1 --max-plies 30"),
    ("match", "--rounds 200", "--rounds 1 --max-plies 30"),
    ("match", "--tc 10+0.1", "--tc 1+0.01"),
    ("match", "tc=10+0.1", "tc=1+0.01"),
    // cutechess-cli's spellings: one round, drawn at 15 moves (30 plies), a tenth of the clock.
    ("match", "-rounds 200", "-rounds 1 -maxmoves 15"),
    ("match", "tc=40/60+0.6", "tc=40/6+0.06"),
    // Openings: ten.
    ("openings", "--count 1000", "--count 10"),
    ("openings", "--count 500", "--count 10"),
    // Datagen: two games (sixteen when the run is split into eight parts: two a part).
    ("datagen", "--games 1000", "--games 2"),
    ("datagen", "--games 100000", "--games 16"),
];

/// Commands that run until they are stopped.
const SERVERS: &[&str] = &["serve"];

/// The Slurm array task the examples run in: task 3 of `sbatch --array=1-8`.
const SLURM_TASK: &[(&str, &str)] = &[
    ("SLURM_ARRAY_TASK_ID", "3"),
    ("SLURM_ARRAY_TASK_MIN", "1"),
    ("SLURM_ARRAY_TASK_MAX", "8"),
    ("SLURM_ARRAY_TASK_COUNT", "8"),
];

/// The data files the examples read, made by `bashni` in the fixtures directory.
const MADE: &[&str] = &[
    "bashni openings --plies 8 --count 4 --seed 1 --out openings.txt",
    "bashni match --engine cmd=./bashni --engine cmd=./bashni --games 2 --depth 1 \
     --max-plies 40 --seed 1 --pdn games.pdn --quiet",
    "bashni match --engine cmd=./bashni --engine cmd=./bashni --games 4 --depth 1 \
     --max-plies 40 --seed 1 --shard 1/2 --result part-1.json --quiet",
    "bashni match --engine cmd=./bashni --engine cmd=./bashni --games 4 --depth 1 \
     --max-plies 40 --seed 1 --shard 2/2 --result part-2.json --quiet",
    "bashni datagen --games 2 --nodes 1000 --seed 1 --out data.txt",
    "bashni datagen --games 2 --nodes 1000 --seed 2 --out a.txt",
    "bashni datagen --games 2 --nodes 1000 --seed 3 --out b.txt",
    "bashni datagen --variant turkish --games 2 --nodes 1000 --out turkish.txt",
];

/// One `--help` page: the command path (empty for `bashni` itself) and its text.
struct Page {
    path: Vec<String>,
    text: String,
}

impl Page {
    /// `bashni play`, or `bashni`.
    fn name(&self) -> String {
        let path: String = self.path.iter().map(|c| format!(" {c}")).collect();
        format!("bashni{path}")
    }
}

/// The `--help` text of `bashni <path>`.
fn help(path: &[String]) -> String {
    let out = Command::new(BASHNI)
        .args(path)
        .arg("--help")
        .output_bounded()
        .expect("run bashni --help");
    assert!(out.status.success(), "bashni {path:?} --help: {out:?}");
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// Every help page: `bashni --help`, then each command's, depth first.
fn pages() -> Vec<Page> {
    let mut pages = Vec::new();
    let mut todo = vec![Vec::new()];
    while let Some(path) = todo.pop() {
        let text = help(&path);
        for command in commands(&text).into_iter().rev() {
            let mut sub = path.clone();
            sub.push(command);
            todo.push(sub);
        }
        pages.push(Page { path, text });
    }
    pages
}

/// The line numbers of a section: the indented lines after the line `title` (`Examples:`),
/// up to a blank or unindented line. The title may also start the line (`Usage: bashni`),
/// which then belongs to the section.
fn section(text: &str, title: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !line.trim_start().starts_with(title) {
            continue;
        }
        if line.trim() != title {
            out.push(i);
        }
        for (j, next) in lines.iter().enumerate().skip(i + 1) {
            if next.trim().is_empty() || !next.starts_with(' ') {
                break;
            }
            out.push(j);
        }
    }
    out
}

/// The commands a page lists, `help` left out.
fn commands(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    section(text, "Commands:")
        .into_iter()
        .filter_map(|i| lines[i].split_whitespace().next())
        .filter(|&c| c != "help")
        .map(str::to_string)
        .collect()
}

/// A page's examples, a line ending in `\` joined with the next.
fn examples(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for i in section(text, "Examples:") {
        let line = lines[i].trim();
        let (line, goes_on) = match line.strip_suffix('\\') {
            Some(head) => (head.trim_end(), true),
            None => (line, false),
        };
        match out.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(line);
            }
            _ => out.push(line.to_string()),
        }
        open = goes_on;
    }
    out
}

/// Whether a line of help text is a command line: it starts with `bashni ` or pipes into
/// `bashni`.
fn is_command_line(line: &str) -> bool {
    let line = line.trim();
    line.starts_with("bashni ") || line.contains("| bashni")
}

/// An example as the test runs it: the shell script and whether it is a server.
struct Prepared {
    script: String,
    server: bool,
}

/// Applies [`REDUCTIONS`] (recording the ones used in `used`) and the server rules.
fn prepare(example: &str, used: &mut BTreeSet<usize>) -> Prepared {
    let mut tokens: Vec<String> = example.split(' ').map(str::to_string).collect();
    let command = match tokens.as_slice() {
        [first, second, ..] if first == "bashni" => second.clone(),
        _ => String::new(),
    };
    for (k, &(_, from, to)) in REDUCTIONS
        .iter()
        .enumerate()
        .filter(|(_, r)| r.0 == command)
    {
        let from: Vec<&str> = from.split(' ').collect();
        let mut i = 0;
        while i + from.len() <= tokens.len() {
            if tokens[i..i + from.len()].iter().eq(from.iter()) {
                let to: Vec<String> = to.split(' ').map(str::to_string).collect();
                let n = to.len();
                tokens.splice(i..i + from.len(), to);
                used.insert(k);
                i += n;
            } else {
                i += 1;
            }
        }
    }
    let server = SERVERS.contains(&command.as_str());
    if server && !tokens.iter().any(|t| t == "--port") {
        tokens.splice(2..2, ["--port".to_string(), "0".to_string()]);
    }
    let script = tokens.join(" ");
    Prepared {
        // `exec`: the signal that stops a server reaches `bashni`, not the shell.
        script: if server {
            format!("exec {script}")
        } else {
            script
        },
        server,
    }
}

/// How an example's run ended.
#[derive(Debug)]
enum End {
    /// It exited by itself with this status.
    Exited(ExitStatus),
    /// A server, stopped by the test's SIGTERM, with this status.
    Stopped(ExitStatus),
    /// Still running after [`DEADLINE`]: killed, judged on its output so far.
    Overran,
}

/// An example's run.
struct Outcome {
    end: End,
    stdout: String,
    stderr: String,
}

/// The scratch root, the `bin` directory put first on the `PATH` and the environment.
struct Place {
    bin: PathBuf,
    logs: PathBuf,
}

impl Place {
    /// A fresh scratch root named `name`: `bin/` with `bashni` and a do-nothing `xdg-open`,
    /// and `logs/` for the output of the runs.
    fn new(name: &str) -> Place {
        let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = fs::remove_dir_all(&root);
        let bin = root.join("bin");
        let logs = root.join("logs");
        fs::create_dir_all(&bin).unwrap();
        fs::create_dir_all(&logs).unwrap();
        std::os::unix::fs::symlink(BASHNI, bin.join("bashni")).unwrap();
        let opener = bin.join("xdg-open");
        fs::write(&opener, "#!/bin/sh\nexit 0\n").unwrap();
        let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
        fs::set_permissions(&opener, mode).unwrap();
        Place { bin, logs }
    }

    /// `sh -c script` in `dir`, with the examples' environment.
    fn shell(&self, dir: &Path, script: &str, log: &str) -> (Command, PathBuf, PathBuf) {
        let path = format!(
            "{}:{}",
            self.bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let (out, err) = (
            self.logs.join(format!("{log}.out")),
            self.logs.join(format!("{log}.err")),
        );
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(script).current_dir(dir).env("PATH", path);
        for (key, _) in std::env::vars() {
            if key.starts_with("SLURM_") || key == "JOB_COMPLETION_INDEX" {
                cmd.env_remove(key);
            }
        }
        cmd.envs(SLURM_TASK.iter().copied())
            .stdin(Stdio::null())
            .stdout(File::create(&out).unwrap())
            .stderr(File::create(&err).unwrap())
            // Its own process group: stopping it stops the engines it started.
            .process_group(0);
        (cmd, out, err)
    }

    /// Runs `script` in `dir` until it ends, or for a server until it has printed on
    /// standard output (its address; then SIGTERM), or until [`DEADLINE`].
    fn run(&self, dir: &Path, script: &str, server: bool, log: &str) -> Outcome {
        let (mut cmd, out, err) = self.shell(dir, script, log);
        let mut child = cmd.spawn().expect("start sh");
        let printed = || server && fs::metadata(&out).is_ok_and(|m| m.len() > 0);
        let end = match wait(&mut child, printed) {
            Some(status) => End::Exited(status),
            None if printed() => {
                signal_group(child.id(), "TERM");
                wait(&mut child, || false).map_or(End::Overran, End::Stopped)
            }
            None => End::Overran,
        };
        if matches!(end, End::Overran) {
            signal_group(child.id(), "KILL");
            let _ = child.wait();
            eprintln!("note: `{script}` was still running after {DEADLINE:?}; stopped");
        }
        Outcome {
            end,
            stdout: fs::read_to_string(out).unwrap_or_default(),
            stderr: fs::read_to_string(err).unwrap_or_default(),
        }
    }
}

/// Waits for `child` to exit, for at most [`DEADLINE`] and only while `ready` is false; `None`
/// if it is still running.
fn wait(child: &mut Child, ready: impl Fn() -> bool) -> Option<ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < DEADLINE && !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(POLL);
    }
    child.try_wait().unwrap()
}

/// Sends `signal` to the process group `pid` leads.
fn signal_group(pid: u32, signal: &str) {
    let _ = Command::new("kill")
        .args([&format!("-{signal}"), "--", &format!("-{pid}")])
        .status_bounded();
}

/// Whether a run passes: no `error:` line and, unless the test stopped it, exit code 0.
fn verdict(outcome: &Outcome) -> Result<(), String> {
    let errors: Vec<&str> = (outcome.stdout.lines())
        .chain(outcome.stderr.lines())
        .filter(|l| l.trim_start().starts_with("error:"))
        .collect();
    if !errors.is_empty() {
        return Err(format!("printed {}", errors.join(" / ")));
    }
    match &outcome.end {
        End::Exited(status) if status.code() == Some(0) => Ok(()),
        End::Exited(status) => Err(format!("ended with {status}")),
        End::Stopped(status) if status.code() == Some(0) || status.signal() == Some(15) => Ok(()),
        End::Stopped(status) => Err(format!("stopped by SIGTERM, ended with {status}")),
        End::Overran => Ok(()),
    }
}

/// Copies `from` into `to`, symbolic links as links.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(&src).unwrap(), &dst).unwrap();
        } else if kind.is_dir() {
            copy_tree(&src, &dst);
        } else {
            fs::copy(&src, &dst).unwrap();
        }
    }
}

/// The files the examples read, in `place`'s `fixtures/` (each page gets a copy).
fn make_fixtures(place: &Place) {
    let dir = place.logs.with_file_name("fixtures");
    fs::create_dir_all(dir.join("nets")).unwrap();
    for name in ["bashni", "old"] {
        std::os::unix::fs::symlink(BASHNI, dir.join(name)).unwrap();
    }
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    for entry in fs::read_dir(&games).unwrap() {
        let weights = entry.unwrap().path().join("eval/weights.txt");
        if let Ok(rel) = weights.strip_prefix(env!("CARGO_MANIFEST_DIR"))
            && weights.is_file()
        {
            fs::create_dir_all(dir.join(rel).parent().unwrap()).unwrap();
            fs::copy(&weights, dir.join(rel)).unwrap();
        }
    }
    for (i, script) in MADE.iter().enumerate() {
        let outcome = place.run(&dir, script, false, &format!("fixture-{i}"));
        assert!(
            matches!(&outcome.end, End::Exited(s) if s.success()),
            "fixture `{script}`: {:?}\n{}{}",
            outcome.end,
            outcome.stdout,
            outcome.stderr
        );
    }
}

/// Runs a page's examples in its own copy of the fixtures; returns the failures.
fn run_page(place: &Place, page: &Page, used: &mut BTreeSet<usize>) -> Vec<String> {
    let slug = page.name().replace(' ', "-");
    let dir = place.logs.with_file_name(&slug);
    copy_tree(&place.logs.with_file_name("fixtures"), &dir);
    let mut failures = Vec::new();
    for (n, example) in examples(&page.text).iter().enumerate() {
        let prepared = prepare(example, used);
        let log = format!("{slug}-{}", n + 1);
        let outcome = place.run(&dir, &prepared.script, prepared.server, &log);
        if let Err(why) = verdict(&outcome) {
            failures.push(format!(
                "`{} --help` shows `{example}`\n  ran `{}` in {}: {why}\n  stdout (end): {}\n  stderr (end): {}",
                page.name(),
                prepared.script,
                dir.display(),
                tail(&outcome.stdout),
                tail(&outcome.stderr)
            ));
        }
    }
    failures
}

/// The last lines of an output.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(5)..].join("\n    ")
}

/// One example run at a time: the examples' matches and searches are the machine's load.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn every_help_example_runs() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let place = Place::new("help_examples");
    make_fixtures(&place);
    let pages = pages();
    assert!(pages.len() > 1, "no commands found in `bashni --help`");
    let mut used = BTreeSet::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for page in &pages {
        count += examples(&page.text).len();
        failures.extend(run_page(&place, page, &mut used));
    }
    for (k, r) in REDUCTIONS.iter().enumerate() {
        if !used.contains(&k) {
            failures.push(format!("the reduction {r:?} matches no example any more"));
        }
    }
    assert!(count >= pages.len(), "only {count} examples");
    assert!(
        failures.is_empty(),
        "{} of {count} help examples fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The verdict refuses what a user would see refused: the example `bashni play --help` showed
/// before it was fixed (a FEN with a man on a light square), a usage error, and an example
/// whose annotation is not shell (`(stop with Enter)`).
#[test]
fn refused_examples_fail_the_verdict() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let place = Place::new("help_examples_refused");
    let dir = place.logs.with_file_name("scratch");
    fs::create_dir_all(&dir).unwrap();
    let refused = [
        "bashni play --fen \"8/8/8/8/8/1b6/8/W7 w\" --movetime 300",
        "bashni play --colour black",
        "bashni analyse --infinite   (stop with Enter)",
    ];
    for (n, example) in refused.iter().enumerate() {
        let prepared = prepare(example, &mut BTreeSet::new());
        let outcome = place.run(&dir, &prepared.script, false, &format!("refused-{n}"));
        assert!(
            verdict(&outcome).is_err(),
            "`{example}` passed: {:?}",
            outcome.end
        );
    }
    let fine = place.run(&dir, "bashni perft 3", false, "fine");
    assert_eq!(verdict(&fine), Ok(()), "{}", fine.stderr);
}

/// The reductions and the server rules change only what they say.
#[test]
fn examples_are_prepared_as_documented() {
    let mut used = BTreeSet::new();
    let p = prepare(
        "bashni match --engine cmd=./a --games 100 --tc 10+0.1",
        &mut used,
    );
    assert_eq!(
        p.script,
        "bashni match --engine cmd=./a --games 2 --max-plies 30 --tc 1+0.01"
    );
    assert!(!p.server);
    // A reduction is for its own command only.
    let p = prepare("bashni datagen --games 100 --out x.txt", &mut used);
    assert_eq!(p.script, "bashni datagen --games 100 --out x.txt");
    let p = prepare("bashni serve --open      # comment", &mut used);
    assert_eq!(p.script, "exec bashni serve --port 0 --open      # comment");
    assert!(p.server);
    let p = prepare("bashni serve --port 0 --open", &mut used);
    assert_eq!(p.script, "exec bashni serve --port 0 --open");
}

/// Every command line in a help page is in its "Examples:" section (or its usage line), so
/// that none escapes being run, and examples are found in the page text.
#[test]
fn no_command_line_escapes_the_examples_sections() {
    let text = "About.\n\nExamples:\n  bashni a \\\n    --b\n  printf 'x' | bashni c\n\nMore.\n";
    assert_eq!(examples(text), ["bashni a --b", "printf 'x' | bashni c"]);
    for page in pages() {
        let covered: BTreeSet<usize> = section(&page.text, "Examples:")
            .into_iter()
            .chain(section(&page.text, "Usage:"))
            .collect();
        for (i, line) in page.text.lines().enumerate() {
            assert!(
                !is_command_line(line) || covered.contains(&i),
                "`{} --help`, line {}: a command line outside an \"Examples:\" section \
                 (it would not be run): {line}",
                page.name(),
                i + 1
            );
        }
    }
}

/// Where a help paragraph names Turkish and Russian draughts it names Lasca too (the four
/// games go together), except where the text is about those two alone.
#[test]
fn help_lists_of_games_name_lasca() {
    // (page, text in the paragraph, why Lasca is left out)
    let two_only = [
        ("bashni hub", "", "Hub plays those two only"),
        (
            "bashni egdb",
            "",
            "the endgame databases are Russian, Brazilian and Turkish draughts' only",
        ),
        (
            "bashni egdb build",
            "",
            "the endgame databases are Russian, Brazilian and Turkish draughts' only",
        ),
        (
            "bashni egdb probe",
            "",
            "the endgame databases are Russian, Brazilian and Turkish draughts' only",
        ),
        (
            "bashni egdb plan",
            "",
            "the endgame databases are Russian, Brazilian and Turkish draughts' only",
        ),
        (
            "bashni egdb verify",
            "",
            "the endgame databases are Russian, Brazilian and Turkish draughts' only",
        ),
        (
            "bashni egdb info",
            "",
            "the endgame databases are Russian, Brazilian and Turkish draughts' only",
        ),
        (
            "bashni analyse",
            "standard `W:Wa1",
            "the standard FEN is theirs",
        ),
    ];
    for page in pages() {
        for paragraph in page.text.split("\n\n") {
            let lower = paragraph.to_lowercase();
            let exempt = two_only
                .iter()
                .any(|(p, text, _)| *p == page.name() && paragraph.contains(text));
            let head = paragraph.trim_start();
            if head.starts_with("Examples:") || head.starts_with("Usage:") || exempt {
                continue;
            }
            assert!(
                !(lower.contains("turkish") && lower.contains("russian"))
                    || lower.contains("lasca"),
                "`{} --help` names Turkish and Russian draughts but not Lasca:\n{paragraph}",
                page.name()
            );
        }
    }
}
