//! PDN game records: a game's types, and reading them (`pdn_write` writes them).
//!
//! A game read is bounded before it is built: variations nested at most
//! [`MAX_VARIATION_DEPTH`] deep, at most [`MAX_GAME_MOVES`] moves and
//! [`MAX_GAME_VARIATIONS`] variations in one game, [`MAX_FILE_MOVES`] and
//! [`MAX_FILE_VARIATIONS`] in all the games of one text. Whatever reads a PDN (`play`'s `load`,
//! `analyse`, the openings of `match`, `serve`'s `POST /api/games`) gets a one-line
//! [`PdnError`] past them, never a tree that its walks or its drop could not finish.

use std::fmt;

/// Deepest nesting of variations read: a variation inside a variation, and so on, this many
/// levels. Annotated games use a few; the page's own PDN of its most variations (300, each
/// inside the one before) nests 300 deep and must load back. The derived `Drop`, `Clone`
/// and `PartialEq` of a [`PdnMove`] recurse once per level, a few frames of stack each, so
/// 512 levels stay far below the smallest stack that runs them (2 MiB, a tokio worker's or a
/// test's thread; the tests walk such a tree on a quarter of that); [`parse_games`] refuses
/// a deeper game before it builds the level past this one, and this program builds none
/// deeper than one level itself. Writing (`pdn_write`) does not recurse at all.
pub const MAX_VARIATION_DEPTH: usize = 512;
/// Most moves one game may hold, its main line and all its variations together, each move
/// counted once as it is written (a long match game has a few hundred plies).
pub const MAX_GAME_MOVES: usize = 50_000;
/// Most variations one game may hold, at every depth together (empty ones `()` included).
pub const MAX_GAME_VARIATIONS: usize = 5_000;
/// Most moves one text (a file, a request) may hold, all its games together: a match's PDN
/// of a few thousand long games fits, and what is built stays some 100 MB at most.
pub const MAX_FILE_MOVES: usize = 1_000_000;
/// Most variations one text may hold, all its games together.
pub const MAX_FILE_VARIATIONS: usize = 100_000;

/// One move with an optional comment (e.g. `+0.25/7 0.105s`), its annotation mark and the
/// variations that could have been played instead of it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PdnMove {
    /// Move text in our notation.
    pub text: String,
    /// Comment after the move, without braces.
    pub comment: Option<String>,
    /// Annotation glued to the move, such as `?!`, `??` or `!` (empty: none).
    pub mark: String,
    /// Variations in parentheses after the move: each a line of moves played instead of
    /// this one (from the position before it), which may hold variations of its own (at
    /// most [`MAX_VARIATION_DEPTH`] levels in a game read).
    pub variations: Vec<Vec<PdnMove>>,
}

impl PdnMove {
    /// A move with neither comment, mark nor variations.
    pub fn new(text: impl Into<String>) -> PdnMove {
        PdnMove {
            text: text.into(),
            ..PdnMove::default()
        }
    }
}

/// One game: tags in order, moves, and the result token.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PdnGame {
    /// `[Name "Value"]` pairs in order.
    pub tags: Vec<(String, String)>,
    /// Moves in order.
    pub moves: Vec<PdnMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl PdnGame {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What is wrong with a PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnError {
    /// A tag line that is not `[Name "Value"]` (line).
    BadTag(usize),
    /// A `{` comment that is never closed (line).
    UnclosedComment(usize),
    /// Movetext without a result token at the end of the text (line).
    MissingResult(usize),
    /// A `(` with no move before it, a `)` without its `(`, or a game ending inside a
    /// variation (line).
    BadVariation(usize),
    /// A variation nested deeper than [`MAX_VARIATION_DEPTH`] (line).
    TooDeep(usize),
    /// A game of more than [`MAX_GAME_MOVES`] moves in all its lines (line).
    TooManyMoves(usize),
    /// A game of more than [`MAX_GAME_VARIATIONS`] variations (line).
    TooManyVariations(usize),
    /// A text of more than [`MAX_FILE_MOVES`] moves or [`MAX_FILE_VARIATIONS`] variations,
    /// all its games together (line).
    FileTooBig(usize),
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::BadTag(l) => write!(f, "line {l}: bad tag, expected [Name \"Value\"]"),
            PdnError::UnclosedComment(l) => write!(f, "line {l}: comment '{{' never closed"),
            PdnError::MissingResult(l) => write!(f, "line {l}: game has no result token"),
            PdnError::BadVariation(l) => {
                write!(f, "line {l}: unbalanced variation parentheses")
            }
            PdnError::TooDeep(l) => write!(
                f,
                "line {l}: variations nested over {MAX_VARIATION_DEPTH} levels deep"
            ),
            PdnError::TooManyMoves(l) => write!(
                f,
                "line {l}: a game of over {MAX_GAME_MOVES} moves, its variations included"
            ),
            PdnError::TooManyVariations(l) => {
                write!(
                    f,
                    "line {l}: a game of over {MAX_GAME_VARIATIONS} variations"
                )
            }
            PdnError::FileTooBig(l) => write!(
                f,
                "line {l}: over {MAX_FILE_MOVES} moves or {MAX_FILE_VARIATIONS} variations \
                 in the games of one file"
            ),
        }
    }
}

