//! The user's files are never lost and a bad input never runs away, driven through the real
//! binary: `datagen --resume` refuses a file that is not its data, a file written over is
//! replaced whole or not at all (a file size limit, a full disk, a read-only folder: one line
//! of error, the old file as it was, no temporary file left), a record appended is appended
//! whole or not at all, another process's leftover temporary file is left alone, a dangling
//! link is written through, reads are bounded (`/dev/zero`, `/dev/full`), and numeric limits
//! keep the protocol's ranges.

use crate::common::deadline::{Bounded, join, wait_output};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn bashni(args: &[&str]) -> Output {
    Command::new(BASHNI)
        .args(args)
        .output_bounded()
        .expect("run bashni")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn resume_refuses_a_file_that_is_not_datagen_output() {
    // The reproducer of the issue: a copy of README.md lost its tail.
    let copy = temp("readme.md");
    std::fs::copy(format!("{ROOT}/README.md"), &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let out = bashni(&[
        "datagen",
        "--games",
        "2",
        "--depth",
        "1",
        "--resume",
        "--out",
        copy.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("is not datagen data"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "the file was changed"
    );
}

#[test]
fn resume_on_a_device_ends_with_an_error() {
    let out = bashni(&[
        "datagen",
        "--games",
        "2",
        "--depth",
        "1",
        "--resume",
        "--out",
        "/dev/full",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn tune_reads_an_endless_input_with_bounded_memory() {
    // 256 MiB of address space is far below what reading /dev/zero into memory would take.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 262144; exec {BASHNI} tune /dev/zero --out /dev/null"
        ))
        .output_bounded()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("no line ending within 1 MiB"), "{err}");
    assert!(err.contains("no training positions"), "{err}");
}

/// A fresh, empty folder of its own for one test, so that what is left in it can be listed.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

/// Runs `bashni ARGS` with `input` typed, under a file size limit of `blocks` (the shell's
/// `ulimit -f` units; `None`: none) that applies to that process only. `ready` gets its
/// process id before any input is sent.
fn run_limited(blocks: Option<u64>, args: &[&str], input: &str, ready: impl FnOnce(u32)) -> Output {
    let limit = blocks.map_or(String::new(), |b| format!("ulimit -f {b}; "));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{limit}exec \"$0\" \"$@\""))
        .arg(BASHNI)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // `exec` keeps the shell's process id.
    ready(child.id());
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let feed = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = wait_output(child, format!("bashni {args:?}"));
    join(feed, "the input's writer");
    out
}

/// Bytes in one block of the shell's `ulimit -f` (512 in dash, 1024 in bash): what a process
/// under `ulimit -f 1` manages to write.
fn limit_block() -> u64 {
    let dir = scratch("block");
    let f = dir.join("f");
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 1; head -c 8192 /dev/zero > {}",
            f.display()
        ))
        .output_bounded()
        .unwrap();
    std::fs::metadata(&f).unwrap().len()
}

/// The line printed right after `play` echoed the typed `line`.
fn answer(out: &Output, line: &str) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    let echo = format!("> {line}");
    let mut lines = text.lines().skip_while(|l| *l != echo);
    assert!(lines.next().is_some(), "'{line}' not typed:\n{text}");
    lines.next().unwrap_or("").to_string()
}

/// Typed into `play --level 1 --seed 1`: a move, a save to `file`, then a question the
/// session must still answer.
fn save_session(file: &Path) -> (String, String) {
    let save = format!("save {}", file.display());
    let input = format!("c3 d4\n{save}\nfen\n");
    (save, input)
}

const PLAY: &[&str] = &["play", "--level", "1", "--seed", "1"];

#[test]
fn a_save_past_the_file_size_limit_is_one_line_and_the_game_goes_on() {
    // No write fits under a limit of 0 blocks: by default the kernel's SIGXFSZ would end
    // the process in the middle of the save, with the game.
    let dir = scratch("save-limit");
    let file = dir.join("game.pdn");
    std::fs::write(&file, "the old game").unwrap();
    let (save, input) = save_session(&file);
    let out = run_limited(Some(0), PLAY, &input, |_| {});
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        answer(&out, &save),
        format!(
            "cannot write {}: File too large (os error 27)",
            file.display()
        )
    );
    assert!(answer(&out, "fen").ends_with(" w 2 2"), "{out:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "the old game");
    assert_eq!(names(&dir), ["game.pdn"]);
}

#[test]
fn a_cut_write_leaves_the_old_file_whole() {
    // A file size limit of 4 blocks stops the write of 300 openings part-way; the file
    // written over keeps its old contents, and the error is one line.
    let dir = scratch("openings-limit");
    let out_file = dir.join("openings.txt");
    std::fs::write(&out_file, "c3-d4 f6-e5\n").unwrap();
    let args = [
        "openings",
        "--plies",
        "4",
        "--count",
        "300",
        "--depth",
        "1",
        "--max-score",
        "100",
        "--seed",
        "3",
        "--out",
        out_file.to_str().unwrap(),
    ];
    let run = run_limited(Some(4), &args, "", |_| {});
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    assert_eq!(
        stderr(&run),
        format!(
            "error: cannot write {}: File too large (os error 27)\n",
            out_file.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), "c3-d4 f6-e5\n");
    assert_eq!(names(&dir), ["openings.txt"]);
    // Without the limit the same command replaces it.
    let ok = bashni(&args);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(std::fs::read_to_string(&out_file).unwrap().lines().count() > 300);
}

