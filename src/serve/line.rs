//! One game's line of play on the server, checked by its own rules.
//!
//! The server holds games of every kind side by side (one registry, one session type), so a
//! session keeps its game behind the object-safe [`GameLine`]: [`Line<G>`] is the one
//! implementation, generic over the game, a [`Record<G>`] with the FEN and text of every
//! position and move. Only this edge knows the game's type: [`new_line`] picks it once with
//! `for_variant!`; the page and the engine see FENs and move texts.

use super::error::{ApiError, ErrorKind};
use super::json::{self, Value};
use crate::display::square_name;
use crate::game_text::piece_word;
use crate::games::kit::color::Color;
use crate::games::{Game, Outcome, Record, RecordError, Rules, Variant};
use crate::record::draw_offer::{self, Decline};
use crate::search::egdb::Databases;
use std::fmt;

/// The kind of a refused move text: malformed when it is no move at all (syntax, a square
/// that is not one), unprocessable when it is well-formed but not legal or ambiguous.
pub trait MoveRefusal {
    /// [`ErrorKind::BadRequest`] or [`ErrorKind::Unprocessable`].
    fn kind(&self) -> ErrorKind;
}

impl MoveRefusal for crate::games::kit::path::MoveError {
    fn kind(&self) -> ErrorKind {
        use crate::games::kit::path::MoveError as E;
        match self {
            E::Syntax(..) | E::BadSquare(..) => ErrorKind::BadRequest,
            E::Illegal(..) | E::Ambiguous(..) => ErrorKind::Unprocessable,
        }
    }
}

/// A game's moves and positions, whatever the game.
pub trait GameLine: Send {
    /// Which game.
    fn variant(&self) -> Variant;
    /// The FEN of every position, the start first.
    fn fens(&self) -> &[String];
    /// Every move played, in the game's notation.
    fn moves(&self) -> &[String];
    /// The side to move now.
    fn side(&self) -> Color;
    /// The game's no-progress count now (plies since a capture; Turkish: or a man's move).
    fn clock(&self) -> u16;
    /// How many times the current position has occurred.
    fn repetitions(&self) -> usize;
    /// The end by the rules of the position after `ply` plies, if it is one.
    fn outcome_at(&self, ply: usize) -> Option<Outcome>;
    /// The legal moves after `ply` plies, each with its path of squares (none at an end).
    fn legal_at(&self, ply: usize) -> Vec<Value>;
    /// `text` as a legal move after `ply` plies, in the game's own notation; why not.
    fn check(&self, ply: usize, text: &str) -> Result<String, ApiError>;
    /// Plays a move at the end (one [`GameLine::check`] has passed).
    fn push(&mut self, text: &str) -> Result<(), ApiError>;
    /// Cuts the line back to its first `ply` plies.
    fn truncate(&mut self, ply: usize);
    /// Whether the current position is dead for a draw offer ([`draw_offer::is_dead`]).
    fn dead(&self) -> Result<(), Decline>;
    /// The position after `ply` plies by the endgame databases `dbs`
    /// ([`super::tablebase::verdict`]): null where the game is over or the tables do not hold
    /// it.
    fn tablebase_at(&self, ply: usize, dbs: &Databases) -> Value;

    /// The end by the rules now.
    fn outcome(&self) -> Option<Outcome> {
        self.outcome_at(self.moves().len())
    }
}

impl fmt::Debug for dyn GameLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameLine")
            .field("variant", &self.variant())
            .field("fens", &self.fens())
            .field("moves", &self.moves())
            .finish()
    }
}

/// The line of a game of `G`.
pub struct Line<G: Game> {
    game: Record<G>,
    fens: Vec<String>,
    texts: Vec<String>,
}

