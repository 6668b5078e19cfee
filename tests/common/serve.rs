//! `bashni serve` driven over HTTP as a page would: the real binary on a free loopback
//! port, requests written by hand on a TcpStream (no HTTP crate needed). Used by
//! tests/serve*.rs and others. Every read has a deadline ([`DEADLINE`]): a server that
//! stops answering fails the test with what it waited for.

use super::deadline::{self, left, watch};
pub use super::deadline::{DEADLINE, wait_for, wait_until};
use bashni::serve::json::{self, Value};
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Instant;

pub const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        Server::start_from(std::path::Path::new(BASHNI), args)
    }

    /// `program serve --port 0 args` (a copy of the binary, say).
    pub fn start_from(program: &std::path::Path, args: &[&str]) -> Server {
        watch();
        let mut child = Command::new(program)
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start bashni serve");
        // Its first line says where it listens; read on a thread, so that a server that never
        // listens fails the test instead of blocking it.
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = match rx.recv_timeout(DEADLINE) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("bashni serve {args:?} said nowhere it listens within {DEADLINE:?}");
            }
        };
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// A new connection; each read and write on it fails after [`DEADLINE`].
    pub fn connect(&self) -> TcpStream {
        watch();
        let s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(DEADLINE)).unwrap();
        s.set_write_timeout(Some(DEADLINE)).unwrap();
        s
    }

    /// One request; returns the status and the body.
    pub fn raw(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        let mut s = self.connect();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        // The server may answer (413) and close before reading a large body.
        let _ = s.write_all(body);
        let out = read_to_close(&mut s, &format!("the answer to {method} {path}"));
        let text = String::from_utf8_lossy(&out).to_string();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    pub fn call(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (status, text) = self.raw(method, path, body.as_bytes());
        let v = json::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text:?}"));
        (status, v)
    }

    /// A request that must succeed; its JSON.
    pub fn ok(&self, method: &str, path: &str, body: &str) -> Value {
        let (status, v) = self.call(method, path, body);
        assert!(
            (200..300).contains(&status),
            "{method} {path} {body}: {status} {v}"
        );
        v
    }

    pub fn new_game(&self, body: &str) -> (String, Value) {
        let v = self.ok("POST", "/api/games", body);
        (str_of(&v, "id").to_string(), v)
    }

    pub fn status(&self) -> Value {
        self.ok("GET", "/api/status", "")
    }

    /// Engine processes the server has started and not yet reaped, from /proc.
    pub fn children(&self) -> usize {
        self.child_pids().len()
    }

    /// The process ids of those engine processes (zombies included).
    pub fn child_pids(&self) -> Vec<u32> {
        let me = self.child.id().to_string();
        std::fs::read_dir("/proc")
            .map(|d| {
                d.filter_map(|e| {
                    let e = e.ok()?;
                    let pid: u32 = e.file_name().to_str()?.parse().ok()?;
                    let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
                    // pid (comm) state ppid ...: the comm may hold spaces, so from the ')'.
                    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
                    (rest.split_whitespace().nth(1) == Some(me.as_str())).then_some(pid)
                })
                .collect()
            })
            .unwrap_or_default()
    }

    /// The server's resident memory, KiB (`VmRSS` of /proc/PID/status).
    pub fn rss_kib(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .and_then(|t| {
                t.lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|n| n.parse().ok())
            })
            .unwrap_or(0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no string {key} in {v}"))
}

pub fn moves_of(v: &Value) -> Vec<String> {
    v.get("moves")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

pub fn legal_of(v: &Value) -> Vec<String> {
    v.get("legal")
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .map(|m| str_of(m, "move").to_string())
        .collect()
}

pub fn error_of(v: &Value) -> &str {
    str_of(v, "error")
}

/// Reads `s` until the server closes it; fails if that takes more than [`DEADLINE`] in all
/// (a server that trickles bytes included), saying it waited for `what`.
#[track_caller]
pub fn read_to_close(s: &mut TcpStream, what: &str) -> Vec<u8> {
    let end = deadline::deadline();
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let wait = left(end);
        assert!(!wait.is_zero(), "waited {DEADLINE:?} for {what}");
        s.set_read_timeout(Some(wait)).unwrap();
        match s.read(&mut buf) {
            Ok(0) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                panic!("waited {DEADLINE:?} for {what}")
            }
            // A reset after the answer (a refused large body): what came is the answer.
            Err(_) => return out,
        }
    }
}

