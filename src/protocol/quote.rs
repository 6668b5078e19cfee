//! Input quoted in an error, and error lines kept to a bound: a client that sends a megabyte
//! of garbage gets a line of bounded length back, never its garbage echoed whole.
//!
//! [`quote`] cuts one input to [`QUOTE_CHARS`] characters; [`bounded_line`] makes any
//! message one line of at most a given length, cutting on the way every quoted stretch (text
//! between two quote marks, `'` or `"`) longer than [`QUOTE_CHARS`], so an error a lower
//! layer worded with the whole input in quotes is cut too. Each front end names its own bound on the line
//! (`serve`'s error bodies, Hub's `error` lines).

/// How many characters of an offending input an error line quotes.
pub const QUOTE_CHARS: usize = 200;

/// What ends a cut text.
const ELLIPSIS: &str = "...";

/// `text` as an error line quotes it: whole if short, else its first [`QUOTE_CHARS`]
/// characters, an ellipsis and how long it was.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!(
            "{}{ELLIPSIS} ({} characters in all)",
            &text[..cut],
            text.chars().count()
        ),
    }
}

/// The input part of a quoted stretch: `text` itself, or what [`quote`] kept of it.
fn quoted_input(text: &str) -> &str {
    text.strip_suffix(" characters in all)")
        .and_then(|t| t.rsplit_once(&format!("{ELLIPSIS} (")))
        .filter(|(_, n)| n.bytes().all(|b| b.is_ascii_digit()))
        .map_or(text, |(input, _)| input)
}

/// Whether the character at `i` of `chars` is a quote mark: a `"`, or a `'` that is not an
/// apostrophe inside a word (`game's`, `don't`).
fn is_quote_mark(chars: &[char], i: usize) -> bool {
    let word = |j: Option<usize>| {
        j.and_then(|j| chars.get(j))
            .is_some_and(|c| c.is_alphanumeric())
    };
    chars[i] == '"' || (chars[i] == '\'' && !(word(i.checked_sub(1)) && word(Some(i + 1))))
}

/// `text` as one line of at most `max_chars` characters: control characters (line breaks
/// included) become spaces, every stretch between two quote marks longer than
/// [`QUOTE_CHARS`] is cut as [`quote`] cuts, and a line still too long ends in an ellipsis.
pub fn bounded_line(text: &str, max_chars: usize) -> String {
    let chars: Vec<char> = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let marks: Vec<usize> = (0..chars.len())
        .filter(|&i| is_quote_mark(&chars, i))
        .collect();
    let mut out = String::with_capacity(text.len().min(4 * max_chars));
    let mut at = 0;
    for pair in marks.windows(2) {
        let (open, close) = (pair[0], pair[1]);
        let inside: String = chars[open + 1..close].iter().collect();
        if quoted_input(&inside).chars().count() > QUOTE_CHARS {
            out.extend(&chars[at..=open]);
            out.push_str(&quote(&inside));
            at = close;
        }
    }
    out.extend(&chars[at..]);
    if out.chars().count() <= max_chars {
        return out;
    }
    let keep = max_chars.saturating_sub(ELLIPSIS.len());
    let mut cut: String = out.chars().take(keep).collect();
    cut.push_str(ELLIPSIS);
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_input_is_quoted_whole_and_long_input_cut() {
        assert_eq!(quote("c3-d4"), "c3-d4");
        let q = quote(&"x".repeat(1000));
        assert!(q.starts_with(&"x".repeat(QUOTE_CHARS)), "{q}");
        assert!(q.ends_with("x... (1000 characters in all)"), "{q}");
    }

    #[test]
    fn lines_are_bounded_and_quoted_stretches_cut() {
        assert_eq!(bounded_line("a\nb\tc", 100), "a b c");
        // Apostrophes inside words are not quote marks.
        let plain = "the game's 'x' and the engine's move";
        assert_eq!(bounded_line(plain, 100), plain);
        let long = "y".repeat(5000);
        let line = bounded_line(&format!("bad move '{long}': expected squares"), 1000);
        assert_eq!(
            line,
            format!(
                "bad move '{}... (5000 characters in all)': expected squares",
                "y".repeat(QUOTE_CHARS)
            )
        );
        // What quote() cut already is left as it is.
        let once = format!("unknown '{}'", quote(&long));
        assert_eq!(bounded_line(&once, 1000), once);
        let pdn = bounded_line(&format!("PDN: GameType \"{long}\" is unknown"), 1000);
        assert!(pdn.ends_with(" characters in all)\" is unknown"), "{pdn}");
        // Several quoted inputs, each cut.
        let two = bounded_line(&format!("'{long}' then '{long}'"), 1000);
        assert_eq!(two.matches(" characters in all)").count(), 2, "{two}");
        assert!(two.chars().count() <= 1000);
        // Unquoted text is cut at the bound, ellipsis included.
        let cut = bounded_line(&"z".repeat(5000), 1000);
        assert_eq!(cut.chars().count(), 1000);
        assert!(cut.ends_with("z..."));
        assert_eq!(bounded_line(&"é".repeat(1000), 1000), "é".repeat(1000));
    }
}
