//! Draughts-64 legal moves (docs/rules-russian.md and docs/rules-brazilian.md, section 2).
//!
//! Capturing is compulsory. Jumped pieces stay on the board until the move ends: they block,
//! and may not be jumped twice. A capturing king must land where it can go on capturing, if
//! any landing allows it. Where the games differ ([`Laws`]): a man that lands on its far rank
//! during a capture goes on as a king (Russian) or as a man (Brazilian); any capture sequence
//! may be chosen (Russian) or only those that take the most pieces (Brazilian: the majority
//! rule, under which the landing rule above changes nothing, as a landing that goes on always
//! takes more). Two sequences with the same start, end and set of captured pieces (and, for a
//! man, both crowned or both not) are one move. The set-wise tests and the quiet-move count are
//! the kit's (with one piece per square they are Bashni's rules).

use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::draughts64::Laws;
use crate::games::kit::draughts64::position::{Position, crowned};
use crate::games::kit::moves::{MAX_JUMPS, Move, MoveList};
use crate::games::kit::sets::{self, can_capture_sets, count_quiets_sets};
use crate::games::kit::square::{Direction, Square};
use std::marker::PhantomData;

/// Whether a king on `at` could jump one of `enemy` (given everything on the board, `occ`).
fn king_can_jump(at: Square, occ: Bitboard, enemy: Bitboard) -> bool {
    Direction::ALL.iter().any(|&d| {
        let mut next = at.step(d);
        while let Some(s) = next {
            if occ.has(s) {
                return enemy.has(s) && s.step(d).is_some_and(|l| !occ.has(l));
            }
            next = s.step(d);
        }
        false
    })
}

/// The capture walk of the game `L`: a depth-first search over jumps on an unchanged board
/// (jumped pieces stay as blockers; `enemy` holds only those not yet jumped).
struct Walk<'a, L: Laws> {
    promotion: Bitboard,
    /// Merge sequences with the same start, end and captured set (legal moves), or keep
    /// every path (reading a move text).
    merge: bool,
    from: Square,
    /// Whether the moving piece started as a man (then whether it ends crowned is part of
    /// what makes a move).
    man: bool,
    landings: [Square; MAX_JUMPS],
    jumped: [Square; MAX_JUMPS],
    len: usize,
    /// Where this generation's captures start in `out`.
    start: usize,
    /// Under the majority rule, the most pieces a sequence kept so far takes: a shorter one
    /// is not kept, and a longer one drops those kept before it.
    most: usize,
    out: &'a mut MoveList,
    laws: PhantomData<L>,
}

impl<L: Laws> Walk<'_, L> {
    /// Goes on from `at` (a king when `king`); `occ` holds every piece on the board but the
    /// moving one, `enemy` the enemies not yet jumped. Emits the path when no jump is left.
    fn go(&mut self, at: Square, king: bool, occ: Bitboard, enemy: Bitboard) {
        let jumped = if king {
            self.king(at, occ, enemy)
        } else {
            self.man(at, occ, enemy)
        };
        if !jumped {
            self.emit();
        }
    }

    /// A man's jumps, in all four directions; returns whether there was any.
    fn man(&mut self, at: Square, occ: Bitboard, enemy: Bitboard) -> bool {
        let mut any = false;
        for d in Direction::ALL {
            let Some(v) = at.step(d).filter(|&v| enemy.has(v)) else {
                continue;
            };
            let Some(l) = v.step(d).filter(|&l| !occ.has(l)) else {
                continue;
            };
            any = true;
            let mut rest = enemy;
            rest.clear(v);
            self.push(v, l);
            self.go(l, L::CROWN_IN_CAPTURE && self.promotion.has(l), occ, rest);
            self.len -= 1;
        }
        any
    }

    /// A king's jumps: over the first piece along a diagonal, if it is an enemy not yet
    /// jumped, onto a free square behind it; only onto those from which it can jump again,
    /// if there are any. Returns whether there was any jump.
    fn king(&mut self, at: Square, occ: Bitboard, enemy: Bitboard) -> bool {
        let mut any = false;
        for d in Direction::ALL {
            let mut next = at.step(d);
            while let Some(s) = next.filter(|&s| !occ.has(s)) {
                next = s.step(d);
            }
            let Some(v) = next.filter(|&v| enemy.has(v)) else {
                continue;
            };
            let mut rest = enemy;
            rest.clear(v);
            let mut behind: [Square; 7] = [Square::default(); 7];
            let mut n = 0;
            let mut land = v.step(d);
            while let Some(l) = land.filter(|&l| !occ.has(l)) {
                behind[n] = l;
                n += 1;
                land = l.step(d);
            }
            if n == 0 {
                continue;
            }
            any = true;
            let behind = &behind[..n];
            let goes_on = behind.iter().any(|&l| king_can_jump(l, occ, rest));
            for &l in behind {
                self.push(v, l);
                if !goes_on {
                    self.emit();
                } else if king_can_jump(l, occ, rest) {
                    self.go(l, true, occ, rest);
                }
                self.len -= 1;
            }
        }
        any
    }

    #[inline]
    fn push(&mut self, jumped: Square, landing: Square) {
        self.jumped[self.len] = jumped;
        self.landings[self.len] = landing;
        self.len += 1;
    }

    /// Records the path (unless the majority rule drops it, or merging and a move with the
    /// same start, end and captured set is already there).
    fn emit(&mut self) {
        if L::MAJORITY {
            if self.len < self.most {
                return;
            }
            if self.len > self.most {
                self.out.truncate(self.start);
                self.most = self.len;
            }
        }
        let m = Move::capture(
            self.from,
            &self.landings[..self.len],
            &self.jumped[..self.len],
        );
        if self.merge {
            let key = merge_key::<L>(&m, self.man, self.promotion);
            let dup = self.out[self.start..]
                .iter()
                .any(|o| merge_key::<L>(o, self.man, self.promotion) == key);
            if dup {
                return;
            }
        }
        self.out.push(m);
    }
}

