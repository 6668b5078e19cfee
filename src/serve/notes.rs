//! A game's annotations as the server keeps them: the tags of a loaded PDN (players, event,
//! date, any other) and the comments and glyphs (`!`, `?`, `!!`, `??`, `!?`, `?!`) of its
//! moves, in the main line and in the variations. The server holds one line of the page's
//! tree, so a note names its move by the whole line from the start through that move: it
//! stays right however the page moves between lines, promotes or deletes them.
//!
//! Everything is bounded, whether it comes from a PDN, a page's stored game or an edit: a
//! comment at most [`MAX_COMMENT_CHARS`] characters, at most [`MAX_NOTES`] notes, their lines
//! [`MAX_NOTE_MOVES`] moves together (each counted from the start) and their comments
//! [`MAX_NOTES_CHARS`] characters together; at most [`MAX_TAGS`] tags of at most
//! [`MAX_TAG_CHARS`] characters a name or value. Past a limit: a one-line refusal, nothing kept.

use super::error::{ApiError, ErrorKind, quote};
use super::json::{self, Value};
use super::line::check_lines;
use super::variations::MAX_START_MOVES;
use crate::games::Variant;
use crate::record::pdn::PdnMove;
use std::collections::BTreeMap;

/// Longest comment of one move, characters (after its white space is folded).
pub const MAX_COMMENT_CHARS: usize = 2_000;
/// Most moves of one game that may carry a comment or a glyph.
pub const MAX_NOTES: usize = 1_000;
/// Most moves the lines of a game's notes may hold together, each counted from the start.
pub const MAX_NOTE_MOVES: usize = 20_000;
/// Most characters a game's comments may hold together.
pub const MAX_NOTES_CHARS: usize = 100_000;
/// Most tags a game keeps.
pub const MAX_TAGS: usize = 100;
/// Longest tag name or value, characters.
pub const MAX_TAG_CHARS: usize = 500;

/// The move glyphs kept (PDN's, as chess writes them); a PDN's other marks are dropped.
pub const GLYPHS: [&str; 6] = ["!", "?", "!!", "??", "!?", "?!"];

fn bad(what: impl Into<String>) -> ApiError {
    ApiError::new(ErrorKind::BadRequest, what)
}

/// The comment and glyph of one move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Note {
    /// The comment, its white space folded to single spaces (empty: none).
    pub comment: String,
    /// One of [`GLYPHS`], or empty.
    pub glyph: String,
}

impl Note {
    /// A note from a comment and a glyph as given: the comment folded and checked, the
    /// glyph checked; `what` begins a refusal.
    pub fn new(comment: &str, glyph: &str, what: &str) -> Result<Note, ApiError> {
        let comment = fold(comment);
        if comment.chars().count() > MAX_COMMENT_CHARS {
            return Err(bad(format!(
                "{what}a comment of over {MAX_COMMENT_CHARS} characters"
            )));
        }
        if comment.contains('}') {
            return Err(bad(format!("{what}a comment may not hold '}}'")));
        }
        if !glyph.is_empty() && !GLYPHS.contains(&glyph) {
            return Err(bad(format!(
                "{what}'glyph' must be one of {} or empty, not '{}'",
                GLYPHS.join(" "),
                quote(glyph)
            )));
        }
        Ok(Note {
            comment,
            glyph: glyph.to_string(),
        })
    }

    fn is_empty(&self) -> bool {
        self.comment.is_empty() && self.glyph.is_empty()
    }
}

/// White space (new lines included) folded to single spaces, none at the ends: a comment
/// reads back from PDN as it was written.
fn fold(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A game's tags and the notes of its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Tags in order, as the PDN had them.
    pub tags: Vec<(String, String)>,
    /// Each note by its line: the moves from the start through the annotated one, in the
    /// game's notation.
    notes: BTreeMap<Vec<String>, Note>,
}

impl Notes {
    /// The note of the move that ends `line`.
    pub fn get(&self, line: &[String]) -> Option<&Note> {
        self.notes.get(line)
    }

    /// How many moves carry a note.
    pub fn len(&self) -> usize {
        self.notes.len()
    }

