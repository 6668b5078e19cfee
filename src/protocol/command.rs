//! Parsing protocol input lines into typed commands, with typed errors that say what is
//! wrong and where. Parsing is stateless and the same in every game: whatever needs the
//! game and its current position (the FEN, the legality of `moves` and `searchmoves`) is
//! checked by [`PositionArgs::to_game`] and [`GoArgs::to_limits`] (in [`super::go`]), with
//! the errors of [`GameInputError`].

use crate::games::{Game, Record, RecordError, Rules, Variant};
use crate::search::{MAX_DEPTH, SearchLimits};
use std::fmt;

/// Deepest `go depth` accepted: the search's own cap (it keeps 8 plies of its stacks for
/// the quiescence search below the nominal depth).
pub const MAX_GO_DEPTH: u64 = MAX_DEPTH as u64;
/// Largest `go mate` accepted (own moves): a win that long needs twice the plies.
pub const MAX_GO_MATE: u64 = MAX_GO_DEPTH / 2;
/// Largest `go nodes` accepted: 10^12 nodes is days of search on one core; more is a typo
/// or a "forever" that `go infinite` says better.
pub const MAX_GO_NODES: u64 = 1_000_000_000_000;
/// Largest time accepted in `go` (`movetime`, clocks, increments), ms: 2^31 - 1, about 24
/// days, the most a GUI with 32-bit milliseconds can send.
pub const MAX_GO_TIME_MS: u64 = i32::MAX as u64;
/// Largest `go movestogo` accepted.
pub const MAX_MOVESTOGO: u64 = 10_000;
pub use super::quote::{QUOTE_CHARS, quote};

/// One command of the protocol (see engine-protocol.md).
#[derive(Clone, Debug)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`: accepted and ignored.
    Debug,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <id> [value <x>]`.
    SetOption {
        /// Option name as given (matched case-insensitively).
        name: String,
        /// Value text, if any.
        value: Option<String>,
    },
    /// `ucinewgame`.
    NewGame,
    /// `position startpos|fen <FEN> [moves ...]`.
    Position(PositionArgs),
    /// `go ...` (a search).
    Go(GoArgs),
    /// `go perft <depth>`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: board diagram.
    Display,
    /// `eval`: static evaluation by terms.
    Eval,
    /// `moves`: the legal moves of the current position.
    Moves,
    /// `state`: the game state of the current position (turn, result, counters, FEN).
    State,
}

/// The arguments of `position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionArgs {
    /// The FEN to start from; `None` for `startpos` (the game's own start position).
    pub fen: Option<String>,
    /// Move texts to play from it, in order.
    pub moves: Vec<String>,
}

/// The arguments of `go` (all optional; none at all means "until `stop`").
#[derive(Clone, Debug, Default)]
pub struct GoArgs {
    /// The limits as given: `infinite` is the word `infinite`; `searchmoves` and `multipv`
    /// are filled in by [`GoArgs::to_limits`], which needs the position and the options.
    pub limits: SearchLimits,
    /// Start in pondering mode.
    pub ponder: bool,
    /// Root moves to consider, as given (empty = all).
    pub searchmoves: Vec<String>,
}

