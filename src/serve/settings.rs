//! What a new game is made of, read from the JSON body of `POST /api/games`: the game
//! (`variant`), the start (a FEN, moves, or an uploaded PDN), the side the person plays, the
//! engine's level and the time rule. Every field is checked here with a one-line reason.

use super::ending::{End, Reason};
use super::error::{ApiError, ErrorKind};
use super::json::Value;
use super::line::{GameLine, new_line};
use crate::games::Variant;
use crate::games::kit::color::Color;
use crate::record::pdn::{PdnGame, PdnMove, parse_games};
use crate::search::skill::MAX_LEVEL;

/// Level of a new game when the request names none.
pub const DEFAULT_LEVEL: u8 = 5;
/// Engine time per move when the request names no time rule, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;
/// Shortest time per move, ms.
pub const MIN_MOVETIME_MS: u64 = 10;
/// Longest clock base time, ms (3 hours).
pub const MAX_CLOCK_BASE_MS: u64 = 3 * 3600 * 1000;
/// Longest clock increment, ms.
pub const MAX_CLOCK_INC_MS: u64 = 60 * 1000;
/// Most moves a new game may start with (a PDN of a very long game still fits).
pub const MAX_START_MOVES: usize = 2000;
/// Most variations a PDN may bring (each is checked by replaying it from the start).
pub const MAX_VARIATIONS: usize = 300;

/// Who the person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Human {
    /// The person plays this colour, the engine the other.
    Side(Color),
    /// The person moves for both sides; the engine only hints and analyses.
    Both,
}

impl Human {
    /// Whether the person moves for `c`.
    pub fn plays(self, c: Color) -> bool {
        match self {
            Human::Side(s) => s == c,
            Human::Both => true,
        }
    }

    /// `white`, `black` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Human::Side(c) => c.name(),
            Human::Both => "both",
        }
    }
}

/// How much time the engine gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeRule {
    /// A fixed time per engine move, ms; the person's time is not counted.
    MoveTime(u64),
    /// A clock for both sides: base time and increment per move, ms.
    Clock { base_ms: u64, inc_ms: u64 },
}

/// A new game as requested.
#[derive(Debug)]
pub struct NewGame {
    /// The start position with the moves already played, in its game.
    pub game: Box<dyn GameLine>,
    /// Who the person plays.
    pub human: Human,
    /// Engine level, 0 to [`MAX_LEVEL`].
    pub level: u8,
    /// The time rule.
    pub time: TimeRule,
    /// The variations of an uploaded PDN, each a whole line from the start in the game's
    /// notation, a variation before those inside it.
    pub variations: Vec<Vec<String>>,
    /// How an uploaded PDN says its game ended, when that is a resignation or a loss on time
    /// (an end by the rules the line shows by itself).
    pub recorded: Option<End>,
}

fn bad(what: impl Into<String>) -> ApiError {
    ApiError::new(ErrorKind::BadRequest, what)
}

fn whole(v: &Value, name: &str, lo: u64, hi: u64) -> Result<u64, ApiError> {
    v.as_u64()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| bad(format!("'{name}' must be a whole number from {lo} to {hi}")))
}

fn human(v: Option<&Value>) -> Result<Human, ApiError> {
    match v.map(|v| v.as_str()) {
        None | Some(Some("white")) => Ok(Human::Side(Color::White)),
        Some(Some("black")) => Ok(Human::Side(Color::Black)),
        Some(Some("both")) => Ok(Human::Both),
        _ => Err(bad("'human' must be \"white\", \"black\" or \"both\"")),
    }
}

fn time_rule(body: &Value, max_think_ms: u64) -> Result<TimeRule, ApiError> {
    match (body.get("movetime_ms"), body.get("clock")) {
        (Some(_), Some(_)) => Err(bad("give 'movetime_ms' or 'clock', not both")),
        (Some(mt), None) => Ok(TimeRule::MoveTime(whole(
            mt,
            "movetime_ms",
            MIN_MOVETIME_MS,
            max_think_ms,
        )?)),
        (None, Some(c)) => {
            let field = |name| {
                c.get(name)
                    .ok_or_else(|| bad(format!("'clock' needs '{name}'")))
            };
            Ok(TimeRule::Clock {
                base_ms: whole(field("base_ms")?, "base_ms", 1000, MAX_CLOCK_BASE_MS)?,
                inc_ms: whole(field("inc_ms")?, "inc_ms", 0, MAX_CLOCK_INC_MS)?,
            })
        }
        (None, None) => Ok(TimeRule::MoveTime(DEFAULT_MOVETIME_MS.min(max_think_ms))),
    }
}