    /// Whether no move carries a note.
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
    }

    /// Sets (or, with an empty note, removes) the note of the move ending `line`, a line
    /// already checked by the rules; refused past a limit, nothing changed.
    pub fn set(&mut self, line: Vec<String>, note: Note, what: &str) -> Result<(), ApiError> {
        if note.is_empty() {
            self.notes.remove(&line);
            return Ok(());
        }
        let old = self.notes.get(&line);
        let count = self.notes.len() + usize::from(old.is_none());
        if count > MAX_NOTES {
            return Err(bad(format!("{what}more than {MAX_NOTES} annotated moves")));
        }
        let moves: usize = self.notes.keys().map(Vec::len).sum::<usize>()
            + if old.is_none() { line.len() } else { 0 };
        if moves > MAX_NOTE_MOVES {
            return Err(bad(format!(
                "{what}over {MAX_NOTE_MOVES} moves in the lines of the annotated moves \
                 together, each counted from the start"
            )));
        }
        let chars: usize = self
            .notes
            .iter()
            .filter(|(l, _)| **l != line)
            .map(|(_, n)| n.comment.chars().count())
            .sum::<usize>()
            + note.comment.chars().count();
        if chars > MAX_NOTES_CHARS {
            return Err(bad(format!(
                "{what}over {MAX_NOTES_CHARS} characters of comments together"
            )));
        }
        self.notes.insert(line, note);
        Ok(())
    }

    /// Sets the note of the move ending `moves` (1 to [`MAX_START_MOVES`] moves from `fen`,
    /// checked by the rules of `variant`), as [`Notes::set`] does.
    pub fn annotate(
        &mut self,
        variant: Variant,
        fen: &str,
        moves: &[String],
        note: Note,
    ) -> Result<(), ApiError> {
        if moves.is_empty() || moves.len() > MAX_START_MOVES {
            return Err(bad(format!(
                "'moves' must hold 1 to {MAX_START_MOVES} moves: the line from the start \
                 through the annotated move"
            )));
        }
        let mut lines = check_lines(variant, Some(fen), &[moves.to_vec()])
            .map_err(|(_, e)| bad(format!("in the annotated line: {e}")))?;
        self.set(lines.pop().unwrap_or_default(), note, "")
    }

    /// The notes as the API gives them: `[{"moves", "comment", "glyph"}]`.
    pub fn notes_json(&self) -> Value {
        Value::Array(
            self.notes
                .iter()
                .map(|(line, n)| {
                    json::object([
                        ("moves", Value::from(line.clone())),
                        ("comment", Value::from(n.comment.as_str())),
                        ("glyph", Value::from(n.glyph.as_str())),
                    ])
                })
                .collect(),
        )
    }

    /// The tags as the API gives them: `[[name, value], ...]`.
    pub fn tags_json(&self) -> Value {
        Value::Array(
            self.tags
                .iter()
                .map(|(n, v)| Value::from(vec![n.clone(), v.clone()]))
                .collect(),
        )
    }
}

/// A tag checked: a name of letters, digits and `_`, and a value on one line, each at most
/// [`MAX_TAG_CHARS`] characters.
fn check_tag(name: &str, value: &str, what: &str) -> Result<(String, String), ApiError> {
    let name_ok = !name.is_empty()
        && name.chars().count() <= MAX_TAG_CHARS
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !name_ok {
        return Err(bad(format!(
            "{what}a tag name must be 1 to {MAX_TAG_CHARS} letters, digits or '_', not '{}'",
            quote(name)
        )));
    }
    if value.chars().count() > MAX_TAG_CHARS {
        return Err(bad(format!(
            "{what}the tag '{name}' has over {MAX_TAG_CHARS} characters"
        )));
    }
    Ok((name.to_string(), fold(value)))
}

/// Tags checked against their limits; `what` begins a refusal.
pub fn check_tags(
    tags: &[(String, String)],
    what: &str,
) -> Result<Vec<(String, String)>, ApiError> {
    if tags.len() > MAX_TAGS {
        return Err(bad(format!("{what}more than {MAX_TAGS} tags")));
    }
    tags.iter().map(|(n, v)| check_tag(n, v, what)).collect()
}