/// An open event stream.
pub struct Events {
    pub reader: BufReader<TcpStream>,
    /// The game's id, for messages.
    id: String,
}

impl Events {
    #[track_caller]
    pub fn open(server: &Server, id: &str) -> Events {
        let mut s = server.connect();
        write!(
            s,
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.addr
        )
        .unwrap();
        let mut events = Events {
            reader: BufReader::new(s),
            id: id.to_string(),
        };
        let line = events.line(deadline::deadline(), "the event stream's answer");
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        events
    }

    /// One line of the stream, read by `end` (else the test fails saying it waited for
    /// `what`); the server's heartbeats come every second, so only a hung server is silent.
    #[track_caller]
    fn line(&mut self, end: Instant, what: &str) -> String {
        let mut line = String::new();
        loop {
            let wait = left(end);
            assert!(
                !wait.is_zero(),
                "waited {DEADLINE:?} for {what} on game {}'s event stream",
                self.id
            );
            self.reader.get_ref().set_read_timeout(Some(wait)).unwrap();
            // A timed-out read keeps what it read so far in `line`; the next goes on.
            match self.reader.read_line(&mut line) {
                Ok(0) => panic!("game {}'s event stream closed ({what})", self.id),
                Ok(_) => return line,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => panic!("game {}'s event stream: {e} ({what})", self.id),
            }
        }
    }

    /// The next event by `end`: its name and data.
    #[track_caller]
    fn next_by(&mut self, end: Instant, what: &str) -> (String, Value) {
        let (mut event, mut data) = (String::new(), None);
        loop {
            let line = self.line(end, what);
            let line = line.trim_end();
            if let Some(e) = line.strip_prefix("event: ") {
                event = e.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data = Some(json::parse(d).unwrap());
            } else if line.is_empty()
                && let Some(d) = data.take()
            {
                return (event, d);
            }
        }
    }

    /// The next event: its name and data (within [`DEADLINE`]).
    #[track_caller]
    pub fn next(&mut self) -> (String, Value) {
        self.next_by(deadline::deadline(), "the next event")
    }

    /// Reads events until one for which `done` holds (given the event's name and data), within
    /// [`DEADLINE`] in all; fails saying it waited for `what`, with the last event seen.
    #[track_caller]
    pub fn until(&mut self, what: &str, done: impl Fn(&str, &Value) -> bool) -> (String, Value) {
        let end = deadline::deadline();
        let mut last = String::from("none");
        loop {
            let wait = left(end);
            assert!(
                !wait.is_zero(),
                "waited {DEADLINE:?} for {what} on game {}'s event stream; the last event: {last}",
                self.id
            );
            let (e, v) = self.next_by(end, what);
            if done(&e, &v) {
                return (e, v);
            }
            last = format!("{e} {v}");
        }
    }

    /// Reads events until a state for which `done` holds (within [`DEADLINE`] in all; the
    /// failure names the caller's line and the last state seen).
    #[track_caller]
    pub fn state_until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        self.until("a state that meets the test's condition", |e, v| {
            e == "state" && done(v)
        })
        .1
    }
}

pub fn version(v: &Value) -> u64 {
    v.get("version").and_then(Value::as_u64).unwrap()
}

/// The person's turn (or the end) in a state newer than `after`; the stream may still hold
/// older states.
pub fn my_turn_after(after: &Value) -> impl Fn(&Value) -> bool {
    let seen = version(after);
    move |v| version(v) > seen && your_turn(v)
}

pub fn your_turn(v: &Value) -> bool {
    v.get("your_turn") == Some(&Value::Bool(true)) || v.get("result") != Some(&Value::Null)
}

/// Plays `mv` in game `id` as the person and waits (on `events`) until it is the person's
/// turn again; the state then.
pub fn play_and_wait(server: &Server, events: &mut Events, id: &str, mv: &str) -> Value {
    let v = server.ok(
        "POST",
        &format!("/api/games/{id}/move"),
        &format!("{{\"move\":\"{mv}\"}}"),
    );
    if your_turn(&v) {
        v
    } else {
        events.state_until(my_turn_after(&v))
    }
}
