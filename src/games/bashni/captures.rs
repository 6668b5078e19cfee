//! Capture paths: a depth-first search over jumps, done in place.
//!
//! Each jump takes effect at once: the jumped commander goes under the moving tower and the
//! rest of the jumped tower stays, commanded by its next piece. The search does not copy the
//! board; it keeps how many pieces have been taken off each square (`taken`) and the current
//! occupied/enemy sets, and undoes a jump by restoring them. The moving tower's origin is
//! removed from the occupied set for the whole move.
//!
//! One walk ([`Walk`]) holds every capture rule; it is generic over what it does with a
//! path: move generation records each path and hands it to a [`CaptureSink`], perft's
//! counting keeps none (its `Path` methods are empty and compile away).

use crate::games::bashni::position::Position;
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::color::Color;
use crate::games::kit::moves::MAX_JUMPS;
use crate::games::kit::square::{Direction, NUM_BITS, Square, VALID_MASK};
use crate::games::kit::tower::Tower;

/// Receives each complete capture path.
pub(crate) trait CaptureSink {
    /// One capture: origin, landings in order, and the square jumped before each landing.
    fn emit(&mut self, from: Square, landings: &[Square], jumped: &[Square]);
}

/// What the walk does with the path it is on: record it (move generation) or nothing
/// (counting). Counting's methods are empty and vanish once inlined.
trait Path {
    /// A jump over square index `c` starts; its landing follows.
    fn push(&mut self, c: usize);
    /// The landing (bit index) of the last jump.
    fn land(&mut self, l: usize);
    /// Takes the last jump back.
    fn pop(&mut self);
    /// The path as it stands is a complete capture.
    fn emit(&mut self);
    /// A complete capture of one jump over `c` onto `l`, from an empty path (the common
    /// case, kept apart so that its length is known when the move is built).
    fn emit_single(&mut self, c: usize, l: usize);
}

/// Counting: no path kept.
struct NoPath;

impl Path for NoPath {
    #[inline(always)]
    fn push(&mut self, _: usize) {}
    #[inline(always)]
    fn land(&mut self, _: usize) {}
    #[inline(always)]
    fn pop(&mut self) {}
    #[inline(always)]
    fn emit(&mut self) {}
    #[inline(always)]
    fn emit_single(&mut self, _: usize, _: usize) {}
}

/// Generation: the path so far, handed to a [`CaptureSink`] when complete.
struct Recorder<'a, K: CaptureSink> {
    from: Square,
    landings: [Square; MAX_JUMPS],
    jumped: [Square; MAX_JUMPS],
    len: usize,
    sink: &'a mut K,
}

impl<K: CaptureSink> Path for Recorder<'_, K> {
    #[inline(always)]
    fn push(&mut self, c: usize) {
        self.jumped[self.len] = Square::from_bit_index(c as u8);
        self.len += 1;
    }
    #[inline(always)]
    fn land(&mut self, l: usize) {
        self.landings[self.len - 1] = Square::from_bit_index(l as u8);
    }
    #[inline(always)]
    fn pop(&mut self) {
        self.len -= 1;
    }
    #[inline]
    fn emit(&mut self) {
        self.sink.emit(
            self.from,
            &self.landings[..self.len],
            &self.jumped[..self.len],
        );
    }
    #[inline(always)]
    fn emit_single(&mut self, c: usize, l: usize) {
        self.sink.emit(
            self.from,
            &[Square::from_bit_index(l as u8)],
            &[Square::from_bit_index(c as u8)],
        );
    }
}

/// The capture walk, the one place where the capture rules live: a depth-first search over
/// jumps on raw bitboards, with the four directions unrolled. Every function returns the
/// number of complete paths from where it starts (0: no jump possible) and reports each
/// complete path to `path`.
struct Walk<'a, T: Towers, P: Path> {
    towers: &'a T,
    us: Color,
    /// Squares of the far rank, where a man becomes a king.
    promotion: u64,
    taken: [u8; NUM_BITS],
    path: &'a mut P,
}

