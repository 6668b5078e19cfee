//! Matching the squares a person typed against the legal moves of the game being played:
//! the full path, or a capture by its ends (and any landing squares in between), and when
//! nothing fits, why not and what the piece there can do instead. Every game names its
//! squares a1 to h8, and [`Game::move_squares`] gives the squares a move visits, so one
//! matcher serves them all.

use super::input::Sq;
use crate::games::Game;
use std::fmt;

/// Why a typed path is not a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// No piece on the first square.
    Empty(Sq),
    /// The piece there (the tower, in Bashni: the word is given) is the other side's.
    NotYours(Sq, &'static str),
    /// A capture is compulsory and the typed move does not capture.
    MustCapture,
    /// The piece there has no legal move.
    Stuck(Sq),
    /// The piece has moves, but not this one.
    NoSuchMove,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::Empty(sq) => write!(f, "there is no piece on {sq}"),
            Illegal::NotYours(sq, what) => {
                write!(f, "the {what} on {sq} belongs to the other side")
            }
            Illegal::MustCapture => write!(f, "a capture is compulsory"),
            Illegal::Stuck(sq) => write!(f, "the piece on {sq} has no legal move"),
            Illegal::NoSuchMove => write!(f, "that piece cannot move that way"),
        }
    }
}

/// What a typed path names in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved<M> {
    /// Exactly one legal move.
    Move(M),
    /// Several legal moves (sorted by their text): the person must choose.
    Ambiguous(Vec<M>),
    /// None; `options` are the legal moves of the piece on the first square, or every legal
    /// move when that piece has none.
    Illegal {
        /// Why.
        reason: Illegal,
        /// What could be played instead.
        options: Vec<M>,
    },
}

/// Whether `path` (origin first) passes through `typed` in order, starting and ending with it.
fn follows(path: &[Sq], typed: &[Sq]) -> bool {
    if path.first() != typed.first() || path.last() != typed.last() {
        return false;
    }
    let mut rest = path.iter();
    typed.iter().all(|t| rest.any(|p| p == t))
}

/// Matches typed squares against the legal moves of `pos`: the full path, or (for a capture)
/// the origin, the final square and any landing squares in between that the person gave.
/// `d6 b4` is ambiguous when both `d6:b4` and `d6:f8:b4` are legal.
pub fn resolve<G: Game>(pos: &G, typed: &[Sq]) -> Resolved<G::Move> {
    let legal = pos.legal_moves();
    let mut cands: Vec<G::Move> = legal
        .iter()
        .filter(|m| {
            let path = path_of::<G>(m);
            path == typed || (G::is_capture(m) && follows(&path, typed))
        })
        .copied()
        .collect();
    sort_moves(&mut cands);
    match cands.len() {
        0 => {}
        1 => return Resolved::Move(cands[0]),
        _ => return Resolved::Ambiguous(cands),
    }
    let from = typed[0];
    let mut options: Vec<G::Move> = legal
        .iter()
        .filter(|m| origin::<G>(m) == from)
        .copied()
        .collect();
    let tower = pos.tower_at(from.file, from.rank).unwrap_or_default();
    let reason = if tower.is_empty() {
        Illegal::Empty(from)
    } else if tower.top().color() != pos.side_to_move() {
        Illegal::NotYours(from, crate::game_text::piece_word(G::VARIANT))
    } else if options.is_empty() && legal.iter().any(G::is_capture) {
        Illegal::MustCapture
    } else if options.is_empty() {
        Illegal::Stuck(from)
    } else {
        Illegal::NoSuchMove
    };
    if options.is_empty() {
        options = legal.to_vec();
    }
    sort_moves(&mut options);
    Resolved::Illegal { reason, options }
}

/// The squares a move visits, its origin first.
pub fn path_of<G: Game>(m: &G::Move) -> Vec<Sq> {
    G::move_squares(m).into_iter().map(Sq::new).collect()
}

/// The square a move starts from.
pub fn origin<G: Game>(m: &G::Move) -> Sq {
    path_of::<G>(m)[0]
}

/// Sorts moves by their text, so that lists read the same every time.
pub fn sort_moves<M: fmt::Display>(moves: &mut [M]) {
    moves.sort_by_cached_key(|m| m.to_string());
}

