//! The positions of a game a puzzle may start from: each position whose previous position and
//! the opponent's move into it are known. In a PDN game that is every ply; in a datagen game,
//! every written position that follows the one before it by a single legal move (datagen
//! writes only quiet positions, so captures leave gaps).

use super::source::{Body, SourceGame};
use crate::games::{Game, Record};

/// A position the opponent just moved into.
#[derive(Clone, Debug)]
pub struct Candidate<G: Game> {
    /// The position before the opponent's move (the puzzle's FEN).
    pub before: G,
    /// The opponent's move.
    pub played: G::Move,
    /// The position after it, the solver to move.
    pub after: G,
    /// The opponent's move's ply in its game (from 1).
    pub ply: u64,
}

/// The ply (from 1) of the move played from `pos` in a game from the initial position, by its
/// move number and side to move.
fn ply_from<G: Game>(pos: &G) -> u64 {
    let black = pos.side_to_move() == crate::games::kit::Color::Black;
    2 * u64::from(pos.fullmove().max(1) - 1) + u64::from(black) + 1
}

/// The candidates of `game`, in order, or why the game cannot be read (a bad FEN or move).
pub fn candidates<G: Game>(game: &SourceGame) -> Result<Vec<Candidate<G>>, String> {
    match &game.body {
        Body::Positions(fens) => from_positions(fens),
        Body::Moves { start, moves } => from_moves(start.as_deref(), moves),
    }
}

/// Pairs of consecutive positions one legal move apart.
fn from_positions<G: Game>(fens: &[String]) -> Result<Vec<Candidate<G>>, String> {
    let mut out = Vec::new();
    let mut prev: Option<G> = None;
    for (i, fen) in fens.iter().enumerate() {
        let pos = G::from_fen(fen).map_err(|e| format!("position {}: bad FEN: {e}", i + 1))?;
        if let Some(before) = prev.take() {
            let joining = before
                .legal_moves()
                .iter()
                .copied()
                .find(|m| before.played(m).hash() == pos.hash());
            if let Some(played) = joining {
                out.push(Candidate {
                    ply: ply_from(&before),
                    before,
                    played,
                    after: pos.clone(),
                });
            }
        }
        prev = Some(pos);
    }
    Ok(out)
}

/// Every ply of a game given by its moves.
fn from_moves<G: Game>(start: Option<&str>, moves: &[String]) -> Result<Vec<Candidate<G>>, String> {
    let start = match start {
        Some(fen) => G::from_fen(fen).map_err(|e| format!("bad FEN tag: {e}"))?,
        None => G::startpos(),
    };
    let mut record = Record::new(start);
    let mut out = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let before = record.position().clone();
        let played = record
            .play_text(text)
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        out.push(Candidate {
            before,
            played,
            after: record.position().clone(),
            ply: i as u64 + 1,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::Position;

    #[test]
    fn datagen_positions_one_move_apart_are_candidates() {
        let fens: Vec<String> = [
            "8/8/8/8/8/8/1w6/8 w 0 7",
            "8/8/8/8/8/2w5/8/8 b 0 7",
            "8/8/8/8/8/2w5/8/8 w 0 9",
        ]
        .map(String::from)
        .into();
        let c = from_positions::<Position>(&fens).unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].played.to_string(), "b2-c3");
        assert_eq!(c[0].ply, 13);
        let bad = ["nonsense".to_string()];
        assert!(
            from_positions::<Position>(&bad)
                .unwrap_err()
                .contains("position 1")
        );
    }

    #[test]
    fn every_ply_of_a_pdn_game_is_one() {
        let moves: Vec<String> = ["c3-d4", "f6-e5"].map(String::from).into();
        let c = from_moves::<Position>(None, &moves).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!((c[1].played.to_string(), c[1].ply), ("f6-e5".into(), 2));
        assert_eq!(c[1].before.hash(), c[0].after.hash());
        let bad: Vec<String> = ["c3-d4", "c3-d4"].map(String::from).into();
        let e = from_moves::<Position>(None, &bad).unwrap_err();
        assert!(e.starts_with("move 2 'c3-d4'"), "{e}");
    }
}
