//! What the front ends (`bashni play`, `bashni serve`) say that differs from game to game:
//! the words for a piece, example moves, the board's legend and what each game's no-progress
//! rule is (its name is [`Termination::tag_in`]'s). Everything else they say is the same in
//! every game.

use crate::games::Variant;
#[cfg(test)]
use crate::record::result::Termination;

/// The game's name for people: `Bashni`, `Turkish draughts`, `Russian draughts`.
pub fn game_name(v: Variant) -> &'static str {
    match v {
        Variant::Bashni => "Bashni",
        Variant::Turkish => "Turkish draughts",
        Variant::Russian => "Russian draughts",
        Variant::Brazilian => "Brazilian draughts",
        Variant::Lasca => "Lasca",
    }
}

/// What stands on a square: a tower in Bashni, a piece in the other games.
pub fn piece_word(v: Variant) -> &'static str {
    match v {
        Variant::Bashni => "tower",
        Variant::Lasca => "column",
        _ => "piece",
    }
}

/// A quiet move and a capture of two pieces in the game's notation, for examples.
pub fn example_moves(v: Variant) -> (&'static str, &'static str) {
    match v {
        Variant::Turkish => ("d3-d4", "d3:d5:f5"),
        Variant::Bashni | Variant::Russian | Variant::Brazilian => ("c3-d4", "c3:e5:g7"),
        Variant::Lasca => ("c3-d4", "c3:e5:c7"),
    }
}

/// The board's legend for `help`.
pub fn legend(v: Variant) -> &'static str {
    match v {
        Variant::Bashni => {
            "The board: w b men, W B kings; a tower shows its top piece and height (W3), and the \
             towers are\nwritten in full, top first, below the board."
        }
        Variant::Turkish => {
            "The board: w b men, W B kings on all 64 squares; men move forward or sideways, kings \
             along ranks\nand files."
        }
        Variant::Russian => {
            "The board: w b men, W B kings on the dark squares; a captured piece leaves the board."
        }
        Variant::Brazilian => {
            "The board: w b men, W B kings on the dark squares; a captured piece leaves the \
             board, and a\ncapture must take the most pieces."
        }
        Variant::Lasca => {
            "The board: w b soldiers, W B officers on 25 squares of a 7x7 board; a column shows its \
             commander and\nheight (W3), and the columns are written in full, top first, below \
             the board."
        }
    }
}

/// Why the no-progress rule drew the game, for people.
pub fn clock_rule_reason(v: Variant) -> String {
    match v {
        Variant::Bashni => format!(
            "{} plies without a capture",
            crate::games::bashni::position::CLOCK_LIMIT
        ),
        Variant::Turkish => format!(
            "{} plies without a capture or a man's move",
            crate::games::turkish::CLOCK_LIMIT
        ),
        Variant::Russian => format!(
            "{} plies of kings' moves without a capture",
            crate::games::russian::CLOCK_LIMIT
        ),
        Variant::Brazilian => format!(
            "{} plies of kings' moves without a capture",
            crate::games::brazilian::CLOCK_LIMIT
        ),
        Variant::Lasca => format!(
            "{} plies without a capture (the engine's adjudication; Lasca has no draw rule)",
            crate::games::lasca::CLOCK_LIMIT
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_says_what_its_own_rule_is() {
        assert_eq!(
            Termination::ThirtyPly.tag_in(Variant::Turkish),
            "50-ply rule"
        );
        assert_eq!(
            clock_rule_reason(Variant::Bashni),
            "30 plies without a capture"
        );
        assert_eq!(
            clock_rule_reason(Variant::Turkish),
            "50 plies without a capture or a man's move"
        );
    }
}
