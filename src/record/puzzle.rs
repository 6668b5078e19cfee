//! Puzzle files: lichess' puzzle CSV adapted to draughts (docs/puzzles.md), one puzzle a line
//! under the header [`HEADER`]. `bashni puzzles` writes them, `bashni play --puzzles` and the
//! page read them.
//!
//! `FEN` is the position before the opponent's last move, in the game's own FEN; `Moves` is
//! that move followed by the solution, the solver's moves and the opponent's replies in turn,
//! ending with a solver move, in the protocol's notation; `Themes` are names from
//! docs/puzzles.md; `Source` says which game and ply the puzzle came from.

use crate::games::{Game, Record, Variant};
use std::fmt;

/// The first line of every puzzle file.
pub const HEADER: &str = "PuzzleId,FEN,Moves,Rating,Themes,Source";

/// The shipped puzzle file of `variant` (puzzles/<game>.csv, built into the binary): what
/// `bashni play --puzzles` and the page's puzzle mode set. Brazilian draughts' has no puzzle
/// yet (docs/puzzles.md).
pub fn shipped(variant: Variant) -> &'static str {
    match variant {
        Variant::Bashni => include_str!("../../puzzles/bashni.csv"),
        Variant::Turkish => include_str!("../../puzzles/turkish.csv"),
        Variant::Russian => include_str!("../../puzzles/russian.csv"),
        Variant::Brazilian => include_str!("../../puzzles/brazilian.csv"),
        Variant::Lasca => include_str!("../../puzzles/lasca.csv"),
    }
}

/// Most characters of one line read (a puzzle line is a few hundred).
pub const MAX_LINE: usize = 4096;

/// Most moves of a puzzle's line (the opponent's move and the solution).
pub const MAX_MOVES: usize = 64;

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Its name: letters and digits, unique in its file.
    pub id: String,
    /// The position before the opponent's last move, in the game's own FEN.
    pub fen: String,
    /// The opponent's last move, then the solution (solver first, ending with a solver move).
    pub moves: Vec<String>,
    /// Its rating (Glicko-2 scale, 1500 the middle).
    pub rating: u32,
    /// Its themes, as docs/puzzles.md names them.
    pub themes: Vec<String>,
    /// Where it came from: the file, the game and the ply of the opponent's move.
    pub source: String,
}

/// What is wrong with a puzzle line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleError {
    /// Longer than [`MAX_LINE`] characters.
    TooLong,
    /// Not six fields (how many there were).
    Fields(usize),
    /// An id that is empty or holds other than letters and digits.
    Id,
    /// A rating that is not a whole number from 0 to 4000.
    Rating(String),
    /// Fewer than two moves, an even number of them (the line must end with a solver
    /// move), or more than [`MAX_MOVES`].
    MoveCount(usize),
    /// The FEN is not one of the game's.
    Fen(String),
    /// Move `n` (from 1) is not legal where it is played.
    Move(usize, String),
    /// The position before move `n` (from 1) is over: the line goes on past a game's end.
    Over(usize),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::TooLong => write!(f, "a line over {MAX_LINE} characters"),
            PuzzleError::Fields(n) => write!(f, "{n} fields, expected 6 ({HEADER})"),
            PuzzleError::Id => write!(f, "PuzzleId must be letters and digits"),
            PuzzleError::Rating(r) => write!(f, "Rating '{}' is not 0 to 4000", clip(r)),
            PuzzleError::MoveCount(n) => write!(
                f,
                "{n} moves: the opponent's move and the solution make an even number, at \
                 least 2 and at most {MAX_MOVES}"
            ),
            PuzzleError::Fen(e) => write!(f, "bad FEN: {e}"),
            PuzzleError::Move(n, e) => write!(f, "move {n}: {e}"),
            PuzzleError::Over(n) => write!(f, "the game is over before move {n}"),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// At most 40 characters of `s`, for messages.
fn clip(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// One CSV field: quoted (with `"` doubled) when it holds a comma, a quote or a line end.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The fields of one CSV line (quoted fields as [`field`] writes them).
fn split_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let cur = fields.last_mut().expect("never empty");
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => cur.push(c),
        }
    }
    fields
}

impl Puzzle {
    /// The puzzle as one CSV line (without the line end).
    pub fn to_line(&self) -> String {
        [
            field(&self.id),
            field(&self.fen),
            field(&self.moves.join(" ")),
            self.rating.to_string(),
            field(&self.themes.join(" ")),
            field(&self.source),
        ]
        .join(",")
    }