impl<G: Game> Line<G> {
    /// The line reached by `moves` from `fen`.
    pub fn from_fen_and_moves<S: AsRef<str>>(
        fen: &str,
        moves: &[S],
    ) -> Result<Line<G>, RecordError<G>> {
        let none: [&str; 0] = [];
        let start = Record::<G>::from_fen_and_moves(fen, &none)?;
        let mut line = Line {
            fens: vec![start.position().to_fen()],
            game: start,
            texts: Vec::new(),
        };
        for (i, text) in moves.iter().enumerate() {
            let m = line
                .game
                .position()
                .parse_move(text.as_ref())
                .map_err(|e| RecordError::BadMove(i + 1, e))?;
            line.play(m);
        }
        Ok(line)
    }

    fn play(&mut self, m: G::Move) {
        self.game.play(m);
        self.fens.push(self.game.position().to_fen());
        self.texts.push(m.to_string());
    }

    /// The game after its first `ply` plies (at most its length).
    fn at(&self, ply: usize) -> Record<G> {
        let mut g = Record::new(self.game.start().clone());
        for m in &self.game.moves()[..ply.min(self.texts.len())] {
            g.play(*m);
        }
        g
    }

    /// The game after `ply` plies, borrowed when it is the current one.
    fn with_at<T>(&self, ply: usize, f: impl FnOnce(&Record<G>) -> T) -> T {
        if ply >= self.texts.len() {
            f(&self.game)
        } else {
            f(&self.at(ply))
        }
    }
}

impl<G: Game> GameLine for Line<G>
where
    G::MoveError: MoveRefusal,
{
    fn variant(&self) -> Variant {
        G::VARIANT
    }

    fn fens(&self) -> &[String] {
        &self.fens
    }

    fn moves(&self) -> &[String] {
        &self.texts
    }

    fn side(&self) -> Color {
        self.game.position().side_to_move()
    }

    fn clock(&self) -> u16 {
        self.game.position().clock()
    }

    fn repetitions(&self) -> usize {
        self.game.repetitions()
    }

    fn outcome_at(&self, ply: usize) -> Option<Outcome> {
        self.with_at(ply, Record::outcome)
    }

    fn legal_at(&self, ply: usize) -> Vec<Value> {
        self.with_at(ply, |g| {
            if g.outcome().is_some() {
                return Vec::new();
            }
            g.position()
                .legal_moves()
                .iter()
                .map(|m| {
                    let path: Vec<Value> = G::move_squares(m)
                        .into_iter()
                        .map(|(f, r)| Value::from(square_name(f, r)))
                        .collect();
                    json::object([
                        ("move", Value::from(m.to_string())),
                        ("path", Value::Array(path)),
                    ])
                })
                .collect()
        })
    }

    fn check(&self, ply: usize, text: &str) -> Result<String, ApiError> {
        self.with_at(ply, |g| {
            g.position()
                .parse_move(text)
                .map(|m| m.to_string())
                .map_err(|e| ApiError::new(e.kind(), e.to_string()))
        })
    }

    fn push(&mut self, text: &str) -> Result<(), ApiError> {
        let m = self
            .game
            .position()
            .parse_move(text)
            .map_err(|e| ApiError::new(e.kind(), e.to_string()))?;
        self.play(m);
        Ok(())
    }

    fn truncate(&mut self, ply: usize) {
        if ply < self.texts.len() {
            self.game = self.at(ply);
            self.fens.truncate(ply + 1);
            self.texts.truncate(ply);
        }
    }

    fn dead(&self) -> Result<(), Decline> {
        draw_offer::is_dead(self.game.position(), piece_word(G::VARIANT))
    }

    fn tablebase_at(&self, ply: usize, dbs: &Databases) -> Value {
        self.with_at(ply, |g| match g.outcome() {
            Some(_) => Value::Null,
            None => super::tablebase::verdict(g.position(), dbs),
        })
    }
}

