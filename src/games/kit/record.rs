//! A game being played, in any of the games: the start position, the moves played, and the
//! end-of-game rules (no legal move, a game's own decision rule, threefold repetition, its
//! no-progress rule).

use super::game::Game;
use super::rules::Rules;
use crate::games::kit::color::Color;
use std::fmt;

/// How a finished game ended, as far as the rules are concerned.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The side to move has no legal move and loses; the winner is given.
    NoLegalMove(Color),
    /// Turkish draughts: one king against one man; the king's side (given) wins.
    KingAgainstMan(Color),
    /// The same position occurred for the third time.
    Repetition,
    /// The game's no-progress rule ([`Game::CLOCK_RULE`]): Bashni's 30 plies without a
    /// capture, for instance.
    ClockRule,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::NoLegalMove(c) | Outcome::KingAgainstMan(c) => Some(c),
            _ => None,
        }
    }
}

/// Why a FEN and a list of moves do not make a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordError<G: Rules> {
    /// The start position's FEN is malformed.
    BadFen(G::FenError),
    /// The move with this number (1-based) cannot be played.
    BadMove(usize, G::MoveError),
}

impl<G: Rules> fmt::Display for RecordError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadFen(e) => write!(f, "bad FEN: {e}"),
            RecordError::BadMove(i, e) => write!(f, "move {i}: {e}"),
        }
    }
}

impl<G: Rules> std::error::Error for RecordError<G> {}

/// A game from some start position.
#[derive(Clone, Debug)]
pub struct Record<G: Game> {
    start: G,
    current: G,
    moves: Vec<G::Move>,
    /// Hashes of every position so far, the start first and the current last.
    hashes: Vec<u64>,
}

impl<G: Game> Record<G> {
    /// A game starting at `start`.
    pub fn new(start: G) -> Record<G> {
        Record {
            hashes: vec![start.hash()],
            current: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The game reached by playing `moves` (in move notation) from the position `fen`:
    /// the one way every front end turns "a FEN plus moves" into a game.
    pub fn from_fen_and_moves<S: AsRef<str>>(
        fen: &str,
        moves: &[S],
    ) -> Result<Record<G>, RecordError<G>> {
        let mut game = Record::new(G::from_fen(fen).map_err(RecordError::BadFen)?);
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text.as_ref())
                .map_err(|e| RecordError::BadMove(i + 1, e))?;
        }
        Ok(game)
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &G {
        &self.current
    }

    /// Moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Hashes of the positions before the current one (oldest first), for repetition checks.
    pub fn history(&self) -> &[u64] {
        &self.hashes[..self.hashes.len() - 1]
    }

    /// Plays a move that is known to be legal.
    pub fn play(&mut self, m: G::Move) {
        self.current.play(&m);
        self.moves.push(m);
        self.hashes.push(self.current.hash());
    }

    /// Parses `text` as a move in the current position and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, G::MoveError> {
        let m = self.current.parse_move(text)?;
        self.play(m);
        Ok(m)
    }

    /// How many times the current position has occurred (including now).
    pub fn repetitions(&self) -> usize {
        let h = self.current.hash();
        // Only positions since the last irreversible move can repeat, and only with the same
        // side to move.
        let window = (self.current.clock() as usize).min(self.hashes.len() - 1);
        let n = self.hashes.len();
        (0..=window)
            .step_by(2)
            .filter(|&back| self.hashes[n - 1 - back] == h)
            .count()
    }

    /// The result if the game is over. A game's own decision rule comes first; then a side
    /// without a legal move loses even when the no-progress rule or a repetition would also
    /// apply (the loss is checked first).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.current.decided() {
            return Some(Outcome::KingAgainstMan(winner));
        }
        if !self.current.has_legal_move() {
            return Some(Outcome::NoLegalMove(self.current.side_to_move().opponent()));
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
    use crate::games::bashni::Position;
    use crate::games::bashni::notation::{START_FEN, to_fen};
    use crate::games::{russian, turkish};

    #[test]
    fn from_fen_and_moves() {
        let g = Record::<Position>::from_fen_and_moves(START_FEN, &["c3-d4", "f6-e5"]).unwrap();
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
            Record::<Position>::from_fen_and_moves(START_FEN, &none)
                .unwrap()
                .position(),
            &Position::startpos()
        );
        let e = Record::<Position>::from_fen_and_moves("8/8/9 w", &none).unwrap_err();
        assert!(matches!(e, RecordError::BadFen(_)), "{e:?}");
        assert!(e.to_string().starts_with("bad FEN: "), "{e}");
        let e = Record::<Position>::from_fen_and_moves(START_FEN, &["c3-d4", "c3-d4"]).unwrap_err();
        assert!(matches!(e, RecordError::BadMove(2, _)), "{e:?}");
        assert!(e.to_string().starts_with("move 2: "), "{e}");
    }

    #[test]
    fn turkish_games_end_by_their_own_rules() {
        // One king against one man wins at once, though Black could still move.
        let g = Record::<turkish::Position>::from_fen_and_moves("8/8/8/8/8/8/b6b/W7 w", &["a1:a3"])
            .unwrap();
        assert_eq!(g.outcome(), Some(Outcome::KingAgainstMan(Color::White)));
        // Kings shuffling: drawn after 50 plies without a capture or a man's move, and a
        // position met three times is a draw before that.
        let mut g = Record::<turkish::Position>::from_fen_and_moves(
            "8/8/8/3B4/8/8/8/W6W w 0 1",
            &[] as &[&str],
        )
        .unwrap();
        for (i, m) in ["a1-a2", "d5-d6", "a2-a1", "d6-d5"]
            .iter()
            .cycle()
            .take(8)
            .enumerate()
        {
            assert_eq!(g.outcome(), None, "before ply {i}");
            g.play_text(m).unwrap();
        }
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.outcome(), Some(Outcome::Repetition));
        let g = Record::<turkish::Position>::from_fen_and_moves(
            "8/8/8/3B4/8/8/8/W6W w 49 30",
            &["a1-a2"],
        )
        .unwrap();
        assert_eq!(g.outcome(), Some(Outcome::ClockRule));
    }

    #[test]
    fn russian_games_are_drawn_after_fifteen_king_moves_each() {
        // Kings only: the 30th ply without a man's move or a capture draws.
        let g = Record::<russian::Position>::from_fen_and_moves(
            "8/8/7B/8/8/8/8/W1w5 w 29 30",
            &["a1-b2"],
        )
        .unwrap();
        assert_eq!(g.outcome(), Some(Outcome::ClockRule));
        // A man's move resets the count.
        let g = Record::<russian::Position>::from_fen_and_moves(
            "8/8/7B/8/8/8/8/W1w5 w 29 30",
            &["c1-d2"],
        )
        .unwrap();
        assert_eq!(g.position().clock(), 0);
        assert_eq!(g.outcome(), None);
    }
}
