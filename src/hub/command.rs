//! Parsing Hub input lines into typed commands, with typed errors. A line is a command word
//! then `key=value` tokens (a value may be quoted: `moves="22-17 9-14"`) or bare flags
//! (`infinite`, `think`). Parsing is stateless: what needs the game (the position text,
//! the moves) is checked by [`super::notation`].

use std::fmt;

/// One command of the Hub protocol (Scan's protocol v2).
#[derive(Clone, Debug, PartialEq)]
pub enum HubCommand {
    /// `hub`: identify, declare the parameters, then `wait`.
    Hub,
    /// `init`: answer `ready`.
    Init,
    /// `set-param name=<n> value=<v>`.
    SetParam {
        /// The parameter's name.
        name: String,
        /// Its value (empty when not given).
        value: String,
    },
    /// `new-game`: a new game (the hash table cleared).
    NewGame,
    /// `pos [start] [pos=<position>] [moves="<m1> <m2> ..."]`.
    Pos {
        /// The position text (side to move then every square), `None` for the start.
        pos: Option<String>,
        /// The moves played from it, in Hub notation.
        moves: Vec<String>,
    },
    /// `level ...`: the limits of the next searches (each `level` replaces the last).
    Level(Level),
    /// `go think|ponder|analyze`.
    Go(GoMode),
    /// `ping`: answer `pong`.
    Ping,
    /// `ponder-hit`: the pondering search goes on as a normal one.
    PonderHit,
    /// `stop`: the search ends now and answers `done`.
    Stop,
    /// `quit`.
    Quit,
}

/// How `go` searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// `go think`: search under the level, answer `done`.
    Think,
    /// `go ponder`: search on the opponent's time until `ponder-hit` or `stop`.
    Ponder,
    /// `go analyze`: search until `stop`.
    Analyze,
}

/// The limits of `level` (all optional; none at all searches until `stop`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    /// `depth=<plies>`.
    pub depth: Option<u32>,
    /// `nodes=<n>`.
    pub nodes: Option<u64>,
    /// `move-time=<seconds>`.
    pub move_time: Option<f64>,
    /// `moves=<n>`: moves until the next time control.
    pub moves: Option<u32>,
    /// `time=<seconds>`: the engine's clock before the increment of this move is added.
    pub time: Option<f64>,
    /// `inc=<seconds>`: added to the clock for each move.
    pub inc: Option<f64>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
}

/// What is wrong with a Hub line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubError {
    /// The first word is not a command.
    Unknown(String),
    /// A quoted value that is never closed (the token).
    Unclosed(String),
    /// A key or flag the command does not take (command, key).
    UnknownArg(&'static str, String),
    /// A key given without `=value`, or a flag given a value (command, token).
    BadToken(&'static str, String),
    /// A required key is missing (command, key).
    Missing(&'static str, &'static str),
    /// A number that does not read or is out of range (key, value).
    BadNumber(&'static str, String),
    /// `go` without one of `think`, `ponder`, `analyze` (what was given).
    BadGo(String),
    /// A line longer than the engine reads (its length in bytes).
    TooLong(u64),
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubError::Unknown(w) => write!(f, "unknown command '{w}'"),
            HubError::Unclosed(t) => write!(f, "quote never closed in '{t}'"),
            HubError::UnknownArg(c, k) => write!(f, "{c}: unknown argument '{k}'"),
            HubError::BadToken(c, t) => write!(f, "{c}: '{t}' is not key=value"),
            HubError::Missing(c, k) => write!(f, "{c}: missing {k}=..."),
            HubError::BadNumber(k, v) => write!(f, "{k}: '{v}' is not a number in range"),
            HubError::BadGo(w) => write!(f, "go: expected think, ponder or analyze, got '{w}'"),
            HubError::TooLong(n) => write!(f, "a line of {n} bytes is too long; not read"),
        }
    }
}

impl std::error::Error for HubError {}

/// One argument token: a key and its value (`None` for a bare flag).
type Token = (String, Option<String>);

/// Splits the arguments into tokens; a value in double quotes may hold spaces.
pub fn tokens(text: &str) -> Result<Vec<Token>, HubError> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let key_end = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let key = rest[..key_end].to_string();
        rest = &rest[key_end..];
        let Some(after) = rest.strip_prefix('=') else {
            out.push((key, None));
            rest = rest.trim_start();
            continue;
        };
        let (value, tail) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(end) => (q[..end].to_string(), &q[end + 1..]),
                None => return Err(HubError::Unclosed(format!("{key}={after}"))),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((key, Some(value)));
        rest = tail.trim_start();
    }
    Ok(out)
}

