//! Deadlines for every wait of the tests: a hang fails the test with what it waited for, and
//! never blocks the suite (issue 66).
//!
//! One constant, [`DEADLINE`], bounds any single wait: a child process's run or exit, a line
//! or an event it should say, a thread's end, a message on a channel, a condition polled for.
//! It is only a guard against a hang, never a speed check: the slowest single thing a test
//! waits for takes a few seconds on an idle machine, so a machine tens of times slower (a
//! loaded one) stays inside it, while something that never comes fails in two minutes.
//!
//! And a guard behind them all: every helper here (and those of `gui.rs`, `serve.rs`,
//! `terminal.rs`, which use them) arms a watchdog for the test thread it runs on
//! ([`watch`]); a test still running [`TEST_LIMIT`] after that ends the whole test process
//! with its name, after killing the processes it started, instead of hanging `cargo test`.

use std::fmt::Display;
use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The longest any single wait of a test lasts before the test fails. Generous for a loaded
/// machine (the suite stays green with busy loops on every core beside it; see
/// docs/development.md#tests); a longer job waits a stated multiple of it.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// The wait of a command that does minutes of work on a loaded machine (a whole `bashni bench`,
/// a document's examples run one after another): five deadlines. The Turkish bench took 113 s
/// of its 120 at a load average of 13 on two cores.
pub const HEAVY: Duration = Duration::from_secs(DEADLINE.as_secs() * 5);

/// How long one test may run, from its first wait, before the watchdog ends the test process:
/// far beyond any test (the longest take well under a minute on an idle machine), so only a
/// wait that escaped its own deadline reaches it.
pub const TEST_LIMIT: Duration = Duration::from_secs(30 * 60);

/// [`TEST_LIMIT`], or the milliseconds of `BASHNI_TEST_LIMIT_MS` (the watchdog's own test).
fn test_limit() -> Duration {
    std::env::var("BASHNI_TEST_LIMIT_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(TEST_LIMIT, Duration::from_millis)
}

/// How often a poll looks again.
const POLL: Duration = Duration::from_millis(20);

/// The instant [`DEADLINE`] from now.
pub fn deadline() -> Instant {
    Instant::now() + DEADLINE
}

/// Time left until `deadline` (zero once it has passed).
pub fn left(deadline: Instant) -> Duration {
    deadline.saturating_duration_since(Instant::now())
}

/// Polls `f` until it returns `Some` and returns that; fails after [`DEADLINE`] saying it
/// waited for `what`.
#[track_caller]
pub fn wait_for<T>(what: impl Display, mut f: impl FnMut() -> Option<T>) -> T {
    watch();
    let end = deadline();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(
            Instant::now() < end,
            "waited {DEADLINE:?} (tests/common/deadline.rs) for {what}"
        );
        std::thread::sleep(POLL);
    }
}

/// Waits until `f` holds; fails after [`DEADLINE`] saying it waited for `what`.
#[track_caller]
pub fn wait_until(what: impl Display, mut f: impl FnMut() -> bool) {
    wait_for(what, || f().then_some(()))
}

/// The next message on `rx`; fails after [`DEADLINE`] (or when every sender is gone) saying
/// it waited for `what`.
#[track_caller]
pub fn recv<T>(rx: &Receiver<T>, what: impl Display) -> T {
    watch();
    match rx.recv_timeout(DEADLINE) {
        Ok(v) => v,
        Err(RecvTimeoutError::Timeout) => panic!("waited {DEADLINE:?} for {what}"),
        Err(RecvTimeoutError::Disconnected) => panic!("{what}: its sender is gone"),
    }
}

