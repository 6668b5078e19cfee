//! What the engine needs of a game beyond its move rules: the draw rules and any other way
//! a game is decided, the parts of move generation the search calls on their own, hints for
//! move ordering, and the evaluation.
//!
//! The search (`crate::search`) and every front end built on it are generic over [`Game`],
//! so each game gets its own monomorphised search: Bashni's calls the same functions as
//! before the other games came, through `#[inline]` trait methods.

use super::color::Color;
use super::nnue::Network;
use super::rules::Rules;
use super::tower::Tower;
use std::sync::Arc;

/// Deepest ply the search tracks (stacks are sized by it; depth is capped below it); an
/// [`Evaluator`] that keeps state per ply (a network's first layer) keeps this many.
pub const MAX_PLY: usize = 128;

/// A game the engine plays: its rules, and what its search and evaluation need.
pub trait Game: Rules {
    /// Per-thread evaluation state that the search keeps along its path ([`Linear`] for a
    /// game evaluated from the position alone).
    type Evaluator: Evaluator<Self>;

    /// The evaluation's value of one man in its internal units: every reported score is
    /// `internal * 100 / MAN` centi-men, so one man is `cp 100` in every game (measured:
    /// the median depth-8 score of the start with one opposing man removed; each game's
    /// rules doc says how).
    const MAN: i32;

    /// The name of the no-progress rule in `state` answers and PDN terminations, e.g.
    /// `30-ply-rule`.
    const CLOCK_RULE: &'static str;

    /// The clock's value (plies) at which the no-progress rule draws the game.
    const CLOCK_LIMIT: u16;

    /// Under a clock with no `movestogo`, the time left is spread over this many moves: fewer
    /// spends more of it in the middlegame, where the game's decisive mistakes fall, and
    /// leaves the ending to the increment (docs/measurements.md, "Time management").
    const MOVES_TO_GO: u32;

    /// The positions `bashni bench` searches (the game's fingerprint).
    const BENCH_POSITIONS: &'static [&'static str];

    /// The game's built-in openings (an openings file's text), if it has a book.
    const BOOK: Option<&'static str>;

    /// Plies since the last irreversible move (a capture, or a man's move): no position
    /// further back can repeat.
    fn clock(&self) -> u16;

    /// Whether the game's no-progress rule has drawn the game.
    fn clock_draw(&self) -> bool;

    /// The winner by a rule other than "the side to move has no legal move" (Turkish
    /// draughts: one king against one man wins), checked before anything else.
    #[inline]
    fn decided(&self) -> Option<Color> {
        None
    }

    /// Pushes every legal capture; whether there was any (captures are compulsory, so then
    /// they are all the legal moves).
    fn generate_captures(&self, list: &mut Self::MoveList) -> bool;

    /// Pushes every legal quiet move (call only when no capture exists).
    fn generate_quiets(&self, list: &mut Self::MoveList);

    /// Whether the side to move has a capture.
    fn can_capture(&self) -> bool;

    /// How many pieces `c` commands (towers in Bashni, pieces elsewhere): a side with few is
    /// one a mating net can leave without a move within a few plies.
    fn commanders(&self, c: Color) -> u32;

    /// A 32-bit digest of a move for the transposition table, never 0, and different for
    /// different moves of one position.
    fn move_key(m: &Self::Move) -> u32;

    /// Slots of the history table of quiet moves.
    const HISTORY_SLOTS: usize;

    /// The history slot of a quiet move (below [`Game::HISTORY_SLOTS`]).
    fn history_slot(&self, m: &Self::Move) -> usize;

    /// What a capture takes, in centi-men, for ordering captures before the search.
    fn capture_gain(&self, m: &Self::Move) -> i32;

    /// The game's own static evaluation, centi-men from the side to move's view.
    fn evaluate(&self) -> i32;

    /// The move number: 1 at the start, one more after each of Black's moves.
    fn fullmove(&self) -> u16;

    /// What stands on the square of `file` and `rank` (0-based, a1 = (0, 0)): `None` for a
    /// square the game does not play on (the light squares of a diagonal game), else the
    /// tower there (one piece outside Bashni; empty for an empty square).
    fn tower_at(&self, file: u8, rank: u8) -> Option<Tower>;

    /// The squares a move visits, its origin first, as (file, rank).
    fn move_squares(m: &Self::Move) -> Vec<(u8, u8)>;
}

/// What the search asks of an evaluation. The search tells it each move it plays (so that
/// state kept per ply, such as a network's first layer, can follow) and asks for the
/// evaluation of the position `ply` plies from the root.
pub trait Evaluator<G: Game>: Send + Sized {
    /// A fresh evaluator for one search thread.
    fn new(config: &EvalConfig) -> Self;

    /// `pos` is the root of the search.
    fn set_root(&mut self, pos: &G);

    /// The search played `m` from `before` (at `ply`) to `after` (at `ply + 1`).
    fn played(&mut self, ply: usize, before: &G, after: &G, m: &G::Move);

    /// The static evaluation of `pos`, `ply` plies from the root, side to move's view.
    fn evaluate(&mut self, pos: &G, ply: usize) -> i32;
}

/// The engine's choices that shape evaluations, for the games that have a network.
#[derive(Clone, Default)]
pub struct EvalConfig {
    /// Whether the network evaluates (`false`: the linear evaluation alone).
    pub use_network: bool,
    /// A network loaded in place of the compiled-in one (used only by its own game).
    pub network: Option<Arc<Network>>,
}

