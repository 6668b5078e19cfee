//! One engine process: started with its arguments, spoken to over pipes, its output read by a
//! thread that stamps every line with the time it arrived.

mod hub;

pub use super::info::{PvInfo, parse_info, parse_pv_info};
use super::reply::Unwatched;
pub use super::reply::{EngineError, GoReply, GoWatcher, WATCH_POLL, read_reply};

use super::spec::{EngineSpec, Proto};
use crate::games::Variant;
use crate::protocol::options::VARIANT_OPTION;
use crate::protocol::reader::{Input, spawn_line_reader};
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` and `isready` at start.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// Longest engine output line kept, bytes (the rest is dropped; a PV line is far shorter).
const ENGINE_LINE_BYTES: usize = 1 << 16;

enum Msg {
    Line(Instant, String),
    Eof,
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Msg>,
    dead: bool,
    /// The game, when the engine speaks Hub (`None`: our protocol).
    hub: Option<Variant>,
}

/// What the `uci` answer declared: the option names (lower case) and the values of the
/// `UCI_Variant` combo, if there is one.
#[derive(Default)]
struct Declared {
    options: Vec<String>,
    variants: Option<Vec<String>>,
}

impl Declared {
    /// Takes one `option name <id> type <t> ...` line.
    fn take(&mut self, rest: &str) {
        let (name, kind) = rest.split_once(" type ").unwrap_or((rest, ""));
        let name = name.trim();
        if name.eq_ignore_ascii_case(VARIANT_OPTION) {
            let values = kind.split(" var ").skip(1).map(|v| v.trim().to_string());
            self.variants = Some(values.collect());
        }
        self.options.push(name.to_ascii_lowercase());
    }

    /// Whether the engine offers `variant`.
    fn offers(&self, variant: Variant) -> bool {
        let mut values = self.variants.iter().flatten();
        values.any(|v| v.eq_ignore_ascii_case(variant.name()))
    }
}

impl EngineProcess {
    /// Starts the engine, runs the `uci` handshake, sets its options and waits for `readyok`:
    /// for a game of Bashni, the default, asking nothing of the engine about games (an
    /// engine that plays only Bashni needs no `UCI_Variant`).
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, EngineError> {
        Self::start_for(spec, Variant::Bashni)
    }

    /// Like [`EngineProcess::start`], for games of `variant`: for any game but Bashni the
    /// engine must declare `UCI_Variant` with that value, and is set to it before its other
    /// options (otherwise [`EngineError::NoVariant`]).
    pub fn start_for(spec: &EngineSpec, variant: Variant) -> Result<EngineProcess, EngineError> {
        Self::start_speaking(spec, variant, Proto::Uci)
    }

    /// Like [`EngineProcess::start_for`], speaking `proto`: for [`Proto::Hub`] the Hub
    /// handshake (see [`hub`]), then every search in Hub's terms, translated both ways.
    pub fn start_speaking(
        spec: &EngineSpec,
        variant: Variant,
        proto: Proto,
    ) -> Result<EngineProcess, EngineError> {
        Self::start_watched(spec, variant, proto, || {})
    }

    /// Like [`EngineProcess::start_speaking`]; `ended` is called, on the thread that reads the
    /// engine's output, as soon as that output ends (the process exited, was killed, or closed
    /// it), whenever that happens: during the handshake, a search, or while nobody reads. A
    /// caller that waits for other things (a server's jobs) learns of the engine's death
    /// through it without asking.
    pub fn start_watched(
        spec: &EngineSpec,
        variant: Variant,
        proto: Proto,
        ended: impl FnOnce() + Send + 'static,
    ) -> Result<EngineProcess, EngineError> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group: a Ctrl-C at the terminal, or `timeout` signalling the whole
        // group, then reaches only this program, which ends its games and reports them,
        // instead of killing the engines mid-game (their games would count as crashes).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        if let Some(dir) = &spec.dir {
            // Spawning in a missing directory fails with "No such file or directory", which
            // reads as if the program were missing: say which is.
            if !dir.is_dir() {
                return Err(EngineError::NoDirectory(
                    spec.name.clone(),
                    dir.display().to_string(),
                ));
            }
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            EngineError::Spawn(spec.name.clone(), spec.cmd.display().to_string(), e)
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        let mut ended = Some(ended);
        let deliver = move |input| {
            let msg = match input {
                Input::Line(at, line) => Msg::Line(at, line.text.trim().to_string()),
                Input::Eof => {
                    if let Some(ended) = ended.take() {
                        ended();
                    }
                    Msg::Eof
                }
            };
            tx.send(msg).is_ok()
        };
        let name = format!("engine-{}", spec.name);
        spawn_line_reader(&name, stdout, ENGINE_LINE_BYTES, deliver).map_err(|e| {
            EngineError::Spawn(spec.name.clone(), spec.cmd.display().to_string(), e)
        })?;
        let mut engine = EngineProcess {
            name: spec.name.clone(),
            child,
            stdin,
            rx,
            dead: false,
            hub: (proto == Proto::Hub).then_some(variant),
        };
        match proto {
            Proto::Uci => engine.handshake(spec, variant)?,
            Proto::Hub => engine.hub_handshake(spec, variant)?,
        }
        Ok(engine)
    }

    /// 1. `uci` and the declarations up to `uciok`; 2. the game, unless it is Bashni;
    /// 3. the spec's options, each checked declared and accepted; 4. `isready`.
    fn handshake(&mut self, spec: &EngineSpec, variant: Variant) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + START_TIMEOUT;
        let mut declared = Declared::default();
        loop {
            let (_, line) = self.next_line(deadline, "uci")?;
            if line == "uciok" {
                break;
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                declared.take(rest);
            }
        }
        if variant != Variant::Bashni {
            if !declared.offers(variant) {
                let offered = declared.variants.clone();
                return Err(EngineError::NoVariant(self.name.clone(), variant, offered));
            }
            self.set_option(VARIANT_OPTION, variant.name())?;
        }
        for (name, value) in &spec.options {
            if !declared.options.contains(&name.to_ascii_lowercase()) {
                return Err(EngineError::UnknownOption(self.name.clone(), name.clone()));
            }
            self.set_option(name, value)?;
        }
        self.sync(START_TIMEOUT)
    }

    /// Sends `setoption` and checks that the engine does not refuse it (an engine that
    /// refuses a value says so before `readyok`).
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))?;
        match self.sync_errors(START_TIMEOUT)? {
            None => Ok(()),
            Some(said) => Err(EngineError::RejectedOption(
                self.name.clone(),
                name.to_string(),
                value.to_string(),
                said,
            )),
        }
    }

    /// The engine's name in the match.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes one line. A broken pipe means the process is gone.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let ok = writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .is_ok();
        if ok {
            Ok(())
        } else {
            self.dead = true;
            Err(EngineError::Crashed(self.name.clone()))
        }
    }

    fn next_line(
        &mut self,
        deadline: Instant,
        what: &'static str,
    ) -> Result<(Instant, String), EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(Msg::Line(at, line)) => Ok((at, line)),
            Ok(Msg::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(EngineError::Crashed(self.name.clone()))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(self.name.clone(), what)),
        }
    }

    /// Sends `isready` and waits for `readyok`, dropping everything before it.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.sync_errors(timeout).map(|_| ())
    }

    /// Like [`EngineProcess::sync`]; returns the first `info string error` line said before
    /// `readyok` (what follows `info string `).
    fn sync_errors(&mut self, timeout: Duration) -> Result<Option<String>, EngineError> {
        if self.hub.is_some() {
            return self.hub_sync(timeout);
        }
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut error = None;
        loop {
            let (_, line) = self.next_line(deadline, "isready")?;
            if line == "readyok" {
                return Ok(error);
            }
            if let Some(said) = line.strip_prefix("info string ")
                && said.starts_with("error")
                && error.is_none()
            {
                error = Some(said.to_string());
            }
        }
    }

    /// Starts a new game: `ucinewgame`, then `isready` until `readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send(if self.hub.is_some() {
            "new-game"
        } else {
            "ucinewgame"
        })?;
        self.sync(timeout)
    }

    /// Sends `position` and `go` lines and waits for `bestmove` until `deadline`; returns the
    /// reply and the instant `go` was sent (after the write was flushed). On a timeout the
    /// engine is sent `stop` and given `grace` more to answer: a late `bestmove` is still
    /// returned (the caller judges it against the clock), only silence is a
    /// [`GoReply::Timeout`].
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
        grace: Duration,
    ) -> (Instant, GoReply) {
        self.go_watched(position, go, deadline, grace, &mut Unwatched)
    }

    /// Like [`EngineProcess::go`], and while the search runs: every `info` line is handed to
    /// `watch` as it arrives, and `watch` is asked at least every [`WATCH_POLL`] whether the
    /// search should stop (then `stop` is sent and `grace` given, as at the deadline). For an
    /// analysis that streams its lines and ends when the user leaves it.
    pub fn go_watched(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
        grace: Duration,
        watch: &mut dyn GoWatcher,
    ) -> (Instant, GoReply) {
        // One write for all lines: one system call, one wake-up of the engine.
        let lines = match self.hub {
            None => Ok(format!("{position}\n{go}")),
            Some(v) => hub::hub_go(v, position, go),
        };
        // A game Hub cannot describe is the referee's own mistake: no move.
        let Ok(lines) = lines else {
            return (Instant::now(), GoReply::NoMove { at: Instant::now() });
        };
        if self.send(&lines).is_err() {
            return (Instant::now(), GoReply::Crashed);
        }
        let sent = Instant::now();
        let mut info = None;
        let mut deadline = deadline;
        let mut stopped = false;
        loop {
            if !stopped && watch.should_stop() {
                stopped = true;
                if self.send("stop").is_err() {
                    return (sent, GoReply::Crashed);
                }
                deadline = Instant::now() + grace;
            }
            let wake = deadline.min(Instant::now() + WATCH_POLL);
            match self.next_line(wake, "go") {
                Ok((at, line)) if let Some(v) = self.hub => {
                    if let Some(reply) = hub::reply(v, position, &line, at, &mut info, watch) {
                        return (sent, reply);
                    }
                }
                Ok((at, line)) => {
                    if let Some(reply) = read_reply(&line, at, &mut info, watch) {
                        return (sent, reply);
                    }
                }
                // Only a poll: the deadline is still ahead.
                Err(EngineError::Timeout(..)) if Instant::now() < deadline => {}
                Err(EngineError::Timeout(..)) if !stopped => {
                    stopped = true;
                    if self.send("stop").is_err() {
                        return (sent, GoReply::Crashed);
                    }
                    deadline = Instant::now() + grace;
                }
                Err(EngineError::Timeout(..)) => return (sent, GoReply::Timeout),
                Err(_) => return (sent, GoReply::Crashed),
            }
        }
    }

    /// Whether the process is known to be gone.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Sends `quit` and gives the engine a moment to exit, then kills it.
    pub fn quit(mut self) {
        if !self.dead && self.send("quit").is_ok() {
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_declarations() {
        let mut d = Declared::default();
        d.take("Hash type spin default 16 min 1 max 65536");
        assert!(!d.offers(Variant::Turkish) && d.variants.is_none());
        d.take("UCI_Variant type combo default bashni var bashni var turkish var russian");
        assert!(d.offers(Variant::Turkish) && d.offers(Variant::Russian));
        assert_eq!(d.options, ["hash", "uci_variant"]);
        let mut d = Declared::default();
        d.take("uci_variant type combo default bashni var Bashni var Turkish");
        assert!(d.offers(Variant::Turkish) && !d.offers(Variant::Russian));
        assert_eq!(
            d.variants.as_deref(),
            Some(&["Bashni".into(), "Turkish".into()][..])
        );
    }
}
