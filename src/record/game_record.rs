//! A played game as the front ends keep it (where it started, every move with what the
//! engine said of it, result and reason), and as a PDN record: the tags, the opening moves
//! (commented `book`) and the moves with `{score/depth time}` comments from their last `info`.

use super::openings::Opening;
use super::pdn::{PdnGame, PdnMove};
use super::result::{GameResult, Termination};
use crate::games::kit::color::Color;
use crate::games::{Rules, Variant};
use std::time::Duration;

/// `fen` (any FEN of `variant`) as a PDN `[FEN]` tag gives it: for Russian, Brazilian and
/// Turkish draughts the standard draughts FEN ([`Rules::to_pdn_fen`]); Bashni's and Lasca's, and a FEN
/// the game cannot read, as it is.
pub fn fen_tag(variant: Variant, fen: &str) -> String {
    if matches!(variant, Variant::Bashni | Variant::Lasca) {
        return fen.to_string(); // Bashni's and Lasca's FEN are their PDN's, as given
    }
    crate::for_variant!(variant, G => G::from_fen(fen).map_or_else(|_| fen.to_string(), |p| p.to_pdn_fen()))
}

/// A score as an engine reports it, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centi-men.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// The last `info` line of a search that carried a score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastInfo {
    /// Depth reached.
    pub depth: Option<u32>,
    /// Score of the principal variation.
    pub score: EngineScore,
}

/// One move an engine played, with what it said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move in our notation (canonical form).
    pub text: String,
    /// The engine's last scored `info` before it.
    pub info: Option<LastInfo>,
    /// Time from `go` to `bestmove`.
    pub time: Duration,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Names of White and Black.
    pub names: [String; 2],
    /// Where it started (the opening moves are not in `moves`).
    pub opening: Opening,
    /// The engines' moves.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// The colour whose engine must be restarted (it crashed or stopped answering).
    pub broken: Option<Color>,
}

/// A move comment: `+0.25/7 0.105s`, `+M3/12 1.200s` (mover's view), or just the time.
pub fn comment(info: Option<LastInfo>, time: Duration) -> String {
    let secs = format!("{:.3}s", time.as_secs_f64());
    let Some(info) = info else { return secs };
    let score = match info.score {
        EngineScore::Cp(c) => {
            let sign = if c < 0 { '-' } else { '+' };
            format!("{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
        }
        EngineScore::Mate(m) if m < 0 => format!("-M{}", -m),
        EngineScore::Mate(m) => format!("+M{m}"),
    };
    match info.depth {
        Some(d) => format!("{score}/{d} {secs}"),
        None => format!("{score} {secs}"),
    }
}

/// The PDN comment of a move from the opening book (the opening a match game starts with):
/// not the engine's choice, so it has no score.
pub const BOOK_COMMENT: &str = "book";

/// Where and when a game was played: the PDN tags that are not in the game itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// `Event`, e.g. `bashni match`.
    pub name: String,
    /// `Site`.
    pub site: String,
    /// `Date`, `YYYY.MM.DD`.
    pub date: String,
    /// `Round`.
    pub round: u64,
}

/// A move as PDN writes it: Bashni's notation as it is; in Russian, Brazilian and Turkish
/// draughts and
/// in Lasca a capture's squares joined by `x`, as PDN 3.0 and pydraughts write them
/// (`c3xe5xg3`; Lasca's rules write its captures so too).
pub fn pdn_move(variant: Variant, text: &str) -> String {
    match variant {
        Variant::Bashni => text.to_string(),
        Variant::Russian | Variant::Brazilian | Variant::Turkish | Variant::Lasca => {
            text.replace(':', "x")
        }
    }
}

/// The PDN record of a finished game of Bashni.
pub fn to_pdn(r: &GameRecord, event: &Event) -> PdnGame {
    to_pdn_in(r, event, Variant::Bashni)
}

/// The PDN record of a finished game of `variant`: its `GameType`
/// ([`Variant::pdn_game_type`]) and its termination as the game names it
/// ([`Termination::tag_in`]).
pub fn to_pdn_in(r: &GameRecord, event: &Event, variant: Variant) -> PdnGame {
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), event.name.clone()),
        ("Site".into(), event.site.clone()),
        ("Date".into(), event.date.clone()),
        ("Round".into(), event.round.to_string()),
        ("White".into(), r.names[0].clone()),
        ("Black".into(), r.names[1].clone()),
        ("Result".into(), r.result.pdn().into()),
        ("GameType".into(), variant.pdn_game_type().into()),
    ];
    if let Some(fen) = &r.opening.fen {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), fen_tag(variant, fen)));
    }
    tags.push(("Termination".into(), r.termination.tag_in(variant)));
    let plies = r.opening.moves.len() + r.moves.len();
    tags.push(("PlyCount".into(), plies.to_string()));
    let book = r.opening.moves.iter().map(|m| PdnMove {
        text: pdn_move(variant, m),
        comment: Some(BOOK_COMMENT.into()),
        ..PdnMove::default()
    });
    let played = r.moves.iter().map(|m| PdnMove {
        text: pdn_move(variant, &m.text),
        comment: Some(comment(m.info, m.time)),
        ..PdnMove::default()
    });
    PdnGame {
        tags,
        moves: book.chain(played).collect(),
        result: r.result.pdn().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments() {
        let t = Duration::from_millis(105);
        let i = |depth, score| Some(LastInfo { depth, score });
        assert_eq!(
            comment(i(Some(7), EngineScore::Cp(25)), t),
            "+0.25/7 0.105s"
        );
        assert_eq!(
            comment(i(Some(7), EngineScore::Cp(-130)), t),
            "-1.30/7 0.105s"
        );
        assert_eq!(
            comment(i(Some(12), EngineScore::Mate(3)), t),
            "+M3/12 0.105s"
        );
        assert_eq!(comment(i(None, EngineScore::Mate(-2)), t), "-M2 0.105s");
        assert_eq!(comment(None, t), "0.105s");
    }

    #[test]
    fn pdn_tags_name_the_game() {
        let r = GameRecord {
            names: ["a".into(), "b".into()],
            opening: Opening::initial(),
            moves: Vec::new(),
            result: GameResult::Draw,
            termination: Termination::ThirtyPly,
            broken: None,
        };
        let event = Event {
            name: "e".into(),
            site: "?".into(),
            date: "2025.01.01".into(),
            round: 1,
        };
        let bashni = to_pdn(&r, &event);
        assert_eq!(bashni.tag("GameType"), Some("Bashni"));
        assert_eq!(bashni.tag("Termination"), Some("30-ply rule"));
        let turkish = to_pdn_in(&r, &event, Variant::Turkish);
        assert_eq!(turkish.tag("GameType"), Some("30,W,8,8,A0,0"));
        assert_eq!(turkish.tag("Termination"), Some("50-ply rule"));
        let russian = to_pdn_in(&r, &event, Variant::Russian);
        assert_eq!(russian.tag("GameType"), Some("25,W,8,8,A0,0"));
        assert_eq!(russian.tag("Termination"), Some("15-move-king rule"));
    }
}
