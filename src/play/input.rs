//! What a person types during a game: a move (`c3 d4`, `c3-d4`, `c3:e5:g7`, `c3 g7`), a
//! square (its moves), a number (choosing among listed moves) or a command. Parsing needs no
//! position; [`resolve`] then matches a typed path against the legal moves.

use super::level::{Level, LevelError};
use crate::protocol::command::{MAX_GO_TIME_MS, MAX_MOVESTOGO};
use crate::record::time_control::TimeControl;
use crate::rules::movegen::legal_moves;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Square;
use std::fmt;

/// A new time setting typed with `time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSetting {
    /// A clock for both sides (`time 5+0.1`).
    Clock(TimeControl),
    /// A fixed time per engine move, ms (`time movetime 500`).
    MoveTime(u64),
}

/// A command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `help`.
    Help,
    /// `moves`: the legal moves.
    Moves,
    /// `hint`: the engine's choice for the person.
    Hint,
    /// `undo`: take back the last move pair.
    Undo,
    /// `redo`: play again what the last `undo` took back.
    Redo,
    /// `resign`: give the game up.
    Resign,
    /// `draw`: offer the engine a draw.
    Draw,
    /// `new`: a new game.
    New,
    /// `swap`: change sides with the engine.
    Swap,
    /// `level N`.
    Level(Level),
    /// `time` (show the clocks) or `time TC` / `time movetime MS` (set them).
    Time(Option<TimeSetting>),
    /// `flip`: turn the board around.
    Flip,
    /// `board`: draw the board again.
    Board,
    /// `fen`: print the position's FEN.
    Fen,
    /// `save FILE`.
    Save(String),
    /// `load FILE|FEN`.
    Load(String),
    /// `analyse`: the engine's best lines.
    Analyse,
    /// `quit`.
    Quit,
}

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Nothing typed.
    Empty,
    /// A move as squares in order (at least two).
    Path(Vec<Square>),
    /// One square: show the moves of the piece there.
    Square(Square),
    /// A number, for choosing among listed moves (1-based).
    Choice(usize),
    /// A command.
    Command(Command),
}

/// What is wrong with a line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Not a move, square, number or command.
    Unknown(String),
    /// A square name off the board (`c9`, `i3`).
    OffBoard(String),
    /// A light square: no piece ever stands there.
    LightSquare(String),
    /// A command without its argument (command, what it needs).
    MissingArgument(&'static str, &'static str),
    /// A command that takes no argument was given one.
    ExtraArgument(&'static str, String),
    /// `level` with a bad number.
    Level(LevelError),
    /// `time` with something that is not a time control.
    Time(String),
    /// `time movetime` with a number beyond what the engine accepts.
    MoveTimeRange(String),
    /// `time` with a clock beyond what the engine accepts.
    ClockRange(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Unknown(t) => {
                let t = crate::protocol::command::quote(t);
                write!(f, "'{t}' is neither a move nor a command (type help)")
            }
            InputError::OffBoard(s) => write!(f, "'{s}' is not a square: files a-h, ranks 1-8"),
            InputError::LightSquare(s) => {
                write!(
                    f,
                    "{s} is a light square: pieces stand on dark squares only"
                )
            }
            InputError::MissingArgument(c, what) => write!(f, "{c} needs {what}"),
            InputError::ExtraArgument(c, a) => write!(f, "{c} takes no argument (got '{a}')"),
            InputError::Level(e) => write!(f, "level: {e}"),
            InputError::Time(t) => write!(
                f,
                "time: '{t}' is not a time control; try 'time 5+0.1' (minutes:seconds or \
                 seconds, plus increment) or 'time movetime 500' (ms)"
            ),
            InputError::MoveTimeRange(t) => write!(
                f,
                "time: movetime {} is out of range: 1 to {MAX_GO_TIME_MS} ms",
                crate::protocol::command::quote(t)
            ),
            InputError::ClockRange(t) => write!(
                f,
                "time: '{}' is out of range: base time and increment at most \
                 {MAX_GO_TIME_MS} ms each, at most {MAX_MOVESTOGO} moves a period",
                crate::protocol::command::quote(t)
            ),
        }
    }
}

impl std::error::Error for InputError {}

