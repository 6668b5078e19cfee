//! What the endgame databases need of a game beyond [`Game`]: its pieces as dense bitboards
//! (square 0..[`EgdbGame::SQUARES`], a1 side first), a position built from them, and where a
//! man may stand. Implemented for the draughts-64 games (Russian and Brazilian draughts, one
//! impl for both: the tables need nothing of the laws in which they differ, as the solver
//! knows a game only by its legal moves) and Turkish draughts; another game of single pieces
//! needs these four items (Bashni's and Lasca's towers would need a material signature of
//! towers, which this module does not have).

use crate::games::kit::Color;
use crate::games::kit::game::Game;
use crate::games::kit::square::bit_indices;

/// The pieces of one position on dense squares: `men[c]` and `kings[c]` are bitboards of
/// the squares `0..SQUARES` (a1 side first, as seen from White), `side` the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Layout {
    /// Men of White (0) and Black (1).
    pub men: [u64; 2],
    /// Kings of White (0) and Black (1).
    pub kings: [u64; 2],
    /// The side to move.
    pub side: Color,
}

impl Layout {
    /// The same position seen from the other side: the board turned half round (square `s`
    /// becomes `SQUARES - 1 - s`, in both games a symmetry of the moves) and the colours
    /// swapped. The value for the side to move is the same.
    pub fn flipped(&self, squares: usize) -> Layout {
        let turn = |b: u64| b.reverse_bits() >> (64 - squares);
        Layout {
            men: [turn(self.men[1]), turn(self.men[0])],
            kings: [turn(self.kings[1]), turn(self.kings[0])],
            side: self.side.opponent(),
        }
    }

    /// The layout with White to move ([`Layout::flipped`] if Black is to move): the
    /// databases store positions with White to move only.
    pub fn canonical(&self, squares: usize) -> Layout {
        if self.side == Color::White {
            *self
        } else {
            self.flipped(squares)
        }
    }

    /// The same position mirrored left to right on the 64-square board (file a becomes file
    /// h, the ranks and the side to move stay), a symmetry of Turkish draughts' moves.
    pub fn mirrored(&self) -> Layout {
        Layout {
            men: self.men.map(mirror64),
            kings: self.kings.map(mirror64),
            side: self.side,
        }
    }

    /// Whether a game symmetric under [`Layout::mirrored`] stores this position (White to
    /// move) mirrored: when its men's mirror (White's, then Black's, as numbers) comes first.
    /// Positions whose men are their own mirror (no men, say) are stored as they are.
    pub fn mirror_first(men: [u64; 2]) -> bool {
        men.map(mirror64) < men
    }

    /// Each piece as (dense square, colour, whether a king): what a game's
    /// [`EgdbGame::from_layout`] puts on its board.
    pub fn each_piece(&self) -> impl Iterator<Item = (usize, Color, bool)> + '_ {
        [Color::White, Color::Black].into_iter().flat_map(move |c| {
            [(self.men[c.index()], false), (self.kings[c.index()], true)]
                .into_iter()
                .flat_map(move |(set, king)| bit_indices(set).map(move |d| (d as usize, c, king)))
        })
    }

    /// Every piece of side `c`.
    pub fn pieces(&self, c: Color) -> u64 {
        self.men[c.index()] | self.kings[c.index()]
    }
}

/// Each square's file turned round (a1 to h1) on the 64-square board: each rank's bits
/// reversed.
fn mirror64(b: u64) -> u64 {
    b.reverse_bits().swap_bytes()
}

/// The layout of `layout`'s position a table of `G` holds: White to move
/// ([`Layout::canonical`]) and, in a game whose moves are symmetric under the mirror
/// ([`EgdbGame::MIRROR`]), mirrored if [`Layout::mirror_first`] says so. The solver solves
/// these layouts only; a table's other slots hold copies of their mirrors' values.
pub fn stored<G: EgdbGame>(layout: &Layout) -> Layout {
    let l = layout.canonical(G::SQUARES);
    if G::MIRROR && Layout::mirror_first(l.men) {
        l.mirrored()
    } else {
        l
    }
}

/// A game the endgame databases can be built for.
pub trait EgdbGame: Game {
    /// Squares of the board the game plays on (32 or 64).
    const SQUARES: usize;
    /// Whether the moves are symmetric under the board's left-right mirror
    /// ([`Layout::mirrored`]; Turkish draughts: yes; Russian: no, its mirror would put the
    /// pieces on the light squares).
    const MIRROR: bool;

    /// The pieces of this position.
    fn layout(&self) -> Layout;

    /// The position of these pieces with `layout.side` to move, clock 0, move 1.
    fn from_layout(layout: &Layout) -> Self;

    /// Squares a man of colour `c` may stand on: all but its promotion rank.
    fn man_squares(c: Color) -> u64;
}

const fn low_bits(n: usize) -> u64 {
    if n == 64 { u64::MAX } else { (1u64 << n) - 1 }
}

mod draughts64_impl {
    use super::*;
    use crate::games::kit::draughts64::{Laws, Position};
    use crate::games::kit::square::{DENSE, Square};
    use crate::games::kit::tower::Piece;

