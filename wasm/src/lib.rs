//! bashni as a WebAssembly module, for a Web Worker: `bashni-worker.js` loads `bashni.wasm`,
//! hands it the page's protocol lines and posts every line it writes back to the page.
//!
//! The module speaks what the native `bashni` speaks on stdin/stdout: the UCI-shaped
//! protocol (engine-protocol.md), or Hub when the first line is `hub` (as `bashni hub`
//! does), through the same sessions ([`bashni::protocol::host`], [`bashni::hub::host`]).
//!
//! There is one thread. The worker script queues the lines it gets and calls
//! [`bashni_run`], which takes them in order and runs the searches they ask for on this
//! thread; a search gives the script a turn every [`YIELD_EVERY_MS`] (`bashni_yield`, which
//! suspends the module through JavaScript Promise Integration where the browser has it), in
//! which the lines that came meanwhile are taken: `stop`, `isready` and `ponderhit` act at
//! once, as natively. Without Promise Integration nothing can arrive during a search: a
//! search then ends at its own limits, and one that only `stop` would end (`go infinite`,
//! pondering, Hub's `go analyze`) is stopped after [`UNSTOPPABLE_MS`], saying so.
//!
//! Lines cross the boundary as UTF-8 bytes: the module pulls each input line
//! (`bashni_next_len`, `bashni_next_take`) and pushes each output line (`bashni_emit`);
//! the clocks come from the page too (`bashni::platform`).
//!
//! The same module is also `bashni serve`'s back end for the static site ([`serve`], driven
//! by `bashni-serve.js`): a second set of exports, so that the page downloads the engine and
//! its networks once.

mod serve;

use bashni::games::Variant;
use bashni::platform::Instant;
use bashni::protocol::runner::HostSession;
use bashni::protocol::{MAX_LINE_BYTES, Output};
use bashni::search::Turn;
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::time::Duration;

/// How often a search hands the page a turn at most, ms: the latency of `stop` and
/// `isready` during a search, against the cost of each turn.
pub const YIELD_EVERY_MS: u64 = 20;

/// Where no input can arrive during a search (no Promise Integration), how long a search
/// that only `stop` would end runs before it is stopped, ms.
pub const UNSTOPPABLE_MS: u64 = 5000;

#[link(wasm_import_module = "bashni")]
unsafe extern "C" {
    /// Posts one output line (UTF-8, without its ending) to the page.
    fn bashni_emit(ptr: *const u8, len: usize);
    /// The length in bytes of the next input line waiting, or -1 when none is.
    fn bashni_next_len() -> i32;
    /// Writes the next waiting input line's first `cap` bytes at `ptr` and drops it from the
    /// queue.
    fn bashni_next_take(ptr: *mut u8, cap: usize);
    /// Gives the page's event loop a turn (suspending the module where the browser has
    /// Promise Integration); `waiting` = 1 when the search only waits for input.
    fn bashni_yield(waiting: i32);
    /// 1 when `bashni_yield` really lets input arrive (Promise Integration), else 0.
    fn bashni_can_yield() -> i32;
}

/// The one engine of this module instance: the session, once the first line has chosen its
/// protocol. The instance is the engine, so its state lives with the instance's thread: the
/// exports are free functions the page calls, and nothing else can reach it.
struct Host {
    session: Option<HostSession>,
}