/// A token that names a square by its shape (letter, digit), whether or not it is on the
/// board or dark.
fn square_shaped(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 2 && b[0].is_ascii_alphabetic() && b[1].is_ascii_digit()
}

fn square(t: &str) -> Result<Square, InputError> {
    if let Some(sq) = Square::parse(t) {
        return Ok(sq);
    }
    let b = t.to_ascii_lowercase().into_bytes();
    if (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
        Err(InputError::LightSquare(t.to_ascii_lowercase()))
    } else {
        Err(InputError::OffBoard(t.to_string()))
    }
}

/// Splits move text into square tokens: separators `-`, `:`, `x` and spaces, or squares
/// written together (`c3d4`). `None` when it does not look like squares at all.
fn square_tokens(line: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for word in line.split([' ', '\t', '-', ':', 'x', 'X']) {
        if word.is_empty() {
            continue;
        }
        if word.len() % 2 != 0 || !word.is_ascii() {
            return None;
        }
        for i in (0..word.len()).step_by(2) {
            let t = &word[i..i + 2];
            if !square_shaped(t) {
                return None;
            }
            out.push(t.to_string());
        }
    }
    (!out.is_empty()).then_some(out)
}

fn no_argument(name: &'static str, arg: &str, c: Command) -> Result<Input, InputError> {
    if arg.is_empty() {
        Ok(Input::Command(c))
    } else {
        Err(InputError::ExtraArgument(name, arg.to_string()))
    }
}

/// Whether a clock fits the protocol's `go` ranges (the engine is sent its clocks as `go`
/// values): base time and increment each at most [`MAX_GO_TIME_MS`], moves per period at
/// most [`MAX_MOVESTOGO`].
pub fn clock_in_range(tc: &TimeControl) -> bool {
    let ms = |d: std::time::Duration| d.as_millis() <= u128::from(MAX_GO_TIME_MS);
    ms(tc.base) && ms(tc.increment) && u64::from(tc.moves) <= MAX_MOVESTOGO
}

/// `--tc` of `bashni play`: a time control within the protocol's ranges.
pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
    let tc = TimeControl::parse(text).map_err(|e| e.to_string())?;
    if clock_in_range(&tc) {
        Ok(tc)
    } else {
        Err(InputError::ClockRange(text.to_string()).to_string())
    }
}

fn parse_time(arg: &str) -> Result<Option<TimeSetting>, InputError> {
    if arg.is_empty() {
        return Ok(None);
    }
    let bad = || InputError::Time(arg.to_string());
    let mut words = arg.split_whitespace();
    if let Some(w) = words.next()
        && (w.eq_ignore_ascii_case("movetime") || w.eq_ignore_ascii_case("mt"))
    {
        let n = words.next().ok_or_else(bad)?;
        if words.next().is_some() || n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        return match n.parse::<u64>() {
            Ok(ms) if (1..=MAX_GO_TIME_MS).contains(&ms) => Ok(Some(TimeSetting::MoveTime(ms))),
            _ => Err(InputError::MoveTimeRange(n.to_string())),
        };
    }
    let tc = TimeControl::parse(arg).map_err(|_| bad())?;
    if !clock_in_range(&tc) {
        return Err(InputError::ClockRange(arg.to_string()));
    }
    Ok(Some(TimeSetting::Clock(tc)))
}

