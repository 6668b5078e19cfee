//! The games the engine knows, behind one rules trait.
//!
//! [`Rules`] is implemented by each game's position type: Bashni's
//! ([`crate::rules::Position`], a thin impl in [`bashni`]), Turkish draughts'
//! ([`turkish::Position`]) and Russian draughts' ([`russian::Position`]). Code that serves
//! every game is generic over `R: Rules` and so monomorphised per game: no `dyn`, no
//! per-call dispatch, and Bashni's code paths (its move generator and perft) are the same
//! functions as before. The [`Variant`] enum exists only at the edges (the command line),
//! where one `match` picks the type once (the model is shakmaty's `Position` trait for its
//! chess variants, with an enum only where a variant is chosen by name).

pub mod bashni;
mod game;
mod movelist;
mod perft;
pub mod record;
pub mod russian;
pub mod std_fen;
pub mod turkish;

pub use game::{EvalConfig, Evaluator, Game, Linear, MoveBuf};
pub use movelist::MoveList;
pub use perft::{Divide, divide_until, perft_until};
pub use record::{Outcome, Record, RecordError};

use crate::rules::Color;
use std::fmt;
use std::hash::Hash;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

/// A game's rules, implemented by its position type.
///
/// Everything is "by the move rules": legal moves, playing them, and the end of the game when
/// the side to move has no legal move (no piece left, or every piece blocked). Draw rules
/// (repetition, no-progress clocks) and adjudications are not part of this trait.
pub trait Rules: Clone + fmt::Debug + Send + Sync + Sized + 'static {
    /// A move; its `Display` is the move text the game's notation writes.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync;
    /// The legal moves of one position.
    type MoveList: MoveBuf<Self::Move>;
    /// Why a FEN was refused.
    type FenError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// Why a move text was refused.
    type MoveError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;

    /// Which game this is.
    const VARIANT: Variant;
    /// The FEN of the initial position.
    const START_FEN: &'static str;

    /// The initial position.
    fn startpos() -> Self;

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// Every legal move (captures if any is compulsory, else quiet moves), each once.
    fn legal_moves(&self) -> Self::MoveList;

    /// Whether the side to move has a legal move.
    fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Number of legal moves (perft's last ply; a game may count without building a list).
    fn count_legal_moves(&self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// Plays a legal move (one from [`Rules::legal_moves`] of this position) in place.
    fn play(&mut self, m: &Self::Move);

    /// The position after a legal move.
    fn played(&self, m: &Self::Move) -> Self {
        let mut p = self.clone();
        Rules::play(&mut p, m);
        p
    }

    /// Whether a move captures.
    fn is_capture(m: &Self::Move) -> bool;

    /// The position's hash (pieces and side to move), kept incrementally by [`Rules::play`].
    fn hash(&self) -> u64;

    /// Reads a FEN in the game's own format.
    fn from_fen(text: &str) -> Result<Self, Self::FenError>;

    /// Writes the position's FEN (always with every field).
    fn to_fen(&self) -> String;

    /// The FEN a PDN `[FEN]` tag gives for this position: the game's own FEN, or for the
    /// games that have one the standard draughts FEN ([`std_fen`]: `W:Wa1,c1:Bb8`).
    fn to_pdn_fen(&self) -> String {
        self.to_fen()
    }

    /// Reads a move text and checks it against the legal moves.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// The winner if the game is over by the move rules: the side to move has no legal move
    /// and loses.
    fn winner(&self) -> Option<Color> {
        (!self.has_legal_move()).then(|| self.side_to_move().opponent())
    }

    /// Perft that gives up once `stop` is set: `None` if stopped. A position without a legal
    /// move counts 0 at depth 1 or more.
    fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        perft_until(self, depth, stop)
    }

    /// Number of move sequences of length `depth` (runs to the end).
    fn perft(&self, depth: u32) -> u64 {
        let never = AtomicBool::new(false);
        Rules::perft_until(self, depth, &never).expect("the flag is never set")
    }

    /// Per-root-move perft on `threads` threads, or `None` if stopped.
    fn divide_until(
        &self,
        depth: u32,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<Divide<Self::Move>> {
        divide_until(self, depth, threads, stop)
    }
}

/// A game, chosen by name at the edges (`--variant`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Russian column checkers (docs/rules.md).
    #[default]
    Bashni,
    /// Turkish draughts (docs/rules-turkish.md).
    Turkish,
    /// Russian draughts (docs/rules-russian.md).
    Russian,
}

impl Variant {
    /// Every variant, in the order the help lists them.
    pub const ALL: [Variant; 3] = [Variant::Bashni, Variant::Turkish, Variant::Russian];

