//! The order in which a session takes its commands, written once for the UCI-shaped protocol
//! ([`super::session`]) and the Hub protocol ([`crate::hub`]): every line is taken in the
//! order it was read, and a command that needs the engine idle waits, with everything read
//! after it, while a search runs.
//!
//! - `stop` acts at once: it ends the running work and marks every search or perft still
//!   queued (all read before it) to stop as soon as it starts, so each still answers once.
//! - `ponderhit` goes to the last search read before it: the queued one if there is one,
//!   else the running search.
//! - A ping (`isready`, Hub's `ping`) is answered at once when nothing waits, even during a
//!   search; else in its turn, and while the engine is busy as soon as it reaches the front.
//! - `quit` stops everything read before it; what was queued still runs, then the session
//!   ends; lines after it are not taken.

use super::reader::Line;
use std::collections::VecDeque;

/// What a command is to the ordering rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    /// Ends the running work and the queued work.
    Stop,
    /// Turns a pondering search into a normal one.
    PonderHit,
    /// Ends the session once what was read before it has run.
    Quit,
    /// Asks whether everything before it has answered.
    Ping,
    /// Starts a search (`stop` and `ponderhit` reach it).
    Search,
    /// Starts other work that `stop` ends (`go perft`).
    Work,
    /// Anything else: run in turn while the engine is idle.
    Other,
}

/// A command as the ordering rules see it.
pub(crate) trait Ordered {
    /// Its role.
    fn role(&self) -> Role;
}

/// A command read but not started yet.
pub(crate) struct Pending<C, E> {
    /// The line, for the message if handling it fails.
    pub line: String,
    /// The command, or why the line is none.
    pub command: Result<C, E>,
    /// A `stop` (or `quit`) came after it: the work it starts stops at once.
    pub stop: bool,
    /// A `ponderhit` came after it: its pondering search starts as a normal one.
    pub ponderhit: bool,
}

impl<C: Ordered, E> Pending<C, E> {
    fn role(&self) -> Role {
        self.command.as_ref().map_or(Role::Other, Ordered::role)
    }
}

/// What the session must do at once with a line just taken.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Now {
    /// Nothing (the line was queued, empty, or came after `quit`).
    Nothing,
    /// Stop the running work (`stop`, `quit`).
    Stop,
    /// Pass `ponderhit` to the running search, if it ponders.
    PonderHit,
    /// Answer the ping.
    Answer,
}

/// What the session does next.
pub(crate) enum Next<C, E> {
    /// Run this command (the engine is idle).
    Run(Pending<C, E>),
    /// Answer a ping that reached the front while the engine is busy.
    Answer,
    /// Nothing to do until the running work ends or a line comes.
    Wait,
}

/// The commands waiting, in order, and whether `quit` or the end of input came.
pub(crate) struct Queue<C, E> {
    waiting: VecDeque<Pending<C, E>>,
    quit: bool,
    eof: bool,
}

impl<C: Ordered, E> Queue<C, E> {
    /// An empty queue.
    pub(crate) fn new() -> Self {
        Queue {
            waiting: VecDeque::new(),
            quit: false,
            eof: false,
        }
    }

    /// Takes one line read: `parse` reads it (`Ok(None)` for a line that says nothing), and
    /// `too_long` is the error of a line cut at the reader's limit.
    pub(crate) fn take(
        &mut self,
        line: Line,
        parse: impl FnOnce(&str) -> Result<Option<C>, E>,
        too_long: impl FnOnce(&Line) -> E,
    ) -> Now {
        if self.quit {
            return Now::Nothing;
        }
        let command = match line.cut_from {
            Some(_) => Err(too_long(&line)),
            None => match parse(&line.text) {
                Ok(None) => return Now::Nothing,
                Ok(Some(c)) => Ok(c),
                Err(e) => Err(e),
            },
        };
        let pending = Pending {
            line: line.text,
            command,
            stop: false,
            ponderhit: false,
        };
        match pending.role() {
            Role::Stop => self.stop_queued(),
            Role::PonderHit => self.ponderhit_queued(),
            Role::Quit => {
                self.quit = true;
                self.stop_queued()
            }
            Role::Ping if self.waiting.is_empty() => Now::Answer,
            _ => {
                self.waiting.push_back(pending);
                Now::Nothing
            }
        }
    }

    /// Marks every queued search and work to stop; the running one stops too.
    fn stop_queued(&mut self) -> Now {
        for p in &mut self.waiting {
            if matches!(p.role(), Role::Search | Role::Work) {
                p.stop = true;
            }
        }
        Now::Stop
    }