fn parse_command(word: &str, arg: &str) -> Result<Input, InputError> {
    let w = word.to_ascii_lowercase();
    let c = match w.as_str() {
        "help" | "h" | "?" => ("help", Command::Help),
        "moves" | "m" => ("moves", Command::Moves),
        "hint" => ("hint", Command::Hint),
        "undo" | "u" | "takeback" => ("undo", Command::Undo),
        "redo" => ("redo", Command::Redo),
        "resign" => ("resign", Command::Resign),
        "draw" => ("draw", Command::Draw),
        "new" => ("new", Command::New),
        "swap" => ("swap", Command::Swap),
        "flip" => ("flip", Command::Flip),
        "board" | "b" | "d" => ("board", Command::Board),
        "fen" => ("fen", Command::Fen),
        "analyse" | "analyze" | "a" => ("analyse", Command::Analyse),
        "quit" | "q" | "exit" => ("quit", Command::Quit),
        "level" => {
            if arg.is_empty() {
                return Err(InputError::MissingArgument(
                    "level",
                    "a number from 0 to 20",
                ));
            }
            let l = arg.parse::<Level>().map_err(InputError::Level)?;
            return Ok(Input::Command(Command::Level(l)));
        }
        "time" => return Ok(Input::Command(Command::Time(parse_time(arg)?))),
        "save" | "load" => {
            if arg.is_empty() {
                let what = if w == "save" {
                    "a file name"
                } else {
                    "a file name or a FEN"
                };
                return Err(InputError::MissingArgument(
                    if w == "save" { "save" } else { "load" },
                    what,
                ));
            }
            let a = arg.to_string();
            return Ok(Input::Command(if w == "save" {
                Command::Save(a)
            } else {
                Command::Load(a)
            }));
        }
        _ => return Err(InputError::Unknown(word.to_string())),
    };
    no_argument(c.0, arg, c.1)
}

/// Parses one line of input.
pub fn parse(line: &str) -> Result<Input, InputError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(Input::Empty);
    }
    if let Ok(n) = line.parse::<usize>() {
        return Ok(Input::Choice(n));
    }
    if let Some(tokens) = square_tokens(line) {
        let squares = tokens
            .iter()
            .map(|t| square(t))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(match squares.as_slice() {
            [one] => Input::Square(*one),
            _ => Input::Path(squares),
        });
    }
    let (word, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    parse_command(word, arg.trim())
}

/// Why a typed path is not a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// No tower on the first square.
    Empty(Square),
    /// The tower there is commanded by the other side.
    NotYours(Square),
    /// A capture is compulsory and the typed move does not capture.
    MustCapture,
    /// The piece there has no legal move.
    Stuck(Square),
    /// The piece has moves, but not this one.
    NoSuchMove,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::Empty(sq) => write!(f, "there is no piece on {sq}"),
            Illegal::NotYours(sq) => write!(f, "the tower on {sq} belongs to the other side"),
            Illegal::MustCapture => write!(f, "a capture is compulsory"),
            Illegal::Stuck(sq) => write!(f, "the piece on {sq} has no legal move"),
            Illegal::NoSuchMove => write!(f, "that piece cannot move that way"),
        }
    }
}

/// What a typed path names in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Exactly one legal move.
    Move(Move),
    /// Several legal moves (sorted by their text): the person must choose.
    Ambiguous(Vec<Move>),
    /// None; `options` are the legal moves of the piece on the first square, or every legal
    /// move when that piece has none.
    Illegal {
        /// Why.
        reason: Illegal,
        /// What could be played instead.
        options: Vec<Move>,
    },
}

/// Whether `path` (origin first) passes through `typed` in order, starting and ending with it.
fn follows(path: &[Square], typed: &[Square]) -> bool {
    if path.first() != typed.first() || path.last() != typed.last() {
        return false;
    }
    let mut rest = path.iter();
    typed.iter().all(|t| rest.any(|p| p == t))
}

/// Matches typed squares against the legal moves of `pos`: the full path, or (for a capture)
/// the origin, the final square and any landing squares in between that the person gave.
/// `d6 b4` is ambiguous when both `d6:b4` and `d6:f8:b4` are legal.
pub fn resolve(pos: &Position, typed: &[Square]) -> Resolved {
    let legal = legal_moves(pos);
    let mut cands: Vec<Move> = legal
        .iter()
        .filter(|m| {
            m.path().eq(typed.iter().copied())
                || (m.is_capture() && follows(&m.path().collect::<Vec<_>>(), typed))
        })
        .copied()
        .collect();
    sort_moves(&mut cands);
    match cands.len() {
        0 => {}
        1 => return Resolved::Move(cands[0]),
        _ => return Resolved::Ambiguous(cands),
    }
    let from = typed[0];
    let mut options: Vec<Move> = legal.iter().filter(|m| m.from() == from).copied().collect();
    let tower = pos.tower(from);
    let reason = if tower.is_empty() {
        Illegal::Empty(from)
    } else if tower.top().color() != pos.side() {
        Illegal::NotYours(from)
    } else if options.is_empty() && legal.iter().any(|m| m.is_capture()) {
        Illegal::MustCapture
    } else if options.is_empty() {
        Illegal::Stuck(from)
    } else {
        Illegal::NoSuchMove
    };
    if options.is_empty() {
        options = legal.to_vec();
    }
    sort_moves(&mut options);
    Resolved::Illegal { reason, options }
}

