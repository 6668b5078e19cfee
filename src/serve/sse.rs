//! Server-Sent Events: the engine's output and every change of a game pushed to its page.
//!
//! SSE rather than WebSocket: the page only needs a one-way push (moves and commands go as
//! POST requests), SSE is plain HTTP that needs no framing code of our own, and the
//! browser's `EventSource` reconnects by itself. A heartbeat comment every [`HEARTBEAT`]
//! makes a closed tab show up as a failed write within seconds.
//!
//! A game's [`Subscribers`] hold only the sending ends; each stream's [`EventBody`] holds
//! its receiving end and nothing of the game, so a closed game is dropped at once however
//! many streams are open: closing ([`Subscribers::close`]) ends every stream with `gone`.

use super::json::Value;
use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::mpsc::{Receiver, Sender, channel};
use tokio::time::Interval;

/// How often an idle stream gets a comment line (so a closed connection is noticed).
pub const HEARTBEAT: Duration = Duration::from_millis(1000);

/// Event streams one game may have open at once (a page has one; a few more tabs on one game
/// are allowed). Each game has its own slots: one game's streams never crowd out another's.
pub const STREAMS_PER_GAME: usize = 4;

/// Events waiting for a slow page before its stream is dropped (it reconnects and gets the
/// whole state, and the whole review report if there is one, again).
const BACKLOG: usize = 64;

/// The first bytes of every stream: how long the browser waits before reconnecting.
const PREAMBLE: &str = "retry: 1000\n\n";

/// The open event streams of one game.
pub struct Subscribers {
    list: Vec<Sender<Bytes>>,
    /// Set when the game is closed to the `gone` event every stream then ends with.
    closed: Arc<OnceLock<Bytes>>,
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

    /// Forgets streams whose connection has closed.
    fn prune(&mut self, now: Instant) {
        let before = self.list.len();
        self.list.retain(|tx| !tx.is_closed());
        if before > 0 && self.list.is_empty() {
            self.empty_since = now;
        }
    }

    /// A new stream starting with `first`, or None when the game has
    /// [`STREAMS_PER_GAME`] streams open already (or is closed).
    pub fn add(&mut self, first: &str, now: Instant) -> Option<EventBody> {
        self.prune(now);
        if self.list.len() >= STREAMS_PER_GAME || self.closed.get().is_some() {
            return None;
        }
        let (tx, rx) = channel(BACKLOG);
        self.list.push(tx);
        self.watched = true;
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Some(EventBody {
            first: Some(Bytes::from(format!("{PREAMBLE}{first}"))),
            rx,
            heartbeat,
            closed: self.closed.clone(),
            done: false,
        })
    }

    /// Sends an event to every stream; a stream whose page does not keep up is dropped.
    pub fn send(&mut self, event: &str, data: &Value) {
        if self.list.is_empty() {
            return;
        }
        let msg = Bytes::from(format_event(event, data));
        self.list.retain(|tx| match tx.try_send(msg.clone()) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Closed(_)) => false,
        });
        self.prune(Instant::now());
    }

    /// The game is closed: every stream sends `gone` (its data `gone`: `{}`, or
    /// `{"replaced_by": id}` for a game closed because another took its place) after what it
    /// has queued, and ends.
    pub fn close(&mut self, gone: &Value) {
        let _ = self.closed.set(Bytes::from(format_event("gone", gone)));
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

    /// How long every page that watched the game has been gone (None while one watches, or
    /// if none ever did: a client of the API alone is never "abandoned").
    pub fn abandoned_for(&mut self, now: Instant) -> Option<Duration> {
        self.unwatched_for(now).filter(|_| self.watched)
    }
}

/// One event in the wire format (the JSON is one line, so one `data:` line).
pub fn format_event(event: &str, data: &Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

/// The body of one event stream: the first state, then every event, with heartbeats in
/// between; it ends (after `gone`) when the game is closed, or when the game dropped it for
/// not keeping up (the page reconnects). Dropping it (the connection closed) frees its slot.
pub struct EventBody {
    first: Option<Bytes>,
    rx: Receiver<Bytes>,
    heartbeat: Interval,
    closed: Arc<OnceLock<Bytes>>,
    done: bool,
}

impl Body for EventBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if let Some(first) = self.first.take() {
            // The interval's first tick is immediate: spend it now.
            self.heartbeat.reset();
            return Poll::Ready(Some(Ok(Frame::data(first))));
        }
        if self.done {
            return Poll::Ready(None);
        }
        match self.rx.poll_recv(cx) {
            Poll::Ready(Some(msg)) => {
                self.heartbeat.reset();
                return Poll::Ready(Some(Ok(Frame::data(msg))));
            }
            Poll::Ready(None) => {
                self.done = true;
                return match self.closed.get() {
                    Some(gone) => Poll::Ready(Some(Ok(Frame::data(gone.clone())))),
                    None => Poll::Ready(None),
                };
            }
            Poll::Pending => {}
        }
        match self.heartbeat.poll_tick(cx) {
            Poll::Ready(_) => Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b": ping\n\n"))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        false
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    async fn next(b: &mut EventBody) -> Option<String> {
        let f = b.frame().await?.unwrap();
        Some(String::from_utf8(f.into_data().unwrap().to_vec()).unwrap())
    }

    #[test]
    fn streams_come_and_go_and_end_with_gone() {
        rt().block_on(async {
            let t0 = Instant::now();
            let mut s = Subscribers::new(t0);
            assert_eq!(s.unwatched_for(t0), Some(Duration::ZERO));
            let mut a = s.add("event: state\ndata: 0\n\n", t0).unwrap();
            let b = s.add("x", t0).unwrap();
            assert_eq!(s.unwatched_for(t0), None);
            assert_eq!(
                next(&mut a).await.unwrap(),
                "retry: 1000\n\nevent: state\ndata: 0\n\n"
            );
            s.send("state", &Value::from(1u32));
            assert_eq!(next(&mut a).await.unwrap(), "event: state\ndata: 1\n\n");
            drop(b);
            assert_eq!(s.count(t0), 1, "a closed stream frees its slot");
            s.close(&Value::from("x"));
            assert_eq!(next(&mut a).await.unwrap(), "event: gone\ndata: \"x\"\n\n");
            assert_eq!(next(&mut a).await, None);
            assert!(s.add("y", t0).is_none(), "a closed game takes no streams");
        });
    }

    #[test]
    fn slots_are_per_game_and_a_slow_page_loses_its_stream() {
        rt().block_on(async {
            let now = Instant::now();
            let mut s = Subscribers::new(now);
            let mut other = Subscribers::new(now);
            let streams: Vec<EventBody> = (0..STREAMS_PER_GAME)
                .map(|_| s.add("", now).unwrap())
                .collect();
            assert!(s.add("", now).is_none());
            assert!(
                other.add("", now).is_some(),
                "another game has its own slots"
            );
            drop(streams);
            let mut slow = s.add("", now).unwrap();
            for i in 0..=BACKLOG {
                s.send("state", &Value::from(i));
            }
            assert!(s.unwatched_for(Instant::now()).is_some());
            let mut got = 0;
            next(&mut slow).await; // the first state
            while next(&mut slow).await.is_some() {
                got += 1;
            }
            assert_eq!(got, BACKLOG, "the queued events, then the end without gone");
        });
    }

    #[test]
    fn an_idle_stream_gets_heartbeats() {
        rt().block_on(async {
            let mut s = Subscribers::new(Instant::now());
            let mut a = s.add("", Instant::now()).unwrap();
            next(&mut a).await;
            assert_eq!(next(&mut a).await.unwrap(), ": ping\n\n");
        });
    }
}
