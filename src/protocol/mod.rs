//! The engine protocol over stdin/stdout, shaped like UCI (see engine-protocol.md).
//!
//! Data flow: a reader thread ([`reader`]) turns input lines into events on one channel;
//! the session (the calling thread) takes them in that order, parses each line
//! ([`command`]) and runs it, or queues it while a worker thread runs a search or perft;
//! the worker prints `info` lines itself and sends its final lines back on the same
//! channel, and the session prints them (`bestmove`, the perft count). Everything written
//! goes through [`Output`], one flushed line at a time.
//!
//! The session plays one game at a time, chosen by the `UCI_Variant` option: the game's
//! record sits behind an enum ([`game::AnyGame`]) and each command has one generic code path
//! for every game; what a worker sends back is text, the same for every game.

pub mod command;
pub mod engine_args;
pub mod game;
pub mod go;
pub mod options;
pub(crate) mod queue;
pub mod quote;
pub mod reader;
pub mod runner;
mod session;
pub mod state;
mod work;

use crate::games::Variant;
use crate::search::Poll;
use crate::search::{Bound, SearchInfo, SearchResult};
use runner::{HostSession, Runner};
use session::{Event, Session};
use std::fmt::Display;
use std::io::{Read, Write};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

/// Longest input line kept, bytes: far more than any real command (a `position` with a
/// 1,000-move game is about 7 KB); the rest of a longer line is dropped unread into
/// memory and the line is refused.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Where protocol lines go: whole lines, each flushed at once, from any thread.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Lines to standard output; once it is closed (the GUI is gone) the process ends
    /// quietly ([`crate::closed_pipe`]).
    pub fn stdout() -> Output {
        Output::new(StdoutOrExit)
    }

    /// Lines to any writer (tests use a pipe or a buffer).
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Box::new(w))),
        }
    }

    /// Writes `text` and a newline, then flushes. Write errors are ignored: on standard
    /// output a closed pipe has already ended the process, and a writer given to
    /// [`Output::new`] (an in-process client) says itself what its errors mean.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }
}

/// Standard output, ending the process quietly when its reader is gone.
struct StdoutOrExit;

impl Write for StdoutOrExit {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        std::io::stdout()
            .write(b)
            .inspect_err(crate::closed_pipe::exit_if_closed)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout()
            .flush()
            .inspect_err(crate::closed_pipe::exit_if_closed)
    }
}

/// Runs the protocol on stdin/stdout, starting in game `variant`, until `quit` or end of
/// input; returns the exit code.
pub fn run(variant: Variant) -> i32 {
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!(
            "bashni: speaking the engine protocol on stdin; try 'bashni --help', or 'bashni play' to play"
        );
    }
    run_with(std::io::stdin(), Output::stdout(), variant)
}

/// Runs the protocol reading commands from `input` and writing to `out`, starting in game
/// `variant`; returns the exit code (0: `quit` or end of input; bad input never ends the
/// session).
pub fn run_with(input: impl Read + Send + 'static, out: Output, variant: Variant) -> i32 {
    let (tx, rx) = channel();
    let feed = tx.clone();
    let deliver = move |i| feed.send(Event::Input(i)).is_ok();
    if let Err(e) = reader::spawn_line_reader("bashni-input", input, MAX_LINE_BYTES, deliver) {
        eprintln!("bashni: cannot start the input thread: {e}");
        return 1;
    }
    runner::run(Session::new(out, tx, variant, Runner::Threads), rx)
}

/// The protocol on a host's one thread (WebAssembly), starting in game `variant`: lines go
/// in through the [`HostSession`], answers come out through `out`, and searches give the
/// host `poll` turns (see [`runner`]).
pub fn host(out: Output, variant: Variant, poll: Poll) -> HostSession {
    let (tx, rx) = channel();
    let runner = Runner::Host { poll, ready: None };
    HostSession::new(Session::new(out, tx, variant, runner), rx)
}

/// The `info` line of one search report:
/// `info depth D seldepth S multipv K score cp X|mate N [lowerbound|upperbound] nodes N nps N
/// hashfull H time T [tbhits N] pv M...` (`tbhits` when the game has endgame databases), or for a progress report
/// `info depth D currmove M currmovenumber K nodes N nps N time T`.
pub fn info_line<M: Display>(info: &SearchInfo<M>) -> String {
    if let Some((m, k)) = &info.currmove {
        return format!(
            "info depth {} currmove {m} currmovenumber {k} nodes {} nps {} time {}",
            info.depth, info.nodes, info.nps, info.time_ms
        );
    }
    let bound = match info.bound {
        Bound::Exact => "",
        Bound::Lower => " lowerbound",
        Bound::Upper => " upperbound",
    };
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score.protocol(),
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms
    );
    if let Some(n) = info.tbhits {
        s.push_str(&format!(" tbhits {n}"));
    }
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

/// The `bestmove` line: `bestmove M [ponder R]`, or `bestmove (none)` with no legal move.
pub fn bestmove_line<M: Display>(result: &SearchResult<M>) -> String {
    match (&result.best, &result.ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {b}"),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A writer that keeps what it gets, shared with the test.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> Vec<String> {
        let buf = Shared::default();
        let code = run_with(
            Cursor::new(input.as_bytes().to_vec()),
            Output::new(buf.clone()),
            Variant::Bashni,
        );
        assert_eq!(code, 0);
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn handshake_and_search_in_process() {
        let out = session("uci\nisready\nposition startpos moves c3-d4\ngo depth 3\n");
        assert!(out[0].starts_with("id name bashni "));
        assert!(out.contains(&"uciok".to_string()));
        assert!(out.contains(&"readyok".to_string()));
        assert!(out.iter().any(|l| l.starts_with("info depth 3 ")));
        assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    }

    #[test]
    fn bad_input_keeps_the_position() {
        let out = session("position startpos moves c3-d4\nposition fen 9/8 w\nfoo\nd\n");
        assert!(
            out[0].starts_with("info string error: position: bad FEN '9/8 w'"),
            "{out:?}"
        );
        assert_eq!(out[1], "info string error: unknown command 'foo'");
        let fen = out.iter().find(|l| l.starts_with("FEN: ")).unwrap();
        assert_eq!(
            fen,
            "FEN: 1b1b1b1b/b1b1b1b1/1b1b1b1b/8/3w4/w3w1w1/1w1w1w1w/w1w1w1w1 b 1 1"
        );
    }
}