    /// The name typed after `--variant`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Bashni => "bashni",
            Variant::Turkish => "turkish",
            Variant::Russian => "russian",
        }
    }

    /// The value of the PDN `GameType` tag: the standard's number and board description
    /// where the game has one (FMJD's PDN table: 25 Russian, 30 Turkish draughts); Bashni,
    /// which has none, keeps its name.
    pub const fn pdn_game_type(self) -> &'static str {
        match self {
            Variant::Bashni => "Bashni",
            Variant::Turkish => "30,W,8,8,A0,0",
            Variant::Russian => "25,W,8,8,A0,0",
        }
    }

    /// `fen` (any FEN the game reads) as a PDN `[FEN]` tag gives it: for Russian and
    /// Turkish draughts the standard draughts FEN ([`Rules::to_pdn_fen`]); Bashni's, and a
    /// FEN the game cannot read, as it is.
    pub fn pdn_fen(self, fen: &str) -> String {
        if self == Variant::Bashni {
            return fen.to_string(); // Bashni's FEN is its PDN's, as given
        }
        crate::for_variant!(self, G => G::from_fen(fen).map_or_else(|_| fen.to_string(), |p| p.to_pdn_fen()))
    }

    /// The variant of a PDN `GameType` tag value (its number, or Bashni's name).
    pub fn from_pdn_game_type(tag: &str) -> Option<Variant> {
        let number = tag.split(',').next().unwrap_or("").trim();
        Variant::ALL.into_iter().find(|v| {
            let own = v.pdn_game_type().split(',').next().unwrap_or("");
            number.eq_ignore_ascii_case(own)
        })
    }
}

/// Runs `$body` with the type alias `$g` naming the position type of the variant `$v`: the
/// one place where a variant chosen at run time becomes a type, so that everything behind it
/// is monomorphised per game.
///
/// ```
/// use bashni::games::{Rules, Variant};
/// let moves = bashni::for_variant!(Variant::Turkish, G => G::startpos().legal_moves().len());
/// assert_eq!(moves, 8);
/// ```
#[macro_export]
macro_rules! for_variant {
    ($v:expr, $g:ident => $body:expr) => {
        match $v {
            $crate::games::Variant::Bashni => {
                type $g = $crate::rules::Position;
                $body
            }
            $crate::games::Variant::Turkish => {
                type $g = $crate::games::turkish::Position;
                $body
            }
            $crate::games::Variant::Russian => {
                type $g = $crate::games::russian::Position;
                $body
            }
        }
    };
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of [`Variant::ALL`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads a variant name, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
        }
        assert_eq!("Turkish".parse::<Variant>(), Ok(Variant::Turkish));
        let e = "chess".parse::<Variant>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown variant 'chess' (expected one of: bashni, turkish, russian)"
        );
        assert_eq!(Variant::default(), Variant::Bashni);
        for v in Variant::ALL {
            assert_eq!(Variant::from_pdn_game_type(v.pdn_game_type()), Some(v));
        }
        assert_eq!(Variant::from_pdn_game_type("30"), Some(Variant::Turkish));
        assert_eq!(Variant::from_pdn_game_type("bashni"), Some(Variant::Bashni));
        assert_eq!(Variant::from_pdn_game_type("20,W,10,10,N2,0"), None);
    }

    /// The three games answer the trait's questions the same way from their start positions.
    fn start_checks<R: Rules>(moves: u64) {
        let p = R::startpos();
        assert_eq!(R::from_fen(R::START_FEN).unwrap().to_fen(), p.to_fen());
        assert_eq!(p.to_fen(), R::START_FEN);
        assert_eq!(p.side_to_move(), Color::White);
        assert_eq!(p.count_legal_moves(), moves);
        assert_eq!(p.winner(), None);
        let m = p.legal_moves()[0];
        assert_eq!(p.parse_move(&m.to_string()), Ok(m));
        let q = p.played(&m);
        assert_eq!(q.side_to_move(), Color::Black);
        assert_ne!(q.hash(), p.hash());
        assert_eq!(R::from_fen(&q.to_fen()).unwrap().hash(), q.hash());
        assert!(R::from_fen("nonsense").is_err());
        assert!(p.parse_move("a1-a1-").is_err());
    }

    #[test]
    fn every_game_implements_the_trait() {
        start_checks::<crate::rules::Position>(7);
        start_checks::<turkish::Position>(8);
        start_checks::<russian::Position>(7);
        assert_eq!(<turkish::Position as Rules>::VARIANT, Variant::Turkish);
    }
}