#[test]
fn a_match_result_past_the_file_size_limit_is_an_error_and_the_old_one_stays() {
    let dir = scratch("result-limit");
    let result = dir.join("part.json");
    std::fs::write(&result, "{}").unwrap();
    let engine = format!("cmd={BASHNI}");
    let args = [
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--depth",
        "1",
        "--games",
        "2",
        "--quiet",
        "--result",
        result.to_str().unwrap(),
    ];
    let out = run_limited(Some(0), &args, "", |_| {});
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = stderr(&out);
    assert!(
        err.ends_with(&format!(
            "error: cannot write {}: File too large (os error 27)\n",
            result.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&result).unwrap(), "{}");
    assert_eq!(names(&dir), ["part.json"]);
}

#[test]
fn datagen_past_the_file_size_limit_keeps_whole_games_only() {
    // The limit falls inside the second game: its part is cut off again, so the file ends
    // with the first game whole and a later --resume goes on from there.
    let dir = scratch("datagen-limit");
    let (full, cut) = (dir.join("full.txt"), dir.join("cut.txt"));
    let args = |out: &Path| -> Vec<String> {
        let run = ["datagen", "--games", "3", "--depth", "2", "--out"];
        run.iter()
            .map(|a| a.to_string())
            .chain([out.display().to_string()])
            .collect()
    };
    let made = Command::new(BASHNI)
        .args(args(&full))
        .output_bounded()
        .unwrap();
    assert!(made.status.success(), "{}", stderr(&made));
    let text = std::fs::read_to_string(&full).unwrap();
    // Where each game ends: after its `# game` line.
    let ends: Vec<usize> = text
        .match_indices("# game ")
        .map(|(i, _)| i + text[i..].find('\n').unwrap() + 1)
        .collect();
    let block = limit_block();
    let blocks = ends[0] as u64 / block + 1;
    assert!(
        blocks * block < ends[1] as u64,
        "a block is longer than game 2"
    );
    let a = args(&cut);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let out = run_limited(Some(blocks), &a, "", |_| {});
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        stderr(&out),
        format!(
            "error: cannot write '{}': File too large (os error 27)\n",
            cut.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&cut).unwrap(), text[..ends[0]]);
}

#[test]
fn another_process_leftover_temporary_file_is_left_alone() {
    // `.game.pdn.<pid>.tmp`, the name the temporary file of this very process had before,
    // as a stopped run with the same process id leaves it.
    let dir = scratch("leftover");
    let file = dir.join("game.pdn");
    let (save, input) = save_session(&file);
    let mut leftover = PathBuf::new();
    let out = run_limited(None, PLAY, &input, |pid| {
        leftover = dir.join(format!(".game.pdn.{pid}.tmp"));
        std::fs::write(&leftover, "not bashni's").unwrap();
    });
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(answer(&out, &save).starts_with("saved the game"), "{out:?}");
    assert!(std::fs::read_to_string(&file).unwrap().contains("1. c3-d4"));
    assert_eq!(std::fs::read_to_string(&leftover).unwrap(), "not bashni's");
    assert_eq!(names(&dir).len(), 2, "{:?}", names(&dir));
}

#[test]
fn a_save_to_a_dangling_link_writes_the_file_it_names() {
    let dir = scratch("dangling");
    let link = dir.join("game.pdn");
    std::os::unix::fs::symlink("real.pdn", &link).unwrap();
    let (save, input) = save_session(&link);
    let out = run_limited(None, PLAY, &input, |_| {});
    assert!(answer(&out, &save).starts_with("saved the game"), "{out:?}");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(
        std::fs::read_to_string(dir.join("real.pdn"))
            .unwrap()
            .contains("1. c3-d4")
    );
    assert_eq!(names(&dir), ["game.pdn", "real.pdn"]);
}

/// A small tmpfs mounted at a fresh folder, unmounted when dropped; `None` (and a line on
/// standard error saying the test is skipped) where mounting is not allowed.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(name: &str, test: &str) -> Option<Tmpfs> {
        let dir = scratch(name);
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&dir)
            .output_bounded();
        let why = match mounted {
            Ok(o) if o.status.success() => return Some(Tmpfs(dir)),
            Ok(o) => String::from_utf8_lossy(&o.stderr)
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
            Err(e) => format!("mount: {e}"),
        };
        eprintln!("skipped {test}: cannot mount a tmpfs (needs root or CAP_SYS_ADMIN): {why}");
        let _ = std::fs::remove_dir(&dir);
        None
    }

    /// Makes it read-only; false if not allowed.
    fn read_only(&self) -> bool {
        Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .status_bounded()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status_bounded();
        let _ = std::fs::remove_dir(&self.0);
    }
}