thread_local! {
    static HOST: RefCell<Host> = const { RefCell::new(Host { session: None }) };
    /// When the search last handed the page a turn.
    static LAST_YIELD: Cell<Option<Instant>> = const { Cell::new(None) };
    /// When the running work started; `None` once it has been stopped for want of input.
    static WORK_STARTED: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Output lines to the page, one `bashni_emit` per line.
#[derive(Default)]
struct PageLines {
    buf: Vec<u8>,
}

impl Write for PageLines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                // SAFETY: the pointer and length describe `self.buf`, which lives and is not
                // touched while the import reads it (the import copies the bytes before it
                // returns and keeps no reference).
                unsafe { bashni_emit(self.buf.as_ptr(), self.buf.len()) };
                self.buf.clear();
            } else {
                self.buf.push(b);
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether `bashni_yield` lets input arrive.
fn can_yield() -> bool {
    // SAFETY: the import takes nothing and returns a number.
    unsafe { bashni_can_yield() == 1 }
}

/// Gives the page's event loop a turn (see `bashni_yield`).
fn give_turn(waiting: bool) {
    // SAFETY: the import takes a number; it may suspend this call until the page's event
    // loop has run, and then returns normally.
    unsafe { bashni_yield(i32::from(waiting)) };
}

/// The next input line waiting in the page's queue: its text (cut to the protocol's limit,
/// bytes that are not UTF-8 replaced) and its full length when it was cut.
fn next_line() -> Option<(String, Option<u64>)> {
    // SAFETY: the import takes nothing and returns a number.
    let len = unsafe { bashni_next_len() };
    let len = usize::try_from(len).ok()?;
    let cap = len.min(MAX_LINE_BYTES);
    let mut buf = vec![0u8; cap];
    // SAFETY: `buf` is `cap` bytes long and initialised; the import writes at most `cap`
    // bytes into it and keeps no reference after it returns.
    unsafe { bashni_next_take(buf.as_mut_ptr(), cap) };
    let text = String::from_utf8_lossy(&buf)
        .trim_end_matches(['\n', '\r'])
        .to_string();
    Some((text, (len > cap).then_some(len as u64)))
}

/// Gives every waiting input line to the session, in order; the first line chooses the
/// protocol (`hub` for Hub in Russian draughts, anything else the UCI-shaped protocol in
/// Bashni, as the native `bashni hub` and `bashni` start).
fn take_waiting_lines() {
    while let Some((text, cut_from)) = next_line() {
        HOST.with(|h| {
            let mut host = h.borrow_mut();
            let session = host.session.get_or_insert_with(|| start(&text));
            session.line(text, cut_from);
        });
    }
}

/// A session for a first line `first`.
fn start(first: &str) -> HostSession {
    let out = Output::new(PageLines::default());
    if first.trim() == "hub" {
        // Russian is in Hub's variants, so this cannot be refused.
        if let Ok(session) = bashni::hub::host(out.clone(), Variant::Russian, poll) {
            return session;
        }
    }
    bashni::protocol::host(out, Variant::Bashni, poll)
}

/// The search's turn for the page (see [`bashni::search::Poll`]): at most every
/// [`YIELD_EVERY_MS`] while it works, at every call while it waits.
fn poll(turn: Turn) {
    let now = Instant::now();
    let due = LAST_YIELD.with(|last| {
        last.get()
            .is_none_or(|t| now.duration_since(t) >= Duration::from_millis(YIELD_EVERY_MS))
    });
    if turn == Turn::Working && !due {
        return;
    }
    give_turn(turn == Turn::Waiting);
    LAST_YIELD.with(|last| last.set(Some(Instant::now())));
    take_waiting_lines();
    if !can_yield() {
        stop_what_nothing_can_stop(turn);
    }
}

/// Where no input can arrive during a search: a search that waits for `stop`, or that has
/// run [`UNSTOPPABLE_MS`] when only `stop` would end it, is stopped (once, saying why).
fn stop_what_nothing_can_stop(turn: Turn) {
    let Some(started) = WORK_STARTED.with(Cell::get) else {
        return; // stopped already
    };
    let long = started.elapsed() >= Duration::from_millis(UNSTOPPABLE_MS);
    HOST.with(|h| {
        let mut host = h.borrow_mut();
        let Some(session) = host.session.as_mut() else {
            return;
        };
        if session.needs_stop() && (turn == Turn::Waiting || long) {
            let note = "info string this browser cannot send stop during a search \
                        (no WebAssembly Promise Integration): stopped here";
            PageLines::default()
                .write_all(format!("{note}\n").as_bytes())
                .ok();
            session.line("stop".to_string(), None);
            WORK_STARTED.with(|t| t.set(None));
        }
    });
}

/// Takes the waiting input lines and runs what they ask for, searches included, until
/// nothing is left to run; the page calls it when lines are waiting and it is not running.
#[unsafe(no_mangle)]
pub extern "C" fn bashni_run() {
    loop {
        take_waiting_lines();
        // The work runs outside any borrow of the session: its turns give the session the
        // lines that come meanwhile.
        let work = HOST.with(|h| h.borrow_mut().session.as_mut().and_then(HostSession::work));
        let Some(work) = work else {
            break;
        };
        LAST_YIELD.with(|last| last.set(Some(Instant::now())));
        WORK_STARTED.with(|t| t.set(Some(Instant::now())));
        work();
        HOST.with(|h| {
            if let Some(session) = h.borrow_mut().session.as_mut() {
                session.settle();
            }
        });
    }
}

/// Sets what a panic (a bug) prints: one protocol line, never the panic's text; the page's
/// script then starts a fresh instance.
#[unsafe(no_mangle)]
pub extern "C" fn bashni_init() {
    std::panic::set_hook(Box::new(|_| {
        let line = b"info string error: internal error; the engine restarts";
        // SAFETY: as in `PageLines::write`: a live buffer, copied by the import.
        unsafe { bashni_emit(line.as_ptr(), line.len()) };
    }));
}
