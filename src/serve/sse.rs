//! Server-Sent Events: the engine's output and every change of a game pushed to its page.
//!
//! SSE rather than WebSocket: the page only needs a one-way push (moves and commands go as
//! POST requests), SSE is plain HTTP that needs no framing code of our own, and the
//! browser's `EventSource` reconnects by itself. A heartbeat comment every
//! [`HEARTBEAT`] makes a closed tab show up as a failed write within seconds.

use super::json::Value;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::time::{Duration, Instant};

/// How often an idle stream gets a comment line (so a closed connection is noticed).
pub const HEARTBEAT: Duration = Duration::from_millis(1000);

/// Events waiting for a slow page before its stream is dropped (it reconnects and gets the
/// whole state again).
const BACKLOG: usize = 64;

/// The open event streams of one game.
pub struct Subscribers {
    list: Vec<(u64, SyncSender<Arc<str>>)>,
    next: u64,
    /// Since when no stream has been open.
    empty_since: Instant,
}

impl Subscribers {
    /// No streams yet, counting from `now`.
    pub fn new(now: Instant) -> Subscribers {
        Subscribers {
            list: Vec::new(),
            next: 0,
            empty_since: now,
        }
    }

    /// A new stream: its id and the receiving end.
    pub fn add(&mut self) -> (u64, Receiver<Arc<str>>) {
        let (tx, rx) = sync_channel(BACKLOG);
        self.next += 1;
        self.list.push((self.next, tx));
        (self.next, rx)
    }

    /// Forgets stream `id` (its connection closed).
    pub fn remove(&mut self, id: u64, now: Instant) {
        let before = self.list.len();
        self.list.retain(|(i, _)| *i != id);
        if before > 0 && self.list.is_empty() {
            self.empty_since = now;
        }
    }

    /// Sends an event to every stream; a stream whose page does not keep up is dropped.
    pub fn send(&mut self, event: &str, data: &Value) {
        if self.list.is_empty() {
            return;
        }
        let msg: Arc<str> = format_event(event, data).into();
        let before = self.list.len();
        self.list.retain(|(_, tx)| {
            !matches!(
                tx.try_send(msg.clone()),
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_))
            )
        });
        if before > 0 && self.list.is_empty() {
            self.empty_since = Instant::now();
        }
    }

    /// How long the game has had no open stream (None while one is open).
    pub fn unwatched_for(&self, now: Instant) -> Option<Duration> {
        self.list
            .is_empty()
            .then(|| now.saturating_duration_since(self.empty_since))
    }
}

/// One event in the wire format (the JSON is one line, so one `data:` line).
pub fn format_event(event: &str, data: &Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

/// The response head of an event stream. The body ends only when the connection closes.
pub const HEAD: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
    Cache-Control: no-cache\r\nConnection: close\r\n\r\nretry: 1000\n\n";

/// Writes the stream until the connection fails or the game's end of it closes:
/// `first` at once, then every event from `rx`, with heartbeats in between. Returns true
/// when the game closed the stream (rather than the connection failing).
pub fn pump(out: &mut dyn Write, first: &str, rx: &Receiver<Arc<str>>) -> io::Result<bool> {
    out.write_all(HEAD.as_bytes())?;
    out.write_all(first.as_bytes())?;
    out.flush()?;
    loop {
        match rx.recv_timeout(HEARTBEAT) {
            Ok(msg) => out.write_all(msg.as_bytes())?,
            Err(RecvTimeoutError::Timeout) => out.write_all(b": ping\n\n")?,
            Err(RecvTimeoutError::Disconnected) => return Ok(true),
        }
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_come_and_go() {
        let t0 = Instant::now();
        let mut s = Subscribers::new(t0);
        assert_eq!(s.unwatched_for(t0), Some(Duration::ZERO));
        let (a, rx_a) = s.add();
        let (_b, rx_b) = s.add();
        assert_eq!(s.unwatched_for(t0), None);
        s.send("state", &Value::from(1u32));
        assert_eq!(&*rx_a.recv().unwrap(), "event: state\ndata: 1\n\n");
        drop(rx_b);
        s.send("state", &Value::from(2u32));
        assert_eq!(
            s.list.len(),
            1,
            "a closed stream is dropped on the next send"
        );
        let later = t0 + Duration::from_secs(3);
        s.remove(a, later);
        assert_eq!(
            s.unwatched_for(later + Duration::from_secs(2)),
            Some(Duration::from_secs(2))
        );
    }

    #[test]
    fn a_slow_page_loses_its_stream() {
        let mut s = Subscribers::new(Instant::now());
        let (_, rx) = s.add();
        for i in 0..=BACKLOG {
            s.send("state", &Value::from(i));
        }
        assert!(s.unwatched_for(Instant::now()).is_some());
        assert_eq!(rx.try_iter().count(), BACKLOG);
    }
}