impl<T: Towers, P: Path> Walk<'_, T, P> {
    /// Takes the commander off square index `c`; returns the new occupied and enemy sets.
    #[inline(always)]
    fn take(&mut self, c: usize, occ: u64, enemy: u64) -> (u64, u64) {
        take_commander(
            self.towers.tower(c),
            &mut self.taken[c],
            self.us,
            c,
            occ,
            enemy,
        )
    }

    /// Paths of a man on the single square `s` that has just jumped `last` (0 at the start).
    /// Directions in the order of [`Direction::ALL`].
    fn man(&mut self, s: u64, last: u64, occ: u64, enemy: u64) -> u64 {
        let targets = enemy & !last;
        let free = !occ & VALID_MASK;
        self.man_dir::<4>(s, targets, free, occ, enemy)
            + self.man_dir::<5>(s, targets, free, occ, enemy)
            + self.man_dir::<-4>(s, targets, free, occ, enemy)
            + self.man_dir::<-5>(s, targets, free, occ, enemy)
    }

    #[inline(always)]
    fn man_dir<const S: i32>(
        &mut self,
        s: u64,
        targets: u64,
        free: u64,
        occ: u64,
        enemy: u64,
    ) -> u64 {
        let jumped = sh::<S>(s) & targets;
        let landing = sh::<S>(jumped) & free;
        if landing == 0 {
            return 0;
        }
        self.man_landed(landing, jumped, occ, enemy)
    }

    /// Paths of a man that jumps `jumped` and lands on `landing` (single squares). A man
    /// that lands on the far rank goes on as a king in the same move.
    #[inline(always)]
    fn man_landed(&mut self, landing: u64, jumped: u64, occ: u64, enemy: u64) -> u64 {
        let c = jumped.trailing_zeros() as usize;
        let (occ2, enemy2) = self.take(c, occ, enemy);
        self.path.push(c);
        self.path.land(landing.trailing_zeros() as usize);
        let n = if landing & self.promotion != 0 {
            self.king(landing, jumped, occ2, enemy2)
        } else if man_can_jump(
            Bitboard(landing),
            Bitboard(enemy2 & !jumped),
            Bitboard(!occ2 & VALID_MASK),
        ) {
            self.man(landing, jumped, occ2, enemy2)
        } else {
            // Most chains end here: skip the call when no jump is possible.
            0
        };
        let n = if n == 0 {
            self.path.emit();
            1
        } else {
            n
        };
        self.path.pop();
        self.taken[c] -= 1;
        n
    }

    /// Paths of a king on the single square `s` that has just jumped `last` (0 at the start).
    fn king(&mut self, s: u64, last: u64, occ: u64, enemy: u64) -> u64 {
        self.king_dir::<4>(s, last, occ, enemy)
            + self.king_dir::<5>(s, last, occ, enemy)
            + self.king_dir::<-4>(s, last, occ, enemy)
            + self.king_dir::<-5>(s, last, occ, enemy)
    }

    /// A king's jump in direction `S`: over the first tower on the ray (if it is an enemy
    /// not just jumped) onto any free square behind it. The landing rule: when some of those
    /// landings allow a further jump, only paths through them count; otherwise each landing
    /// ends a path.
    #[inline(always)]
    fn king_dir<const S: i32>(&mut self, s: u64, last: u64, occ: u64, enemy: u64) -> u64 {
        let x = first_on_ray::<S>(s, occ);
        if x & enemy & !last == 0 {
            return 0;
        }
        let first = sh::<S>(x) & VALID_MASK & !occ;
        if first == 0 {
            return 0;
        }
        let c = x.trailing_zeros() as usize;
        let (occ2, enemy2) = self.take(c, occ, enemy);
        self.path.push(c);
        let mut paths = 0;
        let mut landings = 0;
        let mut land = first;
        while land != 0 {
            self.path.land(land.trailing_zeros() as usize);
            paths += self.king(land, x, occ2, enemy2);
            landings += 1;
            land = sh::<S>(land) & VALID_MASK & !occ2;
        }
        if paths == 0 {
            let mut land = first;
            while land != 0 {
                self.path.land(land.trailing_zeros() as usize);
                self.path.emit();
                land = sh::<S>(land) & VALID_MASK & !occ2;
            }
            paths = landings;
        }
        self.path.pop();
        self.taken[c] -= 1;
        paths
    }

    /// First jumps of the man on `s` (the origin, already out of `occ`), one path reported
    /// at a time. `go[d]` holds the landing squares from which a first jump in direction `d`
    /// may go on (or promotes): landings outside it end the capture at once.
    fn man_first(&mut self, s: u64, occ: u64, enemy: u64, go: &[u64; 4]) {
        let free = !occ & VALID_MASK;
        self.man_first_dir::<4>(s, free, occ, enemy, go[0]);
        self.man_first_dir::<5>(s, free, occ, enemy, go[1]);
        self.man_first_dir::<-4>(s, free, occ, enemy, go[2]);
        self.man_first_dir::<-5>(s, free, occ, enemy, go[3]);
    }

    #[inline(always)]
    fn man_first_dir<const S: i32>(&mut self, s: u64, free: u64, occ: u64, enemy: u64, go: u64) {
        let jumped = sh::<S>(s) & enemy;
        let landing = sh::<S>(jumped) & free;
        if landing == 0 {
            return;
        }
        if landing & go == 0 {
            let c = jumped.trailing_zeros() as usize;
            self.path.emit_single(c, landing.trailing_zeros() as usize);
        } else {
            self.man_landed(landing, jumped, occ, enemy);
        }
    }

    /// Paths of the men whose first jump goes in direction `S` and lands on `land` (a set:
    /// one man per landing square), all of which need the walk (they can go on jumping, or
    /// promote).
    #[inline(always)]
    fn men_from_landings<const S: i32>(&mut self, land: u64, occ: u64, enemy: u64) -> u64 {
        let mut n = 0;
        let mut rest = land;
        while rest != 0 {
            let l = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let jumped = back::<S>(l);
            let origin = back::<S>(jumped);
            n += self.man_landed(l, jumped, occ & !origin, enemy);
        }
        n
    }
}

