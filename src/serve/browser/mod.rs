//! `bashni serve`'s back end in the browser: the same core (games, sessions, reviews, the
//! API's routes) on the one thread of the page's Web Worker, with no server.
//!
//! The page's worker script (`wasm/bashni-serve.js`) hands each request to the host as a
//! message (`{"id", "method", "path", "body"}`: the HTTP API's request, [`super::api`]) and
//! posts each message the host writes back to the page ([`messages`]): the answer
//! (`{"id", "status", "body"}`, or `"text"` for a PDN), the events of each stream the page
//! opened (`{"stream", "event", "data"}`, as Server-Sent Events carry them natively), and the
//! clocks to keep in the browser's storage (`{"keep"}`), which the page gives back after a
//! reload (`{"restore"}`) so that a game opened again with `resume` goes on with its clocks.
//!
//! The games' engines are protocol sessions in this process ([`engine`]), their reviews the
//! host's own work: nothing runs beside anything else. [`run`] takes the waiting requests,
//! then runs the work they made (reviews first, then the engines' jobs, one search at a
//! time) until none is left. A search gives the host a turn ([`poll`]) at most every
//! [`TURN_EVERY`]: the page's event loop runs (through JavaScript Promise Integration), the
//! requests that came meanwhile are answered, the clocks are looked at, and a review waiting
//! runs inside an engine's search (an analysis may search for minutes). A request that
//! searches itself (`review/try`) may run inside one search, not deeper: at most two
//! searches are ever on the stack.

mod engine;
pub mod messages;

use super::api::Core;
use super::engine_worker::{Backend, EngineStart};
use super::registry::{
    DEFAULT_MAX_ANALYSIS_S, DEFAULT_MAX_GAMES, DEFAULT_MAX_THINK_S, Limits, REAP_EVERY, Registry,
};
use super::review::Reviews;
use super::session::Caps;
use crate::platform::Instant;
use crate::search::{Poll, Turn};
use messages::Request;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

/// How often a search hands the page's event loop a turn at most: the latency of a request
/// made during a search, against the cost of each turn.
pub const TURN_EVERY: Duration = Duration::from_millis(20);

/// Games open at once in one page (a page shows one; more are refused, 503, as natively).
pub const MAX_GAMES: usize = DEFAULT_MAX_GAMES as usize;

/// The page, as the host sees it: messages in and out, and the turns of its event loop.
pub trait Page {
    /// The next message from the page waiting, if any.
    fn next(&mut self) -> Option<String>;
    /// Posts one message to the page.
    fn post(&mut self, message: &str);
    /// Gives the page's event loop a turn, in which messages may arrive; `waiting`: the
    /// search only waits for a message (it may wait for one, briefly).
    fn turn(&mut self, waiting: bool);
    /// Whether [`Page::turn`] lets messages arrive (JavaScript Promise Integration).
    fn can_turn(&self) -> bool;
}

/// What is on the host's stack, innermost last: the searches and requests being run.
enum Frame {
    /// An engine's search ([`engine`]).
    Engine(engine::Search),
    /// A review's work, or a request being answered (which may search).
    Other,
}

thread_local! {
    static PAGE: RefCell<Option<Box<dyn Page>>> = const { RefCell::new(None) };
    static CORE: RefCell<Option<Arc<Core>>> = const { RefCell::new(None) };
    /// What runs now, innermost last.
    static FRAMES: RefCell<Vec<Frame>> = const { RefCell::new(Vec::new()) };
    /// Reviews waiting to run.
    static REVIEWS: RefCell<VecDeque<Box<dyn FnOnce() + Send>>> =
        const { RefCell::new(VecDeque::new()) };
    /// When the page last had a turn, the games were last looked at, and what was kept.
    static LAST_TURN: Cell<Option<Instant>> = const { Cell::new(None) };
    static LAST_REAP: Cell<Option<Instant>> = const { Cell::new(None) };
    static KEPT: RefCell<Vec<(String, u64)>> = const { RefCell::new(Vec::new()) };
    /// A message taken from the page and put back, taken again first.
    static UNREAD: RefCell<Option<String>> = const { RefCell::new(None) };
}

#[cfg(test)]
mod tests;

/// The browser's back end of the core: engines in this process, reviews as the host's work,
/// searches that give the host turns.
struct InPage;

impl Backend for InPage {
    fn start_engine(&self, start: EngineStart) -> Result<(), String> {
        engine::start(start);
        Ok(())
    }

    fn engines(&self) -> usize {
        engine::count()
    }

    fn start_review(&self, work: Box<dyn FnOnce() + Send>) -> Result<(), String> {
        REVIEWS.with(|r| r.borrow_mut().push_back(work));
        Ok(())
    }

    fn poll(&self) -> Option<Poll> {
        Some(poll)
    }
}