/// The game named by `variant` (a name; Bashni when absent).
fn variant(v: Option<&Value>) -> Result<Option<Variant>, ApiError> {
    let Some(v) = v else { return Ok(None) };
    let name = v
        .as_str()
        .ok_or_else(|| bad("'variant' must be a string: bashni, turkish, russian or lasca"))?;
    name.parse()
        .map(Some)
        .map_err(|e: crate::games::UnknownVariant| bad(e.to_string()))
}

/// A game's line, the variations that come with it, and the end its PDN records.
type Start = (Box<dyn GameLine>, Vec<Vec<String>>, Option<End>);

/// The start of a game: `pdn` (its first game, with its variations), or `fen`, `moves` and
/// `variations` (whole lines from the start, as a page keeps its move tree), in the game
/// named by `variant`, or for a PDN without it, by its `GameType` tag (Bashni when it has
/// none).
fn start(body: &Value) -> Result<Start, ApiError> {
    let mut game = variant(body.get("variant"))?;
    let text = |name: &str| -> Result<Option<&str>, ApiError> {
        body.get(name)
            .map(|v| {
                v.as_str()
                    .ok_or_else(|| bad(format!("'{name}' must be a string")))
            })
            .transpose()
    };
    let mut moves: Vec<String> = match body.get("moves") {
        None => Vec::new(),
        Some(v) => move_texts(v).ok_or_else(|| bad("'moves' must be an array of move strings"))?,
    };
    let mut fen = text("fen")?.map(str::to_string);
    let mut lines = match body.get("variations") {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .and_then(|a| a.iter().map(move_texts).collect::<Option<Vec<_>>>())
            .ok_or_else(|| bad("'variations' must be an array of arrays of move strings"))?,
    };
    let mut what = "";
    let mut recorded = None;
    if let Some(pdn) = text("pdn")? {
        if fen.is_some() || !moves.is_empty() || !lines.is_empty() {
            return Err(bad("give 'pdn' or 'fen'/'moves'/'variations', not both"));
        }
        let games = parse_games(pdn).map_err(|e| bad(format!("PDN: {e}")))?;
        let g = games
            .into_iter()
            .next()
            .ok_or_else(|| bad("PDN: no game in the text"))?;
        if let Some(tag) = g.tag("GameType") {
            let of_pdn = Variant::from_pdn_game_type(tag).ok_or_else(|| {
                bad(format!(
                    "PDN: GameType \"{tag}\" is none of the games played here (bashni, \
                     turkish, russian, lasca)"
                ))
            })?;
            match game {
                Some(v) if v != of_pdn => {
                    return Err(bad(format!(
                        "PDN: a game of {of_pdn} (GameType \"{tag}\"), not of {v}"
                    )));
                }
                _ => game = Some(of_pdn),
            }
        }
        fen = g.tag("FEN").map(str::to_string);
        moves = g.moves.iter().map(|m| m.text.clone()).collect();
        variation_lines(&g.moves, &[], &mut lines)?;
        what = "PDN: ";
        recorded = recorded_end(&g);
    }
    if moves.len() > MAX_START_MOVES {
        return Err(bad(format!("at most {MAX_START_MOVES} moves")));
    }
    let variant = game.unwrap_or_default();
    let line = new_line(variant, fen.as_deref(), &moves).map_err(bad)?;
    refuse_empty_board(&line.fens()[0])?;
    let variations = checked(variant, fen.as_deref(), lines, what)?;
    let variations = without_repeats(line.moves(), variations);
    Ok((line, variations, recorded))
}

/// An empty board is refused: the rules read it (the side to move has no legal move), but
/// nobody is there to lose, so it is no game to play or analyse.
fn refuse_empty_board(fen: &str) -> Result<(), ApiError> {
    let board = fen.split_whitespace().next().unwrap_or("");
    if board.chars().any(|c| c.is_ascii_alphabetic()) {
        Ok(())
    } else {
        Err(bad("the board is empty: a game needs at least one piece"))
    }
}

