//! Every subcommand ends quietly when its standard output is closed (`bashni bench | head -3`):
//! exit status 0 and no panic on standard error. Each test starts the real binary with its
//! standard output piped and closes the read end before the program writes anything, so its
//! first line already meets a closed pipe. Commands that would otherwise run until told to
//! stop (`analyse --infinite`, the protocol with `go infinite`) keep their input open: only
//! the closed output can end them. A test that hangs fails after [`DEADLINE`].

use crate::common::deadline::{Bounded, DEADLINE, join};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_bashni");

/// How many times a run that still goes on after [`DEADLINE`] is tried again before the test
/// fails: a first line can reach a pipe whose read end another thread's fork still held.
const ATTEMPTS: usize = 3;

/// Runs `bashni args` with `input` on standard input (kept open when `keep_open`) and its
/// standard output closed from the start; asserts a quiet exit with status 0.
fn ends_quietly(args: &[&str], input: &str, keep_open: bool) {
    for attempt in 1..=ATTEMPTS {
        if run_closed(args, input, keep_open) {
            return;
        }
        eprintln!(
            "note: bashni {args:?} still ran {DEADLINE:?} after its output was closed (attempt {attempt})"
        );
    }
    panic!("bashni {args:?} still ran {DEADLINE:?} after its output was closed, {ATTEMPTS} times");
}

/// One run of [`ends_quietly`]: false when it still ran after [`DEADLINE`] (then killed).
fn run_closed(args: &[&str], input: &str, keep_open: bool) -> bool {
    // The pipe is made here and its read end closed before the child starts, so the child's
    // first line meets a closed pipe. Tests run on parallel threads (other modules' too): a
    // child another thread forks while the read end is open holds a copy of it until that
    // child execs, and a first line written then succeeds (`serve` prints only one line, so
    // it would never see the closed pipe). Closing the read end before our child even starts
    // leaves only a fork that has not yet exec'd at that moment; [`ATTEMPTS`] covers that.
    static SPAWNING: Mutex<()> = Mutex::new(());
    let guard = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
    let (reader, writer) = std::io::pipe().expect("cannot make a pipe");
    drop(reader); // the reader is gone before the first line
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(scratch())
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start bashni");
    drop(guard);
    let mut stdin = child.stdin.take();
    if let Some(s) = stdin.as_mut() {
        let _ = s.write_all(input.as_bytes()); // it may have exited already
        let _ = s.flush();
    }
    if !keep_open {
        drop(stdin.take());
    }
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + DEADLINE;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let err = join(
        err,
        format!("the standard error of bashni {args:?} to close"),
    );
    assert!(!err.contains("panicked"), "bashni {args:?}: {err}");
    assert_eq!(status.code(), Some(0), "bashni {args:?}: {status}; {err}");
    true
}

/// A directory for files the commands write.
fn scratch() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("closed_pipe");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn protocol() {
    // The identification, then a search thread's `info` lines: either ends it.
    ends_quietly(&[], "uci\n", true);
    ends_quietly(&["uci"], "go infinite\n", true);
    ends_quietly(&[], "position startpos\ngo perft 5\nd\neval\n", false);
}

#[test]
fn analyse() {
    ends_quietly(&["analyse", "--infinite"], "", true);
    ends_quietly(
        &["analyse", "startpos", "--depth", "8", "--multipv", "2"],
        "",
        false,
    );
}

#[test]
fn bench_and_perft() {
    ends_quietly(&["bench", "--depth", "3"], "", false);
    ends_quietly(&["perft", "8", "--divide"], "", false);
    ends_quietly(&["perft", "5"], "", false);
}

#[test]
fn match_and_openings() {
    let engine = format!("cmd={BIN}");
    let m = ["match", "--engine", &engine, "--engine", &engine];
    ends_quietly(
        &[&m[..], &["--depth", "1", "--games", "4"]].concat(),
        "",
        false,
    );
    let openings = ["openings", "--plies", "4", "--count", "20", "--depth", "2"];
    ends_quietly(&openings, "", false);
}

#[test]
fn datagen_and_tune() {
    let data = scratch().join("data.txt");
    let _ = std::fs::remove_file(&data);
    let datagen = ["datagen", "--games", "4", "--nodes", "200", "--seed", "1"];
    ends_quietly(&[&datagen[..], &["--out", "data.txt"]].concat(), "", false);
    // The data file for tune, written with standard output open.
    let ok = Command::new(BIN)
        .args(datagen)
        .args(["--out", data.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status_bounded()
        .unwrap();
    assert!(ok.success());
    let out = scratch().join("weights.rs");
    let tune = ["tune", data.to_str().unwrap(), "--epochs", "3"];
    ends_quietly(
        &[&tune[..], &["--out", out.to_str().unwrap()]].concat(),
        "",
        false,
    );
}

#[test]
fn serve() {
    // The server prints its address first; with nobody reading, it stops (port 0: any free
    // port on loopback).
    ends_quietly(&["serve", "--port", "0"], "", true);
}

#[test]
fn play_and_help() {
    let play = ["play", "--level", "0", "--movetime", "50", "--seed", "1"];
    ends_quietly(&play, "c3 d4\nhint\n", true);
    ends_quietly(&play, "c3 d4\nquit\n", false);
    ends_quietly(&["--help"], "", false);
    ends_quietly(&["analyse", "--help"], "", false);
}
