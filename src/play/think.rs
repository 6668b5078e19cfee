//! Everything that reaches a game while it waits or thinks arrives as an [`Event`] in one
//! [`Inbox`]: typed lines (from a reader thread), the end of input, Ctrl-C, and the engine's
//! reports. [`think`] runs a search on its own thread so that the person's Ctrl-C stops it
//! at once, draws a progress line on a terminal, and keeps lines typed meanwhile, in order.
//!
//! The inbox knows no game (a report travels type-erased, and [`think`] reads it back as its
//! game's), so one reader of standard input serves a session that `load` switches from one
//! game to another.

use crate::games::{Game, Record};
use crate::protocol::reader::{Line, read_line_lossy};
use crate::search::{Bound, Engine, SearchControl, SearchInfo, SearchLimits, SearchResult};
use std::any::Any;
use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// Longest line of input kept, bytes: the longest command is `save` or `load` with a path,
/// and a path is at most 4096 bytes on Linux; a longer line is refused, not read into memory.
pub const MAX_INPUT_BYTES: usize = 8192;

/// Something that happened.
#[derive(Debug)]
pub enum Event {
    /// A line of input, without its line end (bytes that are not UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_INPUT_BYTES`]: its first bytes and its full length in bytes.
    /// The rest of it was dropped unread into memory.
    Overlong(String, u64),
    /// Standard input ended (Ctrl-D on a terminal).
    Eof,
    /// Ctrl-C.
    Interrupt,
    /// A search report: a `SearchInfo` of the game searched.
    Info(Box<dyn Any + Send>),
    /// The search has returned.
    Done,
}

/// Where events arrive; lines that come while the engine thinks wait here in order.
pub struct Inbox {
    tx: Sender<Event>,
    rx: Receiver<Event>,
    queued: VecDeque<Event>,
}

impl Inbox {
    /// Starts reading standard input (on a terminal it goes on after Ctrl-D, so a question
    /// can still be asked on the way out) and catches Ctrl-C.
    pub fn from_stdin(terminal: bool) -> Inbox {
        let inbox = Inbox::new();
        let tx = inbox.tx.clone();
        let read = move || {
            let stdin = std::io::stdin();
            let mut buf = Vec::new();
            loop {
                let event = match read_line_lossy(&mut stdin.lock(), &mut buf, MAX_INPUT_BYTES) {
                    Ok(Some(Line {
                        text,
                        cut_from: None,
                    })) => Event::Line(text),
                    Ok(Some(Line {
                        text,
                        cut_from: Some(bytes),
                    })) => Event::Overlong(text, bytes),
                    Ok(None) | Err(_) => Event::Eof,
                };
                let eof = matches!(event, Event::Eof);
                if tx.send(event).is_err() || (eof && !terminal) {
                    return;
                }
            }
        };
        let _ = std::thread::Builder::new()
            .name("bashni-input".into())
            .spawn(read);
        let tx = inbox.tx.clone();
        // Only one handler per process; if another part set one, Ctrl-C keeps its default.
        let _ = ctrlc::set_handler(move || {
            let _ = tx.send(Event::Interrupt);
        });
        inbox
    }

    /// An inbox fed only through [`Inbox::sender`].
    pub fn new() -> Inbox {
        let (tx, rx) = channel();
        Inbox {
            tx,
            rx,
            queued: VecDeque::new(),
        }
    }

    /// A sender into this inbox.
    #[cfg(test)]
    pub fn sender(&self) -> Sender<Event> {
        self.tx.clone()
    }

    /// The next person's event (line, end of input, Ctrl-C), waiting for it; stale search
    /// reports are dropped.
    pub fn next(&mut self) -> Event {
        if let Some(e) = self.queued.pop_front() {
            return e;
        }
        loop {
            match self.rx.recv() {
                Ok(Event::Info(_) | Event::Done) => continue,
                Ok(e) => return e,
                // Cannot happen while `tx` lives; treat it as the end of input.
                Err(_) => return Event::Eof,
            }
        }
    }