/// Variations (whole lines from the start) checked by the game's rules and written in its
/// own notation (`d4xf6` → `d4:f6`); `what` begins the message of a refused one.
fn checked(
    variant: Variant,
    fen: Option<&str>,
    lines: Vec<Vec<String>>,
    what: &str,
) -> Result<Vec<Vec<String>>, ApiError> {
    if lines.len() > MAX_VARIATIONS {
        return Err(bad(format!("more than {MAX_VARIATIONS} variations")));
    }
    lines
        .into_iter()
        .map(|l| {
            if l.len() > MAX_START_MOVES {
                return Err(bad(format!("a variation of over {MAX_START_MOVES} moves")));
            }
            new_line(variant, fen, &l)
                .map(|c| c.moves().to_vec())
                .map_err(|e| bad(format!("{what}in the variation {}: {e}", short_line(&l))))
        })
        .collect()
}

/// A resignation, a loss on time or a draw agreed, as a PDN's `Termination` tag and result record it (so a
/// game the server wrote comes back with its end).
fn recorded_end(g: &PdnGame) -> Option<End> {
    if g.result == "1/2-1/2" && g.tag("Termination") == Some("draw agreement") {
        return Some(End::agreed());
    }
    let loser = match g.result.as_str() {
        "1-0" => Color::Black,
        "0-1" => Color::White,
        _ => return None,
    };
    match g.tag("Termination")? {
        "resignation" => Some(End::lost_by(loser, Reason::Resignation(loser))),
        "time forfeit" => Some(End::lost_by(loser, Reason::Time(loser))),
        _ => None,
    }
}

/// An array of move strings.
fn move_texts(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|m| m.as_str().map(str::to_string))
        .collect()
}

/// Every variation of a PDN line whose moves come after `before`, each as a whole line from
/// the start, depth first: a variation, then those inside it, then the next one.
fn variation_lines(
    moves: &[PdnMove],
    before: &[String],
    out: &mut Vec<Vec<String>>,
) -> Result<(), ApiError> {
    let mut prefix = before.to_vec();
    for m in moves {
        for v in &m.variations {
            if out.len() == MAX_VARIATIONS {
                return Err(bad(format!("PDN: more than {MAX_VARIATIONS} variations")));
            }
            let mut whole = prefix.clone();
            whole.extend(v.iter().map(|m| m.text.clone()));
            if whole.len() > MAX_START_MOVES {
                return Err(bad(format!(
                    "PDN: a variation of over {MAX_START_MOVES} moves"
                )));
            }
            out.push(whole);
            variation_lines(v, &prefix, out)?;
        }
        prefix.push(m.text.clone());
    }
    Ok(())
}

/// The variations less those that add nothing: a line inside the main line or inside
/// another variation (of two equal ones, the first stays).
fn without_repeats(main: &[String], lines: Vec<Vec<String>>) -> Vec<Vec<String>> {
    let inside = |a: &[String], b: &[String]| a.len() <= b.len() && a == &b[..a.len()];
    let keep: Vec<bool> = (0..lines.len())
        .map(|i| {
            let l = &lines[i];
            !inside(l, main)
                && !lines
                    .iter()
                    .enumerate()
                    .any(|(j, o)| j != i && inside(l, o) && (l.len() < o.len() || j < i))
        })
        .collect();
    lines
        .into_iter()
        .zip(keep)
        .filter_map(|(l, k)| k.then_some(l))
        .collect()
}

/// A line's first moves, for an error message.
fn short_line(moves: &[String]) -> String {
    let mut s = moves.iter().take(6).cloned().collect::<Vec<_>>().join(" ");
    if moves.len() > 6 {
        s.push_str(" ...");
    }
    s
}