/// Notes as given, each a line from the start through its move, not yet checked.
pub type RawNotes = Vec<(Vec<String>, Note)>;

/// The notes of a PDN game's moves, main line and variations, each with its whole line
/// from the start (in the PDN's notation, checked later); a stack rather than recursion.
/// Counted as they are collected, so that no hostile text builds more than the limits.
pub fn pdn_notes(main: &[PdnMove]) -> Result<RawNotes, ApiError> {
    let what = "PDN: ";
    let mut out: RawNotes = Vec::new();
    let mut moves = 0;
    let mut before: Vec<&str> = Vec::new();
    // (line, moves before its first, next move, variations of it done)
    let mut stack: Vec<(&[PdnMove], usize, usize, usize)> = vec![(main, 0, 0, 0)];
    while let Some((line, base, at, done)) = stack.last_mut() {
        let Some(m) = line.get(*at) else {
            stack.pop();
            continue;
        };
        let fork = *base + *at;
        before.truncate(fork);
        if *done == 0 {
            let glyph = if GLYPHS.contains(&m.mark.as_str()) {
                m.mark.as_str()
            } else {
                ""
            };
            let note = Note::new(m.comment.as_deref().unwrap_or(""), glyph, what)?;
            if !note.is_empty() {
                if out.len() == MAX_NOTES {
                    return Err(bad(format!("{what}more than {MAX_NOTES} annotated moves")));
                }
                moves += fork + 1;
                if moves > MAX_NOTE_MOVES {
                    return Err(bad(format!(
                        "{what}over {MAX_NOTE_MOVES} moves in the lines of the annotated \
                         moves together, each counted from the start"
                    )));
                }
                let mut l: Vec<String> = before.iter().map(|t| t.to_string()).collect();
                l.push(m.text.clone());
                out.push((l, note));
            }
        }
        if let Some(v) = m.variations.get(*done) {
            *done += 1;
            let v: &[PdnMove] = v;
            stack.push((v, fork, 0, 0));
            continue;
        }
        before.push(&m.text);
        *at += 1;
        *done = 0;
    }
    Ok(out)
}