    /// [`Inbox::next`], waiting until `deadline` at most: `None` once it has passed (even
    /// with events waiting: a deadline is a fallen flag, and it is not put off by input).
    pub fn next_before(&mut self, deadline: Option<Instant>) -> Option<Event> {
        let Some(deadline) = deadline else {
            return Some(self.next());
        };
        loop {
            let wait = deadline
                .checked_duration_since(Instant::now())
                .filter(|d| !d.is_zero())?;
            if let Some(e) = self.queued.pop_front() {
                return Some(e);
            }
            match self.rx.recv_timeout(wait) {
                Ok(Event::Info(_) | Event::Done) | Err(RecvTimeoutError::Timeout) => continue,
                Ok(e) => return Some(e),
                Err(RecvTimeoutError::Disconnected) => return Some(Event::Eof),
            }
        }
    }
}

impl Default for Inbox {
    fn default() -> Self {
        Inbox::new()
    }
}

/// What a search found.
pub struct Thought<M> {
    /// The search's answer.
    pub result: SearchResult<M>,
    /// The last exact report of each line (multipv index order).
    pub lines: Vec<SearchInfo<M>>,
    /// Ctrl-C stopped it.
    pub interrupted: bool,
}

impl<M: PartialEq> Thought<M> {
    /// The main line's last exact report.
    pub fn main_line(&self) -> Option<&SearchInfo<M>> {
        self.lines.first()
    }

    /// The last exact report of the line that starts with `m` (a weaker level may play
    /// another line than the best), else the main line's.
    pub fn line_of(&self, m: M) -> Option<&SearchInfo<M>> {
        self.lines
            .iter()
            .find(|i| i.pv.first() == Some(&m))
            .or_else(|| self.main_line())
    }
}

/// How often the progress line is drawn again (and the deadline looked at, at least).
const FRAME: Duration = Duration::from_millis(100);

const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// The progress line: spinner, depth, score (for the side to move), time, best move.
fn progress<M: std::fmt::Display>(
    frame: usize,
    who: &str,
    info: Option<&SearchInfo<M>>,
    start: Instant,
) -> String {
    let secs = start.elapsed().as_secs_f64();
    let spin = SPINNER[frame % SPINNER.len()];
    match info {
        None => format!("{spin} {who} thinks... {secs:.1} s"),
        Some(i) => format!(
            "{spin} {who} thinks... depth {} score {} {secs:.1} s best {}",
            i.depth,
            i.score.human(),
            i.pv.first().map(|m| m.to_string()).unwrap_or_default()
        ),
    }
}

/// How [`think`] searches: the limits, the moment it must stop whatever the limits say (a
/// clock's flag), and the progress line's name (drawn on standard output when given).
pub struct Ask<'a, M> {
    /// The search's limits.
    pub limits: &'a SearchLimits<M>,
    /// Stop here at the latest: the time of the side thinking is up.
    pub deadline: Option<Instant>,
    /// Who thinks, for the progress line; `None`: no progress line.
    pub spinner: Option<&'a str>,
}