/// Joins `thread`, failing after [`DEADLINE`] saying it waited for `what` (a thread that
/// panicked passes its panic on).
#[track_caller]
pub fn join<T>(thread: JoinHandle<T>, what: impl Display) -> T {
    wait_until(&what, || thread.is_finished());
    match thread.join() {
        Ok(v) => v,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Waits for `child` to exit; after [`DEADLINE`] kills it and fails saying it waited for
/// `what`.
#[track_caller]
pub fn wait_child(child: &mut Child, what: impl Display) -> ExitStatus {
    wait_child_within(child, DEADLINE, what)
}

/// [`wait_child`] for a job known to take longer than one wait (a download): `limit` is a
/// multiple of [`DEADLINE`].
#[track_caller]
pub fn wait_child_within(child: &mut Child, limit: Duration, what: impl Display) -> ExitStatus {
    watch();
    let end = Instant::now() + limit;
    let mut pause = Duration::from_millis(1);
    loop {
        if let Some(status) = child.try_wait().expect("wait for a child process") {
            return status;
        }
        if Instant::now() >= end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still ran {limit:?} after the test began to wait for it; killed");
        }
        // Short runs end within a few ms: look often at first, then every POLL.
        std::thread::sleep(pause);
        pause = (pause * 2).min(POLL);
    }
}

/// Reads `r` to its end on a thread of its own; the bytes come on the channel returned.
fn drain(r: Option<impl Read + Send + 'static>) -> Receiver<Vec<u8>> {
    let (tx, rx) = channel();
    let Some(mut r) = r else {
        let _ = tx.send(Vec::new());
        return rx;
    };
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = r.read_to_end(&mut bytes);
        let _ = tx.send(bytes);
    });
    rx
}

/// Types `input` (a few lines: less than a pipe holds) on `child`'s piped stdin and closes it.
/// A child that ends before reading all of it (a command refused before it reads its input)
/// has closed the pipe: that is no error here, what it wrote and its exit code tell.
#[track_caller]
pub fn type_input(child: &mut Child, input: &str) {
    let mut stdin = child.stdin.take().expect("stdin is piped");
    if let Err(e) = stdin.write_all(input.as_bytes()) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "typing to the child: {e}"
        );
    }
}

/// `child`'s exit status and everything it wrote on its piped stdout and stderr (empty where
/// they were not piped), as [`Child::wait_with_output`] gives them; after [`DEADLINE`] the
/// child is killed and the test fails saying it waited for `what`.
#[track_caller]
pub fn wait_output(child: Child, what: impl Display) -> Output {
    wait_output_within(child, DEADLINE, what)
}

/// [`wait_output`] with a `limit` of its own (a multiple of [`DEADLINE`]).
#[track_caller]
pub fn wait_output_within(mut child: Child, limit: Duration, what: impl Display) -> Output {
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = wait_child_within(&mut child, limit, &what);
    // Its output ends with it (unless a process it started holds the pipes open).
    let end = deadline();
    let take = |rx: Receiver<Vec<u8>>, which: &str| {
        rx.recv_timeout(left(end))
            .unwrap_or_else(|_| panic!("{what} exited, but its {which} was still open"))
    };
    let stdout = take(out, "stdout");
    let stderr = take(err, "stderr");
    Output {
        status,
        stdout,
        stderr,
    }
}

/// The lines of a child's output (or any reader), read on a thread of their own; each line
/// is awaited at most [`DEADLINE`], and the iteration ends with the output.
pub struct Lines {
    rx: Receiver<String>,
    what: String,
}

impl Lines {
    /// The lines of `r`, the output of `what` (for messages).
    pub fn new(r: impl Read + Send + 'static, what: impl Display) -> Lines {
        watch();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(r).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Lines {
            rx,
            what: what.to_string(),
        }
    }
}

impl Iterator for Lines {
    type Item = String;

    /// The next line; `None` at the end of the output; the test fails after [`DEADLINE`].
    #[track_caller]
    fn next(&mut self) -> Option<String> {
        match self.rx.recv_timeout(DEADLINE) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                panic!("waited {DEADLINE:?} for a line from {}", self.what)
            }
        }
    }
}

/// The program and arguments of `cmd`, for messages.
pub fn describe(cmd: &Command) -> String {
    let mut words = vec![cmd.get_program().to_string_lossy().into_owned()];
    words.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    let text = words.join(" ");
    match text.char_indices().nth(300) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text,
    }
}

/// [`Command::output`] and [`Command::status`] with a deadline: the process is killed after
/// [`DEADLINE`] (or the `limit` given) and the test fails with its command line.
pub trait Bounded {
    /// Like [`Command::output`] (stdin empty, stdout and stderr captured).
    #[track_caller]
    fn output_bounded(&mut self) -> std::io::Result<Output> {
        self.output_within(DEADLINE)
    }
    /// Like [`Command::status`] (the standard streams inherited, unless set).
    #[track_caller]
    fn status_bounded(&mut self) -> std::io::Result<ExitStatus> {
        self.status_within(DEADLINE)
    }
    /// [`Bounded::output_bounded`] for a job known to take longer (a multiple of [`DEADLINE`]).
    fn output_within(&mut self, limit: Duration) -> std::io::Result<Output>;
    /// [`Bounded::status_bounded`] for a job known to take longer (a multiple of [`DEADLINE`]).
    fn status_within(&mut self, limit: Duration) -> std::io::Result<ExitStatus>;
}