/// Takes one more commander off the tower on square index `c` (of which `taken` pieces are
/// already gone) and returns the new occupied and enemy sets: an emptied square is free, and
/// a square whose new commander is a freed prisoner of `us` blocks but cannot be jumped.
#[inline(always)]
fn take_commander(
    tower: Tower,
    taken: &mut u8,
    us: Color,
    c: usize,
    occ: u64,
    enemy: u64,
) -> (u64, u64) {
    *taken += 1;
    let next = *taken as usize;
    let bit = 1u64 << c;
    if next >= tower.height() {
        (occ & !bit, enemy & !bit)
    } else if tower.piece(next).color() == us {
        (occ, enemy & !bit)
    } else {
        (occ, enemy)
    }
}

/// The first occupied square from `s` in direction `S` (a flying king's ray), or nothing.
#[inline(always)]
fn first_on_ray<const S: i32>(s: u64, occ: u64) -> u64 {
    let mut x = sh::<S>(s) & VALID_MASK;
    while x != 0 && x & occ == 0 {
        x = sh::<S>(x) & VALID_MASK;
    }
    x
}

/// Whether a man on the single square `from` can jump one of `targets` onto `free`.
#[inline(always)]
fn man_can_jump(from: Bitboard, targets: Bitboard, free: Bitboard) -> bool {
    let mut hits = Bitboard::EMPTY;
    for dir in Direction::ALL {
        hits |= (from.shift(dir) & targets).shift(dir) & free;
    }
    !hits.is_empty()
}

/// Per direction (north-east, north-west, south-west, south-east), the squares where a man's
/// first jump in that direction may go on, or promotes. A man that landed on L after jumping
/// c can go on exactly when it could jump from L on the unchanged board in a direction other
/// than back over c: the board differs only on c (1 step back) and on the origin (2 steps
/// back, behind c).
#[inline(always)]
fn first_jump_goes_on(enemy: u64, empty: u64, promotion: u64) -> [u64; 4] {
    let a_ne = jumpers::<4>(enemy, empty);
    let a_nw = jumpers::<5>(enemy, empty);
    let a_sw = jumpers::<-4>(enemy, empty);
    let a_se = jumpers::<-5>(enemy, empty);
    [
        a_ne | a_nw | a_se | promotion,
        a_ne | a_nw | a_sw | promotion,
        a_nw | a_sw | a_se | promotion,
        a_ne | a_sw | a_se | promotion,
    ]
}

/// Emits every capture of the side to move into `sink` (nothing if there is none), towers
/// in square order, each tower's paths in direction order ([`Direction::ALL`]).
pub(crate) fn generate_captures<K: CaptureSink>(pos: &Position, sink: &mut K) {
    let us = pos.side();
    let enemy = pos.commanded_by(us.opponent()).0;
    let occupied = pos.occupied().0;
    let ours = pos.commanded_by(us).0;
    let kings = pos.kings().0 & ours;
    let men = ours & !kings;
    let empty = !occupied & VALID_MASK;
    // Only men with an enemy next to them and an empty square behind it can start a capture.
    let men_starters = men
        & (jumpers::<4>(enemy, empty)
            | jumpers::<5>(enemy, empty)
            | jumpers::<-4>(enemy, empty)
            | jumpers::<-5>(enemy, empty));
    let starters = kings | men_starters;
    if starters == 0 {
        return;
    }
    let promotion = Bitboard::promotion(us).0;
    let go = if men_starters != 0 {
        first_jump_goes_on(enemy, empty, promotion)
    } else {
        [0; 4]
    };
    let mut path = Recorder {
        from: Square::default(),
        landings: [Square::default(); MAX_JUMPS],
        jumped: [Square::default(); MAX_JUMPS],
        len: 0,
        sink,
    };
    let mut walk = Walk {
        towers: pos,
        us,
        promotion,
        taken: [0; NUM_BITS],
        path: &mut path,
    };
    let mut rest = starters;
    while rest != 0 {
        let b = rest & rest.wrapping_neg();
        rest &= rest - 1;
        walk.path.from = Square::from_bit_index(b.trailing_zeros() as u8);
        if kings & b != 0 {
            walk.king(b, 0, occupied & !b, enemy);
        } else {
            walk.man_first(b, occupied & !b, enemy, &go);
        }
    }
}

