//! Connections: the accept loop, the cap on open connections, and every per-connection
//! limit, so no client can hold more than its share.
//!
//! - Each connection is a tokio task (a few kilobytes), not a thread.
//! - At most [`max_connections`] at once; one more gets a `503` and is closed.
//! - A failed `accept()` (out of file descriptors, say) is waited out, never fatal.
//! - The request head must arrive within [`HEAD_TIMEOUT`] (this also closes idle
//!   keep-alive connections), in at most [`MAX_HEAD_BYTES`] and [`MAX_HEADERS`] headers
//!   (else 431); hyper answers any malformed request with a 4xx and closes.
//! - A write the client does not take within [`WRITE_TIMEOUT`] closes the connection (a
//!   client that pipelines requests and never reads, an event stream nobody reads).
//! - The body deadline and size limit are the handler's ([`super::http::BODY_TIMEOUT`]).
//! - A client that half-closes (shuts its sending side after the request) is answered: a
//!   request is never acted on without its answer being written.

use super::http::{self, Shared};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Sleep;

/// Longest wait for a request head, from the connection's start or the previous answer.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// Longest a write may wait for the client to read.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Largest request head (request line and headers), bytes.
pub const MAX_HEAD_BYTES: usize = 16 * 1024;

/// Most headers in one request.
pub const MAX_HEADERS: usize = 64;

/// Most open connections however many file descriptors the process may have.
pub const CONNECTION_CEILING: usize = 10_000;

/// Refusals (`503` answers to connections over the cap) being written at once; more are
/// closed without an answer.
const MAX_REFUSING: usize = 64;

/// How long a refusal may take to write.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(1);

/// Pause after a failed `accept()` before the next.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

const REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
Content-Length: 64\r\nConnection: close\r\n\r\n{\"error\":\"too many connections are open; try again in a moment\"}";

/// The soft limit on open files of this process (`/proc/self/limits`; 1024 where unknown).
fn open_files_limit() -> usize {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(1024)
}

/// Most open connections: what the file descriptors allow after those the engines need
/// (each engine process takes three pipes), at most [`CONNECTION_CEILING`].
pub fn max_connections(max_games: usize) -> usize {
    let reserve = 64 + 4 * max_games;
    open_files_limit()
        .saturating_sub(reserve)
        .clamp(16, CONNECTION_CEILING)
}

/// Accepts connections until the process stops.
pub async fn accept_loop(listener: TcpListener, shared: Arc<Shared>, max_conns: usize) {
    let conns = Arc::new(Semaphore::new(max_conns));
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES.max(8192))
        .max_headers(MAX_HEADERS)
        // A client that shuts its sending side after the request (`nc -N`, `shutdown(SHUT_WR)`)
        // still gets its answer: without this hyper closes the connection at that end of
        // input, while the request it was answering may still act (a game opened, unanswered).
        .half_close(true)
        .keep_alive(true);
    let builder = Arc::new(builder);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Ok(permit) = conns.clone().try_acquire_owned() else {
            if let Ok(p) = refusing.clone().try_acquire_owned() {
                tokio::spawn(async move {
                    refuse(stream).await;
                    drop(p);
                });
            }
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (shared, builder) = (shared.clone(), builder.clone());
        tokio::spawn(async move {
            let service = service_fn(move |req| http::handle(shared.clone(), req));
            let io = TokioIo::new(TimedIo::new(stream));
            // A connection's failure (timeout, malformed request, reset) concerns it alone.
            let _ = builder.serve_connection(io, service).await;
            drop(permit);
        });
    }
}

/// Answers a connection over the cap with a 503 and closes it.
async fn refuse(mut stream: TcpStream) {
    let _ = tokio::time::timeout(REFUSAL_TIMEOUT, stream.write_all(REFUSAL)).await;
}

/// A TCP stream whose writes fail when the client has not taken them within
/// [`WRITE_TIMEOUT`].
struct TimedIo {
    inner: TcpStream,
    /// Armed while a write (or flush) is waiting for the client.
    write_deadline: Option<Pin<Box<Sleep>>>,
}

impl TimedIo {
    fn new(inner: TcpStream) -> TimedIo {
        TimedIo {
            inner,
            write_deadline: None,
        }
    }

    /// After a write or flush answered `poll`: disarm the deadline when it got through,
    /// arm it (or fail when it has passed) while it waits.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.write_deadline = None;
            return poll;
        }
        let deadline = self
            .write_deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_TIMEOUT)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client did not read the answer",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for TimedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for TimedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.watch(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_well_formed() {
        let text = std::str::from_utf8(REFUSAL).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(
            head.contains(&format!("Content-Length: {}", body.len())),
            "{text}"
        );
        assert!(crate::serve::json::parse(body).is_ok());
    }

    #[test]
    fn the_cap_leaves_room_for_engines() {
        let limit = open_files_limit();
        let cap = max_connections(8);
        assert!((16..=CONNECTION_CEILING).contains(&cap));
        assert!(cap + 64 <= limit.max(80), "{cap} of {limit}");
    }
}