/// Reads a new game's settings; `max_think_ms` caps the time per move.
pub fn parse_new_game(body: &Value, max_think_ms: u64) -> Result<NewGame, ApiError> {
    if !matches!(body, Value::Object(_)) {
        return Err(bad("the body must be a JSON object"));
    }
    let level = match body.get("level") {
        None => DEFAULT_LEVEL,
        Some(v) => whole(v, "level", 0, MAX_LEVEL as u64)? as u8,
    };
    let (game, variations, recorded) = start(body)?;
    Ok(NewGame {
        game,
        human: human(body.get("human"))?,
        level,
        time: time_rule(body, max_think_ms)?,
        variations,
        recorded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::json::{object, parse};

    fn new_game(text: &str) -> Result<NewGame, String> {
        parse_new_game(&parse(text).unwrap(), 30_000).map_err(|e| e.message)
    }

    #[test]
    fn defaults_and_fields() {
        let g = new_game("{}").unwrap();
        assert_eq!(g.human, Human::Side(Color::White));
        assert_eq!(g.level, DEFAULT_LEVEL);
        assert_eq!(g.time, TimeRule::MoveTime(DEFAULT_MOVETIME_MS));
        let g = new_game(
            r#"{"human":"both","level":0,"clock":{"base_ms":300000,"inc_ms":2000},
                "fen":"8/8/8/8/8/8/1b6/(wbb)7 w","moves":["a1:c3"]}"#,
        )
        .unwrap();
        assert_eq!(g.human, Human::Both);
        assert_eq!(g.game.moves().len(), 1);
        assert_eq!(
            g.time,
            TimeRule::Clock {
                base_ms: 300_000,
                inc_ms: 2000
            }
        );
        let pdn = "[FEN \"8/8/8/8/8/8/1b6/w7 w 0 1\"]\n\n1. a1:c3 1-0\n";
        let body = object([("pdn", Value::from(pdn))]).to_string();
        assert_eq!(new_game(&body).unwrap().game.moves().len(), 1);
        assert_eq!(new_game(&body).unwrap().game.variant(), Variant::Bashni);
    }

    #[test]
    fn the_game_is_named_or_read_from_the_pdn() {
        let g = new_game(r#"{"variant":"turkish","moves":["d3-d4"]}"#).unwrap();
        assert_eq!(g.game.variant(), Variant::Turkish);
        assert_eq!(g.game.fens()[0], crate::games::turkish::START_FEN);
        let pdn = "[GameType \"30,W,8,8,A0,0\"]\n\n1. d3-d4 d6-d5 *\n";
        let body = object([("pdn", Value::from(pdn))]).to_string();
        let g = new_game(&body).unwrap();
        assert_eq!(g.game.variant(), Variant::Turkish);
        assert_eq!(g.game.moves().len(), 2);
        let body = object([
            ("pdn", Value::from(pdn)),
            ("variant", Value::from("russian")),
        ])
        .to_string();
        assert_eq!(
            new_game(&body).unwrap_err(),
            "PDN: a game of turkish (GameType \"30,W,8,8,A0,0\"), not of russian"
        );
        let g = new_game(r#"{"variant":"Russian"}"#).unwrap();
        assert_eq!(g.game.variant(), Variant::Russian);
    }

    #[test]
    fn a_pdns_variations_come_whole_and_checked() {
        let pdn = "1. c3-d4 (1. c3-b4 f6-g5 (1... f6-e5 2. b4-a5) 2. g3-h4) 1... f6-e5 \
                   (1... b6-a5) 2. d4xf6 g7:e5 (2... e7:g5) 1-0\n";
        let body = object([("pdn", Value::from(pdn))]).to_string();
        let g = new_game(&body).unwrap();
        assert_eq!(g.game.moves(), ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]);
        let want: Vec<Vec<&str>> = vec![
            vec!["c3-b4", "f6-g5", "g3-h4"],
            vec!["c3-b4", "f6-e5", "b4-a5"],
            vec!["c3-d4", "b6-a5"],
            vec!["c3-d4", "f6-e5", "d4:f6", "e7:g5"],
        ];
        assert_eq!(g.variations, want);
        // A variation inside another one, or inside the main line, adds nothing.
        let pdn = "1. c3-d4 (1. c3-b4) (1. c3-b4 f6-g5) (1. c3-d4) f6-e5 *\n";
        let body = object([("pdn", Value::from(pdn))]).to_string();
        assert_eq!(
            new_game(&body).unwrap().variations,
            vec![vec!["c3-b4", "f6-g5"]]
        );
        // A bad move in a variation: refused, with the variation named.
        let pdn = "1. c3-d4 (1. c3-b4 f6-g5 2. b4-c7) f6-e5 *\n";
        let body = object([("pdn", Value::from(pdn))]).to_string();
        let e = new_game(&body).unwrap_err();
        assert!(
            e.starts_with("PDN: in the variation c3-b4 f6-g5 b4-c7: move 3: illegal move b4-c7"),
            "{e}"
        );
        let many = format!(
            "1. c3-d4 {} f6-e5 *\n",
            "(1. c3-b4) ".repeat(MAX_VARIATIONS + 1)
        );
        let body = object([("pdn", Value::from(many.as_str()))]).to_string();
        assert_eq!(
            new_game(&body).unwrap_err(),
            format!("PDN: more than {MAX_VARIATIONS} variations")
        );
    }

    #[test]
    fn a_pdns_resignation_or_loss_on_time_comes_with_it() {
        let end = |pdn: &str| {
            let body = object([("pdn", Value::from(pdn))]).to_string();
            new_game(&body).unwrap().recorded
        };
        assert_eq!(
            end("[Termination \"time forfeit\"]\n\n1. c3-d4 0-1\n"),
            Some(End::lost_by(Color::White, Reason::Time(Color::White)))
        );
        assert_eq!(
            end("[Termination \"resignation\"]\n\n1. c3-d4 1-0\n"),
            Some(End::lost_by(
                Color::Black,
                Reason::Resignation(Color::Black)
            ))
        );
        assert_eq!(
            end("[Termination \"max plies\"]\n\n1. c3-d4 1/2-1/2\n"),
            None
        );
        assert_eq!(end("[Termination \"resignation\"]\n\n1. c3-d4 *\n"), None);
    }

    #[test]
    fn every_bad_field_has_a_reason() {
        for (text, reason) in [
            ("[]", "the body must be a JSON object"),
            (
                r#"{"level":21}"#,
                "'level' must be a whole number from 0 to 20",
            ),
            (
                r#"{"level":"3"}"#,
                "'level' must be a whole number from 0 to 20",
            ),
            (r#"{"human":"red"}"#, "'human' must be"),
            (
                r#"{"movetime_ms":5}"#,
                "'movetime_ms' must be a whole number from 10 to 30000",
            ),
            (
                r#"{"movetime_ms":100,"clock":{}}"#,
                "give 'movetime_ms' or 'clock', not both",
            ),
            (r#"{"clock":{"base_ms":1000}}"#, "'clock' needs 'inc_ms'"),
            (
                r#"{"fen":"8/8 w"}"#,
                "bad FEN: board has 2 ranks, expected 8",
            ),
            (r#"{"fen":7}"#, "'fen' must be a string"),
            (
                r#"{"moves":["c3-d4",1]}"#,
                "'moves' must be an array of move strings",
            ),
            (r#"{"moves":["c3-d5"]}"#, "move 1: illegal move c3-d5"),
            (
                r#"{"variant":"chess"}"#,
                "unknown variant 'chess' (expected one of: bashni, turkish, russian, lasca)",
            ),
            (r#"{"variant":3}"#, "'variant' must be a string"),
            (
                r#"{"variant":"turkish","moves":["c3-d4"]}"#,
                "move 1: illegal move c3-d4",
            ),
            (
                r#"{"pdn":"[GameType \"20\"]\n\n*"}"#,
                "PDN: GameType \"20\" is none of the games",
            ),
            (
                r#"{"pdn":"1. c3-d4"}"#,
                "PDN: line 1: game has no result token",
            ),
            (r#"{"pdn":""}"#, "PDN: no game in the text"),
            (
                r#"{"variations":[["c3-d4"],"c3-b4"]}"#,
                "'variations' must be an array of arrays of move strings",
            ),
            (
                r#"{"moves":["c3-d4"],"variations":[["c3-b4","b6-a5","a3-a4"]]}"#,
                "in the variation c3-b4 b6-a5 a3-a4: move 3: illegal move a3-a4",
            ),
            (
                r#"{"pdn":"*","variations":[["c3-d4"]]}"#,
                "give 'pdn' or 'fen'/'moves'/'variations', not both",
            ),
            (
                r#"{"pdn":"* ","fen":"x"}"#,
                "give 'pdn' or 'fen'/'moves'/'variations', not both",
            ),
        ] {
            let e = new_game(text).unwrap_err();
            assert!(e.starts_with(reason), "{text}: {e}");
        }
    }
}
