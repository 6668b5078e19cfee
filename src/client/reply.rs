//! What an engine answers a client, read: the errors of an engine, the reply to a `go`, and
//! the lines of a search as they come. Shared by the child process of
//! [`engine`](super::engine) (natively) and by engines that run in the client's own process
//! (the browser's `bashni serve`, `serve::browser`): the same lines, read the same way.

use super::info::parse_info;
use crate::games::Variant;
use crate::platform::Instant;
use crate::protocol::options::VARIANT_OPTION;
use crate::record::game_record::LastInfo;
use std::fmt;
use std::time::Duration;

/// What went wrong with an engine process.
#[derive(Debug)]
pub enum EngineError {
    /// The program could not be started (engine name, command, reason).
    Spawn(String, String, std::io::Error),
    /// The process ended or closed its output (engine name).
    Crashed(String),
    /// Its working directory (`dir=`) does not exist or is not a directory (engine name, dir).
    NoDirectory(String, String),
    /// No answer in time (engine name, what was awaited).
    Timeout(String, &'static str),
    /// An option the engine does not declare (engine name, option).
    UnknownOption(String, String),
    /// An option value the engine refused with an `info string error` line (engine name,
    /// option, value, the engine's words).
    RejectedOption(String, String, String, String),
    /// The engine does not offer the game to be played (engine name, the game, the values
    /// of its `UCI_Variant` option, `None` when it declares none).
    NoVariant(String, Variant, Option<Vec<String>>),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(n, cmd, e) => write!(f, "engine '{n}': cannot start '{cmd}': {e}"),
            EngineError::NoDirectory(n, dir) => {
                write!(
                    f,
                    "engine '{n}': the directory '{dir}' (dir=) does not exist"
                )
            }
            EngineError::Crashed(n) => write!(f, "engine '{n}' exited or closed its output"),
            EngineError::Timeout(n, what) => {
                write!(f, "engine '{n}' did not answer '{what}' in time")
            }
            EngineError::UnknownOption(n, o) => {
                write!(
                    f,
                    "engine '{n}' has no option '{o}' (see its 'option name' lines)"
                )
            }
            EngineError::RejectedOption(n, o, v, said) => {
                write!(f, "engine '{n}' refused option {o}={v}: {said}")
            }
            EngineError::NoVariant(n, v, None) => write!(
                f,
                "engine '{n}' cannot play {v}: it declares no {VARIANT_OPTION} option (an engine \
                 that plays only Bashni)"
            ),
            EngineError::NoVariant(n, v, Some(offered)) => write!(
                f,
                "engine '{n}' cannot play {v}: its {VARIANT_OPTION} offers {}",
                offered.join(", ")
            ),
        }
    }
}

impl std::error::Error for EngineError {}

/// How often an engine's client (`EngineProcess::go_watched`) asks its watcher whether to stop.
pub const WATCH_POLL: Duration = Duration::from_millis(50);

/// Follows a search: an engine process's (`EngineProcess::go_watched`), or an in-process
/// session's (`serve::browser`).
pub trait GoWatcher {
    /// Called with every `info` line as it arrives (trimmed).
    fn info(&mut self, line: &str);
    /// Asked at least every [`WATCH_POLL`]: true has the engine sent `stop`.
    fn should_stop(&mut self) -> bool;
}

/// The watcher of a plain `go`: it reads nothing and never stops.
pub struct Unwatched;

impl GoWatcher for Unwatched {
    fn info(&mut self, _line: &str) {}
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// The answer to a `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoReply {
    /// `bestmove <text>` arrived at `at`; `info` is the last scored report before it.
    Move {
        text: String,
        at: Instant,
        info: Option<LastInfo>,
    },
    /// The engine said `bestmove (none)` (or `bestmove` with nothing after it).
    NoMove { at: Instant },
    /// Nothing before the deadline.
    Timeout,
    /// The process ended.
    Crashed,
}

/// One line of a search in the engine protocol: an `info` line goes to `watch` (and its score
/// to `info`); `bestmove` (arrived at `at`) is the reply; anything else is skipped.
pub fn read_reply(
    line: &str,
    at: Instant,
    info: &mut Option<LastInfo>,
    watch: &mut dyn GoWatcher,
) -> Option<GoReply> {
    read_search_line(line, at, info, watch, parse_info, bestmove)
}

/// The move of a `bestmove` line (None for `bestmove (none)` or a bare `bestmove`); None for
/// any other line.
fn bestmove(line: &str) -> Option<Option<String>> {
    let rest = line.strip_prefix("bestmove")?;
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        return None;
    }
    Some(match rest.split_whitespace().next() {
        None | Some("(none)") => None,
        Some(m) => Some(m.to_string()),
    })
}

/// One line of a search in a protocol whose `info` lines' scores `score` reads and whose
/// last line `done` reads (its move, or None for no move; None for any other line): an
/// `info` line goes to `watch` (and its score to `info`); the last line, arrived at `at`, is
/// the reply. The engine protocol's ([`read_reply`]) and Hub's.
pub fn read_search_line(
    line: &str,
    at: Instant,
    info: &mut Option<LastInfo>,
    watch: &mut dyn GoWatcher,
    score: impl Fn(&str) -> Option<LastInfo>,
    done: impl FnOnce(&str) -> Option<Option<String>>,
) -> Option<GoReply> {
    if line.starts_with("info") {
        watch.info(line);
        *info = score(line).or(*info);
        return None;
    }
    Some(match done(line)? {
        None => GoReply::NoMove { at },
        Some(text) => GoReply::Move {
            text,
            at,
            info: *info,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game_record::EngineScore;

    /// A watcher that keeps the lines it was given.
    #[derive(Default)]
    struct Seen(Vec<String>);

    impl GoWatcher for Seen {
        fn info(&mut self, line: &str) {
            self.0.push(line.to_string());
        }
        fn should_stop(&mut self) -> bool {
            false
        }
    }

    #[test]
    fn a_search_reads_to_its_bestmove() {
        let (at, mut info, mut seen) = (Instant::now(), None, Seen::default());
        let mut read = |l: &str| read_reply(l, at, &mut info, &mut seen);
        assert_eq!(read("info depth 3 score cp 12 pv c3-d4"), None);
        assert_eq!(read("bestmoves are not this"), None);
        assert_eq!(read("readyok"), None);
        let reply = read("bestmove c3-d4 ponder f6-e5");
        let Some(GoReply::Move {
            text, info: last, ..
        }) = reply
        else {
            panic!("{reply:?}");
        };
        assert_eq!(text, "c3-d4");
        assert_eq!(last.map(|i| i.score), Some(EngineScore::Cp(12)));
        assert_eq!(seen.0, ["info depth 3 score cp 12 pv c3-d4"]);
        let mut none = None;
        assert!(matches!(
            read_reply("bestmove (none)", at, &mut none, &mut Unwatched),
            Some(GoReply::NoMove { .. })
        ));
    }
}
