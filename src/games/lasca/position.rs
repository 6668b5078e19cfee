//! The Lasca position: the column on each of the 25 squares (the kit's [`Tower`], top
//! first), the squares each side commands and those an officer commands as bitboards, the
//! side to move, the no-capture clock and the move number, with a hash kept incrementally.

use crate::games::kit::Color;
use crate::games::kit::tower::{Piece, Tower};
use crate::games::kit::turn::{Turn, turn_accessors};
use crate::games::lasca::board::{NUM_SQUARES, Square, promotion_mask};
use crate::games::lasca::moves::Move;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A seed per square, mixed with a column's packed contents.
const SEEDS: [u64; NUM_SQUARES] = {
    let mut s = [0u64; NUM_SQUARES];
    let mut i = 0;
    while i < NUM_SQUARES {
        s[i] = splitmix(0x6c61_7363_6100 + i as u64);
        i += 1;
    }
    s
};

/// The hash contribution of `column` on `sq`: a mix of its whole contents (every piece in
/// order and the height), 0 for an empty square.
#[inline]
fn column_key(sq: Square, column: Tower) -> u64 {
    if column.is_empty() {
        0
    } else {
        splitmix(column.raw() ^ SEEDS[sq.index()])
    }
}

/// What move generation reads of a position: the squares each side commands, those an
/// officer commands, and the side to move (16 bytes, so perft's last ply needs no copy of
/// the columns; the side is a copy of the position's [`Turn`]'s, kept equal by every move
/// and by `set_side`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sets {
    by_color: [u32; 2],
    officers: u32,
    side: Color,
}

impl Sets {
    /// Side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    /// The squares whose column `c` commands.
    #[inline]
    pub fn pieces(&self, c: Color) -> u32 {
        self.by_color[c.index()]
    }

    /// The squares whose column an officer (of either side) commands.
    #[inline]
    pub fn officers(&self) -> u32 {
        self.officers
    }

    /// Occupied squares.
    #[inline]
    pub fn occupied(&self) -> u32 {
        self.by_color[0] | self.by_color[1]
    }

    /// Makes `sq` commanded as `column` says (empty: by nobody).
    #[inline(always)]
    fn command(&mut self, sq: Square, column: Tower) {
        let bit = sq.bit();
        self.by_color[0] &= !bit;
        self.by_color[1] &= !bit;
        self.officers &= !bit;
        if !column.is_empty() {
            let top = column.top();
            self.by_color[top.color().index()] |= bit;
            if top.is_king() {
                self.officers |= bit;
            }
        }
    }
}

/// A Lasca position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    columns: [Tower; NUM_SQUARES],
    sets: Sets,
    turn: Turn,
}

impl Position {
    turn_accessors!(side also in sets);

    /// An empty board, White to move, clock 0, move 1.
    pub fn empty() -> Position {
        Position {
            columns: [Tower::EMPTY; NUM_SQUARES],
            sets: Sets {
                by_color: [0; 2],
                officers: 0,
                side: Color::White,
            },
            turn: Turn::START,
        }
    }

    /// The initial position: 11 white soldiers on ranks 1-3, 11 black ones on ranks 5-7.
    pub fn startpos() -> Position {
        let mut p = Position::empty();
        for sq in Square::all() {
            let c = match sq.rank() {
                0..=2 => Color::White,
                4..=6 => Color::Black,
                _ => continue,
            };
            p.set(sq, Tower::single(Piece::new(c, false)));
        }
        p
    }

    /// The column on `sq` (empty for an empty square).
    #[inline]
    pub fn column(&self, sq: Square) -> Tower {
        self.columns[sq.index()]
    }

    /// Puts `column` on `sq` (the empty tower clears it), keeping sets and hash exact.
    #[inline]
    pub(crate) fn set(&mut self, sq: Square, column: Tower) {
        self.put::<true>(sq, column);
    }

    /// [`Position::set`], keeping the hash only when `HASH` (perft needs no hash).
    #[inline(always)]
    fn put<const HASH: bool>(&mut self, sq: Square, column: Tower) {
        let i = sq.index();
        if HASH {
            self.turn
                .toggle(column_key(sq, self.columns[i]) ^ column_key(sq, column));
        }
        self.columns[i] = column;
        self.sets.command(sq, column);
    }

    /// What move generation reads.
    #[inline]
    pub fn sets(&self) -> &Sets {
        &self.sets
    }

    /// The squares whose column `c` commands.
    #[inline]
    pub fn pieces(&self, c: Color) -> u32 {
        self.sets.pieces(c)
    }

    /// The squares whose column an officer (of either side) commands.
    #[inline]
    pub fn officers(&self) -> u32 {
        self.sets.officers
    }

    /// Occupied squares.
    #[inline]
    pub fn occupied(&self) -> u32 {
        self.sets.occupied()
    }

    /// The [`Sets`] of the position after the legal move `m`, without playing it.
    #[inline]
    pub fn sets_after(&self, m: &Move) -> Sets {
        let mut s = self.sets;
        let from = m.from();
        let mut col = self.column(from);
        s.command(from, Tower::EMPTY);
        if m.is_capture() {
            for sq in m.jumps() {
                s.command(sq, self.column(sq).without_top());
            }
        }
        let to = m.to();
        if !col.top().is_king() && to.bit() & promotion_mask(s.side) != 0 {
            col = col.with_top_crowned();
        }
        s.command(to, col);
        s.side = s.side.opponent();
        s
    }

    /// The hash computed from scratch (equals [`Position::hash`] at all times).
    pub fn compute_hash(&self) -> u64 {
        Square::all().fold(self.turn.side_key(), |h, sq| {
            h ^ column_key(sq, self.column(sq))
        })
    }

    /// Plays a legal move in place. The moving column leaves its start square; each jumped
    /// column, in order, loses its commander, which goes to the bottom of the moving column
    /// (what lay below it now commands its square); the column lands on the last square, and
    /// a soldier commanding it is promoted there if that is its far rank.
    #[inline]
    pub fn play(&mut self, m: &Move) {
        self.apply::<true>(m);
    }

    /// [`Position::play`] without keeping the hash, for perft: the hash is left stale.
    #[inline]
    pub(crate) fn play_unhashed(&mut self, m: &Move) {
        self.apply::<false>(m);
    }

    #[inline(always)]
    fn apply<const HASH: bool>(&mut self, m: &Move) {
        let us = self.side();
        let from = m.from();
        let mut col = self.column(from);
        self.put::<HASH>(from, Tower::EMPTY);
        if m.is_capture() {
            for sq in m.jumps() {
                let jumped = self.column(sq);
                col = col.with_bottom(jumped.top());
                self.put::<HASH>(sq, jumped.without_top());
            }
        }
        let to = m.to();
        if !col.top().is_king() && to.bit() & promotion_mask(us) != 0 {
            col = col.with_top_crowned();
        }
        self.put::<HASH>(to, col);
        // Without HASH the hash is stale anyway: flipping its side key costs one XOR.
        self.turn.end_move(m.is_capture());
        self.sets.side = self.turn.side();
    }
}
