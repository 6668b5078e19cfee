//! The answers of `moves` and `state`: what a GUI that does not know the rules needs to
//! know about the current game (engine-protocol.md, "`moves`" and "`state`").
//!
//! Every fact comes from the game's [`Record`]: its legal moves, [`Record::outcome`] and
//! [`Record::repetitions`], so the protocol says exactly what the rules of the game being
//! played say.

use crate::games::kit::color::Color;
use crate::games::{Game, Outcome, Record};

/// The `moves` line: `moves <m1> <m2> ...`, every legal move of the current position written
/// in full (every landing square) and sorted by text, or `moves (none)`.
pub fn moves_line<G: Game>(game: &Record<G>) -> String {
    let mut texts: Vec<String> = game
        .position()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    if texts.is_empty() {
        return "moves (none)".to_string();
    }
    texts.sort();
    format!("moves {}", texts.join(" "))
}

/// The `state` line:
/// `state turn w|b result none|1-0|0-1|1/2-1/2 reason none|no-legal-move|king-against-man|threefold-repetition|<rule> plies30 N repetitions N fen <FEN>`,
/// where `<rule>` is the game's no-progress rule ([`Game::CLOCK_RULE`]: `30-ply-rule`,
/// `50-ply-rule`, `15-move-king-rule`) and `plies30` the clock that rule counts (the
/// field keeps its Bashni name). The FEN comes last because it contains spaces: it is
/// everything after `fen `.
pub fn state_line<G: Game>(game: &Record<G>) -> String {
    let pos = game.position();
    let outcome = game.outcome();
    let turn = match pos.side_to_move() {
        Color::White => "w",
        Color::Black => "b",
    };
    format!(
        "state turn {turn} result {} reason {} plies30 {} repetitions {} fen {}",
        result_token(outcome),
        reason_token::<G>(outcome),
        pos.clock(),
        game.repetitions(),
        pos.to_fen()
    )
}

/// The game's result in PDN form, `none` while it goes on.
fn result_token(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "none",
        Some(Outcome::NoLegalMove(Color::White) | Outcome::KingAgainstMan(Color::White)) => "1-0",
        Some(Outcome::NoLegalMove(Color::Black) | Outcome::KingAgainstMan(Color::Black)) => "0-1",
        Some(Outcome::Repetition | Outcome::ClockRule) => "1/2-1/2",
    }
}

/// Why the game is over, one word, `none` while it goes on.
fn reason_token<G: Game>(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "none",
        Some(Outcome::NoLegalMove(_)) => "no-legal-move",
        Some(Outcome::KingAgainstMan(_)) => "king-against-man",
        Some(Outcome::Repetition) => "threefold-repetition",
        Some(Outcome::ClockRule) => G::CLOCK_RULE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::Position;
    use crate::games::bashni::notation::START_FEN;
    use crate::games::{russian, turkish};

    fn game(fen: &str, moves: &[&str]) -> Record<Position> {
        Record::from_fen_and_moves(fen, moves).unwrap()
    }

    #[test]
    fn start_position() {
        let g = game(START_FEN, &[]);
        assert_eq!(
            moves_line(&g),
            "moves a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4"
        );
        assert_eq!(
            state_line(&g),
            format!("state turn w result none reason none plies30 0 repetitions 1 fen {START_FEN}")
        );
    }

    #[test]
    fn no_legal_move_is_a_loss() {
        let g = game("8/8/8/8/8/2b5/1b6/w7 w", &[]);
        assert_eq!(moves_line(&g), "moves (none)");
        assert!(
            state_line(&g).starts_with(
                "state turn w result 0-1 reason no-legal-move plies30 0 repetitions 1 fen "
            ),
            "{}",
            state_line(&g)
        );
    }

    #[test]
    fn captures_are_written_in_full() {
        // A white king on a1 takes two black men in a row and may land on any square
        // behind the second.
        let g = game("8/8/8/8/3b4/8/1b6/W7 w", &[]);
        assert_eq!(moves_line(&g), "moves a1:c3:e5 a1:c3:f6 a1:c3:g7 a1:c3:h8");
    }

    #[test]
    fn repetition_and_thirty_plies() {
        // Two kings that never meet walk back and forth.
        let shuffle = ["a1-b2", "h2-g1", "b2-a1", "g1-h2"];
        let mut moves: Vec<&str> = shuffle.to_vec();
        let fen = "8/8/8/8/8/8/7B/W7 w";
        assert!(state_line(&game(fen, &moves)).contains(" repetitions 2 "));
        moves.extend(shuffle);
        let s = state_line(&game(fen, &moves));
        assert!(
            s.starts_with("state turn w result 1/2-1/2 reason threefold-repetition plies30 8 repetitions 3 fen "),
            "{s}"
        );
        let s = state_line(&game("8/8/8/8/8/8/7B/W7 b 29 40", &["h2-g1"]));
        assert!(
            s.starts_with("state turn w result 1/2-1/2 reason 30-ply-rule plies30 30 "),
            "{s}"
        );
    }

    #[test]
    fn each_game_names_its_own_rules() {
        let t = Record::<turkish::Position>::from_fen_and_moves("8/8/8/8/8/8/b6b/W7 w", &["a1:a3"])
            .unwrap();
        assert!(
            state_line(&t).starts_with("state turn b result 1-0 reason king-against-man "),
            "{}",
            state_line(&t)
        );
        let t = Record::<turkish::Position>::from_fen_and_moves(
            "8/8/8/3B4/8/8/8/W6W w 49 30",
            &["a1-a2"],
        )
        .unwrap();
        assert!(
            state_line(&t)
                .starts_with("state turn b result 1/2-1/2 reason 50-ply-rule plies30 50 "),
            "{}",
            state_line(&t)
        );
        let r = Record::<russian::Position>::from_fen_and_moves(
            "8/8/8/8/8/8/7B/W7 w 29 40",
            &["a1-b2"],
        )
        .unwrap();
        assert!(
            state_line(&r)
                .starts_with("state turn b result 1/2-1/2 reason 15-move-king-rule plies30 30 "),
            "{}",
            state_line(&r)
        );
        let start = Record::new(turkish::Position::startpos());
        assert_eq!(
            moves_line(&start),
            "moves a3-a4 b3-b4 c3-c4 d3-d4 e3-e4 f3-f4 g3-g4 h3-h4"
        );
    }
}