/// What is wrong with a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is not a command.
    Unknown(String),
    /// A command that takes no arguments got some.
    UnexpectedArgs(&'static str, String),
    /// `debug` without `on` or `off`.
    BadDebug(String),
    /// `position` without `startpos` or `fen`.
    PositionStart(String),
    /// `position fen` with nothing after `fen`.
    MissingFen,
    /// A word after the position that is not `moves`.
    PositionTrailing(String),
    /// A `go` keyword without its value.
    MissingValue(&'static str),
    /// A `go` keyword with a value that is not a number (keyword, value, what is expected).
    BadNumber(&'static str, String, &'static str),
    /// A `go` keyword with a number outside its range (keyword, value, min, max).
    OutOfRange(&'static str, String, u64, u64),
    /// A line longer than the reader keeps (its start, its length in bytes).
    TooLong(String, u64),
    /// A word of `go` that is not a keyword.
    UnknownGoArg(String),
    /// `go perft` with something after the depth.
    PerftTrailing(String),
    /// `setoption` without `name <id>`.
    MissingOptionName,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(c) if c == "help" => write!(
                f,
                "unknown command 'help': this is the engine protocol (engine-protocol.md); \
                 'uci' starts it; run 'bashni --help' for the commands, or 'bashni play' to play"
            ),
            CommandError::Unknown(c) => write!(f, "unknown command '{}'", quote(c)),
            CommandError::UnexpectedArgs(c, rest) => {
                write!(f, "{c}: takes no arguments, got '{}'", quote(rest))
            }
            CommandError::BadDebug(w) => {
                write!(f, "debug: expected 'on' or 'off', got '{}'", quote(w))
            }
            CommandError::PositionStart(w) if w.is_empty() => {
                write!(f, "position: expected 'startpos' or 'fen <FEN>'")
            }
            CommandError::PositionStart(w) => {
                let w = quote(w);
                write!(f, "position: expected 'startpos' or 'fen <FEN>', got '{w}'")
            }
            CommandError::MissingFen => write!(f, "position: 'fen' needs a FEN"),
            CommandError::PositionTrailing(w) => {
                let w = quote(w);
                write!(
                    f,
                    "position: expected 'moves' after the position, got '{w}'"
                )
            }
            CommandError::MissingValue(k) => write!(f, "go: '{k}' needs a value"),
            CommandError::BadNumber(k, v, what) => {
                write!(f, "go: '{k}' needs {what}, got '{}'", quote(v))
            }
            CommandError::OutOfRange(k, v, lo, hi) => {
                write!(f, "go: {k} {} is outside {lo}..{hi}", quote(v))
            }
            CommandError::TooLong(start, len) => write!(
                f,
                "line of {len} bytes is too long (at most {} are read): '{}'",
                super::MAX_LINE_BYTES,
                quote(start)
            ),
            CommandError::UnknownGoArg(w) => write!(f, "go: unknown argument '{}'", quote(w)),
            CommandError::PerftTrailing(w) => {
                write!(f, "go perft: unexpected '{}' after the depth", quote(w))
            }
            CommandError::MissingOptionName => {
                write!(f, "setoption: expected 'setoption name <id> [value <x>]'")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// What is wrong with a parsed command in the current game `G`: its FEN or moves are not
/// the game's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameInputError<G: Rules> {
    /// The FEN of `position` does not parse (the FEN as given, why).
    BadFen(String, G::FenError),
    /// Move `index` (1-based) of the `moves` list of `position` is not legal.
    BadMove(usize, G::MoveError),
    /// A move of `searchmoves` that is not legal here.
    BadSearchMove(G::MoveError),
}

impl<G: Rules> fmt::Display for GameInputError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameInputError::BadFen(fen, e) => {
                write!(
                    f,
                    "position: bad FEN '{}': {}",
                    quote(fen),
                    quote(&e.to_string())
                )
            }
            GameInputError::BadMove(i, e) => {
                let e = quote(&e.to_string());
                write!(f, "position: move {i} of the moves list: {e}")
            }
            GameInputError::BadSearchMove(e) => {
                write!(f, "go: searchmoves: {}", quote(&e.to_string()))
            }
        }
    }
}

impl<G: Rules> std::error::Error for GameInputError<G> {}

/// Parses one input line. An empty (or blank) line is `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<Command>, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Ok(None);
    };
    let simple = |c: Command, name: &'static str| {
        if rest.is_empty() {
            Ok(Some(c))
        } else {
            Err(CommandError::UnexpectedArgs(name, rest.join(" ")))
        }
    };
    match first {
        "uci" => simple(Command::Uci, "uci"),
        "isready" => simple(Command::IsReady, "isready"),
        "ucinewgame" => simple(Command::NewGame, "ucinewgame"),
        "stop" => simple(Command::Stop, "stop"),
        "ponderhit" => simple(Command::PonderHit, "ponderhit"),
        "quit" => Ok(Some(Command::Quit)),
        "d" => simple(Command::Display, "d"),
        "eval" => simple(Command::Eval, "eval"),
        "moves" => simple(Command::Moves, "moves"),
        "state" => simple(Command::State, "state"),
        "debug" => match rest {
            [] | ["on"] | ["off"] => Ok(Some(Command::Debug)),
            _ => Err(CommandError::BadDebug(rest.join(" "))),
        },
        "setoption" => parse_setoption(rest).map(Some),
        "position" => parse_position(rest).map(|p| Some(Command::Position(p))),
        "go" => parse_go(rest).map(Some),
        other => Err(CommandError::Unknown(other.to_string())),
    }
}