/// The evaluator of a game evaluated from the position alone: [`Game::evaluate`].
pub struct Linear;

impl<G: Game> Evaluator<G> for Linear {
    fn new(_: &EvalConfig) -> Linear {
        Linear
    }

    #[inline]
    fn set_root(&mut self, _: &G) {}

    #[inline]
    fn played(&mut self, _: usize, _: &G, _: &G, _: &G::Move) {}

    #[inline]
    fn evaluate(&mut self, pos: &G, _: usize) -> i32 {
        pos.evaluate()
    }
}

/// Implements [`Rules`] and [`Game`] for a game's position type `$pos`, the parts every game
/// shares, from the game's own modules in scope where it is called: `movegen`
/// (`legal_moves`, `has_legal_move`, `count_legal_moves`, `generate_quiets`, `can_capture`),
/// `notation` (`START_FEN`, `FenError`, `MoveError`, `parse_fen`, `to_fen`, `parse_move`),
/// `eval` (`evaluate`, `capture_gain`) and `bench` (`POSITIONS`); the position's own `side`, `clock`, `fullmove`,
/// `play` and `hash`; and the move's `is_capture`, `key`, `from`, `to` and `path`. The history
/// table has a slot per side and (from, to) pair of the game's `$squares` square indices.
/// What differs between games follows in `rules { ... }` and `game { ... }`. `Default` is the
/// start position, for every game.
macro_rules! impl_game {
    (
        $pos:ident: $variant:ident, $move:ty, $list:ty, squares = $squares:expr;
        rules { $($rules:tt)* }
        game { $($game:tt)* }
    ) => {
        impl $crate::games::kit::rules::Rules for $pos {
            type Move = $move;
            type MoveList = $list;
            type FenError = notation::FenError;
            type MoveError = notation::MoveError;

            const VARIANT: $crate::games::kit::variant::Variant =
                $crate::games::kit::variant::Variant::$variant;
            const START_FEN: &'static str = notation::START_FEN;

            fn startpos() -> $pos {
                $pos::startpos()
            }

            #[inline]
            fn side_to_move(&self) -> $crate::games::kit::Color {
                self.side()
            }

            #[inline]
            fn legal_moves(&self) -> $list {
                movegen::legal_moves(self)
            }

            #[inline]
            fn has_legal_move(&self) -> bool {
                movegen::has_legal_move(self)
            }

            #[inline]
            fn count_legal_moves(&self) -> u64 {
                movegen::count_legal_moves(self)
            }

            #[inline]
            fn play(&mut self, m: &$move) {
                $pos::play(self, m);
            }

            #[inline]
            fn is_capture(m: &$move) -> bool {
                m.is_capture()
            }

            #[inline]
            fn hash(&self) -> u64 {
                $pos::hash(self)
            }

            fn from_fen(text: &str) -> Result<$pos, notation::FenError> {
                notation::parse_fen(text)
            }

            fn to_fen(&self) -> String {
                notation::to_fen(self)
            }

            fn parse_move(&self, text: &str) -> Result<$move, notation::MoveError> {
                notation::parse_move(self, text)
            }

            $($rules)*
        }

        impl $crate::games::kit::game::Game for $pos {
            const BENCH_POSITIONS: &'static [&'static str] = bench::POSITIONS;

            #[inline]
            fn clock(&self) -> u16 {
                $pos::clock(self)
            }

            #[inline]
            fn generate_quiets(&self, list: &mut $list) {
                movegen::generate_quiets(self, list)
            }

            #[inline]
            fn can_capture(&self) -> bool {
                movegen::can_capture(self)
            }

            #[inline]
            fn move_key(m: &$move) -> u32 {
                m.key()
            }

            const HISTORY_SLOTS: usize = 2 * $squares * $squares;

            #[inline]
            fn history_slot(&self, m: &$move) -> usize {
                (self.side().index() * $squares + m.from().index()) * $squares + m.to().index()
            }

            #[inline]
            fn capture_gain(&self, m: &$move) -> i32 {
                eval::capture_gain(self, m)
            }

            #[inline]
            fn evaluate(&self) -> i32 {
                eval::evaluate(self)
            }

            fn fullmove(&self) -> u16 {
                $pos::fullmove(self)
            }

            fn move_squares(m: &$move) -> Vec<(u8, u8)> {
                m.path().map(|sq| (sq.file(), sq.rank())).collect()
            }

            $($game)*
        }

        /// The start of the game.
        impl Default for $pos {
            fn default() -> Self {
                <$pos as $crate::games::kit::rules::Rules>::startpos()
            }
        }
    };
}
pub(crate) use impl_game;

/// In an [`impl_game!`]'s `game` block, a no-progress rule that is only "the clock has
/// reached `$limit` plies": the rule's `CLOCK_RULE` name, `CLOCK_LIMIT` and `clock_draw`,
/// written once for the games whose rule is that (Bashni's position answers it itself).
macro_rules! clock_rule {
    ($limit:expr, $name:literal) => {
        const CLOCK_RULE: &'static str = $name;
        const CLOCK_LIMIT: u16 = $limit;

        #[inline]
        fn clock_draw(&self) -> bool {
            <Self as $crate::games::kit::game::Game>::clock(self) >= $limit
        }
    };
}
pub(crate) use clock_rule;