impl std::error::Error for PdnError {}

const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

fn parse_tag(line: &str, n: usize) -> Result<(String, String), PdnError> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or(PdnError::BadTag(n))?;
    let (name, rest) = inner.split_once(' ').ok_or(PdnError::BadTag(n))?;
    let rest = rest.trim();
    let body = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or(PdnError::BadTag(n))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(d) = chars.next() {
                value.push(d);
            }
        } else {
            value.push(c);
        }
    }
    Ok((name.to_string(), value))
}

/// Whether `tok` is a move number like `12.` or `12...`.
fn is_move_number(tok: &str) -> bool {
    let digits = tok.trim_end_matches('.');
    digits.len() < tok.len() && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// The lines of the game being read: the main line first, then each open variation; and
/// the moves and variations it holds so far, and the games before it in the text, against
/// their limits.
struct Lines {
    open: Vec<Vec<PdnMove>>,
    moves: usize,
    variations: usize,
    /// Moves and variations of the games read before this one.
    moves_before: usize,
    variations_before: usize,
}

impl Lines {
    fn new() -> Lines {
        Lines {
            open: vec![Vec::new()],
            moves: 0,
            variations: 0,
            moves_before: 0,
            variations_before: 0,
        }
    }

    /// The lines of the next game, this one's moves and variations counted in the text's.
    fn next_game(&self) -> Lines {
        Lines {
            moves_before: self.moves_before + self.moves,
            variations_before: self.variations_before + self.variations,
            ..Lines::new()
        }
    }

    /// A move at the end of the current line (line `n`).
    fn push(&mut self, m: PdnMove, n: usize) -> Result<(), PdnError> {
        if self.moves == MAX_GAME_MOVES {
            return Err(PdnError::TooManyMoves(n));
        }
        if self.moves_before + self.moves == MAX_FILE_MOVES {
            return Err(PdnError::FileTooBig(n));
        }
        self.moves += 1;
        self.current().push(m);
        Ok(())
    }

    /// The line moves are read into now.
    fn current(&mut self) -> &mut Vec<PdnMove> {
        self.open.last_mut().expect("the main line is always open")
    }

    fn is_empty(&self) -> bool {
        self.open.len() == 1 && self.open[0].is_empty()
    }

    /// `(`: a variation of the current line's last move.
    fn open_variation(&mut self, n: usize) -> Result<(), PdnError> {
        if self.current().is_empty() {
            return Err(PdnError::BadVariation(n));
        }
        // The main line is open too: `open.len() - 1` variations are.
        if self.open.len() > MAX_VARIATION_DEPTH {
            return Err(PdnError::TooDeep(n));
        }
        if self.variations == MAX_GAME_VARIATIONS {
            return Err(PdnError::TooManyVariations(n));
        }
        if self.variations_before + self.variations == MAX_FILE_VARIATIONS {
            return Err(PdnError::FileTooBig(n));
        }
        self.variations += 1;
        self.open.push(Vec::new());
        Ok(())
    }

    /// `)`: the variation ends, kept with the move it replaces.
    fn close_variation(&mut self, n: usize) -> Result<(), PdnError> {
        if self.open.len() < 2 {
            return Err(PdnError::BadVariation(n));
        }
        let v = self.open.pop().expect("a variation is open");
        let parent = self.current().last_mut().expect("opened after a move");
        parent.variations.push(v);
        Ok(())
    }

    /// The main line, when no variation is open.
    fn finish(mut self, n: usize) -> Result<Vec<PdnMove>, PdnError> {
        if self.open.len() != 1 {
            return Err(PdnError::BadVariation(n));
        }
        Ok(self.open.pop().unwrap_or_default())
    }
}

/// A move token as (move, mark): `c3-d4?!` is `c3-d4` marked `?!`.
fn split_mark(tok: &str) -> (&str, &str) {
    let text = tok.trim_end_matches(['!', '?']);
    (text, &tok[text.len()..])
}

/// The glyph a NAG stands for (`$1` to `$6`: `!`, `?`, `!!`, `??`, `!?`, `?!`).
fn nag_glyph(tok: &str) -> Option<&'static str> {
    let glyphs = ["!", "?", "!!", "??", "!?", "?!"];
    let n: usize = tok.strip_prefix('$')?.parse().ok()?;
    glyphs.get(n.checked_sub(1)?).copied()
}

