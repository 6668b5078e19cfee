//! What a new game is made of, read from the JSON body of `POST /api/games`: the game
//! (`variant`), the start (a FEN, moves, or an uploaded PDN), the side the person plays, the
//! engine's level and the time rule. Every field is checked here with a one-line reason.

use super::ending::{End, Reason};
use super::error::{ApiError, ErrorKind, quote};
use super::json::Value;
use super::line::{GameLine, check_lines, new_line};
use super::notes::{self, Notes, RawNotes};
use super::variations::{Budget, variation_lines, without_repeats};
use crate::games::Variant;
use crate::games::kit::color::Color;
use crate::record::pdn::{PdnGame, parse_games};
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
    /// The tags of an uploaded PDN (or those a page sends back) and the comments and glyphs
    /// of its moves, each move named by its whole line from the start.
    pub notes: Notes,
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
    let name = v.as_str().ok_or_else(|| {
        bad("'variant' must be a string: bashni, turkish, russian, brazilian or lasca")
    })?;
    name.parse()
        .map(Some)
        .map_err(|e: crate::games::UnknownVariant| bad(e.to_string()))
}

/// A game's line, the variations that come with it, the end its PDN records, and its
/// tags and notes.
type Start = (Box<dyn GameLine>, Vec<Vec<String>>, Option<End>, Notes);

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
    let mut tags = match body.get("tags") {
        None => Vec::new(),
        Some(v) => notes::tags_from_json(v)?,
    };
    let mut raw: RawNotes = match body.get("notes") {
        None => Vec::new(),
        Some(v) => notes::notes_from_json(v)?,
    };
    if let Some(pdn) = text("pdn")? {
        if fen.is_some() || !moves.is_empty() || !lines.is_empty() {
            return Err(bad("give 'pdn' or 'fen'/'moves'/'variations', not both"));
        }
        if !tags.is_empty() || !raw.is_empty() {
            return Err(bad(
                "give 'pdn' or 'tags'/'notes', not both (a PDN brings its own)",
            ));
        }
        let g = first_game(pdn)?;
        if let Some(tag) = g.tag("GameType") {
            let of_pdn = Variant::from_pdn_game_type(tag).ok_or_else(|| {
                bad(format!(
                    "PDN: GameType \"{tag}\" is none of the games played here (bashni, \
                     turkish, russian, brazilian, lasca)"
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
        what = "PDN: ";
        lines = variation_lines(&g.moves, &mut Budget::new(moves.len(), what)?)?;
        recorded = recorded_end(&g);
        tags = notes::check_tags(&g.tags, what)?;
        raw = notes::pdn_notes(&g.moves)?;
    } else {
        let mut budget = Budget::new(moves.len(), what)?;
        for l in &lines {
            budget.take(l.len())?;
        }
    }
    let variant = game.unwrap_or_default();
    let line = new_line(variant, fen.as_deref(), &moves).map_err(bad)?;
    refuse_empty_board(&line.fens()[0])?;
    let variations = check_lines(variant, fen.as_deref(), &lines).map_err(|(i, e)| {
        bad(format!(
            "{what}in the variation '{}': {e}",
            quote(&short_line(&lines[i]))
        ))
    })?;
    let variations = without_repeats(line.moves(), variations);
    let notes = notes::checked(variant, fen.as_deref(), tags, raw, what)?;
    Ok((line, variations, recorded, notes))
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

/// The first game of a PDN text.
fn first_game(pdn: &str) -> Result<PdnGame, ApiError> {
    parse_games(pdn)
        .map_err(|e| bad(format!("PDN: {e}")))?
        .into_iter()
        .next()
        .ok_or_else(|| bad("PDN: no game in the text"))
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

/// A line's first moves, for an error message (quoted by [`quote`]: a move may be any text).
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
    let (game, variations, recorded, notes) = start(body)?;
    Ok(NewGame {
        game,
        human: human(body.get("human"))?,
        level,
        time: time_rule(body, max_think_ms)?,
        variations,
        recorded,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::json::{object, parse};
    use crate::serve::variations::{MAX_TREE_MOVES, MAX_VARIATIONS};

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
            e.starts_with("PDN: in the variation 'c3-b4 f6-g5 b4-c7': move 3: illegal move b4-c7"),
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

    /// Kings shuffling (a1-b2, h2-g1 and back) from [`KINGS`]: `plies` legal moves.
    fn shuffle(plies: usize) -> Vec<String> {
        let cycle = ["a1-b2", "h2-g1", "b2-a1", "g1-h2"];
        (0..plies).map(|i| cycle[i % 4].to_string()).collect()
    }

    const KINGS: &str = "8/8/8/8/8/8/7B/W7 w";

    fn lines_body(main: &[String], variations: &[Vec<String>]) -> String {
        object([
            ("fen", Value::from(KINGS)),
            ("moves", Value::from(main.to_vec())),
            ("variations", Value::from(variations.to_vec())),
        ])
        .to_string()
    }

    #[test]
    fn all_lines_together_are_counted_each_from_the_start() {
        let main = shuffle(1000);
        let mut other = shuffle(999);
        other.push("g1-f2".into());
        let fits = vec![other.clone(); (MAX_TREE_MOVES - 1000) / 1000];
        let g = new_game(&lines_body(&main, &fits)).unwrap();
        assert_eq!(g.variations, vec![other.clone()]);
        let over = vec![other; (MAX_TREE_MOVES - 1000) / 1000 + 1];
        let e = new_game(&lines_body(&main, &over)).unwrap_err();
        assert_eq!(
            e,
            format!(
                "over {MAX_TREE_MOVES} moves in the main line and the variations together, \
                 each variation counted from the start"
            )
        );
        // A PDN: 300 one-move variations late in a 1,999-ply line (21 KB of text, about
        // 510,000 moves from the start), refused on the count.
        let mut pdn = format!("[FEN \"{KINGS}\"]\n\n");
        for (i, m) in shuffle(1999).iter().enumerate() {
            if i % 2 == 0 {
                pdn.push_str(&format!("{}. ", i / 2 + 1));
            }
            pdn.push_str(m);
            pdn.push(' ');
            if i % 2 == 0 && i >= 1999 - 600 {
                let alt = if i % 4 == 0 { "a1-c3" } else { "b2-c1" };
                pdn.push_str(&format!("({}. {alt}) ", i / 2 + 1));
            }
        }
        pdn.push('*');
        let body = object([("pdn", Value::from(pdn.as_str()))]).to_string();
        let e = new_game(&body).unwrap_err();
        assert!(
            e.starts_with(&format!("PDN: over {MAX_TREE_MOVES} moves")),
            "{e}"
        );
    }

    #[test]
    fn lines_sharing_a_start_are_checked_each_whole() {
        let body = r#"{"moves":["c3-d4"],"variations":[["c3-d4","f6-e5","d4xf6"],
            ["c3-d4","f6-e5","d4xf6","g7xe5"],["c3-d4","f6-e5","d4xf6","g7:e5","a3-b4"],
            ["c3-b4"],["c3-d4","f6-e5","d4xf6","e7-d6"]]}"#;
        let e = new_game(body).unwrap_err();
        assert!(
            e.starts_with("in the variation 'c3-d4 f6-e5 d4xf6 e7-d6': move 4: illegal move e7-d6"),
            "{e}"
        );
        let body = r#"{"moves":["c3-d4"],"variations":[["c3-d4","f6-e5","d4xf6"],
            ["c3-b4"],["c3-d4","f6-e5","d4xf6","g7xe5"]]}"#;
        assert_eq!(
            new_game(body).unwrap().variations,
            vec![vec!["c3-b4"], vec!["c3-d4", "f6-e5", "d4:f6", "g7:e5"]]
        );
    }

    #[test]
    fn a_bad_variation_is_named_quoted_and_cut() {
        let long = "x".repeat(5000);
        let lines = vec![vec!["c3-d4".to_string(), long.clone(), long]];
        let body = object([
            ("moves", Value::from(vec!["c3-d4".to_string()])),
            ("variations", Value::from(lines)),
        ])
        .to_string();
        let e = new_game(&body).unwrap_err();
        let quoted = format!(
            "in the variation '{}... (10007 characters in all)': move 2: ",
            "c3-d4 ".to_string() + &"x".repeat(194)
        );
        assert!(e.starts_with(&quoted), "{e}");
        assert!(e.chars().count() <= crate::serve::error::MAX_MESSAGE_CHARS);
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
                "unknown variant 'chess' (expected one of: bashni, turkish, russian, brazilian, lasca)",
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
                "in the variation 'c3-b4 b6-a5 a3-a4': move 3: illegal move a3-a4",
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