/// `b` moved by the ghost-layout shift `S` (positive = left), not yet masked.
#[inline(always)]
const fn sh<const S: i32>(b: u64) -> u64 {
    if S > 0 { b << S } else { b >> (-S) }
}

/// `b` moved by the opposite of shift `S`, not yet masked.
#[inline(always)]
const fn back<const S: i32>(b: u64) -> u64 {
    if S > 0 { b >> S } else { b << (-S) }
}

/// Where a counting search reads the towers it jumps.
pub(crate) trait Towers {
    /// The tower on the square of bit index `i`.
    fn tower(&self, i: usize) -> Tower;
}

impl Towers for Position {
    #[inline(always)]
    fn tower(&self, i: usize) -> Tower {
        self.tower_at_index(i)
    }
}

/// A position after a quiet move of the tower on `from` to `to`, read without playing it
/// (promotion is ignored: it changes no tower the opponent can jump).
pub(crate) struct AfterQuiet<'a> {
    pub pos: &'a Position,
    pub from: usize,
    pub to: usize,
}

impl Towers for AfterQuiet<'_> {
    #[inline(always)]
    fn tower(&self, i: usize) -> Tower {
        let i = if i == self.to { self.from } else { i };
        self.pos.tower_at_index(i)
    }
}

/// Squares from which a man could jump in direction `S` on the unchanged board: the next
/// square holds an enemy commander and the one after it is empty.
#[inline(always)]
const fn jumpers<const S: i32>(enemy: u64, empty: u64) -> u64 {
    back::<S>(back::<S>(empty) & enemy)
}

/// Number of capture paths of `us` (0 if none), given its men and kings, the enemy
/// commanders and the occupied squares; towers are read from `towers` only when a path
/// needs them. Most man captures are single jumps that cannot go on: those are counted by
/// popcount, with no search.
#[inline]
pub(crate) fn count_capture_paths_sets<T: Towers>(
    towers: &T,
    us: Color,
    men: u64,
    kings: u64,
    enemy: u64,
    occupied: u64,
) -> u64 {
    let empty = !occupied & VALID_MASK;
    // Landing squares of first jumps, per direction (north-east, north-west, south-west,
    // south-east).
    let l_ne = sh::<4>(sh::<4>(men) & enemy) & empty;
    let l_nw = sh::<5>(sh::<5>(men) & enemy) & empty;
    let l_sw = sh::<-4>(sh::<-4>(men) & enemy) & empty;
    let l_se = sh::<-5>(sh::<-5>(men) & enemy) & empty;
    if (l_ne | l_nw | l_sw | l_se) == 0 && kings == 0 {
        return 0;
    }
    let promotion = Bitboard::promotion(us).0;
    let mut n = 0;
    let mut need_search = [0u64; 4];
    if (l_ne | l_nw | l_sw | l_se) != 0 {
        // Single jumps that cannot go on are counted by popcount.
        let [go_ne, go_nw, go_sw, go_se] = first_jump_goes_on(enemy, empty, promotion);
        n += (l_ne & !go_ne).count_ones() as u64
            + (l_nw & !go_nw).count_ones() as u64
            + (l_sw & !go_sw).count_ones() as u64
            + (l_se & !go_se).count_ones() as u64;
        need_search = [l_ne & go_ne, l_nw & go_nw, l_sw & go_sw, l_se & go_se];
    }
    if (need_search[0] | need_search[1] | need_search[2] | need_search[3]) == 0 && kings == 0 {
        return n;
    }
    let mut count = Walk {
        towers,
        us,
        promotion,
        taken: [0; NUM_BITS],
        path: &mut NoPath,
    };
    n += count.men_from_landings::<4>(need_search[0], occupied, enemy);
    n += count.men_from_landings::<5>(need_search[1], occupied, enemy);
    n += count.men_from_landings::<-4>(need_search[2], occupied, enemy);
    n += count.men_from_landings::<-5>(need_search[3], occupied, enemy);
    let mut ks = kings;
    while ks != 0 {
        let b = ks & ks.wrapping_neg();
        ks &= ks - 1;
        n += count.king(b, 0, occupied & !b, enemy);
    }
    n
}

/// Number of capture paths of the side to move (0 if none), without recording them; equals
/// the number of paths [`generate_captures`] emits.
pub fn count_capture_paths(pos: &Position) -> u64 {
    let us = pos.side();
    let ours = pos.commanded_by(us);
    let kings = pos.kings() & ours;
    count_capture_paths_sets(
        pos,
        us,
        (ours & !kings).0,
        kings.0,
        pos.commanded_by(us.opponent()).0,
        pos.occupied().0,
    )
}
