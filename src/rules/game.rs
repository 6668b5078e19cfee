//! A game: the start position, the moves played, and the end-of-game rules (no legal move,
//! threefold repetition, the 30-ply rule).

use crate::rules::color::Color;
use crate::rules::movegen::has_legal_move;
use crate::rules::moves::Move;
use crate::rules::notation::{FenError, MoveError, parse_fen, parse_move};
use crate::rules::position::Position;
use std::fmt;

/// How a finished game ended, as far as the rules are concerned.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move has no legal move and loses; the winner is given.
    NoLegalMove(Color),
    /// The same position occurred for the third time.
    Repetition,
    /// 30 plies without a capture.
    ClockRule,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::NoLegalMove(c) => Some(c),
            _ => None,
        }
    }
}

/// Why a FEN and a list of moves do not make a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameError {
    /// The start position's FEN is malformed.
    BadFen(FenError),
    /// The move with this number (1-based) cannot be played.
    BadMove(usize, MoveError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::BadFen(e) => write!(f, "bad FEN: {e}"),
            GameError::BadMove(i, e) => write!(f, "move {i}: {e}"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game from some start position.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    current: Position,
    moves: Vec<Move>,
    /// Hashes of every position so far, the start first and the current last.
    hashes: Vec<u64>,
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        Game {
            hashes: vec![start.hash()],
            current: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The game reached by playing `moves` (in move notation) from the position `fen`:
    /// the one way every front end turns "a FEN plus moves" into a game.
    pub fn from_fen_and_moves<S: AsRef<str>>(fen: &str, moves: &[S]) -> Result<Game, GameError> {
        let mut game = Game::new(parse_fen(fen).map_err(GameError::BadFen)?);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text.as_ref())
                .map_err(|e| GameError::BadMove(i + 1, e))?;
        }
        Ok(game)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Hashes of the positions before the current one (oldest first), for repetition checks.
    pub fn history(&self) -> &[u64] {
        &self.hashes[..self.hashes.len() - 1]
    }

    /// Plays a move that is known to be legal.
    pub fn play(&mut self, m: Move) {
        self.current.play(&m);
        self.moves.push(m);
        self.hashes.push(self.current.hash());
    }

    /// Parses `text` as a move in the current position and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = parse_move(&self.current, text)?;
        self.play(m);
        Ok(m)
    }

    /// How many times the current position has occurred (including now).
    pub fn repetitions(&self) -> usize {
        let h = self.current.hash();
        // Only positions since the last capture can repeat, and only with the same side to move.
        let window = (self.current.clock() as usize).min(self.hashes.len() - 1);
        let n = self.hashes.len();
        (0..=window)
            .step_by(2)
            .filter(|&back| self.hashes[n - 1 - back] == h)
            .count()
    }

    /// The result if the game is over. A side without a legal move loses even when the
    /// 30-ply rule or a repetition would also apply (the loss is checked first).
    pub fn outcome(&self) -> Option<Outcome> {
        if !has_legal_move(&self.current) {
            return Some(Outcome::NoLegalMove(self.current.side().opponent()));
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Repetition);
        }
        if self.current.clock_draw() {
            return Some(Outcome::ClockRule);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::{START_FEN, to_fen};

    #[test]
    fn from_fen_and_moves() {
        let g = Game::from_fen_and_moves(START_FEN, &["c3-d4", "f6-e5"]).unwrap();
        assert_eq!(g.moves().len(), 2);
        assert_eq!(g.history().len(), 2);
        assert_eq!(g.start(), &Position::startpos());
        let mut by_hand = Position::startpos();
        for m in g.moves() {
            by_hand.play(m);
        }
        assert_eq!(to_fen(g.position()), to_fen(&by_hand));
        let none: [&str; 0] = [];
        assert_eq!(
            Game::from_fen_and_moves(START_FEN, &none)
                .unwrap()
                .position(),
            &Position::startpos()
        );
        let e = Game::from_fen_and_moves("8/8/9 w", &none).unwrap_err();
        assert!(matches!(e, GameError::BadFen(_)), "{e:?}");
        assert!(e.to_string().starts_with("bad FEN: "), "{e}");
        let e = Game::from_fen_and_moves(START_FEN, &["c3-d4", "c3-d4"]).unwrap_err();
        assert!(matches!(e, GameError::BadMove(2, _)), "{e:?}");
        assert!(e.to_string().starts_with("move 2: "), "{e}");
    }
}
