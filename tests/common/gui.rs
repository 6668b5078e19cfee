//! A minimal GUI for tests: spawns the real `bashni` binary, writes command lines and reads
//! answer lines with timeouts, so that no test can hang.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

// Every answer (and any [`run_to_end`] run) is awaited at most the tests' one deadline,
// [`DEADLINE`]: only a guard against a hang, never a speed check. The slowest answer a test
// waits for (a Lasca `go perft 17`, a deep search) takes about a second on an idle machine; a
// search that ignores its limit, a `stop` that is lost or a blocked read never answers. Tests
// check that things happen, and in what order, not how fast: speed belongs to bench/.
pub use super::deadline::DEADLINE;

/// A running engine and everything it said so far.
pub struct Gui {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<(Instant, String)>,
    /// Every line received, in order.
    pub transcript: Vec<String>,
}

impl Gui {
    /// Starts `bashni` with these arguments (none: protocol mode).
    pub fn start(args: &[&str]) -> Gui {
        super::deadline::watch();
        let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start bashni");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Gui {
            child,
            stdin,
            rx,
            transcript: Vec::new(),
        }
    }

    /// Starts protocol mode.
    pub fn new() -> Gui {
        Gui::start(&[])
    }

    /// Sends one command line; returns when it was written.
    pub fn send(&mut self, line: &str) -> Instant {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        writeln!(stdin, "{line}").expect("engine stdin closed");
        stdin.flush().unwrap();
        Instant::now()
    }

    /// Sends raw bytes as they are (several lines, bytes that are not UTF-8, a line without
    /// its end) in one write.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin already closed");
        stdin.write_all(bytes).expect("engine stdin closed");
        stdin.flush().unwrap();
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the engine process has exited.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Closes the engine's standard input (end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The next line within `timeout` and when it arrived; `None` on timeout or exit.
    pub fn next_timed(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.rx.recv_timeout(timeout) {
            Ok((t, line)) => {
                self.transcript.push(line.clone());
                Some((t, line))
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`, with its arrival time.
    /// Panics with the transcript if it does not come within [`DEADLINE`].
    pub fn until_timed(&mut self, done: impl Fn(&str) -> bool) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + DEADLINE;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_timed(left) {
                Some((t, line)) => {
                    let last = done(&line);
                    lines.push(line);
                    if last {
                        return (lines, t);
                    }
                }
                None => panic!(
                    "no expected line within {DEADLINE:?}; transcript:\n{}",
                    self.dump()
                ),
            }
        }
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_timed(done).0
    }

    /// Lines up to and including the first equal to `text`.
    pub fn until_line(&mut self, text: &str) -> Vec<String> {
        self.until(|l| l == text)
    }

    /// Lines up to the `bestmove` line, and the move text after `bestmove`.
    pub fn bestmove(&mut self) -> (Vec<String>, String) {
        let lines = self.until(|l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_string();
        (lines, best)
    }

    /// Asserts that nothing is said for `quiet` (and returns what was said if something was).
    pub fn silent_for(&mut self, quiet: Duration) -> Option<String> {
        self.next_timed(quiet).map(|(_, l)| l)
    }

    /// Lines said within `quiet` that are not `info depth` reports.
    pub fn non_info_within(&mut self, quiet: Duration) -> Vec<String> {
        let deadline = Instant::now() + quiet;
        let mut said = Vec::new();
        while let Some((_, l)) = self.next_timed(deadline.saturating_duration_since(Instant::now()))
        {
            if !l.starts_with("info depth") {
                said.push(l);
            }
        }
        said
    }

    /// Waits for the process to exit within [`DEADLINE`].
    pub fn wait_exit(&mut self) -> ExitStatus {
        let what = format!("bashni to exit (transcript:\n{})", self.dump());
        super::deadline::wait_child(&mut self.child, what)
    }

    /// The transcript so far, one line each.
    pub fn dump(&self) -> String {
        self.transcript.join("\n")
    }

    /// `uci` + `isready`, checking the answers.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        let lines = self.until_line("uciok");
        self.send("isready");
        self.until_line("readyok");
        lines
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `bashni` with `args` and `input` on stdin to completion (killed and failed after
/// [`DEADLINE`]);
/// returns the exit code, stdout and stderr.
pub fn run_to_end(args: &[&str], input: &str) -> (i32, String, String) {
    run_bytes_to_end(args, input.as_bytes())
}

/// [`run_to_end`] with `input` as raw bytes (not UTF-8, or too big for a `String` literal).
pub fn run_bytes_to_end(args: &[&str], input: &[u8]) -> (i32, String, String) {
    run_with_env(args, input, &[])
}

/// [`run_bytes_to_end`] with these environment variables set for bashni.
pub fn run_with_env(
    args: &[&str],
    input: &[u8],
    env: &[(&str, &std::path::Path)],
) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start bashni");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = super::deadline::wait_output(child, format!("bashni {args:?}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