/// What makes a capture one move: start, end, the set of squares jumped, and whether a man
/// ends crowned (two paths that differ only there lead to different positions).
fn merge_key<L: Laws>(
    m: &Move,
    man: bool,
    promotion: Bitboard,
) -> (Square, Square, Bitboard, bool) {
    let mut jumped = Bitboard::EMPTY;
    for &s in m.jumped() {
        jumped.set(s);
    }
    let crowned = man && crowned::<L>(m, promotion);
    (m.from(), m.to(), jumped, crowned)
}

/// Whether two captures of `pos` are the same move (same [`merge_key`]).
pub fn same_capture<L: Laws>(pos: &Position<L>, a: &Move, b: &Move) -> bool {
    let man = !pos.kings().has(a.from());
    let promotion = Bitboard::promotion(pos.side());
    a.from() == b.from() && merge_key::<L>(a, man, promotion) == merge_key::<L>(b, man, promotion)
}

/// Whether the side to move has a capture (Bashni's set-wise test: the same rule for one
/// piece per square).
pub fn can_capture<L: Laws>(pos: &Position<L>) -> bool {
    let us = pos.side();
    let ours = pos.pieces(us);
    can_capture_sets(
        ours & !pos.kings(),
        ours & pos.kings(),
        pos.pieces(us.opponent()),
        !pos.occupied(),
    )
}

/// Appends every legal capture to `list`, merged (one per start, end and captured set) or
/// every path; returns whether there was any.
pub fn generate_captures<L: Laws>(pos: &Position<L>, list: &mut MoveList, merge: bool) -> bool {
    if !can_capture(pos) {
        return false;
    }
    let us = pos.side();
    let ours = pos.pieces(us);
    let before = list.len();
    let mut walk = Walk::<L> {
        promotion: Bitboard::promotion(us),
        merge,
        from: Square::default(),
        man: true,
        landings: [Square::default(); MAX_JUMPS],
        jumped: [Square::default(); MAX_JUMPS],
        len: 0,
        start: before,
        most: 0,
        out: list,
        laws: PhantomData,
    };
    let enemy = pos.pieces(us.opponent());
    for from in ours {
        let mut occ = pos.occupied();
        occ.clear(from);
        walk.from = from;
        walk.man = !pos.kings().has(from);
        // A piece without a jump emits nothing: only `go` below a jump emits.
        if pos.kings().has(from) {
            walk.king(from, occ, enemy);
        } else {
            walk.man(from, occ, enemy);
        }
    }
    list.len() > before
}

/// Appends every quiet move (men's steps forward, kings' slides).
pub fn generate_quiets<L: Laws>(pos: &Position<L>, list: &mut MoveList) {
    let us = pos.side();
    sets::generate_quiets(us, pos.pieces(us), pos.kings(), !pos.occupied(), list);
}

/// Every legal move: the captures if there is any, else the quiet moves.
pub fn legal_moves<L: Laws>(pos: &Position<L>) -> MoveList {
    let mut list = MoveList::new();
    if !generate_captures(pos, &mut list, true) {
        generate_quiets(pos, &mut list);
    }
    list
}

/// Number of legal moves (quiet moves counted without building them).
pub fn count_legal_moves<L: Laws>(pos: &Position<L>) -> u64 {
    let mut list = MoveList::new();
    if generate_captures(pos, &mut list, true) {
        return list.len() as u64;
    }
    let us = pos.side();
    let ours = pos.pieces(us);
    count_quiets_sets(us, ours & !pos.kings(), ours & pos.kings(), !pos.occupied())
}

/// Whether the side to move has a legal move.
pub fn has_legal_move<L: Laws>(pos: &Position<L>) -> bool {
    can_capture(pos) || count_legal_moves(pos) > 0
}