#[test]
fn a_full_disk_is_one_line_and_the_old_file_stays() {
    let Some(disk) = Tmpfs::mount("full", "a_full_disk_is_one_line_and_the_old_file_stays") else {
        return;
    };
    let file = disk.0.join("openings.txt");
    std::fs::write(&file, "c3-d4 f6-e5\n").unwrap();
    // Fill every block that is left.
    let mut filler = std::fs::File::create(disk.0.join("filler")).unwrap();
    while filler.write_all(&[b'x'; 4096]).is_ok() {}
    drop(filler);
    let out = bashni(&[
        "openings",
        "--plies",
        "4",
        "--count",
        "50",
        "--depth",
        "1",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        stderr(&out),
        format!(
            "error: cannot write {}: No space left on device (os error 28)\n",
            file.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "c3-d4 f6-e5\n");
    assert_eq!(names(&disk.0), ["filler", "openings.txt"]);
}

#[test]
fn a_save_in_a_read_only_folder_is_one_line_and_the_game_goes_on() {
    let test = "a_save_in_a_read_only_folder_is_one_line_and_the_game_goes_on";
    let Some(disk) = Tmpfs::mount("ro", test) else {
        return;
    };
    let file = disk.0.join("game.pdn");
    std::fs::write(&file, "the old game").unwrap();
    if !disk.read_only() {
        eprintln!("skipped {test}: cannot remount the tmpfs read-only");
        return;
    }
    let (save, input) = save_session(&file);
    let out = run_limited(None, PLAY, &input, |_| {});
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        answer(&out, &save),
        format!(
            "cannot write {}: Read-only file system (os error 30)",
            file.display()
        )
    );
    assert!(answer(&out, "fen").ends_with(" w 2 2"), "{out:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "the old game");
    assert_eq!(names(&disk.0), ["game.pdn"]);
}

#[test]
fn numeric_limits_keep_the_protocols_ranges() {
    for args in [
        &["bench", "--depth", "121"][..],
        &["datagen", "--depth", "121", "--out", "/dev/null"][..],
        &["openings", "--plies", "2", "--count", "1", "--depth", "500"][..],
    ] {
        let out = bashni(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("is not in 1..=120"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_missing_engine_directory_is_named() {
    let engine = format!("cmd={BASHNI}");
    let out = bashni(&[
        "match",
        "--engine",
        &engine,
        "dir=/nonexistent",
        "--engine",
        &engine,
        "--depth",
        "1",
        "--games",
        "2",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("the directory '/nonexistent' (dir=) does not exist"),
        "{err}"
    );
}

#[test]
fn openings_and_weights_files_from_windows_editors_are_read() {
    // A byte order mark before an openings file, CRLF line endings in a weights file.
    let openings = temp("bom.txt");
    std::fs::write(&openings, "\u{feff}c3-d4 f6-e5\r\nc3-b4 b6-a5\r\n").unwrap();
    let engine = format!("cmd={BASHNI}");
    let out = bashni(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--depth",
        "1",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let weights = temp("weights.txt");
    let text =
        std::fs::read_to_string(format!("{ROOT}/src/games/bashni/eval/weights.txt")).unwrap();
    std::fs::write(&weights, text.replace('\n', "\r\n")).unwrap();
    let data = temp("data.txt");
    let made = bashni(&[
        "datagen",
        "--games",
        "2",
        "--depth",
        "1",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let out_w = temp("out.txt");
    let tune = bashni(&[
        "tune",
        data.to_str().unwrap(),
        "--from",
        weights.to_str().unwrap(),
        "--epochs",
        "1",
        "--out",
        out_w.to_str().unwrap(),
    ]);
    assert!(tune.status.success(), "{}", stderr(&tune));
}

#[test]
fn tune_says_when_no_position_is_held_out_and_needs_an_epoch() {
    let data = temp("small.txt");
    let made = bashni(&[
        "datagen",
        "--games",
        "1",
        "--depth",
        "1",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let out_w = temp("small.rs");
    let tune = bashni(&[
        "tune",
        data.to_str().unwrap(),
        "--valid-every",
        "1000000000",
        "--epochs",
        "2",
        "--out",
        out_w.to_str().unwrap(),
    ]);
    assert!(tune.status.success(), "{}", stderr(&tune));
    let said = String::from_utf8_lossy(&tune.stdout);
    assert!(said.contains("no validation positions"), "{said}");
    assert!(!said.contains("inf"), "{said}");
    let zero = bashni(&[
        "tune",
        data.to_str().unwrap(),
        "--epochs",
        "0",
        "--out",
        "/dev/null",
    ]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(stderr(&zero).contains("at least 1"), "{}", stderr(&zero));
}