/// Parses one line; `Ok(None)` for a blank line.
pub fn parse_line(line: &str) -> Result<Option<HubCommand>, HubError> {
    let line = line.trim();
    let (word, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let simple = |c: HubCommand| Ok(Some(c));
    match word {
        "" => Ok(None),
        "hub" => simple(HubCommand::Hub),
        "init" => simple(HubCommand::Init),
        "new-game" => simple(HubCommand::NewGame),
        "ping" => simple(HubCommand::Ping),
        "ponder-hit" => simple(HubCommand::PonderHit),
        "stop" => simple(HubCommand::Stop),
        "quit" => simple(HubCommand::Quit),
        "set-param" => set_param(args).map(Some),
        "pos" => pos(args).map(Some),
        "level" => level(args).map(|l| Some(HubCommand::Level(l))),
        "go" => go(args).map(Some),
        w => Err(HubError::Unknown(w.to_string())),
    }
}

fn set_param(args: &str) -> Result<HubCommand, HubError> {
    let (mut name, mut value) = (None, None);
    for (k, v) in tokens(args)? {
        let v = v.ok_or_else(|| HubError::BadToken("set-param", k.clone()))?;
        match k.as_str() {
            "name" => name = Some(v),
            "value" => value = Some(v),
            _ => return Err(HubError::UnknownArg("set-param", k)),
        }
    }
    Ok(HubCommand::SetParam {
        name: name.ok_or(HubError::Missing("set-param", "name"))?,
        value: value.unwrap_or_default(),
    })
}

fn pos(args: &str) -> Result<HubCommand, HubError> {
    let (mut pos, mut moves) = (None, Vec::new());
    for (k, v) in tokens(args)? {
        match (k.as_str(), v) {
            ("start", None) => pos = None,
            ("pos", Some(v)) => pos = Some(v),
            ("moves", Some(v)) => moves = v.split_whitespace().map(str::to_string).collect(),
            ("start" | "pos" | "moves", _) => return Err(HubError::BadToken("pos", k)),
            _ => return Err(HubError::UnknownArg("pos", k)),
        }
    }
    Ok(HubCommand::Pos { pos, moves })
}

fn number<T: std::str::FromStr>(key: &'static str, v: &str) -> Result<T, HubError> {
    v.parse()
        .map_err(|_| HubError::BadNumber(key, v.to_string()))
}

/// A time in seconds: finite, and at most about 24 days.
fn seconds(key: &'static str, v: &str) -> Result<f64, HubError> {
    let s: f64 = number(key, v)?;
    if s.is_finite() && s.abs() < 2.0e6 {
        Ok(s)
    } else {
        Err(HubError::BadNumber(key, v.to_string()))
    }
}

fn level(args: &str) -> Result<Level, HubError> {
    let mut l = Level::default();
    for (k, v) in tokens(args)? {
        if k == "infinite" && v.is_none() {
            l.infinite = true;
            continue;
        }
        let v = v.ok_or_else(|| HubError::BadToken("level", k.clone()))?;
        match k.as_str() {
            "depth" => {
                let d: u32 = number("depth", &v)?;
                if d == 0 || d as u64 > crate::protocol::command::MAX_GO_DEPTH {
                    return Err(HubError::BadNumber("depth", v));
                }
                l.depth = Some(d);
            }
            "nodes" => {
                let n: u64 = number("nodes", &v)?;
                if n == 0 || n > crate::protocol::command::MAX_GO_NODES {
                    return Err(HubError::BadNumber("nodes", v));
                }
                l.nodes = Some(n);
            }
            "move-time" => l.move_time = Some(seconds("move-time", &v)?.max(0.0)),
            "moves" => l.moves = Some(number("moves", &v)?),
            "time" => l.time = Some(seconds("time", &v)?),
            "inc" => l.inc = Some(seconds("inc", &v)?.max(0.0)),
            _ => return Err(HubError::UnknownArg("level", k)),
        }
    }
    Ok(l)
}

fn go(args: &str) -> Result<HubCommand, HubError> {
    let mode = match args.trim() {
        "think" => GoMode::Think,
        "ponder" => GoMode::Ponder,
        "analyze" | "analyse" => GoMode::Analyze,
        other => return Err(HubError::BadGo(other.to_string())),
    };
    Ok(HubCommand::Go(mode))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> HubCommand {
        parse_line(line).unwrap().unwrap()
    }

    #[test]
    fn reads_every_command() {
        assert_eq!(ok("hub"), HubCommand::Hub);
        assert_eq!(parse_line("   "), Ok(None));
        assert_eq!(
            ok("set-param name=variant value=russian"),
            HubCommand::SetParam {
                name: "variant".into(),
                value: "russian".into()
            }
        );
        assert_eq!(
            ok(r#"pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="22-17 9-14""#),
            HubCommand::Pos {
                pos: Some("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww".into()),
                moves: vec!["22-17".into(), "9-14".into()]
            }
        );
        assert_eq!(
            ok("level time=59.0 inc=1.0 moves=20"),
            HubCommand::Level(Level {
                time: Some(59.0),
                inc: Some(1.0),
                moves: Some(20),
                ..Level::default()
            })
        );
        let l = ok("level depth=8 nodes=10000 move-time=2 infinite");
        assert_eq!(
            l,
            HubCommand::Level(Level {
                depth: Some(8),
                nodes: Some(10000),
                move_time: Some(2.0),
                infinite: true,
                ..Level::default()
            })
        );
        assert_eq!(ok("go think"), HubCommand::Go(GoMode::Think));
        assert_eq!(ok("go analyze"), HubCommand::Go(GoMode::Analyze));
        assert_eq!(ok("ponder-hit"), HubCommand::PonderHit);
    }

    #[test]
    fn bad_lines_say_why() {
        let e = |l: &str| parse_line(l).unwrap_err().to_string();
        assert_eq!(e("uci"), "unknown command 'uci'");
        assert_eq!(
            e(r#"pos moves="1-5"#),
            "quote never closed in 'moves=\"1-5'"
        );
        assert_eq!(e("level depth=x"), "depth: 'x' is not a number in range");
        assert_eq!(e("level depth=0"), "depth: '0' is not a number in range");
        assert_eq!(e("level time=inf"), "time: 'inf' is not a number in range");
        assert_eq!(e("level speed=3"), "level: unknown argument 'speed'");
        assert_eq!(e("go"), "go: expected think, ponder or analyze, got ''");
        assert_eq!(e("set-param value=3"), "set-param: missing name=...");
        assert_eq!(e("pos pos"), "pos: 'pos' is not key=value");
    }
}