impl Bounded for Command {
    #[track_caller]
    fn output_within(&mut self, limit: Duration) -> std::io::Result<Output> {
        let child = self
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        Ok(wait_output_within(child, limit, describe(self)))
    }

    #[track_caller]
    fn status_within(&mut self, limit: Duration) -> std::io::Result<ExitStatus> {
        let mut child = self.spawn()?;
        Ok(wait_child_within(&mut child, limit, describe(self)))
    }
}

/// Arms the watchdog of the current test (once per test thread): if the test still runs
/// [`TEST_LIMIT`] from now, the processes this test binary started are killed and the whole
/// test process ends with the test's name. The watchdog stands down when the test's thread
/// ends (its thread-local sender is dropped, passed or failed).
pub fn watch() {
    thread_local! {
        static ARMED: std::cell::OnceCell<Sender<()>> = const { std::cell::OnceCell::new() };
    }
    ARMED.with(|armed| {
        armed.get_or_init(|| {
            let (tx, rx) = channel::<()>();
            let name = std::thread::current()
                .name()
                .unwrap_or("a thread of a test")
                .to_string();
            std::thread::spawn(move || {
                let limit = test_limit();
                if let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(limit) {
                    overran(&name, limit);
                }
            });
            tx
        });
    });
}

/// Ends the test process: `test` ran past `limit`.
fn overran(test: &str, limit: Duration) -> ! {
    // Standard output held: the test runner, which may see the test end once its children
    // are killed, can then not report it and exit with success before this exit.
    let _held = std::io::stdout().lock();
    // Straight to standard error (`eprintln!` would go to the test's captured output).
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! {test} still runs {limit:?} after its first wait: it hangs \
         (tests/common/deadline.rs). Killing the processes it started and ending the tests.\n"
    );
    for pid in children() {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    std::process::exit(101);
}

/// The process ids of this process's children, from /proc.
fn children() -> Vec<i32> {
    let me = std::process::id().to_string();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let e = e.ok()?;
        let pid: i32 = e.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
        // pid (comm) state ppid ...: the comm may hold spaces, so from the last ')'.
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        (rest.split_whitespace().nth(1) == Some(me.as_str())).then_some(pid)
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hangs after arming the watchdog (run only by [`a_test_that_hangs_ends_the_tests`]).
    #[test]
    #[ignore = "hangs on purpose: the watchdog's test runs it"]
    fn hangs() {
        watch();
        // A child that never ends, which the watchdog must kill too.
        let mut sleeper = Command::new("sleep").arg("1000").spawn().unwrap();
        println!("sleeper {}", sleeper.id());
        let _ = sleeper.wait();
    }

    /// The watchdog ends a test process whose test hangs, naming the test and killing what
    /// it started (here after 2 s instead of [`TEST_LIMIT`]).
    #[test]
    fn a_test_that_hangs_ends_the_tests() {
        let out = Command::new(std::env::current_exe().unwrap())
            .args([
                "--ignored",
                "--exact",
                "--nocapture",
                "common::deadline::tests::hangs",
            ])
            .env("BASHNI_TEST_LIMIT_MS", "2000")
            .output_bounded()
            .unwrap();
        let (said, err) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(101), "{said}{err}");
        assert!(
            err.contains("common::deadline::tests::hangs still runs 2s after its first wait"),
            "{err}"
        );
        let sleeper = said
            .lines()
            .find_map(|l| l.strip_prefix("sleeper "))
            .unwrap_or_else(|| panic!("{said}"));
        wait_until("the hung test's child to be killed", || {
            let stat = std::fs::read_to_string(format!("/proc/{sleeper}/stat"));
            // Gone, or a zombie left to init.
            stat.map_or(true, |s| {
                s.rsplit_once(')')
                    .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
            })
        });
    }
}
