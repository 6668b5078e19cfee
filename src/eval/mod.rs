//! Static evaluation in centi-men (a man = 100) from the side to move's view.
//!
//! Towers change the material picture: a piece under an enemy commander is a reserve that a
//! capture of that tower may free, and an enemy piece under an own commander is a liability
//! that comes back to life if the tower is jumped. So every piece counts for its own colour,
//! at a weight that depends on where it stands in its tower.

use crate::rules::bitboard::Bitboard;
use crate::rules::color::Color;
use crate::rules::movegen::forward;
use crate::rules::position::Position;
use crate::rules::square::{Direction, Square};

/// Every weight of the evaluation, in one place for tuning.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// A man commanding a tower.
    pub man: i32,
    /// A king commanding a tower.
    pub king: i32,
    /// A man under a commander of its own colour (safe: it takes over if the top is taken).
    pub man_under_own: i32,
    /// A king under a commander of its own colour.
    pub king_under_own: i32,
    /// A man held prisoner under an enemy commander (a reserve a capture may free).
    pub man_prisoner: i32,
    /// A king held prisoner under an enemy commander.
    pub king_prisoner: i32,
    /// Bonus for a man commander by how far it has advanced (index = ranks from its own side).
    pub advance: [i32; 8],
    /// A man on its own back rank, guarding against promotion.
    pub back_rank: i32,
    /// Per quiet move available.
    pub mobility: i32,
    /// A commanded tower the opponent could jump if it were their move, per piece at stake.
    pub exposed_per_piece: i32,
    /// A tower on the four central squares of each central rank (c-f files, ranks 3-6).
    pub center: i32,
    /// Side to move.
    pub tempo: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    man: 100,
    king: 280,
    man_under_own: 55,
    king_under_own: 120,
    man_prisoner: 35,
    king_prisoner: 90,
    advance: [0, 2, 5, 9, 14, 20, 28, 0],
    back_rank: 8,
    mobility: 3,
    exposed_per_piece: 6,
    center: 4,
    tempo: 8,
};

/// The evaluation of one side, term by term.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Terms {
    /// Commanders.
    pub material: i32,
    /// Pieces under commanders (own or enemy).
    pub prisoners: i32,
    /// Advancement of men.
    pub advancement: i32,
    /// Back-rank guards.
    pub back_rank: i32,
    /// Quiet-move mobility.
    pub mobility: i32,
    /// Towers the opponent could jump (negative).
    pub exposed: i32,
    /// Central control.
    pub center: i32,
}

impl Terms {
    /// Sum of the terms.
    pub fn total(&self) -> i32 {
        self.material
            + self.prisoners
            + self.advancement
            + self.back_rank
            + self.mobility
            + self.exposed
            + self.center
    }

    /// Names and values, for display.
    pub fn named(&self) -> [(&'static str, i32); 7] {
        [
            ("material", self.material),
            ("prisoners", self.prisoners),
            ("advancement", self.advancement),
            ("back rank", self.back_rank),
            ("mobility", self.mobility),
            ("exposed", self.exposed),
            ("center", self.center),
        ]
    }
}

const CENTER: u64 = {
    let mut b = 0u64;
    let mut r = 2;
    while r <= 5 {
        let mut f = 2;
        while f <= 5 {
            if let Some(sq) = Square::from_coords(f, r) {
                b |= sq.bit();
            }
            f += 1;
        }
        r += 1;
    }
    b
};

const fn rank_mask(rank: u8) -> u64 {
    let mut b = 0u64;
    let mut f = 0;
    while f < 8 {
        if let Some(sq) = Square::from_coords(f, rank) {
            b |= sq.bit();
        }
        f += 1;
    }
    b
}

/// Each side's back rank (White: rank 1, Black: rank 8).
const BACK_RANK: [u64; 2] = [rank_mask(0), rank_mask(7)];

/// Terms of `c`'s side.
pub fn side_terms(pos: &Position, c: Color) -> Terms {
    all_terms(pos)[c.index()]
}

/// Terms of both sides, indexed by [`Color::index`].
pub fn all_terms(pos: &Position) -> [Terms; 2] {
    let w = &WEIGHTS;
    let mut t = [Terms::default(); 2];
    // Material and prisoners in one pass over the towers; single pieces need no inner loop.
    for sq in pos.occupied() {
        let tower = pos.tower(sq);
        let top = tower.top();
        let c = top.color().index();
        t[c].material += if top.is_king() { w.king } else { w.man };
        for i in 1..tower.height() {
            let p = tower.piece(i);
            let own = p.color() == top.color();
            t[p.color().index()].prisoners += match (own, p.is_king()) {
                (true, false) => w.man_under_own,
                (true, true) => w.king_under_own,
                (false, false) => w.man_prisoner,
                (false, true) => w.king_prisoner,
            };
        }
    }
    let empty = pos.empty_squares();
    for c in [Color::White, Color::Black] {
        let t = &mut t[c.index()];
        let ours = pos.commanded_by(c);
        let theirs = pos.commanded_by(c.opponent());
        let men = ours & !pos.kings();
        for sq in men {
            let advanced = if c == Color::White {
                sq.rank()
            } else {
                7 - sq.rank()
            };
            t.advancement += w.advance[advanced as usize];
        }
        t.back_rank = w.back_rank * (men & Bitboard(BACK_RANK[c.index()])).count() as i32;
        let mut moves = 0;
        for dir in forward(c) {
            moves += (men.shift(dir) & empty).count() as i32;
        }
        let kings = ours & pos.kings();
        for dir in Direction::ALL {
            moves += (kings.shift(dir) & empty).count() as i32;
        }
        t.mobility = w.mobility * moves;
        t.center = w.center * (ours & Bitboard(CENTER)).count() as i32;
        // Towers an adjacent enemy tower could jump at once, weighted by what they hold.
        for dir in Direction::ALL {
            let hit = theirs.shift(dir) & ours & empty.shift(dir.reverse());
            for sq in hit {
                t.exposed -= w.exposed_per_piece * pos.tower(sq).height() as i32;
            }
        }
    }
    t
}

/// Static evaluation from the side to move's view.
pub fn evaluate(pos: &Position) -> i32 {
    let t = all_terms(pos);
    let us = pos.side().index();
    t[us].total() - t[1 - us].total() + WEIGHTS.tempo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;

    #[test]
    fn start_is_balanced_and_symmetric() {
        let p = Position::startpos();
        assert_eq!(evaluate(&p), WEIGHTS.tempo);
        let w = parse_fen("8/8/8/8/8/8/8/w7 w").unwrap();
        let b = parse_fen("8/8/8/8/8/8/8/w7 b").unwrap();
        assert_eq!(
            evaluate(&w) - WEIGHTS.tempo,
            -(evaluate(&b) - WEIGHTS.tempo)
        );
    }

    #[test]
    fn own_prisoners_are_a_reserve() {
        // Black commands a tower holding a white man: that man counts for White.
        let with = parse_fen("8/8/8/8/3(bw)4/8/8/w7 w").unwrap();
        let without = parse_fen("8/8/8/8/3b4/8/8/w7 w").unwrap();
        assert!(evaluate(&with) > evaluate(&without));
    }
}
