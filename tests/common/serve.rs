//! `bashni serve` driven over HTTP as a page would: the real binary on a free loopback
//! port, requests written by hand on a TcpStream (no HTTP crate needed). Used by
//! tests/serve.rs and tests/serve_abuse.rs.

use bashni::serve::json::{self, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// Longest wait for anything (only to keep a broken server from hanging the test).
pub const PATIENCE: Duration = Duration::from_secs(60);

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
        let mut child = Command::new(program)
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start bashni serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    pub fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(PATIENCE)).unwrap();
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
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
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

/// An open event stream.
pub struct Events {
    pub reader: BufReader<TcpStream>,
}

impl Events {
    pub fn open(server: &Server, id: &str) -> Events {
        let mut s = server.connect();
        write!(
            s,
            "GET /api/games/{id}/events HTTP/1.1\r\nHost: {}\r\n\r\n",
            server.addr
        )
        .unwrap();
        let mut reader = BufReader::new(s);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        Events { reader }
    }

    /// The next event: its name and data.
    pub fn next(&mut self) -> (String, Value) {
        let (mut event, mut data) = (String::new(), None);
        loop {
            let mut line = String::new();
            let n = self.reader.read_line(&mut line).unwrap();
            assert!(n > 0, "stream closed");
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

    /// Reads events until a state for which `done` holds.
    pub fn state_until(&mut self, done: impl Fn(&Value) -> bool) -> Value {
        loop {
            let (e, v) = self.next();
            if e == "state" && done(&v) {
                return v;
            }
        }
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
