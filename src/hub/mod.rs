//! The Hub protocol (Scan's protocol v2, as GUIs, Lidraughts' analysis and pydraughts speak
//! it) over stdin/stdout: `bashni hub`. docs/hub.md lists the
//! commands and answers.
//!
//! - [`command`]: input lines to typed commands.
//! - [`notation`]: positions and moves as square numbers (top or a1 numbering).
//! - [`output`]: the `info`, `done` and `error` lines; scores in men.
//! - `session`: the loop, a search on a worker thread while commands are still read.
//! - [`tablebase`]: the pv of a position the endgame databases hold, to its conversion.
//!
//! Hub describes one piece per square, so it plays Russian, Brazilian and Turkish draughts (Bashni's
//! towers have no Hub encoding).

pub mod command;
pub mod notation;
pub mod output;
mod session;
pub mod tablebase;

pub use output::score_men;
pub use session::{HUB_VARIANTS, limits_of};

use crate::games::Variant;
use crate::protocol::runner::{self, HostSession, Runner};
use crate::protocol::{MAX_LINE_BYTES, Output, reader};
use crate::search::Poll;
use session::{Event, Session};
use std::io::Read;
use std::sync::mpsc::channel;

/// Runs Hub on stdin/stdout in game `variant`; returns the exit code.
pub fn run(variant: Variant) -> i32 {
    run_with(std::io::stdin(), Output::stdout(), variant)
}

/// Runs Hub reading `input` and writing to `out`, starting in game `variant` (Russian or
/// Turkish draughts; any other is refused with exit code 2).
pub fn run_with(input: impl Read + Send + 'static, out: Output, variant: Variant) -> i32 {
    if let Err(e) = check_variant(variant) {
        eprintln!("bashni hub: {e}");
        return 2;
    }
    let (tx, rx) = channel();
    let feed = tx.clone();
    let deliver = move |i| feed.send(Event::Input(i)).is_ok();
    if let Err(e) = reader::spawn_line_reader("bashni-hub-input", input, MAX_LINE_BYTES, deliver) {
        eprintln!("bashni: cannot start the input thread: {e}");
        return 1;
    }
    runner::run(Session::new(out, tx, variant, Runner::Threads), rx)
}

/// Hub on a host's one thread (WebAssembly), in game `variant`, as
/// [`crate::protocol::host`] runs the UCI-shaped protocol; a game Hub cannot describe is
/// refused.
pub fn host(out: Output, variant: Variant, poll: Poll) -> Result<HostSession, String> {
    check_variant(variant)?;
    let (tx, rx) = channel();
    let runner = Runner::Host { poll, ready: None };
    Ok(HostSession::new(Session::new(out, tx, variant, runner), rx))
}

/// Whether Hub can play `variant`: the reason when not.
fn check_variant(variant: Variant) -> Result<(), String> {
    if HUB_VARIANTS.contains(&variant) {
        Ok(())
    } else {
        Err(format!(
            "Hub plays russian, brazilian or turkish, not {variant}"
        ))
    }
}