/// Notes as a request gives them (`[{"moves": [...], "comment", "glyph"}]`), not yet
/// checked by the rules.
pub fn notes_from_json(v: &Value) -> Result<RawNotes, ApiError> {
    let shape = || bad("'notes' must be an array of {\"moves\": [...], \"comment\", \"glyph\"}");
    let list = v.as_array().ok_or_else(shape)?;
    if list.len() > MAX_NOTES {
        return Err(bad(format!("more than {MAX_NOTES} annotated moves")));
    }
    let mut moves = 0;
    let mut out = Vec::with_capacity(list.len());
    for n in list {
        let line = n.get("moves").and_then(Value::as_array).ok_or_else(shape)?;
        moves += line.len();
        if moves > MAX_NOTE_MOVES {
            return Err(bad(format!(
                "over {MAX_NOTE_MOVES} moves in the lines of the annotated moves together, \
                 each counted from the start"
            )));
        }
        let line: Vec<String> = line
            .iter()
            .map(|m| m.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(shape)?;
        let text = |name: &str| -> Result<&str, ApiError> {
            match n.get(name) {
                None | Some(Value::Null) => Ok(""),
                Some(v) => v.as_str().ok_or_else(shape),
            }
        };
        out.push((line, Note::new(text("comment")?, text("glyph")?, "")?));
    }
    Ok(out)
}

/// Tags as a request gives them: `[[name, value], ...]`.
pub fn tags_from_json(v: &Value) -> Result<Vec<(String, String)>, ApiError> {
    let shape = || bad("'tags' must be an array of [name, value] pairs of strings");
    let list = v.as_array().ok_or_else(shape)?;
    if list.len() > MAX_TAGS {
        return Err(bad(format!("more than {MAX_TAGS} tags")));
    }
    let tags: Vec<(String, String)> = list
        .iter()
        .map(|p| match p.as_array().map(Vec::as_slice) {
            Some([n, v]) => Some((n.as_str()?.to_string(), v.as_str()?.to_string())),
            _ => None,
        })
        .collect::<Option<_>>()
        .ok_or_else(shape)?;
    check_tags(&tags, "")
}

/// Notes whose lines are checked by the rules of `variant` from `fen` and written in its
/// notation (`d4xf6` becomes `d4:f6`), then kept with `tags`; `what` begins a refusal.
pub fn checked(
    variant: Variant,
    fen: Option<&str>,
    tags: Vec<(String, String)>,
    raw: RawNotes,
    what: &str,
) -> Result<Notes, ApiError> {
    let mut notes = Notes {
        tags,
        ..Notes::default()
    };
    if let Some((l, _)) = raw
        .iter()
        .find(|(l, _)| l.is_empty() || l.len() > MAX_START_MOVES)
    {
        return Err(bad(format!(
            "{what}an annotated move's line must hold 1 to {MAX_START_MOVES} moves, not {}",
            l.len()
        )));
    }
    let (lines, marks): (Vec<Vec<String>>, Vec<Note>) = raw.into_iter().unzip();
    let lines = check_lines(variant, fen, &lines).map_err(|(i, e)| {
        bad(format!(
            "{what}in the line of annotated move {}: {e}",
            i + 1
        ))
    })?;
    for (line, note) in lines.into_iter().zip(marks) {
        notes.set(line, note, what)?;
    }
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pdn::parse_games;

    #[test]
    fn a_pdns_notes_come_with_their_lines() {
        let g = &parse_games(
            "1. c3-d4! {good} (1. c3-b4?! {worse} f6-g5) f6-e5 {reply\n  on two lines} 2. d4xf6?? *\n",
        )
        .unwrap()[0];
        let raw = pdn_notes(&g.moves).unwrap();
        let lines: Vec<(Vec<&str>, &str, &str)> = raw
            .iter()
            .map(|(l, n)| {
                (
                    l.iter().map(String::as_str).collect(),
                    n.comment.as_str(),
                    n.glyph.as_str(),
                )
            })
            .collect();
        assert_eq!(
            lines,
            vec![
                (vec!["c3-d4"], "good", "!"),
                (vec!["c3-b4"], "worse", "?!"),
                (vec!["c3-d4", "f6-e5"], "reply on two lines", ""),
                (vec!["c3-d4", "f6-e5", "d4xf6"], "", "??"),
            ]
        );
        let notes = checked(Variant::Bashni, None, Vec::new(), raw, "PDN: ").unwrap();
        let key: Vec<String> = ["c3-d4", "f6-e5", "d4:f6"].map(String::from).to_vec();
        assert_eq!(notes.get(&key).unwrap().glyph, "??");
    }

    #[test]
    fn limits_are_one_line_refusals() {
        let long = "x".repeat(MAX_COMMENT_CHARS + 1);
        let e = Note::new(&long, "", "").unwrap_err();
        assert_eq!(
            e.message,
            format!("a comment of over {MAX_COMMENT_CHARS} characters")
        );
        assert!(Note::new(&long[1..], "!?", "").is_ok());
        assert!(Note::new("", "?!?", "").is_err());
        assert!(Note::new("a } b", "", "").is_err());
        let mut notes = Notes::default();
        for i in 0..MAX_NOTES {
            notes
                .set(vec![i.to_string()], Note::new("", "!", "").unwrap(), "")
                .unwrap();
        }
        let e = notes
            .set(vec!["x".into()], Note::new("", "!", "").unwrap(), "")
            .unwrap_err();
        assert_eq!(e.message, format!("more than {MAX_NOTES} annotated moves"));
        // Changing or removing one still works at the limit.
        notes
            .set(vec!["0".into()], Note::new("c", "", "").unwrap(), "")
            .unwrap();
        notes.set(vec!["1".into()], Note::default(), "").unwrap();
        assert_eq!(notes.len(), MAX_NOTES - 1);
        let tags: Vec<(String, String)> = (0..=MAX_TAGS)
            .map(|i| (format!("T{i}"), String::new()))
            .collect();
        assert!(check_tags(&tags, "PDN: ").is_err());
        assert!(check_tags(&tags[1..], "PDN: ").is_ok());
        let bad_name = [("a b".to_string(), String::new())];
        assert!(check_tags(&bad_name, "").is_err());
    }
}
