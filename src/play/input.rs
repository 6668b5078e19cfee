//! What a person types during a game: a move (`c3 d4`, `c3-d4`, `c3:e5:g7`, `c3 g7`), a
//! square (its moves), a number (choosing among listed moves) or a command. Parsing needs no
//! position, only the game's board (which squares it plays on: the dark ones, or all 64 in
//! Turkish draughts); `resolve` then matches a typed path against the legal moves.

use super::level::{Level, LevelError};
use crate::display::square_name;
use crate::games::Game;
use crate::protocol::command::{MAX_GO_TIME_MS, MAX_MOVESTOGO};
use crate::record::time_control::TimeControl;
use std::fmt;

/// A square a person typed: file and rank from 0 (`a1` is (0, 0)), on the board and one the
/// game plays on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sq {
    /// File, 0 (a) to 7 (h).
    pub file: u8,
    /// Rank, 0 (1) to 7 (8).
    pub rank: u8,
}

impl Sq {
    /// The square of (file, rank).
    pub fn new((file, rank): (u8, u8)) -> Sq {
        Sq { file, rank }
    }

    /// (file, rank).
    pub fn coords(self) -> (u8, u8) {
        (self.file, self.rank)
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&square_name(self.file, self.rank))
    }
}

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
    Path(Vec<Sq>),
    /// One square: show the moves of the piece there.
    Square(Sq),
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
    /// A square name off the board (`c9`, `i3`; `h8` on Lasca's 7x7 board), and the board's
    /// size.
    OffBoard(String, u8),
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
            InputError::OffBoard(s, size) => write!(
                f,
                "'{s}' is not a square: files a-{}, ranks 1-{size}",
                (b'a' + size - 1) as char
            ),
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

/// A game's board as the parser sees it: its size and the squares the game plays on.
struct Board<F: Fn(u8, u8) -> bool> {
    /// Files and ranks (8, or 7 in Lasca).
    size: u8,
    /// Whether (file, rank) is played on (a diagonal game's dark squares, or every square).
    playable: F,
}

impl<F: Fn(u8, u8) -> bool> Board<F> {
    /// The board whose playable squares `playable` tells: its size is the largest file or
    /// rank with one of them, plus one.
    fn new(playable: F) -> Board<F> {
        let size = (0..8u8)
            .filter(|&i| (0..8u8).any(|j| playable(i, j) || playable(j, i)))
            .max()
            .map_or(8, |i| i + 1);
        Board { size, playable }
    }
}

/// The square a square-shaped token names, if it is one of the game's.
fn square<F: Fn(u8, u8) -> bool>(t: &str, board: &Board<F>) -> Result<Sq, InputError> {
    let b = t.to_ascii_lowercase().into_bytes();
    let (file, rank) = (b[0].wrapping_sub(b'a'), b[1].wrapping_sub(b'1'));
    if file >= board.size || rank >= board.size {
        return Err(InputError::OffBoard(t.to_string(), board.size));
    }
    if (board.playable)(file, rank) {
        Ok(Sq { file, rank })
    } else {
        Err(InputError::LightSquare(t.to_ascii_lowercase()))
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

/// Parses one line of input in game `G` (whose board says which squares exist).
pub fn parse<G: Game>(line: &str) -> Result<Input, InputError> {
    let board = G::startpos();
    parse_on(
        line,
        &Board::new(|file, rank| board.tower_at(file, rank).is_some()),
    )
}

/// Parses one line of input on a board whose playable squares `playable` tells.
fn parse_on<F: Fn(u8, u8) -> bool>(line: &str, board: &Board<F>) -> Result<Input, InputError> {
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
            .map(|t| square(t, board))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(match squares.as_slice() {
            [one] => Input::Square(*one),
            _ => Input::Path(squares),
        });
    }
    let (word, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    parse_command(word, arg.trim())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::games::bashni::position::Position;
    use crate::games::{russian, turkish};

    /// The square named `s` (`c3`; a test helper, also for `resolve.rs`'s tests).
    pub(crate) fn sq(s: &str) -> Sq {
        let b = s.as_bytes();
        Sq {
            file: b[0] - b'a',
            rank: b[1] - b'1',
        }
    }

    fn path(s: &[&str]) -> Input {
        Input::Path(s.iter().map(|t| sq(t)).collect())
    }

    /// Bashni's parse.
    fn parse(line: &str) -> Result<Input, InputError> {
        super::parse::<Position>(line)
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
        assert_eq!(parse("c3 d9"), Err(InputError::OffBoard("d9".into(), 8)));
        assert_eq!(parse("c3 i4"), Err(InputError::OffBoard("i4".into(), 8)));
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
    fn turkish_squares_are_all_playable() {
        let p = |line: &str| super::parse::<turkish::Position>(line);
        assert_eq!(p("d3 d4"), Ok(path(&["d3", "d4"])));
        assert_eq!(p("d3xd5xf5"), Ok(path(&["d3", "d5", "f5"])));
        assert_eq!(p("a1"), Ok(Input::Square(sq("a1"))));
        assert_eq!(p("d3 d9"), Err(InputError::OffBoard("d9".into(), 8)));
    }

    #[test]
    fn lascas_board_is_seven_squares_wide() {
        let p = |line: &str| super::parse::<crate::games::lasca::Position>(line);
        assert_eq!(p("c3-d4"), Ok(path(&["c3", "d4"])));
        assert_eq!(p("g7"), Ok(Input::Square(sq("g7"))));
        for off in ["a8", "h1", "h8"] {
            let e = p(off).unwrap_err();
            assert_eq!(e, InputError::OffBoard(off.into(), 7));
            assert_eq!(
                e.to_string(),
                format!("'{off}' is not a square: files a-g, ranks 1-7")
            );
        }
        assert_eq!(p("b1"), Err(InputError::LightSquare("b1".into())));
    }

    #[test]
    fn russian_boards_have_light_squares() {
        let p = |line: &str| super::parse::<russian::Position>(line);
        assert_eq!(p("c3-c4"), Err(InputError::LightSquare("c4".into())));
        assert_eq!(p("c3-d4"), Ok(path(&["c3", "d4"])));
    }
}
