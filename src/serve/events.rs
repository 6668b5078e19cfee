//! A game's event streams: every change of a game, and its engine's output, pushed to the
//! pages that show it. The game holds only the sending ends ([`EventSink`]): Server-Sent
//! Events natively (`native/sse.rs`), messages to the page in the browser (`browser/`), so a
//! closed game is dropped at once however many streams are open; closing
//! ([`Subscribers::close`]) ends every stream with `gone`, whose data says which game took
//! its place, if one did.

use super::json::Value;
use crate::platform::Instant;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Event streams one game may have open at once (a page has one; a few more tabs on one game
/// are allowed). Each game has its own slots: one game's streams never crowd out another's.
pub const STREAMS_PER_GAME: usize = 4;

/// The sending end of one event stream.
pub trait EventSink: Send {
    /// Sends event `event` with its data (one line of JSON); false when the stream has gone
    /// or cannot keep up (it is then dropped: the page reconnects and gets the whole state).
    fn send(&mut self, event: &str, data: &str) -> bool;
    /// Whether the stream's page has closed it.
    fn is_closed(&self) -> bool;
}

/// The open event streams of one game.
pub struct Subscribers {
    list: Vec<Box<dyn EventSink>>,
    /// Set when the game is closed to the data (one line of JSON) of the `gone` event every
    /// stream then ends with.
    closed: Arc<OnceLock<String>>,
    /// Since when no stream has been open.
    empty_since: Instant,
    /// Whether a stream was ever opened (a game whose pages all went away is "abandoned").
    watched: bool,
}

impl Subscribers {
    /// No streams yet, counting from `now`.
    pub fn new(now: Instant) -> Subscribers {
        Subscribers {
            list: Vec::new(),
            closed: Arc::new(OnceLock::new()),
            empty_since: now,
            watched: false,
        }
    }

    /// Forgets streams whose page has closed them.
    fn prune(&mut self, now: Instant) {
        let before = self.list.len();
        self.list.retain(|s| !s.is_closed());
        if before > 0 && self.list.is_empty() {
            self.empty_since = now;
        }
    }

    /// Whether a new stream may open: fewer than [`STREAMS_PER_GAME`] are open and the
    /// game is not closed.
    pub fn has_room(&mut self, now: Instant) -> bool {
        self.prune(now);
        self.list.len() < STREAMS_PER_GAME && self.closed.get().is_none()
    }

    /// Adds a stream (which has sent its first events itself), if [`Subscribers::has_room`].
    pub fn add(&mut self, sink: Box<dyn EventSink>, now: Instant) -> bool {
        if !self.has_room(now) {
            return false;
        }
        self.list.push(sink);
        self.watched = true;
        true
    }

    /// What is set when the game is closed: the data of the `gone` event a stream then ends
    /// with.
    pub fn closed_flag(&self) -> Arc<OnceLock<String>> {
        self.closed.clone()
    }

    /// Sends an event to every stream; a stream whose page does not keep up is dropped.
    pub fn send(&mut self, event: &str, data: &Value) {
        if self.list.is_empty() {
            return;
        }
        let data = data.to_string();
        self.list.retain_mut(|s| s.send(event, &data));
        self.prune(Instant::now());
    }

    /// The game is closed: every stream sends `gone` (its data `gone`: `{}`, or
    /// `{"replaced_by": id}` for a game closed because another took its place) after what it
    /// has queued, and ends.
    pub fn close(&mut self, gone: &Value) {
        let _ = self.closed.set(gone.to_string());
        self.list.clear();
    }

    /// Streams open now.
    pub fn count(&mut self, now: Instant) -> usize {
        self.prune(now);
        self.list.len()
    }

    /// How long the game has had no open stream (None while one is open).
    pub fn unwatched_for(&mut self, now: Instant) -> Option<Duration> {
        self.prune(now);
        self.list
            .is_empty()
            .then(|| now.saturating_duration_since(self.empty_since))
    }

    /// Whether a stream was ever opened on the game.
    pub fn ever_watched(&self) -> bool {
        self.watched
    }

    /// How long every page that watched the game has been gone (None while one watches, or
    /// if none ever did: a client of the API alone is never "abandoned").
    pub fn abandoned_for(&mut self, now: Instant) -> Option<Duration> {
        self.unwatched_for(now).filter(|_| self.watched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A stream that keeps what it is sent, closed by the test.
    #[derive(Clone, Default)]
    struct Kept {
        got: Arc<Mutex<Vec<String>>>,
        closed: Arc<AtomicBool>,
        full: bool,
    }

    impl EventSink for Kept {
        fn send(&mut self, event: &str, data: &str) -> bool {
            self.got.lock().unwrap().push(format!("{event} {data}"));
            !self.full
        }
        fn is_closed(&self) -> bool {
            self.closed.load(Ordering::SeqCst)
        }
    }

    #[test]
    fn streams_come_and_go_and_a_slow_one_is_dropped() {
        let t0 = Instant::now();
        let mut s = Subscribers::new(t0);
        assert_eq!(s.unwatched_for(t0), Some(Duration::ZERO));
        let a = Kept::default();
        assert!(s.add(Box::new(a.clone()), t0));
        let slow = Kept {
            full: true,
            ..Kept::default()
        };
        assert!(s.add(Box::new(slow.clone()), t0));
        s.send("state", &Value::from(1u32));
        assert_eq!(*a.got.lock().unwrap(), ["state 1"]);
        assert_eq!(s.count(t0), 1, "the stream that did not keep up is dropped");
        a.closed.store(true, Ordering::SeqCst);
        assert_eq!(s.count(t0), 0, "a closed stream frees its slot");
        for _ in 0..STREAMS_PER_GAME {
            assert!(s.add(Box::new(Kept::default()), t0));
        }
        assert!(
            !s.add(Box::new(Kept::default()), t0),
            "no more than the game's slots"
        );
        s.close(&Value::from("x"));
        assert_eq!(s.closed_flag().get().map(String::as_str), Some("\"x\""));
        assert!(!s.has_room(t0), "a closed game takes no streams");
    }
}