    /// Gives `ponderhit` to the last queued search, else to the running one.
    fn ponderhit_queued(&mut self) -> Now {
        let last = self.waiting.iter_mut().rev();
        match last.into_iter().find(|p| p.role() == Role::Search) {
            Some(p) => {
                p.ponderhit = true;
                Now::Nothing
            }
            None => Now::PonderHit,
        }
    }

    /// The next step while the engine is `busy` or idle.
    pub(crate) fn next(&mut self, busy: bool) -> Next<C, E> {
        match self.waiting.front() {
            None => Next::Wait,
            Some(p) if busy => {
                if p.role() != Role::Ping {
                    return Next::Wait;
                }
                self.waiting.pop_front();
                Next::Answer
            }
            Some(_) => self.waiting.pop_front().map_or(Next::Wait, Next::Run),
        }
    }

    /// The end of input came.
    pub(crate) fn set_eof(&mut self) {
        self.eof = true;
    }

    /// Whether the end of input came.
    pub(crate) fn eof(&self) -> bool {
        self.eof
    }

    /// Whether the session is over: `quit` or the end of input, nothing running (`busy`)
    /// and nothing waiting.
    pub(crate) fn finished(&self, busy: bool) -> bool {
        !busy && self.waiting.is_empty() && (self.quit || self.eof)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command named by its role.
    struct Cmd(Role);

    impl Ordered for Cmd {
        fn role(&self) -> Role {
            self.0
        }
    }

    fn parse(text: &str) -> Result<Option<Cmd>, String> {
        Ok(Some(Cmd(match text {
            "" => return Ok(None),
            "stop" => Role::Stop,
            "hit" => Role::PonderHit,
            "quit" => Role::Quit,
            "ping" => Role::Ping,
            "go" => Role::Search,
            "perft" => Role::Work,
            "pos" => Role::Other,
            _ => return Err(format!("unknown {text}")),
        })))
    }

    fn take(q: &mut Queue<Cmd, String>, text: &str) -> Now {
        let line = Line {
            text: text.into(),
            cut_from: None,
        };
        q.take(line, parse, |_| "too long".into())
    }

    #[test]
    fn stop_ponderhit_and_ping_follow_the_order_read() {
        let mut q = Queue::new();
        assert_eq!(take(&mut q, "ping"), Now::Answer);
        assert_eq!(take(&mut q, ""), Now::Nothing);
        assert_eq!(take(&mut q, "hit"), Now::PonderHit);
        for line in ["go", "pos", "perft", "go", "ping"] {
            assert_eq!(take(&mut q, line), Now::Nothing);
        }
        assert_eq!(take(&mut q, "hit"), Now::Nothing);
        assert_eq!(take(&mut q, "stop"), Now::Stop);
        assert_eq!(take(&mut q, "bad"), Now::Nothing);
        // Busy: nothing runs, the ping waits behind the queued commands.
        assert!(matches!(q.next(true), Next::Wait));
        let mut seen = Vec::new();
        while let Next::Run(p) = q.next(false) {
            seen.push((p.line.clone(), p.stop, p.ponderhit, p.command.is_ok()));
            if p.line == "perft" {
                break;
            }
        }
        let expect = [("go", true, false, true), ("pos", false, false, true)];
        let expect = expect.iter().chain(&[("perft", true, false, true)]);
        let expect: Vec<_> = expect
            .map(|&(l, s, h, ok)| (l.to_string(), s, h, ok))
            .collect();
        assert_eq!(seen, expect);
        // The last `go` took the `ponderhit`; then, while it runs, the ping is answered.
        let Next::Run(go) = q.next(false) else {
            panic!()
        };
        assert!(go.stop && go.ponderhit);
        assert!(matches!(q.next(true), Next::Answer));
        let Next::Run(bad) = q.next(false) else {
            panic!()
        };
        assert_eq!(bad.command.err().as_deref(), Some("unknown bad"));
        assert!(!q.finished(false));
        q.set_eof();
        assert!(q.finished(false) && !q.finished(true));
    }

    #[test]
    fn nothing_is_taken_after_quit_and_long_lines_are_errors() {
        let mut q = Queue::new();
        let long = Line {
            text: "go".into(),
            cut_from: Some(9999),
        };
        assert_eq!(
            q.take(long, parse, |l| format!("cut at {:?}", l.cut_from)),
            Now::Nothing
        );
        assert_eq!(take(&mut q, "go"), Now::Nothing);
        assert_eq!(take(&mut q, "quit"), Now::Stop);
        assert_eq!(take(&mut q, "pos"), Now::Nothing);
        let Next::Run(p) = q.next(false) else {
            panic!()
        };
        assert_eq!(p.command.err().as_deref(), Some("cut at Some(9999)"));
        let Next::Run(go) = q.next(false) else {
            panic!()
        };
        assert!(go.stop);
        assert!(matches!(q.next(false), Next::Wait));
        assert!(q.finished(false));
    }
}