/// A new line of game `variant`: `moves` from `fen` (the game's initial position when
/// `None`); the error says which part is wrong (`bad FEN: ...`, `move 3: ...`).
pub fn new_line(
    variant: Variant,
    fen: Option<&str>,
    moves: &[String],
) -> Result<Box<dyn GameLine>, String> {
    crate::for_variant!(variant, G => {
        Line::<G>::from_fen_and_moves(fen.unwrap_or(G::START_FEN), moves)
            .map(|l| Box::new(l) as Box<dyn GameLine>)
            .map_err(|e| e.to_string())
    })
}

/// Lines of game `variant`, each whole from `fen` (the game's initial position when
/// `None`), checked by its rules and written in its notation (`d4xf6` becomes `d4:f6`). A
/// line is replayed only from where it leaves the one before it, so lines in a tree's order
/// (a variation after the line it leaves) cost the moves they add, not their whole length
/// each. A refusal: which line (from 0), and why (`move 3: illegal move ...`).
pub fn check_lines(
    variant: Variant,
    fen: Option<&str>,
    lines: &[Vec<String>],
) -> Result<Vec<Vec<String>>, (usize, String)> {
    crate::for_variant!(variant, G => replay_lines::<G>(fen.unwrap_or(G::START_FEN), lines))
}

fn replay_lines<G: Game>(
    fen: &str,
    lines: &[Vec<String>],
) -> Result<Vec<Vec<String>>, (usize, String)> {
    let start = G::from_fen(fen).map_err(|e| (0, format!("bad FEN: {e}")))?;
    // The line replayed last: its moves as given, the position before each of them and
    // after the last, and its moves in the game's notation.
    let mut given: &[String] = &[];
    let mut positions = vec![start];
    let mut played: Vec<String> = Vec::new();
    let mut out = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        let same = given.iter().zip(line).take_while(|(a, b)| a == b).count();
        positions.truncate(same + 1);
        played.truncate(same);
        for (k, text) in line.iter().enumerate().skip(same) {
            let pos = positions.last().expect("the start is always kept");
            let m = pos
                .parse_move(text)
                .map_err(|e| (i, format!("move {}: {e}", k + 1)))?;
            played.push(m.to_string());
            let next = pos.played(&m);
            positions.push(next);
        }
        given = line;
        out.push(played.clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turkish_line_checks_its_moves() {
        let mut l = new_line(Variant::Turkish, None, &["d3-d4".to_string()]).unwrap();
        assert_eq!(l.variant(), Variant::Turkish);
        assert_eq!(l.fens().len(), 2);
        assert_eq!(l.side(), Color::Black);
        let legal = l.legal_at(0);
        assert_eq!(legal.len(), 8);
        assert_eq!(legal[0].get("path").unwrap().as_array().unwrap().len(), 2);
        assert_eq!(l.check(1, "d6x d5").unwrap_err().status(), 400);
        let e = l.check(1, "d6-e5").unwrap_err();
        assert_eq!(e.status(), 422);
        assert!(
            e.message
                .starts_with("illegal move d6-e5: legal moves are "),
            "{e:?}"
        );
        assert_eq!(l.check(0, "h3-h4").unwrap(), "h3-h4");
        l.push("d6-d5").unwrap();
        assert_eq!(l.moves(), ["d3-d4", "d6-d5"]);
        l.truncate(1);
        assert_eq!(l.moves(), ["d3-d4"]);
        assert_eq!(l.fens().len(), 2);
        assert!(new_line(Variant::Turkish, Some("8/8 w"), &[]).is_err());
        let e = new_line(Variant::Russian, None, &["c3-c4".to_string()]).unwrap_err();
        assert!(e.starts_with("move 1: "), "{e}");
    }

    #[test]
    fn a_line_ends_by_its_games_rules() {
        let l = new_line(
            Variant::Turkish,
            Some("8/8/8/8/8/8/b6b/W7 w"),
            &["a1:a3".to_string()],
        )
        .unwrap();
        assert_eq!(l.outcome(), Some(Outcome::KingAgainstMan(Color::White)));
        assert_eq!(l.outcome_at(0), None);
        assert!(l.legal_at(1).is_empty());
    }
}