/// `name <words...> [value <words...>]`.
fn parse_setoption(words: &[&str]) -> Result<Command, CommandError> {
    let ["name", rest @ ..] = words else {
        return Err(CommandError::MissingOptionName);
    };
    let (name, value) = match rest.iter().position(|w| *w == "value") {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(CommandError::MissingOptionName);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<PositionArgs, CommandError> {
    let (fen, after) = match words {
        ["startpos", after @ ..] => (None, after),
        ["fen", after @ ..] => {
            let end = after
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(after.len());
            if end == 0 {
                return Err(CommandError::MissingFen);
            }
            (Some(after[..end].join(" ")), &after[end..])
        }
        [] => return Err(CommandError::PositionStart(String::new())),
        [w, ..] => return Err(CommandError::PositionStart(w.to_string())),
    };
    let moves = match after {
        [] => Vec::new(),
        ["moves", ms @ ..] => ms.iter().map(|m| m.to_string()).collect(),
        [w, ..] => return Err(CommandError::PositionTrailing(w.to_string())),
    };
    Ok(PositionArgs { fen, moves })
}

impl PositionArgs {
    /// Builds the game `G`: parses the FEN (or takes the game's start position) and plays
    /// every move, or says which part is wrong.
    pub fn to_game<G: Game>(&self) -> Result<Record<G>, GameInputError<G>> {
        let fen = self.fen.as_deref().unwrap_or(G::START_FEN);
        Record::from_fen_and_moves(fen, &self.moves).map_err(|e| match e {
            RecordError::BadFen(e) => GameInputError::BadFen(fen.to_string(), e),
            RecordError::BadMove(i, e) => GameInputError::BadMove(i, e),
        })
    }
}

/// Keywords of `go` that take a value.
const VALUE_KEYWORDS: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
];

fn is_go_keyword(w: &str) -> bool {
    VALUE_KEYWORDS.contains(&w) || matches!(w, "infinite" | "ponder" | "searchmoves")
}

fn parse_go(words: &[&str]) -> Result<Command, CommandError> {
    if let ["perft", rest @ ..] = words {
        let v = rest.first().ok_or(CommandError::MissingValue("perft"))?;
        // The deepest any game allows; the game played checks its own limit when it runs.
        let most = Variant::ALL
            .iter()
            .map(|&g| crate::for_variant!(g, G => G::MAX_PERFT_DEPTH))
            .max()
            .unwrap_or(0);
        let depth = whole_number("perft", v, 0, most.into(), "a depth")?;
        if rest.len() > 1 {
            return Err(CommandError::PerftTrailing(rest[1..].join(" ")));
        }
        return Ok(Command::Perft(depth as u32));
    }
    let mut go = GoArgs::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        match word {
            "infinite" => go.limits.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i < words.len() && !is_go_keyword(words[i]) {
                    go.searchmoves.push(words[i].to_string());
                    i += 1;
                }
            }
            _ => {
                let Some(&key) = VALUE_KEYWORDS.iter().find(|k| **k == word) else {
                    return Err(CommandError::UnknownGoArg(word.to_string()));
                };
                let value = *words.get(i).ok_or(CommandError::MissingValue(key))?;
                i += 1;
                set_go_value(&mut go.limits, key, value)?;
            }
        }
    }
    Ok(Command::Go(go))
}