/// Starts the host for `page`, with no games: the limits of `bashni serve`'s defaults.
pub fn start(page: Box<dyn Page>) {
    let backend = Arc::new(InPage);
    let limits = Limits {
        max_games: MAX_GAMES,
        caps: Caps {
            max_think_ms: DEFAULT_MAX_THINK_S * 1000,
            max_analysis_ms: DEFAULT_MAX_ANALYSIS_S * 1000,
        },
    };
    let core = Core {
        registry: Registry::new(limits, None, backend.clone()),
        page_variant: None,
        reviews: Arc::new(Reviews::new(backend)),
        egdb: None,
    };
    PAGE.with(|p| *p.borrow_mut() = Some(page));
    CORE.with(|c| *c.borrow_mut() = Some(Arc::new(core)));
}

/// Posts `message` to the page (nothing once the page has gone: the thread is ending).
fn post(message: &str) {
    let _ = PAGE.try_with(|p| {
        if let Some(page) = p.borrow_mut().as_mut() {
            page.post(message);
        }
    });
}

fn can_turn() -> bool {
    PAGE.with(|p| p.borrow().as_ref().is_some_and(|page| page.can_turn()))
}

fn core() -> Option<Arc<Core>> {
    CORE.with(|c| c.borrow().clone())
}

/// Runs what waits: the page's messages, then the work they made (the reviews waiting,
/// then the engines' jobs), until nothing is left. The page's worker calls it when a message
/// comes or its timer ticks, whenever it is not running already.
pub fn run() {
    loop {
        serve_requests(true);
        look_at_games();
        let review = REVIEWS.with(|r| r.borrow_mut().pop_front());
        if let Some(review) = review {
            in_frame(review);
            continue;
        }
        if !engine::run_one() {
            break;
        }
    }
    look_at_games();
}

/// Runs `work` as a frame of its own on the host's stack.
fn in_frame<T>(work: impl FnOnce() -> T) -> T {
    FRAMES.with(|f| f.borrow_mut().push(Frame::Other));
    let out = work();
    FRAMES.with(|f| f.borrow_mut().pop());
    out
}

/// The host's turn in a search (the [`Poll`] of every search it runs): the running engine
/// search is read and stopped when due; at most every [`TURN_EVERY`] (at every call while
/// it only waits) the page's event loop runs and what came meanwhile is taken.
pub fn poll(turn: Turn) {
    engine::check_search(turn);
    let now = Instant::now();
    let due = LAST_TURN.with(|t| t.get().is_none_or(|t| now.duration_since(t) >= TURN_EVERY));
    if turn == Turn::Working && !due {
        return;
    }
    PAGE.with(|p| {
        if let Some(page) = p.borrow_mut().as_mut() {
            page.turn(turn == Turn::Waiting);
        }
    });
    LAST_TURN.with(|t| t.set(Some(Instant::now())));
    let depth = FRAMES.with(|f| f.borrow().len());
    serve_requests(depth <= 1);
    look_at_games();
    // A review waiting runs inside an engine's search (which then pauses), never deeper.
    if depth == 1 && engine::engine_on_top() {
        while let Some(review) = REVIEWS.with(|r| r.borrow_mut().pop_front()) {
            in_frame(review);
        }
    }
    engine::check_search(turn);
}

/// Answers the page's waiting requests in order; where `may_search` is false, stops before
/// one that searches itself (it waits for a shallower turn).
fn serve_requests(may_search: bool) {
    loop {
        let Some(text) = next_message() else {
            return;
        };
        let request = messages::parse(&text);
        if !may_search && request.as_ref().is_ok_and(Request::searches) {
            put_back(text);
            return;
        }
        let Some(core) = core() else {
            return;
        };
        in_frame(|| messages::serve(&core, request));
    }
}

/// Keeps a message taken from the page for later: it is the next one taken.
fn put_back(text: String) {
    UNREAD.with(|u| *u.borrow_mut() = Some(text));
}

/// The next message: one put back first, then the page's.
fn next_message() -> Option<String> {
    UNREAD
        .with(|u| u.borrow_mut().take())
        .or_else(|| PAGE.with(|p| p.borrow_mut().as_mut().and_then(|page| page.next())))
}

/// Every [`REAP_EVERY`]: the clocks that ran out end their games (as the server's reaper
/// does); and whenever a game changed, its clocks go to the page's storage.
fn look_at_games() {
    let Some(core) = core() else {
        return;
    };
    let now = Instant::now();
    let due = LAST_REAP.with(|t| t.get().is_none_or(|t| now.duration_since(t) >= REAP_EVERY));
    if due {
        LAST_REAP.with(|t| t.set(Some(now)));
        core.registry.reap(now);
    }
    let mut versions = core.registry.versions();
    versions.sort();
    let changed = KEPT.with(|k| *k.borrow() != versions);
    if changed {
        KEPT.with(|k| *k.borrow_mut() = versions);
        post(&messages::keep(&core.registry.clocks_now(now)));
    }
}
