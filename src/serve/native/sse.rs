//! Server-Sent Events: a game's event streams ([`crate::serve::events`]) over HTTP.
//!
//! SSE rather than WebSocket: the page only needs a one-way push (moves and commands go as
//! POST requests), SSE is plain HTTP that needs no framing code of our own, and the
//! browser's `EventSource` reconnects by itself. A heartbeat comment every [`HEARTBEAT`]
//! makes a closed tab show up as a failed write within seconds.
//!
//! A game's [`Subscribers`](crate::serve::events::Subscribers) hold only the sending ends; each stream's [`EventBody`] holds
//! its receiving end and nothing of the game but its closed flag.

use crate::serve::events::EventSink;
#[cfg(test)]
use crate::serve::events::Subscribers;
use crate::serve::json::Value;
use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::mpsc::{Receiver, Sender, channel};
use tokio::time::Interval;

/// How often an idle stream gets a comment line (so a closed connection is noticed).
pub const HEARTBEAT: Duration = Duration::from_millis(1000);

/// Events waiting for a slow page before its stream is dropped (it reconnects and gets the
/// whole state, and the whole review report if there is one, again).
const BACKLOG: usize = 64;

/// The first bytes of every stream: how long the browser waits before reconnecting.
const PREAMBLE: &str = "retry: 1000\n\n";

/// The sending end of one stream: its queue, which its [`EventBody`] empties.
struct Stream(Sender<Bytes>);

impl EventSink for Stream {
    fn send(&mut self, event: &str, data: &str) -> bool {
        let msg = Bytes::from(wire(event, data));
        match self.0.try_send(msg) {
            Ok(()) => true,
            Err(TrySendError::Full(_) | TrySendError::Closed(_)) => false,
        }
    }

    fn is_closed(&self) -> bool {
        self.0.is_closed()
    }
}

/// A new stream of a game whose closed flag is `closed` (set to the data of the `gone` event
/// the stream then ends with), starting with `first` (events in the wire format): its sending
/// end, for the game's [`Subscribers`](crate::serve::events::Subscribers), and its body.
pub fn stream(first: &str, closed: Arc<OnceLock<String>>) -> (Box<dyn EventSink>, EventBody) {
    let (tx, rx) = channel(BACKLOG);
    let mut heartbeat = tokio::time::interval(HEARTBEAT);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let body = EventBody {
        first: Some(Bytes::from(format!("{PREAMBLE}{first}"))),
        rx,
        heartbeat,
        closed,
        done: false,
    };
    (Box::new(Stream(tx)), body)
}

/// One event in the wire format (the JSON is one line, so one `data:` line).
pub fn format_event(event: &str, data: &Value) -> String {
    wire(event, &data.to_string())
}

/// One event in the wire format, its data already one line of JSON.
fn wire(event: &str, data: &str) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

/// The body of one event stream: the first state, then every event, with heartbeats in
/// between; it ends (after `gone`) when the game is closed, or when the game dropped it for
/// not keeping up (the page reconnects). Dropping it (the connection closed) frees its slot.
pub struct EventBody {
    first: Option<Bytes>,
    rx: Receiver<Bytes>,
    heartbeat: Interval,
    closed: Arc<OnceLock<String>>,
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
                    Some(gone) => {
                        Poll::Ready(Some(Ok(Frame::data(Bytes::from(wire("gone", gone))))))
                    }
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
    use crate::serve::events::STREAMS_PER_GAME;
    use http_body_util::BodyExt;
    use std::time::Instant;

    /// A stream of `s` starting with `first`, added to it.
    fn add(s: &mut Subscribers, first: &str, now: Instant) -> Option<EventBody> {
        let (sink, body) = stream(first, s.closed_flag());
        s.add(sink, now).then_some(body)
    }

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
            let mut a = add(&mut s, "event: state\ndata: 0\n\n", t0).unwrap();
            let b = add(&mut s, "x", t0).unwrap();
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
            assert!(
                add(&mut s, "y", t0).is_none(),
                "a closed game takes no streams"
            );
        });
    }

    #[test]
    fn slots_are_per_game_and_a_slow_page_loses_its_stream() {
        rt().block_on(async {
            let now = Instant::now();
            let mut s = Subscribers::new(now);
            let mut other = Subscribers::new(now);
            let streams: Vec<EventBody> = (0..STREAMS_PER_GAME)
                .map(|_| add(&mut s, "", now).unwrap())
                .collect();
            assert!(add(&mut s, "", now).is_none());
            assert!(
                add(&mut other, "", now).is_some(),
                "another game has its own slots"
            );
            drop(streams);
            let mut slow = add(&mut s, "", now).unwrap();
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
            let mut a = add(&mut s, "", Instant::now()).unwrap();
            next(&mut a).await;
            assert_eq!(next(&mut a).await.unwrap(), ": ping\n\n");
        });
    }
}