    fn dense(set: u64) -> u64 {
        bit_indices(set).fold(0, |acc, b| acc | 1 << DENSE[b as usize])
    }

    /// The dark square of dense index `d`: four a rank, a1 first.
    fn square(d: u32) -> Square {
        let rank = (d / 4) as u8;
        let file = 2 * (d % 4) as u8 + rank % 2;
        Square::from_coords(file, rank).expect("a dense index is a dark square")
    }

    /// Russian and Brazilian draughts: the majority rule and where a man is crowned are in
    /// the legal moves the solver plays, and the no-progress rule's limit is the game's
    /// [`Game::CLOCK_LIMIT`].
    impl<L: Laws> EgdbGame for Position<L>
    where
        Position<L>: Game,
    {
        const SQUARES: usize = 32;
        const MIRROR: bool = false;

        fn layout(&self) -> Layout {
            let k = self.kings().0;
            let w = self.pieces(Color::White).0;
            let b = self.pieces(Color::Black).0;
            Layout {
                men: [dense(w & !k), dense(b & !k)],
                kings: [dense(w & k), dense(b & k)],
                side: self.side(),
            }
        }

        fn from_layout(layout: &Layout) -> Position<L> {
            let mut p = Position::empty();
            for (d, c, king) in layout.each_piece() {
                p.put(square(d as u32), Some(Piece::new(c, king)));
            }
            p.set_side(layout.side);
            p
        }

        fn man_squares(c: Color) -> u64 {
            let last = match c {
                Color::White => 0xF000_0000,
                Color::Black => 0xF,
            };
            low_bits(32) & !last
        }
    }
}

mod turkish_impl {
    use super::*;
    use crate::games::turkish::Position;
    use crate::games::turkish::board::Square;

    impl EgdbGame for Position {
        const SQUARES: usize = 64;
        const MIRROR: bool = true;

        fn layout(&self) -> Layout {
            let k = self.kings();
            let w = self.pieces(Color::White);
            let b = self.pieces(Color::Black);
            Layout {
                men: [w & !k, b & !k],
                kings: [w & k, b & k],
                side: self.side(),
            }
        }

        fn from_layout(layout: &Layout) -> Position {
            let mut p = Position::empty();
            for (d, c, king) in layout.each_piece() {
                p.put(Square::from_index(d as _), Some((c, king)));
            }
            p.set_side(layout.side);
            p
        }

        fn man_squares(c: Color) -> u64 {
            let last = match c {
                Color::White => 0xFF00_0000_0000_0000,
                Color::Black => 0xFF,
            };
            !last
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn round_trip<G: EgdbGame>(fen: &str) {
        let p = G::from_fen(fen).expect("fen");
        let l = p.layout();
        let q = G::from_layout(&l);
        assert_eq!(q.layout(), l);
        assert_eq!(q.hash(), p.hash(), "{fen}");
        assert_eq!(l.flipped(G::SQUARES).flipped(G::SQUARES), l);
    }

    #[test]
    fn layouts_round_trip() {
        round_trip::<crate::games::russian::Position>(crate::games::russian::START_FEN);
        round_trip::<crate::games::turkish::Position>(crate::games::turkish::START_FEN);
        round_trip::<crate::games::brazilian::Position>(crate::games::brazilian::START_FEN);
    }

    #[test]
    fn a_mirrored_turkish_position_has_the_mirrored_moves() {
        use crate::games::kit::rules::Rules;
        use crate::games::turkish::Position;
        // White: king a1, men c3 and d4; Black: man f6, king h2.
        let fen = "8/8/5b2/8/3w4/2w5/7B/W7 w 0 1";
        let p = Position::from_fen(fen).expect("fen");
        let l = p.layout();
        let m = l.mirrored();
        assert_eq!(m.mirrored(), l);
        assert_eq!(m.kings[0], 1 << 7, "a1 mirrored is h1");
        let q = Position::from_layout(&m);
        let mut a: Vec<Layout> = p
            .legal_moves()
            .iter()
            .map(|x| p.played(x).layout().mirrored())
            .collect();
        let mut b: Vec<Layout> = q
            .legal_moves()
            .iter()
            .map(|x| q.played(x).layout())
            .collect();
        let key = |l: &Layout| (l.men, l.kings);
        a.sort_by_key(key);
        b.sort_by_key(key);
        assert_eq!(a, b);
        assert!(!a.is_empty());
        // Exactly one of a position and its mirror is stored mirrored, unless both are one.
        assert_ne!(Layout::mirror_first(l.men), Layout::mirror_first(m.men));
        assert!(!Layout::mirror_first([0, 0]));
        assert_eq!(stored::<Position>(&l), stored::<Position>(&m));
    }

    #[test]
    fn a_flipped_start_is_the_start_with_the_other_side_to_move() {
        let p = crate::games::russian::Position::startpos().layout();
        let f = p.flipped(32);
        assert_eq!((f.men, f.kings), (p.men, p.kings));
        assert_eq!(f.side, Color::Black);
    }
}
