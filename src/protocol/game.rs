//! The game a protocol session plays, chosen at run time by the `UCI_Variant` option.
//!
//! [`AnyGame`] holds the record of one game of any variant; [`on_game!`] opens it into a
//! generic code path, so that each command is written once, generic over [`Game`], and
//! monomorphised per game (the protocol's counterpart of [`crate::for_variant!`]). What
//! differs from game to game beyond the rules is here too: which games have a network.

use crate::display::{eval_report, linear_report};
use crate::games::kit::nnue::{FeatureSet, NETWORK_ALONE};
use crate::games::{Game, Record, Rules, Variant, brazilian, lasca, russian, turkish};
use crate::search::{Engine, Score};

/// The game being played, in whichever variant: its start position and moves.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // one per session, replaced whole
pub enum AnyGame {
    /// Bashni (docs/rules.md).
    Bashni(Record<crate::games::bashni::Position>),
    /// Turkish draughts (docs/rules-turkish.md).
    Turkish(Record<turkish::Position>),
    /// Russian draughts (docs/rules-russian.md).
    Russian(Record<russian::Position>),
    /// Brazilian draughts (docs/rules-brazilian.md).
    Brazilian(Record<brazilian::Position>),
    /// Lasca (docs/rules-lasca.md).
    Lasca(Record<lasca::Position>),
}

/// Runs `$body` with `$g` bound to the [`Record`] inside `$any` (an `AnyGame`, `&AnyGame` or
/// `&mut AnyGame`), whichever game it is: the body is compiled once per game.
macro_rules! on_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::protocol::game::AnyGame::Bashni($g) => $body,
            $crate::protocol::game::AnyGame::Turkish($g) => $body,
            $crate::protocol::game::AnyGame::Russian($g) => $body,
            $crate::protocol::game::AnyGame::Brazilian($g) => $body,
            $crate::protocol::game::AnyGame::Lasca($g) => $body,
        }
    };
}
pub(crate) use on_game;

impl AnyGame {
    /// A new game of `variant` from its start position.
    pub fn start(variant: Variant) -> AnyGame {
        match variant {
            Variant::Bashni => AnyGame::Bashni(Record::new(Rules::startpos())),
            Variant::Turkish => AnyGame::Turkish(Record::new(Rules::startpos())),
            Variant::Russian => AnyGame::Russian(Record::new(Rules::startpos())),
            Variant::Brazilian => AnyGame::Brazilian(Record::new(Rules::startpos())),
            Variant::Lasca => AnyGame::Lasca(Record::new(Rules::startpos())),
        }
    }

    /// Which game this is.
    pub fn variant(&self) -> Variant {
        on_game!(self, g => variant_of(g))
    }
}

fn variant_of<G: Game>(_: &Record<G>) -> Variant {
    G::VARIANT
}

/// The answer to `eval` for the current position of `game`: the game's linear evaluation
/// term by term, the network's view and what the search uses. `engine` is the session's (absent only while a search has it).
pub fn eval_lines(game: &AnyGame, engine: Option<&Engine>, use_nnue: bool) -> Vec<String> {
    let (mut lines, network) = match game {
        AnyGame::Bashni(g) => (
            eval_report(g.position()),
            engine.map(|e| network_line(e, g.position(), use_nnue)),
        ),
        AnyGame::Turkish(g) => (
            linear_report(g.position()),
            engine.map(|e| network_line(e, g.position(), use_nnue)),
        ),
        AnyGame::Russian(g) => (
            linear_report(g.position()),
            engine.map(|e| network_line(e, g.position(), use_nnue)),
        ),
        AnyGame::Brazilian(g) => (
            linear_report(g.position()),
            engine.map(|e| network_line(e, g.position(), use_nnue)),
        ),
        AnyGame::Lasca(g) => (
            linear_report(g.position()),
            engine.map(|e| network_line(e, g.position(), use_nnue)),
        ),
    };
    lines.extend(network);
    let egdb = engine.and_then(Engine::egdb);
    lines.extend(egdb.and_then(|dbs| on_game!(game, g => dbs.describe(g.position()))));
    lines
}

/// The network's evaluation of `pos`, and the one the search uses.
fn network_line<P: FeatureSet + Game>(engine: &Engine, pos: &P, in_use: bool) -> String {
    let cp = engine.network_eval(pos);
    let used = engine.static_eval(pos);
    let using = if in_use {
        let what = if P::NETWORK_EIGHTHS < NETWORK_ALONE {
            format!(
                "{}/8 of the network and {}/8 of the linear evaluation",
                P::NETWORK_EIGHTHS,
                NETWORK_ALONE - P::NETWORK_EIGHTHS
            )
        } else {
            "the network alone".to_string()
        };
        format!(
            "{what}, {} (internal {used})",
            Score::from_internal(used, P::MAN).human()
        )
    } else {
        "the linear evaluation (Use NNUE is false)".to_string()
    };
    format!(
        "Network evaluation: {} (internal {cp}) for the side to move; the search uses {using}",
        Score::from_internal(cp, P::MAN).human()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score_of<G: crate::games::Game>(_: &G, used: i32) -> Score {
        Score::from_internal(used, G::MAN)
    }

    #[test]
    fn each_variant_starts_its_own_game() {
        for v in Variant::ALL {
            let g = AnyGame::start(v);
            assert_eq!(g.variant(), v);
            let fen = on_game!(&g, r => r.position().to_fen());
            let start = crate::for_variant!(v, G => G::START_FEN);
            assert_eq!(fen, start);
        }
    }

    #[test]
    fn eval_shows_each_games_terms_and_what_the_search_uses() {
        let engine = Engine::new();
        for v in Variant::ALL {
            let game = AnyGame::start(v);
            let lines = eval_lines(&game, Some(&engine), true);
            assert!(
                lines.len() > 3 && lines[0].starts_with("term "),
                "{lines:?}"
            );
            let used = on_game!(&game, g => engine.static_eval(g.position()));
            let last = lines.last().unwrap();
            assert!(last.starts_with("Network evaluation: "), "{last}");
            let human = on_game!(&game, g => score_of(g.position(), used)).human();
            assert!(
                last.ends_with(&format!("{human} (internal {used})")),
                "{last}"
            );
        }
    }
}