impl Lines {
    /// A token of moves that is neither a result nor punctuation (line `n`): a move with its
    /// mark, a mark alone (`c3-d4 ?!`), a NAG (`$2`: its mark when the move has none), or a
    /// move number (skipped).
    fn read_token(&mut self, tok: &str, n: usize) -> Result<(), PdnError> {
        if let Some(glyph) = nag_glyph(tok) {
            if let Some(m) = self.current().last_mut()
                && m.mark.is_empty()
            {
                m.mark = glyph.to_string();
            }
            return Ok(());
        }
        if is_move_number(tok) || tok.starts_with('$') {
            return Ok(());
        }
        // `12.c3-d4` (number glued to the move) is read too.
        let text = match tok.rfind('.') {
            Some(p) if is_move_number(&tok[..=p]) => &tok[p + 1..],
            _ => tok,
        };
        let (text, mark) = split_mark(text);
        if !text.is_empty() {
            let m = PdnMove {
                mark: mark.to_string(),
                ..PdnMove::new(text)
            };
            self.push(m, n)?;
        } else if let Some(m) = self.current().last_mut() {
            m.mark = mark.to_string(); // `c3-d4 ?!`
        }
        Ok(())
    }
}

/// Reads every game of a PDN text: tags, the main line's moves (with their comments, marks
/// such as `?!`, and variations in parentheses, nested), and the result. A NAG `$1` to `$6`
/// is the mark it stands for when its move has none; other NAGs are skipped. A game past
/// [`MAX_VARIATION_DEPTH`], [`MAX_GAME_MOVES`] or [`MAX_GAME_VARIATIONS`], or a text past [`MAX_FILE_MOVES`] or [`MAX_FILE_VARIATIONS`], is
/// refused where it passes the limit, before more of it is built.
pub fn parse_games(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    // A byte order mark (as Windows editors write) means nothing.
    let text = text.strip_prefix(crate::files::BOM).unwrap_or(text);
    let mut games = Vec::new();
    let mut game = PdnGame::default();
    let mut lines = Lines::new();
    let mut in_game = false;
    let mut comment: Option<(String, usize)> = None;
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        last_line = n;
        let line = raw.trim();
        if comment.is_none() && line.starts_with('[') {
            if in_game && !lines.is_empty() {
                return Err(PdnError::MissingResult(n));
            }
            game.tags.push(parse_tag(line, n)?);
            in_game = true;
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            if let Some((c, _)) = comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        c.push_str(&rest[..end]);
                        let text = c.trim().to_string();
                        if let Some(m) = lines.current().last_mut() {
                            m.comment = Some(text);
                        }
                        comment = None;
                        rest = rest[end + 1..].trim_start();
                    }
                    None => {
                        c.push_str(rest);
                        c.push(' ');
                        rest = "";
                    }
                }
                continue;
            }
            if let Some(r) = rest.strip_prefix('{') {
                comment = Some((String::new(), n));
                rest = r;
                continue;
            }
            in_game = true;
            if let Some(r) = rest.strip_prefix('(') {
                lines.open_variation(n)?;
                rest = r.trim_start();
                continue;
            }
            if let Some(r) = rest.strip_prefix(')') {
                lines.close_variation(n)?;
                rest = r.trim_start();
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, '{' | '(' | ')'))
                .unwrap_or(rest.len());
            let tok = &rest[..end];
            rest = rest[end..].trim_start();
            if RESULTS.contains(&tok) {
                let next = lines.next_game();
                game.moves = std::mem::replace(&mut lines, next).finish(n)?;
                game.result = tok.to_string();
                games.push(std::mem::take(&mut game));
                in_game = false;
            } else {
                lines.read_token(tok, n)?;
            }
        }
    }
    if let Some((_, start)) = comment {
        return Err(PdnError::UnclosedComment(start));
    }
    if in_game && (!lines.is_empty() || !game.tags.is_empty()) {
        return Err(PdnError::MissingResult(last_line));
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pdn_write::write_game;

    #[test]
    fn reads_hand_written_pdn() {
        let text = "[White \"a\"]\n\n1. c3-d4 f6-e5 {book} 2.d4xf6 g7:e5 1/2-1/2\n";
        let g = &parse_games(text).unwrap()[0];
        let moves: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["c3-d4", "f6-e5", "d4xf6", "g7:e5"]);
        assert_eq!(g.moves[1].comment.as_deref(), Some("book"));
        assert_eq!(g.result, "1/2-1/2");
        assert_eq!(parse_games("[Bad tag]\n"), Err(PdnError::BadTag(1)));
        assert_eq!(
            parse_games("1. c3-d4 {open\n"),
            Err(PdnError::UnclosedComment(1))
        );
        assert_eq!(parse_games("1. c3-d4\n"), Err(PdnError::MissingResult(1)));
    }

    #[test]
    fn variations_and_marks_both_ways() {
        let text = "[Event \"v\"]\n\n1. c3-d4?! {+0.35} (1. c3-b4 f6-g5 (1... f6-e5!? 2. b4-a5) \
                    2. g3-h4) 1... f6-e5?? $4 2.d4xf6 (2. a3-b4) g7:e5 1-0\n";
        let g = &parse_games(text).unwrap()[0];
        let main: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(main, ["c3-d4", "f6-e5", "d4xf6", "g7:e5"]);
        assert_eq!(g.moves[0].mark, "?!");
        assert_eq!(g.moves[0].comment.as_deref(), Some("+0.35"));
        assert_eq!(g.moves[1].mark, "??");
        // A NAG is the mark it stands for, unless the move has one.
        let nags = &parse_games("1. c3-d4 $1 f6-e5?! $4 2. d4xf6 $6 g7:e5 $7 *\n").unwrap()[0];
        let marks: Vec<&str> = nags.moves.iter().map(|m| m.mark.as_str()).collect();
        assert_eq!(marks, ["!", "?!", "?!", ""]);
        let v = &g.moves[0].variations;
        assert_eq!(v.len(), 1);
        let texts: Vec<&str> = v[0].iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["c3-b4", "f6-g5", "g3-h4"]);
        let nested = &v[0][1].variations[0];
        assert_eq!(nested[0].text, "f6-e5");
        assert_eq!(nested[0].mark, "!?");
        assert_eq!(nested[1].text, "b4-a5");
        assert_eq!(g.moves[2].variations, vec![vec![PdnMove::new("a3-b4")]]);
        // Written and read back: the same game.
        let written = write_game(g);
        let flat = written.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("1. c3-d4?! {+0.35} ( 1. c3-b4 f6-g5 ( 1... f6-e5!?"),
            "{flat}"
        );
        assert!(flat.contains(") 1... f6-e5??"), "{flat}");
        assert_eq!(&parse_games(&written).unwrap()[0], g);
        for bad in ["( c3-d4 ) *\n", "1. c3-d4 ( c3-b4 *\n", "1. c3-d4 ) *\n"] {
            assert!(
                matches!(parse_games(bad), Err(PdnError::BadVariation(1))),
                "{bad}"
            );
        }
    }

    /// `depth` variations, each inside the one before, after a first move.
    fn nested(depth: usize) -> String {
        format!(
            "1. c3-d4 {} *\n",
            "(1. c3-b4 ".repeat(depth) + &")".repeat(depth)
        )
    }

    #[test]
    fn nesting_is_read_to_its_limit_and_refused_past_it() {
        let g = &parse_games(&nested(MAX_VARIATION_DEPTH)).unwrap()[0];
        let mut depth = 0;
        let mut line = &g.moves;
        while let Some(v) = line[0].variations.first() {
            depth += 1;
            line = v;
        }
        assert_eq!(depth, MAX_VARIATION_DEPTH);
        // Cloned, compared and dropped (each recursive, derived) on a quarter of the
        // smallest stack that holds a game (an unoptimised build's frames are larger).
        let stack = if cfg!(debug_assertions) {
            2 << 20
        } else {
            512 << 10
        };
        let tree = g.clone();
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let copy = tree.clone();
                assert!(copy == tree);
                drop(copy);
                drop(tree);
            })
            .unwrap()
            .join()
            .unwrap();
        // Written without recursion and read back the same.
        assert_eq!(&parse_games(&write_game(g)).unwrap()[0], g);
        assert_eq!(
            parse_games(&nested(MAX_VARIATION_DEPTH + 1)),
            Err(PdnError::TooDeep(1))
        );
        // 100,000 levels (as a hostile file has): refused the same way, nothing overflows.
        let e = parse_games(&nested(100_000)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("line 1: variations nested over {MAX_VARIATION_DEPTH} levels deep")
        );
    }

    #[test]
    fn moves_and_variations_of_a_game_are_counted_against_their_limits() {
        let moves = |n: usize| format!("{} *\n", "c3-d4 ".repeat(n));
        let empties = |n: usize| format!("1. c3-d4 {} *\n", "() ".repeat(n));
        assert_eq!(
            parse_games(&moves(MAX_GAME_MOVES)).unwrap()[0].moves.len(),
            MAX_GAME_MOVES
        );
        assert_eq!(
            parse_games(&moves(MAX_GAME_MOVES + 1)),
            Err(PdnError::TooManyMoves(1))
        );
        // Moves in variations count too; each game has its own budget.
        let half = "c3-d4 ".repeat(MAX_GAME_MOVES / 2);
        let split = format!("{half}({half}) *\n");
        assert!(parse_games(&split).is_ok());
        let over = format!("{half}({half} c3-d4) *\n");
        assert_eq!(parse_games(&over), Err(PdnError::TooManyMoves(1)));
        let two = format!("{}\n{}", moves(MAX_GAME_MOVES), moves(MAX_GAME_MOVES));
        assert_eq!(parse_games(&two).unwrap().len(), 2);
        // All the games of a text together have theirs.
        let games = MAX_FILE_MOVES / MAX_GAME_MOVES;
        let full = moves(MAX_GAME_MOVES).repeat(games);
        assert_eq!(parse_games(&full).unwrap().len(), games);
        let e = parse_games(&(full + "c3-d4 *\n")).unwrap_err();
        assert_eq!(e, PdnError::FileTooBig(games + 1));
        assert_eq!(
            e.to_string(),
            format!(
                "line {}: over {MAX_FILE_MOVES} moves or {MAX_FILE_VARIATIONS} variations \
                 in the games of one file",
                games + 1
            )
        );
        let games = MAX_FILE_VARIATIONS / MAX_GAME_VARIATIONS;
        let full = empties(MAX_GAME_VARIATIONS).repeat(games);
        assert_eq!(parse_games(&full).unwrap().len(), games);
        let e = parse_games(&(full + "1. c3-d4 () *\n")).unwrap_err();
        assert_eq!(e, PdnError::FileTooBig(games + 1));
        assert_eq!(
            parse_games(&empties(MAX_GAME_VARIATIONS)).unwrap()[0].moves[0]
                .variations
                .len(),
            MAX_GAME_VARIATIONS
        );
        let e = parse_games(&empties(MAX_GAME_VARIATIONS + 1)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("line 1: a game of over {MAX_GAME_VARIATIONS} variations")
        );
    }
}
