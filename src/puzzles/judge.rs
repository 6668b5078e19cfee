//! When a move is a puzzle's move: the tests the miner puts to the two best lines of a
//! position (docs/puzzles.md, "The method").
//!
//! Scores become winning chances by lichess' curve ([`winning_chances`], on centi-men: 100 is
//! one man in every game), and a solver move is **unique** when its winning chances beat the
//! second-best move's by at least the gap ([`DEFAULT_GAP`], lichess' 0.7 unless `--gap`
//! says otherwise). The first move must also clear the **floor**: it is the only win (a
//! proven win where no other move wins), or it scores at least [`FLOOR_CP`] and beats every
//! other move by at least [`FLOOR_MARGIN_CP`].

use super::lines::{Choice, TwoLines};
use crate::review::{centi, winning_chances};
use crate::search::Score;

/// Lichess' gap in winning chances between the best and second-best move of a puzzle.
pub const DEFAULT_GAP: f64 = 0.7;

/// The least a first move that is not the only win must score: one and a half men.
pub const FLOOR_CP: i32 = 150;

/// The least a first move that is not the only win must beat every other move by.
pub const FLOOR_MARGIN_CP: i32 = 150;

/// Whether `score` is a proven win.
fn is_win(score: Score) -> bool {
    matches!(score, Score::WinIn(_))
}

/// Whether the best move is unique by `gap`: no second move, or winning chances at least
/// `gap` above the second's.
pub fn unique<M>(lines: &TwoLines<M>, gap: f64) -> bool {
    match &lines.second {
        None => true,
        Some(second) => {
            winning_chances(lines.best.score) - winning_chances(second.score) >= gap - 1e-9
        }
    }
}

/// Whether the best move clears the floor every puzzle's first move must clear.
pub fn clears_floor<M>(best: &Choice<M>, second: Option<&Choice<M>>) -> bool {
    let only_win = is_win(best.score) && second.is_none_or(|s| !is_win(s.score));
    let margin = second.map_or(i32::MAX, |s| centi(best.score) - centi(s.score));
    only_win || (centi(best.score) >= FLOOR_CP && margin >= FLOOR_MARGIN_CP)
}

/// Whether `lines` make a puzzle's first move: unique by `gap` and clearing the floor.
pub fn first_move<M>(lines: &TwoLines<M>, gap: f64) -> bool {
    unique(lines, gap) && clears_floor(&lines.best, lines.second.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(best: Score, second: Option<Score>) -> TwoLines<u8> {
        TwoLines {
            best: Choice { mv: 1, score: best },
            second: second.map(|score| Choice { mv: 2, score }),
            depth: 10,
            settled: 3,
        }
    }

    #[test]
    fn the_gap_is_in_winning_chances() {
        // wc(+400) = 0.627, wc(-20) = -0.037: a gap of 0.664, under 0.7.
        assert!(!unique(&lines(Score::Cp(400), Some(Score::Cp(-20))), 0.7));
        // wc(+400) - wc(-50) = 0.627 + 0.092.
        assert!(unique(&lines(Score::Cp(400), Some(Score::Cp(-50))), 0.7));
        // A win against +1.6 men (0.29): 0.71.
        assert!(unique(&lines(Score::WinIn(5), Some(Score::Cp(160))), 0.7));
        assert!(!unique(&lines(Score::WinIn(5), Some(Score::WinIn(9))), 0.7));
        assert!(unique(&lines(Score::Cp(0), None), 0.7));
    }

    #[test]
    fn the_floor_is_the_only_win_or_a_man_and_a_half_by_as_much() {
        assert!(clears_floor(
            &Choice {
                mv: 1,
                score: Score::WinIn(3)
            },
            Some(&Choice {
                mv: 2,
                score: Score::Cp(900)
            })
        ));
        assert!(!clears_floor(
            &Choice {
                mv: 1,
                score: Score::WinIn(3)
            },
            Some(&Choice {
                mv: 2,
                score: Score::WinIn(7)
            })
        ));
        let at = |b, s| {
            clears_floor(
                &Choice {
                    mv: 1,
                    score: Score::Cp(b),
                },
                Some(&Choice {
                    mv: 2,
                    score: Score::Cp(s),
                }),
            )
        };
        assert!(at(150, 0));
        assert!(!at(149, -300));
        assert!(!at(400, 251));
        assert!(at(400, 250));
        assert!(first_move(&lines(Score::Cp(600), Some(Score::Cp(0))), 0.7));
        assert!(!first_move(&lines(Score::Cp(140), None), 0.7));
    }
}
