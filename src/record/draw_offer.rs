//! A draw offered by the person: the engine accepts it when the position is dead and its
//! score is near even. One rule for every front end: `bashni play`'s `draw` and the draw
//! offer of `bashni serve`'s page both answer by it.
//!
//! "Dead" is kept simple and visible on the board: each side commands at most
//! [`DEAD_MAX_TOWERS`] towers (pieces and towers count alike, by their top piece; in the
//! games without towers, pieces: [`Game::commanders`]). With so
//! little left a game is rarely won without a blunder, and the score tells the rest: the
//! engine accepts when its full-strength search scores the position within [`DRAW_MARGIN_CP`]
//! of even, and declines otherwise (a simple rule, not a bargaining one: better, it plays on
//! for the win; worse, it plays on as well).

use crate::games::Game;
use crate::games::kit::color::Color;
use crate::search::Score;
use std::fmt;

/// Most towers a side may command in a dead position.
pub const DEAD_MAX_TOWERS: u32 = 3;
/// Largest score from the engine's view, either way, at which it accepts a draw (centi-men).
pub const DRAW_MARGIN_CP: i32 = 25;

/// Why the engine declines a draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decline {
    /// Too much is left on the board: the towers (or pieces: the word is given) White and
    /// Black command.
    NotDead(u32, u32, &'static str),
    /// The engine's score is not near even.
    Score(Score),
}

impl fmt::Display for Decline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decline::NotDead(w, b, what) => write!(
                f,
                "the position is not dead (White commands {w} {what}s, Black {b}; a draw is \
                 agreed with at most {DEAD_MAX_TOWERS} each)"
            ),
            Decline::Score(s) => write!(
                f,
                "its score is {} for it, not within {}.{:02} of even",
                s.human(),
                DRAW_MARGIN_CP / 100,
                DRAW_MARGIN_CP % 100
            ),
        }
    }
}

/// Whether the position is dead: each side commands at most [`DEAD_MAX_TOWERS`] towers
/// (pieces, in a game without towers); `what` is the game's word for them, for the answer.
pub fn is_dead<G: Game>(pos: &G, what: &'static str) -> Result<(), Decline> {
    let (w, b) = (pos.commanders(Color::White), pos.commanders(Color::Black));
    if w.max(b) <= DEAD_MAX_TOWERS {
        Ok(())
    } else {
        Err(Decline::NotDead(w, b, what))
    }
}

/// The engine's answer to a draw offer in a dead position, given its score (from its view).
pub fn answer(engine_score: Score) -> Result<(), Decline> {
    match engine_score {
        Score::Cp(c) if c.abs() <= DRAW_MARGIN_CP => Ok(()),
        s => Err(Decline::Score(s)),
    }
}

/// The score from the other side's view.
pub fn negated(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        Score::WinIn(p) => Score::LossIn(p),
        Score::LossIn(p) => Score::WinIn(p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::notation::{START_FEN, parse_fen};
    use crate::games::{Rules, turkish};

    #[test]
    fn dead_means_few_towers_each() {
        assert_eq!(
            is_dead(&parse_fen(START_FEN).unwrap(), "tower"),
            Err(Decline::NotDead(12, 12, "tower"))
        );
        // Two towers against three (one of them a tower of three, commanded by Black): dead.
        let few = parse_fen("8/8/3B4/8/8/(bww)1w5/8/W3b3 w").unwrap();
        assert_eq!(is_dead(&few, "tower"), Ok(()));
        let four = parse_fen("8/8/3B4/8/8/(bww)1w5/8/W1w1w1b1 w").unwrap();
        assert_eq!(
            is_dead(&four, "tower"),
            Err(Decline::NotDead(4, 3, "tower"))
        );
        let turkish = turkish::Position::startpos();
        assert_eq!(
            is_dead(&turkish, "piece").unwrap_err().to_string(),
            "the position is not dead (White commands 16 pieces, Black 16; a draw is agreed \
             with at most 3 each)"
        );
        let few = turkish::Position::from_fen("8/8/3B4/8/8/8/8/W1w5 w").unwrap();
        assert_eq!(is_dead(&few, "piece"), Ok(()));
    }

    #[test]
    fn near_even_is_accepted_either_way_only() {
        assert_eq!(answer(Score::Cp(0)), Ok(()));
        assert_eq!(answer(Score::Cp(-DRAW_MARGIN_CP)), Ok(()));
        assert_eq!(answer(Score::Cp(DRAW_MARGIN_CP)), Ok(()));
        assert!(answer(Score::Cp(DRAW_MARGIN_CP + 1)).is_err());
        assert!(answer(Score::Cp(-300)).is_err());
        let won = answer(Score::WinIn(3)).unwrap_err();
        assert_eq!(
            won.to_string(),
            "its score is win in 2 moves for it, not within 0.25 of even"
        );
        assert_eq!(negated(Score::WinIn(3)), Score::LossIn(3));
        assert_eq!(negated(Score::Cp(-7)), Score::Cp(7));
    }
}