    /// Reads one CSV line (its fields only: [`Puzzle::replay`] checks them against a game).
    pub fn parse(line: &str) -> Result<Puzzle, PuzzleError> {
        if line.len() > MAX_LINE {
            return Err(PuzzleError::TooLong);
        }
        let f = split_fields(line.trim_end_matches(['\r', '\n']));
        if f.len() != 6 {
            return Err(PuzzleError::Fields(f.len()));
        }
        if f[0].is_empty() || !f[0].chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(PuzzleError::Id);
        }
        let rating = f[3]
            .parse::<u32>()
            .ok()
            .filter(|r| *r <= 4000)
            .ok_or_else(|| PuzzleError::Rating(f[3].clone()))?;
        let moves: Vec<String> = f[2].split_whitespace().map(String::from).collect();
        let n = moves.len();
        if n < 2 || !n.is_multiple_of(2) || n > MAX_MOVES {
            return Err(PuzzleError::MoveCount(n));
        }
        Ok(Puzzle {
            id: f[0].clone(),
            fen: f[1].clone(),
            moves,
            rating,
            themes: f[4].split_whitespace().map(String::from).collect(),
            source: f[5].clone(),
        })
    }

    /// The puzzle's line played in game `G` from its FEN: the record after every move,
    /// each checked legal and no position over before a move is played.
    pub fn replay<G: Game>(&self) -> Result<Record<G>, PuzzleError> {
        let start = G::from_fen(&self.fen).map_err(|e| PuzzleError::Fen(e.to_string()))?;
        let mut record = Record::new(start);
        for (i, text) in self.moves.iter().enumerate() {
            if record.outcome().is_some() {
                return Err(PuzzleError::Over(i + 1));
            }
            record
                .play_text(text)
                .map_err(|e| PuzzleError::Move(i + 1, e.to_string()))?;
        }
        Ok(record)
    }
}

/// Reads a puzzle file's text: the header, then a puzzle a line (blank lines skipped). An
/// error names its line (from 1).
pub fn parse_file(text: &str) -> Result<Vec<Puzzle>, (usize, PuzzleError)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start_matches(crate::files::BOM);
        if line.trim().is_empty() || (i == 0 && line.trim_end() == HEADER) {
            continue;
        }
        out.push(Puzzle::parse(line).map_err(|e| (i + 1, e))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni;

    fn sample() -> Puzzle {
        Puzzle {
            id: "a1B2c3".into(),
            fen: "8/8/8/8/3b4/8/1w6/8 b 0 30".into(),
            moves: vec!["d4-c3".into(), "b2:d4".into()],
            rating: 1234,
            themes: vec!["oneMove".into()],
            source: "games, \"a\".pdn game 3 ply 59".into(),
        }
    }

    #[test]
    fn a_line_reads_back_quoted_fields_and_all() {
        let p = sample();
        let line = p.to_line();
        assert!(line.starts_with("a1B2c3,8/8/8/8/3b4/8/1w6/8 b 0 30,d4-c3 b2:d4,1234,oneMove,\""));
        assert_eq!(Puzzle::parse(&line), Ok(p.clone()));
        let file = format!("{HEADER}\n{line}\n\n{line}\n");
        assert_eq!(parse_file(&file), Ok(vec![p.clone(), p]));
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(Puzzle::parse("a,b,c"), Err(PuzzleError::Fields(3)));
        assert_eq!(Puzzle::parse("a-b,f,m n,1,t,s"), Err(PuzzleError::Id));
        assert!(matches!(
            Puzzle::parse("ab,f,m n,99999,t,s"),
            Err(PuzzleError::Rating(_))
        ));
        assert_eq!(
            Puzzle::parse("ab,f,m n o,1500,t,s"),
            Err(PuzzleError::MoveCount(3))
        );
        assert_eq!(
            Puzzle::parse(&"x".repeat(MAX_LINE + 1)),
            Err(PuzzleError::TooLong)
        );
        assert_eq!(
            parse_file(&format!("{HEADER}\nab,f,m,1,t,s\n")),
            Err((2, PuzzleError::MoveCount(1)))
        );
    }

    #[test]
    fn replay_checks_every_move() {
        let p = sample();
        let record = p.replay::<bashni::Position>().unwrap();
        assert_eq!(record.moves().len(), 2);
        let mut bad = p.clone();
        bad.moves[1] = "b2-a3".into();
        assert!(matches!(
            bad.replay::<bashni::Position>(),
            Err(PuzzleError::Move(2, _))
        ));
        bad.fen = "nonsense".into();
        assert!(matches!(
            bad.replay::<bashni::Position>(),
            Err(PuzzleError::Fen(_))
        ));
        // b2:d4 takes Black's last man: the game is over, nothing may follow.
        let mut long = p;
        long.moves
            .extend(["d4-e5".to_string(), "e5-f6".to_string()]);
        assert_eq!(
            long.replay::<bashni::Position>().unwrap_err(),
            PuzzleError::Over(3)
        );
    }
}