/// Moves as text, separated by spaces.
pub fn move_list<M: fmt::Display>(moves: &[M]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::notation::{START_FEN, parse_fen};
    use crate::games::bashni::position::Position;
    use crate::games::{Rules, russian, turkish};
    use crate::play::input::tests::sq;

    #[test]
    fn resolves_full_paths_and_endpoints() {
        // A white man on c3 can take b4 (ending on a5), or d4 and then b6 or f6.
        let pos = parse_fen("8/8/3b1b2/8/1b1b4/2w5/8/8 w").unwrap();
        let mut legal = pos.legal_moves().to_vec();
        sort_moves(&mut legal);
        assert_eq!(move_list(&legal), "c3:a5 c3:e5:c7 c3:e5:g7");
        for m in legal.iter() {
            let typed = path_of::<Position>(m);
            assert_eq!(resolve(&pos, &typed), Resolved::Move(*m));
            let ends = [typed[0], typed[typed.len() - 1]];
            assert_eq!(resolve(&pos, &ends), Resolved::Move(*m));
        }
        let quiet = parse_fen(START_FEN).unwrap();
        assert!(matches!(
            resolve(&quiet, &[sq("c3"), sq("d4")]),
            Resolved::Move(_)
        ));
    }

    #[test]
    fn ambiguous_capture_lists_every_route() {
        // The man on d6 takes c5 and lands on b4, or takes e7, is crowned on f8 and comes
        // back as a king over c5 to b4 (or a3).
        let pos = parse_fen("3b4/w3b3/3w4/2b5/8/6b1/8/8 w").unwrap();
        match resolve(&pos, &[sq("d6"), sq("b4")]) {
            Resolved::Ambiguous(c) => {
                assert_eq!(move_list(&c), "d6:b4 d6:f8:b4");
                // A landing square in between picks one.
                let typed = [sq("d6"), sq("f8"), sq("b4")];
                assert_eq!(resolve(&pos, &typed), Resolved::Move(c[1]));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            resolve(&pos, &[sq("d6"), sq("a3")]),
            Resolved::Move(_)
        ));
    }

    #[test]
    fn illegal_moves_say_why() {
        let start = parse_fen(START_FEN).unwrap();
        let reason = |pos: &Position, typed: &[&str]| {
            let t: Vec<Sq> = typed.iter().map(|s| sq(s)).collect();
            match resolve(pos, &t) {
                Resolved::Illegal { reason, options } => (reason, move_list(&options)),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(
            reason(&start, &["c3", "e5"]),
            (Illegal::NoSuchMove, "c3-b4 c3-d4".to_string())
        );
        assert_eq!(reason(&start, &["d4", "e5"]).0, Illegal::Empty(sq("d4")));
        assert_eq!(
            reason(&start, &["f6", "e5"]).0,
            Illegal::NotYours(sq("f6"), "tower")
        );
        let (r, all) = reason(&start, &["b2", "c3"]);
        assert_eq!(r, Illegal::Stuck(sq("b2")));
        assert_eq!(all.split(' ').count(), 7);
        let capture = parse_fen("8/8/8/8/3b4/2w5/7w/8 w").unwrap();
        assert_eq!(
            reason(&capture, &["h2", "g3"]),
            (Illegal::MustCapture, "c3:e5".to_string())
        );
        assert_eq!(Illegal::MustCapture.to_string(), "a capture is compulsory");
    }

    #[test]
    fn turkish_moves_go_along_lines() {
        let start = turkish::Position::startpos();
        assert!(matches!(
            resolve(&start, &[sq("d3"), sq("d4")]),
            Resolved::Move(m) if m.to_string() == "d3-d4"
        ));
        match resolve(&start, &[sq("d3"), sq("e4")]) {
            Resolved::Illegal { reason, options } => {
                assert_eq!(reason, Illegal::NoSuchMove);
                assert_eq!(move_list(&options), "d3-d4");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            resolve(&start, &[sq("d6"), sq("d5")]),
            Resolved::Illegal {
                reason: Illegal::NotYours(_, "piece"),
                ..
            }
        ));
        // The shortcut names a capture by its ends.
        let pos = turkish::Position::from_fen("8/8/8/4b3/3b4/3w4/8/8 w").unwrap();
        assert!(matches!(
            resolve(&pos, &[sq("d3"), sq("f5")]),
            Resolved::Move(m) if m.to_string() == "d3:d5:f5"
        ));
    }

    #[test]
    fn russian_moves_resolve_on_the_dark_squares() {
        let start = russian::Position::startpos();
        assert!(matches!(
            resolve(&start, &[sq("c3"), sq("d4")]),
            Resolved::Move(m) if m.to_string() == "c3-d4"
        ));
    }
}
