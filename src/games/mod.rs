//! The games the engine knows, each in its own folder on a shared toolkit.
//!
//! [`kit`] is the toolkit below every game: the [`Rules`] and [`Game`] traits, the
//! [`Variant`] names, and what the games share (colours, the 32 dark squares and their
//! bitboards, square-path moves, Zobrist keys, perft, game records, the linear-evaluation and
//! network machinery). Each game's folder holds its position, move generation, notation,
//! evaluation and network features, and implements the traits for its position type:
//! Bashni's ([`bashni::Position`]), Turkish draughts' ([`turkish::Position`]), Russian
//! draughts' ([`russian::Position`]), Brazilian draughts' ([`brazilian::Position`]) and
//! Lasca's ([`lasca::Position`]). Code that serves every game is generic over `R: Rules`
//! and so monomorphised per game: no `dyn`, no per-call dispatch. The [`Variant`] enum exists
//! only at the edges (the command line), where [`for_variant!`](crate::for_variant) picks the
//! type once (the model is shakmaty's `Position` trait for its chess variants, with an enum
//! only where a variant is chosen by name).

pub mod bashni;
pub mod brazilian;
pub mod kit;
pub mod lasca;
pub mod russian;
pub mod turkish;

pub use kit::game::{EvalConfig, Evaluator, Game, Linear};
pub use kit::movelist::MoveList;
pub use kit::perft::{Divide, divide_until, perft_until};
pub use kit::record::{self as record, Outcome, Record, RecordError};
pub use kit::rules::{MoveBuf, Rules};
pub use kit::variant::{UnknownVariant, Variant};

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
                type $g = $crate::games::bashni::Position;
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
            $crate::games::Variant::Brazilian => {
                type $g = $crate::games::brazilian::Position;
                $body
            }
            $crate::games::Variant::Lasca => {
                type $g = $crate::games::lasca::Position;
                $body
            }
        }
    };
}

/// The network shape of `variant`'s game; `None` for a game without a network (every game
/// has one today).
pub fn network_shape(variant: Variant) -> Option<kit::nnue::NetShape> {
    use kit::nnue::FeatureSet;
    match variant {
        Variant::Bashni => Some(bashni::Position::SHAPE),
        Variant::Turkish => Some(turkish::Position::SHAPE),
        Variant::Russian => Some(russian::Position::SHAPE),
        Variant::Brazilian => Some(brazilian::Position::SHAPE),
        Variant::Lasca => Some(lasca::Position::SHAPE),
    }
}

/// Reads and checks a network file of any game that has a network (`EvalFile`): the game it
/// names decides the shape it must have.
pub fn load_network(path: &str) -> Result<kit::nnue::Network, kit::nnue::NetError> {
    kit::nnue::network::load(path, |game| {
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == game)
            .and_then(network_shape)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::Color;

    /// The three games answer the trait's questions the same way from their start positions.
    fn start_checks<R: Rules>(moves: u64) {
        let p = R::startpos();
        let read = R::from_fen(R::START_FEN).unwrap();
        assert_eq!((read.to_fen(), read.hash()), (p.to_fen(), p.hash()));
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
        start_checks::<bashni::Position>(7);
        start_checks::<turkish::Position>(8);
        start_checks::<russian::Position>(7);
        start_checks::<brazilian::Position>(7);
        start_checks::<lasca::Position>(6);
        assert_eq!(<turkish::Position as Rules>::VARIANT, Variant::Turkish);
    }
}