/// Searches the game's position; with a spinner, draws a progress line on standard output
/// (cleared at the end). Ctrl-C and the deadline stop the search; other events wait in the
/// inbox.
pub fn think<G: Game>(
    engine: &mut Engine,
    game: &Record<G>,
    ask: &Ask<G::Move>,
    inbox: &mut Inbox,
) -> Thought<G::Move> {
    let Ask {
        limits,
        mut deadline,
        spinner,
    } = *ask;
    let control = SearchControl::new(false);
    let start = Instant::now();
    let mut lines: BTreeMap<usize, SearchInfo<G::Move>> = BTreeMap::new();
    let mut interrupted = false;
    let result = std::thread::scope(|s| {
        let tx = inbox.tx.clone();
        let ctl = control.clone();
        let search = s.spawn(move || {
            let mut report = |i: &SearchInfo<G::Move>| {
                let _ = tx.send(Event::Info(Box::new(i.clone())));
            };
            let r = engine.search(game.position(), game.history(), limits, &ctl, &mut report);
            let _ = tx.send(Event::Done);
            r
        });
        let mut frame = 0;
        loop {
            let mut tick = FRAME;
            if let Some(d) = deadline {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    control.stop();
                    deadline = None;
                }
                tick = tick.min(left.max(Duration::from_millis(1)));
            }
            match inbox.rx.recv_timeout(tick) {
                Ok(Event::Done) => break,
                Ok(Event::Info(i)) => {
                    // (only this search reports while it runs)
                    if let Ok(i) = i.downcast::<SearchInfo<G::Move>>()
                        && i.bound == Bound::Exact
                    {
                        lines.insert(i.multipv, *i);
                    }
                }
                Ok(Event::Interrupt) => {
                    interrupted = true;
                    control.stop();
                }
                Ok(e) => inbox.queued.push_back(e),
                Err(RecvTimeoutError::Timeout) => frame += 1,
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if let Some(who) = spinner {
                let line = progress(frame, who, lines.get(&1), start);
                print!("\r\x1b[2K{line}");
                let _ = std::io::stdout().flush();
            }
        }
        if spinner.is_some() {
            print!("\r\x1b[2K");
            let _ = std::io::stdout().flush();
        }
        search
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    });
    Thought {
        result,
        lines: lines.into_values().collect(),
        interrupted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::game::Game;
    use crate::games::bashni::position::Position;
    use crate::games::{Rules, turkish};

    /// Limits alone: no deadline, no progress line.
    fn ask<M>(limits: &SearchLimits<M>) -> Ask<'_, M> {
        Ask {
            limits,
            deadline: None,
            spinner: None,
        }
    }

    #[test]
    fn lines_typed_while_thinking_wait_in_order() {
        let mut inbox = Inbox::new();
        let tx = inbox.sender();
        tx.send(Event::Line("first".into())).unwrap();
        tx.send(Event::Eof).unwrap();
        let mut engine = Engine::new();
        let game = Game::new(Position::startpos());
        let limits = SearchLimits {
            depth: Some(3),
            multipv: 2,
            ..Default::default()
        };
        let t = think(&mut engine, &game, &ask(&limits), &mut inbox);
        assert!(t.result.best.is_some() && !t.interrupted);
        assert_eq!(t.lines.len(), 2);
        assert_eq!(t.main_line().unwrap().depth, 3);
        let second = t.lines[1].pv[0];
        assert_eq!(t.line_of(second).unwrap().multipv, 2);
        assert!(matches!(inbox.next(), Event::Line(l) if l == "first"));
        assert!(matches!(inbox.next(), Event::Eof));
    }

    #[test]
    fn every_game_is_thought_about() {
        let mut inbox = Inbox::new();
        let mut engine = Engine::new();
        let game = Record::new(turkish::Position::startpos());
        let limits = SearchLimits {
            depth: Some(3),
            ..Default::default()
        };
        let t = think(&mut engine, &game, &ask(&limits), &mut inbox);
        let best = t.result.best.expect("a move");
        assert!(game.position().legal_moves().contains(&best));
    }

    #[test]
    fn ctrl_c_stops_an_endless_search() {
        let mut inbox = Inbox::new();
        inbox.sender().send(Event::Interrupt).unwrap();
        let mut engine = Engine::new();
        let game = Game::new(Position::startpos());
        let limits = SearchLimits {
            infinite: true,
            ..Default::default()
        };
        let t = think(&mut engine, &game, &ask(&limits), &mut inbox);
        assert!(t.interrupted);
        assert!(t.result.best.is_some());
    }

    #[test]
    fn the_deadline_stops_an_endless_search() {
        let mut inbox = Inbox::new();
        let mut engine = Engine::new();
        let game = Game::new(Position::startpos());
        let limits = SearchLimits {
            infinite: true,
            ..Default::default()
        };
        let deadline = Instant::now() + Duration::from_millis(50);
        let ask = Ask {
            deadline: Some(deadline),
            ..ask(&limits)
        };
        let t = think(&mut engine, &game, &ask, &mut inbox);
        assert!(Instant::now() >= deadline && !t.interrupted);
        assert!(t.result.best.is_some());
    }

    #[test]
    fn waiting_ends_at_the_deadline_before_any_waiting_line() {
        let mut inbox = Inbox::new();
        inbox.sender().send(Event::Line("late".into())).unwrap();
        let past = Instant::now();
        std::thread::sleep(Duration::from_millis(2));
        assert!(inbox.next_before(Some(past)).is_none());
        let later = Instant::now() + Duration::from_secs(600);
        assert!(matches!(inbox.next_before(Some(later)), Some(Event::Line(l)) if l == "late"));
        let soon = Instant::now() + Duration::from_millis(20);
        assert!(inbox.next_before(Some(soon)).is_none());
        assert!(Instant::now() >= soon);
    }
}