/// Sorts moves by their text, so that lists read the same every time.
pub fn sort_moves(moves: &mut [Move]) {
    moves.sort_by_cached_key(|m| m.to_string());
}

/// Moves as text, separated by spaces.
pub fn move_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::{START_FEN, parse_fen};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn path(s: &[&str]) -> Input {
        Input::Path(s.iter().map(|t| sq(t)).collect())
    }

    #[test]
    fn moves_in_every_spelling() {
        for text in ["c3 d4", "c3-d4", "C3-D4", "c3d4", "c3xd4", "  c3 - d4 "] {
            assert_eq!(parse(text), Ok(path(&["c3", "d4"])), "{text}");
        }
        assert_eq!(parse("c3:e5:g7"), Ok(path(&["c3", "e5", "g7"])));
        assert_eq!(parse("c3 e5 g7"), Ok(path(&["c3", "e5", "g7"])));
        assert_eq!(parse("c3"), Ok(Input::Square(sq("c3"))));
        assert_eq!(parse("2"), Ok(Input::Choice(2)));
        assert_eq!(parse(""), Ok(Input::Empty));
    }

    #[test]
    fn typos_are_named() {
        assert_eq!(parse("c3 d9"), Err(InputError::OffBoard("d9".into())));
        assert_eq!(parse("c3 i4"), Err(InputError::OffBoard("i4".into())));
        assert_eq!(parse("c3-c4"), Err(InputError::LightSquare("c4".into())));
        assert_eq!(parse("xyzzy"), Err(InputError::Unknown("xyzzy".into())));
        assert_eq!(
            parse("c3 d"),
            Err(InputError::Unknown("c3".into())),
            "an odd token is no move"
        );
        let msg = parse("c3-c4").unwrap_err().to_string();
        assert_eq!(
            msg,
            "c4 is a light square: pieces stand on dark squares only"
        );
    }

    #[test]
    fn commands_and_arguments() {
        let c = |t: &str| {
            parse(t).map(|i| match i {
                Input::Command(c) => c,
                other => panic!("{other:?}"),
            })
        };
        assert_eq!(c("help"), Ok(Command::Help));
        assert_eq!(c("QUIT"), Ok(Command::Quit));
        assert_eq!(c("analyze"), Ok(Command::Analyse));
        assert_eq!(c("redo"), Ok(Command::Redo));
        assert_eq!(c("Resign"), Ok(Command::Resign));
        assert_eq!(c("draw"), Ok(Command::Draw));
        assert_eq!(
            c("draw please"),
            Err(InputError::ExtraArgument("draw", "please".into()))
        );
        assert_eq!(c("level 5"), Ok(Command::Level("5".parse().unwrap())));
        assert!(matches!(c("level 21"), Err(InputError::Level(_))));
        assert_eq!(
            c("level"),
            Err(InputError::MissingArgument(
                "level",
                "a number from 0 to 20"
            ))
        );
        assert_eq!(
            c("undo now"),
            Err(InputError::ExtraArgument("undo", "now".into()))
        );
        assert_eq!(
            c("save my game.pdn"),
            Ok(Command::Save("my game.pdn".into()))
        );
        assert_eq!(
            c("load 8/8/8/8/8/8/8/W7 w"),
            Ok(Command::Load("8/8/8/8/8/8/8/W7 w".into()))
        );
        assert!(matches!(
            c("save"),
            Err(InputError::MissingArgument("save", _))
        ));
        assert_eq!(c("time"), Ok(Command::Time(None)));
        assert_eq!(
            c("time movetime 500"),
            Ok(Command::Time(Some(TimeSetting::MoveTime(500))))
        );
        assert!(matches!(
            c("time 5+0.1"),
            Ok(Command::Time(Some(TimeSetting::Clock(_))))
        ));
        assert!(matches!(c("time soon"), Err(InputError::Time(_))));
        assert_eq!(
            c("time movetime 0"),
            Err(InputError::MoveTimeRange("0".into()))
        );
        assert!(matches!(c("time movetime -5"), Err(InputError::Time(_))));
        let max = format!("time movetime {MAX_GO_TIME_MS}");
        assert_eq!(
            c(&max),
            Ok(Command::Time(Some(TimeSetting::MoveTime(MAX_GO_TIME_MS))))
        );
        for far in [
            format!("time movetime {}", MAX_GO_TIME_MS + 1),
            "time movetime 99999999999999999999999".to_string(),
            "time 9000000+0".to_string(),
            "time 10+3000000".to_string(),
            format!("time {}/60", MAX_MOVESTOGO + 1),
        ] {
            let e = c(&far).unwrap_err();
            assert!(
                matches!(e, InputError::MoveTimeRange(_) | InputError::ClockRange(_)),
                "{far}"
            );
            assert!(e.to_string().contains("is out of range"), "{e}");
        }
        assert!(parse_clock("5:00+2").is_ok());
        assert!(parse_clock("9000000").unwrap_err().contains("out of range"));
    }

    #[test]
    fn resolves_full_paths_and_endpoints() {
        // A white man on c3 can take b4 (ending on a5), or d4 and then b6 or f6.
        let pos = parse_fen("8/8/3b1b2/8/1b1b4/2w5/8/8 w").unwrap();
        let mut legal = legal_moves(&pos).to_vec();
        sort_moves(&mut legal);
        assert_eq!(move_list(&legal), "c3:a5 c3:e5:c7 c3:e5:g7");
        for m in legal.iter() {
            let typed: Vec<Square> = m.path().collect();
            assert_eq!(resolve(&pos, &typed), Resolved::Move(*m));
            assert_eq!(resolve(&pos, &[m.from(), m.to()]), Resolved::Move(*m));
        }
        let quiet = parse_fen(START_FEN).unwrap();
        assert!(matches!(
            resolve(&quiet, &[sq("c3"), sq("d4")]),
            Resolved::Move(_)
        ));
    }

    #[test]
    fn ambiguous_capture_lists_every_route() {
        // The man on d6 takes c5 and lands on b4, or takes e7, is crowned on f8 and comes
        // back as a king over c5 to b4 (or a3).
        let pos = parse_fen("3b4/w3b3/3w4/2b5/8/6b1/8/8 w").unwrap();
        match resolve(&pos, &[sq("d6"), sq("b4")]) {
            Resolved::Ambiguous(c) => {
                assert_eq!(move_list(&c), "d6:b4 d6:f8:b4");
                // A landing square in between picks one.
                let typed = [sq("d6"), sq("f8"), sq("b4")];
                assert_eq!(resolve(&pos, &typed), Resolved::Move(c[1]));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            resolve(&pos, &[sq("d6"), sq("a3")]),
            Resolved::Move(_)
        ));
    }

    #[test]
    fn illegal_moves_say_why() {
        let start = parse_fen(START_FEN).unwrap();
        let reason = |pos: &Position, typed: &[&str]| {
            let t: Vec<Square> = typed.iter().map(|s| sq(s)).collect();
            match resolve(pos, &t) {
                Resolved::Illegal { reason, options } => (reason, move_list(&options)),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(
            reason(&start, &["c3", "e5"]),
            (Illegal::NoSuchMove, "c3-b4 c3-d4".to_string())
        );
        assert_eq!(reason(&start, &["d4", "e5"]).0, Illegal::Empty(sq("d4")));
        assert_eq!(reason(&start, &["f6", "e5"]).0, Illegal::NotYours(sq("f6")));
        let (r, all) = reason(&start, &["b2", "c3"]);
        assert_eq!(r, Illegal::Stuck(sq("b2")));
        assert_eq!(all.split(' ').count(), 7);
        let capture = parse_fen("8/8/8/8/3b4/2w5/7w/8 w").unwrap();
        assert_eq!(
            reason(&capture, &["h2", "g3"]),
            (Illegal::MustCapture, "c3:e5".to_string())
        );
        assert_eq!(Illegal::MustCapture.to_string(), "a capture is compulsory");
    }
}