/// A whole number written in decimal digits (an optional `-` for times only), in
/// `lo..=hi`. A number outside the range, however long, is [`CommandError::OutOfRange`];
/// anything else that is not digits is [`CommandError::BadNumber`].
fn whole_number(
    key: &'static str,
    v: &str,
    lo: u64,
    hi: u64,
    what: &'static str,
) -> Result<u64, CommandError> {
    let digits = v.strip_prefix('-').unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CommandError::BadNumber(key, v.to_string(), what));
    }
    match v.parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(CommandError::OutOfRange(key, v.to_string(), lo, hi)),
    }
}

/// A time in ms; GUIs may send a negative clock when it has run out, read as 0.
fn time_value(key: &'static str, v: &str) -> Result<u64, CommandError> {
    let what = "a time in milliseconds";
    match v.strip_prefix('-') {
        Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => Ok(0),
        _ => whole_number(key, v, 0, MAX_GO_TIME_MS, what),
    }
}

fn count_value(key: &'static str, v: &str, hi: u64) -> Result<u64, CommandError> {
    whole_number(key, v, 0, hi, "a non-negative whole number")
}

fn set_go_value(go: &mut SearchLimits, key: &'static str, v: &str) -> Result<(), CommandError> {
    match key {
        "wtime" => go.wtime = Some(time_value(key, v)?),
        "btime" => go.btime = Some(time_value(key, v)?),
        "winc" => go.winc = Some(time_value(key, v)?),
        "binc" => go.binc = Some(time_value(key, v)?),
        "movetime" => go.movetime = Some(time_value(key, v)?),
        "movestogo" => go.movestogo = Some(count_value(key, v, MAX_MOVESTOGO)? as u32),
        "depth" => go.depth = Some(count_value(key, v, MAX_GO_DEPTH)? as u32),
        "mate" => go.mate = Some(count_value(key, v, MAX_GO_MATE)? as u32),
        _ => go.nodes = Some(count_value(key, v, MAX_GO_NODES)?),
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::bashni::Position;
    use crate::games::{russian, turkish};

    /// The `go` command of `line` (a test helper, also for `go.rs`'s tests).
    pub(crate) fn go(line: &str) -> GoArgs {
        match parse_line(line) {
            Ok(Some(Command::Go(g))) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn parses_go_limits() {
        let g = go("go wtime 1000 btime -20 winc 10 binc 0 movestogo 5 depth 7 nodes 99 ponder");
        let l = &g.limits;
        assert_eq!(l.wtime, Some(1000));
        assert_eq!(l.btime, Some(0));
        assert_eq!((l.winc, l.binc, l.movestogo), (Some(10), Some(0), Some(5)));
        assert_eq!((l.depth, l.nodes), (Some(7), Some(99)));
        assert!(g.ponder && !l.infinite && !g.until_stop());
        assert!(go("go").until_stop() && go("go ponder searchmoves c3-d4").until_stop());
        assert!(go("go mate 3").needs_stop() && !go("go mate 3").until_stop());
        assert!(!go("go mate 3 depth 9").needs_stop() && !go("go nodes 5").needs_stop());
        let g = go("go searchmoves c3-d4 e3-f4 infinite");
        assert_eq!(g.searchmoves, ["c3-d4", "e3-f4"]);
        assert!(g.limits.infinite);
        assert!(matches!(
            parse_line("go perft 3"),
            Ok(Some(Command::Perft(3)))
        ));
    }

    #[test]
    fn go_errors() {
        let err = |l: &str| parse_line(l).unwrap_err().to_string();
        assert_eq!(err("go depth 10000"), "go: depth 10000 is outside 0..120");
        assert_eq!(
            err("go depth 4294967296"),
            "go: depth 4294967296 is outside 0..120"
        );
        assert_eq!(
            err("go depth +3"),
            "go: 'depth' needs a non-negative whole number, got '+3'"
        );
        assert_eq!(
            err("go nodes 18446744073709551615"),
            "go: nodes 18446744073709551615 is outside 0..1000000000000"
        );
        assert_eq!(
            err("go movetime 9223372036854775807"),
            "go: movetime 9223372036854775807 is outside 0..2147483647"
        );
        assert_eq!(go("go wtime -99999999999999999999").limits.wtime, Some(0));
        assert_eq!(err("go depth"), "go: 'depth' needs a value");
        assert_eq!(
            err("go depth x"),
            "go: 'depth' needs a non-negative whole number, got 'x'"
        );
        assert_eq!(
            err("go movetime -"),
            "go: 'movetime' needs a time in milliseconds, got '-'"
        );
        assert_eq!(err("go fast"), "go: unknown argument 'fast'");
        assert_eq!(
            err("go perft 3 4"),
            "go perft: unexpected '4' after the depth"
        );
    }

    #[test]
    fn parses_position_and_setoption() {
        let p = parse_line("position fen 8/8/8/8/8/8/8/w7 w 0 1 moves a1-b2").unwrap();
        let Some(Command::Position(p)) = p else {
            panic!()
        };
        assert_eq!(p.fen.as_deref(), Some("8/8/8/8/8/8/8/w7 w 0 1"));
        assert_eq!(p.moves, ["a1-b2"]);
        assert!(p.to_game::<Position>().is_ok());
        // The same words in another game: Turkish has no move a1-b2.
        assert!(p.to_game::<turkish::Position>().is_err());
        let s = parse_line("setoption name Move Overhead value 100").unwrap();
        let Some(Command::SetOption { name, value }) = s else {
            panic!("{s:?}")
        };
        assert_eq!(
            (name.as_str(), value.as_deref()),
            ("Move Overhead", Some("100"))
        );
        assert!(matches!(parse_line("  "), Ok(None)));
        assert!(
            parse_line("help")
                .unwrap_err()
                .to_string()
                .starts_with("unknown command 'help': this is the engine protocol")
        );
        assert_eq!(
            parse_line("foo bar").unwrap_err().to_string(),
            "unknown command 'foo'"
        );
        let long = format!("x{}", "y".repeat(100_000));
        let e = parse_line(&long).unwrap_err().to_string();
        assert!(
            e.len() < 300 && e.ends_with("... (100001 characters in all)'"),
            "{e}"
        );
    }

    #[test]
    fn parses_moves_and_state() {
        assert!(matches!(parse_line("moves"), Ok(Some(Command::Moves))));
        assert!(matches!(parse_line(" state "), Ok(Some(Command::State))));
        assert_eq!(
            parse_line("moves c3-d4").unwrap_err(),
            CommandError::UnexpectedArgs("moves", "c3-d4".into())
        );
        assert_eq!(
            parse_line("state now please").unwrap_err().to_string(),
            "state: takes no arguments, got 'now please'"
        );
    }

    #[test]
    fn position_errors_say_where() {
        let Ok(Some(Command::Position(p))) = parse_line("position startpos moves c3-d4 c3-d4")
        else {
            panic!()
        };
        let e = p.to_game::<Position>().unwrap_err().to_string();
        assert!(
            e.starts_with("position: move 2 of the moves list: illegal move c3-d4"),
            "{e}"
        );
        let e = parse_line("position startpos c3-d4").unwrap_err();
        assert_eq!(e, CommandError::PositionTrailing("c3-d4".into()));
    }

    #[test]
    fn startpos_is_each_games_own() {
        let Ok(Some(Command::Position(p))) = parse_line("position startpos moves d3-d4") else {
            panic!()
        };
        assert_eq!(p.fen, None);
        let g = p.to_game::<turkish::Position>().unwrap();
        assert_eq!(g.start().to_fen(), turkish::Position::START_FEN);
        let e = p.to_game::<Position>().unwrap_err().to_string();
        assert!(e.starts_with("position: move 1 of the moves list: "), "{e}");
        let Ok(Some(Command::Position(p))) = parse_line("position fen 8/8 w") else {
            panic!()
        };
        let e = p.to_game::<russian::Position>().unwrap_err().to_string();
        assert!(e.starts_with("position: bad FEN '8/8 w': "), "{e}");
    }
}
