//! PDN written: a game's tags, its moves with their comments, marks and variations (nested,
//! walked without recursion), wrapped at about 80 characters; and today's date as a PDN's
//! `Date` tag writes it. [`super::pdn`] holds the game's types and reads PDN.

use super::pdn::{PdnGame, PdnMove};

/// A tag value with its `\` and `"` escaped.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Move number and side of the first move, from the FEN tag (`1`, White, by default). A
/// standard draughts FEN (`B:W...:B...`) gives the side, and its move number if it has an
/// `F` field.
fn first_move_number(g: &PdnGame) -> (u32, bool) {
    let Some(fen) = g.tag("FEN") else {
        return (1, true);
    };
    if crate::games::kit::std_fen::is_standard(fen) {
        let white = !fen.trim_start().starts_with(['B', 'b']);
        let number = fen
            .split(':')
            .find_map(|f| f.trim().strip_prefix(['F', 'f'])?.parse().ok())
            .unwrap_or(1);
        return (number, white);
    }
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let white = fields.get(1).is_none_or(|s| !s.eq_ignore_ascii_case("b"));
    let number = fields.get(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    (number, white)
}

/// The game as PDN text, ending with a blank line; lines wrapped at about 80 characters.
pub fn write_game(g: &PdnGame) -> String {
    let mut out = String::new();
    for (name, value) in &g.tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push('\n');
    let (number, white) = first_move_number(g);
    let mut tokens: Vec<String> = Vec::new();
    line_tokens(&g.moves, number, white, &mut tokens);
    tokens.push(if g.result.is_empty() {
        "*".to_string()
    } else {
        g.result.clone()
    });
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Where [`line_tokens`] is in one line of the tree.
struct Cursor<'a> {
    moves: &'a [PdnMove],
    /// The move written next (or whose variations are).
    at: usize,
    /// Its move number, and whether it is White's.
    number: u32,
    white: bool,
    /// Variations of `moves[at]` written so far; `None` before the move itself is.
    variations_done: Option<usize>,
    /// Whether the move before `at` had variations (a Black move after them is numbered).
    after_variation: bool,
}

impl<'a> Cursor<'a> {
    fn new(moves: &'a [PdnMove], number: u32, white: bool) -> Cursor<'a> {
        Cursor {
            moves,
            at: 0,
            number,
            white,
            variations_done: None,
            after_variation: false,
        }
    }
}

/// The tokens of a line of moves from move `number` (White's move when `white`): numbers,
/// moves with their marks, comments, and variations in parentheses, nested. A stack of
/// cursors rather than recursion, so no tree, however it was built, can overflow the stack.
fn line_tokens(moves: &[PdnMove], number: u32, white: bool, tokens: &mut Vec<String>) {
    let mut stack = vec![Cursor::new(moves, number, white)];
    while let Some(c) = stack.last_mut() {
        let Some(m) = c.moves.get(c.at) else {
            stack.pop();
            if !stack.is_empty() {
                tokens.push(")".into());
            }
            continue;
        };
        let done = match c.variations_done {
            Some(done) => done,
            None => {
                if c.white {
                    tokens.push(format!("{}.", c.number));
                } else if c.at == 0 || c.after_variation {
                    tokens.push(format!("{}...", c.number));
                }
                tokens.push(format!("{}{}", m.text, m.mark));
                if let Some(comment) = &m.comment {
                    tokens.push(format!("{{{comment}}}"));
                }
                0
            }
        };
        if let Some(v) = m.variations.get(done) {
            c.variations_done = Some(done + 1);
            let inner = Cursor::new(v, c.number, c.white);
            tokens.push("(".into());
            stack.push(inner);
            continue;
        }
        c.after_variation = !m.variations.is_empty();
        if !c.white {
            c.number += 1;
        }
        c.white = !c.white;
        c.at += 1;
        c.variations_done = None;
    }
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = crate::platform::unix_ms() / 1000;
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a (year, month, day) of the proleptic Gregorian calendar.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::pdn::parse_games;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_415), (2025, 11, 23));
    }

    fn sample(fen: Option<&str>) -> PdnGame {
        let mut tags = vec![
            ("Event".to_string(), "test \"quoted\" \\ match".to_string()),
            ("Result".to_string(), "1-0".to_string()),
        ];
        if let Some(f) = fen {
            tags.push(("FEN".to_string(), f.to_string()));
        }
        let moves = (0..41)
            .map(|i| PdnMove {
                text: if i % 2 == 0 {
                    "c3-d4".into()
                } else {
                    "a1:f6:h4".into()
                },
                comment: (i % 3 == 0).then(|| format!("+0.{i:02}/7 0.105s")),
                ..PdnMove::default()
            })
            .collect();
        PdnGame {
            tags,
            moves,
            result: "1-0".into(),
        }
    }

    #[test]
    fn round_trip() {
        for fen in [None, Some("8/8/8/8/8/8/8/W6b b 0 12")] {
            let g = sample(fen);
            let text = write_game(&g);
            assert!(text.lines().all(|l| l.len() <= 80 || l.contains('{')));
            let mut two = text.clone();
            two.push_str(&text);
            let back = parse_games(&two).unwrap();
            assert_eq!(back, vec![g.clone(), g]);
        }
        let black_first = write_game(&sample(Some("8/8/8/8/8/8/8/W6b b 0 12")));
        assert!(black_first.contains("\n12... c3-d4"), "{black_first}");
    }
}
