//! A game's weights file ([`LinearEval::WEIGHTS_FILE`]: `src/games/<game>/eval/weights.txt`):
//! plain text that `bashni tune` writes (`--out`) and reads back (`--from`), and that the build
//! compiles in through [`compiled`], a `const fn`, so the weights are constants of the
//! evaluation exactly as if they were written in Rust.
//!
//! The format: lines starting with `#` are comments (the tuner's header: data, settings,
//! losses), blank lines are skipped, and every other line is one feature's weights in feature
//! order, `<opening> <endgame> <feature name>`, whole centi-men; the name is for the reader.

use super::linear::{LinearEval, feature_name};
use std::fmt;

/// What is wrong with a weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// A weight line that does not read `<opening> <endgame> <name>` (line number).
    BadLine(usize),
    /// The file holds this many weight lines, not one per feature (the game's feature count).
    Count(usize, usize),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::BadLine(n) => {
                write!(f, "line {n}: expected '<opening> <endgame> <name>'")
            }
            WeightsError::Count(n, expected) => write!(
                f,
                "{n} weight lines, expected {expected} (one per feature of this build)"
            ),
        }
    }
}

impl std::error::Error for WeightsError {}

/// Where the reader stands in a file's bytes.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Number of the line last read (1 = the first).
    line: usize,
}

/// Whether `b` separates the fields of a line (`\r` too: a file saved with Windows line
/// endings reads the same).
const fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t' || b == b'\r'
}

/// The whole number at `bytes[*at..end]` (after blanks), within `i32`; `*at` moves past it.
const fn number(bytes: &[u8], at: &mut usize, end: usize) -> Option<i32> {
    while *at < end && is_blank(bytes[*at]) {
        *at += 1;
    }
    let negative = *at < end && bytes[*at] == b'-';
    if negative {
        *at += 1;
    }
    let start = *at;
    let mut value: i64 = 0;
    while *at < end && bytes[*at].is_ascii_digit() {
        value = value * 10 + (bytes[*at] - b'0') as i64;
        if value > i32::MAX as i64 {
            return None;
        }
        *at += 1;
    }
    // Digits, ended by a blank or the end of the line (`1x0` is no number).
    if *at == start || (*at < end && !is_blank(bytes[*at])) {
        return None;
    }
    Some(if negative { -value } else { value } as i32)
}

/// The next feature's weights, or `None` at the end of the file.
const fn next_pair(c: &mut Cursor) -> Result<Option<[i32; 2]>, WeightsError> {
    while c.at < c.bytes.len() {
        let mut end = c.at;
        while end < c.bytes.len() && c.bytes[end] != b'\n' {
            end += 1;
        }
        c.line += 1;
        let mut at = c.at;
        c.at = end + 1;
        while at < end && is_blank(c.bytes[at]) {
            at += 1;
        }
        if at == end || c.bytes[at] == b'#' {
            continue;
        }
        let (Some(opening), Some(endgame)) =
            (number(c.bytes, &mut at, end), number(c.bytes, &mut at, end))
        else {
            return Err(WeightsError::BadLine(c.line));
        };
        return Ok(Some([opening, endgame]));
    }
    Ok(None)
}

/// Reads a weights file of exactly `N` features (`const`: what [`compiled`] runs).
pub const fn parse_exact<const N: usize>(text: &str) -> Result<[[i32; 2]; N], WeightsError> {
    let mut c = Cursor {
        bytes: text.as_bytes(),
        at: 0,
        line: 0,
    };
    let mut out = [[0; 2]; N];
    let mut n = 0;
    loop {
        match next_pair(&mut c) {
            Err(e) => return Err(e),
            Ok(None) => break,
            Ok(Some(w)) => {
                if n < N {
                    out[n] = w;
                }
                n += 1;
            }
        }
    }
    if n != N {
        return Err(WeightsError::Count(n, N));
    }
    Ok(out)
}

/// The weights of a file compiled in (`include_str!("weights.txt")`): a damaged file stops
/// the build.
pub const fn compiled<const N: usize>(text: &str) -> [[i32; 2]; N] {
    match parse_exact::<N>(text) {
        Ok(w) => w,
        Err(WeightsError::BadLine(_)) => {
            panic!("weights file: a line is not '<opening> <endgame> <name>'")
        }
        Err(WeightsError::Count(_, _)) => panic!("weights file: not one line per feature"),
    }
}

/// Reads game `G`'s weights back from a file's text (`bashni tune --from`).
pub fn parse<G: LinearEval>(text: &str) -> Result<Vec<[i32; 2]>, WeightsError> {
    let mut c = Cursor {
        bytes: text.as_bytes(),
        at: 0,
        line: 0,
    };
    let mut out = Vec::new();
    while let Some(w) = next_pair(&mut c)? {
        out.push(w);
    }
    if out.len() != G::NUM_FEATURES {
        return Err(WeightsError::Count(out.len(), G::NUM_FEATURES));
    }
    Ok(out)
}

/// Game `G`'s weights file: `header` lines as comments, then the weights, rounded to whole
/// centi-men, each named by its feature.
pub fn render<G: LinearEval>(weights: &[[i32; 2]], header: &[String]) -> String {
    let mut s = String::from(
        "# Generated by `bashni tune` (src/games/kit/weights.rs); edit by re-running the tuner.\n",
    );
    for h in header {
        s += &format!("# {h}\n");
    }
    s += "#\n# Opening and endgame weight of each feature (centi-men), in feature order.\n";
    for (f, w) in weights.iter().enumerate() {
        s += &format!("{} {} {}\n", w[0], w[1], feature_name(G::GROUPS, f));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::Position;
    use crate::games::{brazilian, lasca, russian, turkish};

    /// Game `G`'s compiled-in file (`file`, its text) is exactly what the writer makes of its
    /// weights (header aside), and reads back to the same weights.
    fn round_trip<G: LinearEval>(file: &str) {
        let parsed = parse::<G>(file).unwrap();
        assert_eq!(parsed, G::WEIGHTS.to_vec());
        let again = render::<G>(&parsed, &["test".to_string()]);
        let body = |t: &str| t[t.find("\n#\n").unwrap()..].to_string();
        assert_eq!(body(&again), body(file));
        assert_eq!(parse::<G>(&again).unwrap(), parsed);
    }

    #[test]
    fn compiled_weights_round_trip() {
        round_trip::<Position>(include_str!("../bashni/eval/weights.txt"));
        round_trip::<turkish::Position>(include_str!("../turkish/eval/weights.txt"));
        round_trip::<russian::Position>(include_str!("../russian/eval/weights.txt"));
        round_trip::<brazilian::Position>(include_str!("../brazilian/eval/weights.txt"));
        round_trip::<lasca::Position>(include_str!("../lasca/eval/weights.txt"));
    }

    #[test]
    fn the_weights_file_paths_are_the_compiled_files() {
        let root = env!("CARGO_MANIFEST_DIR");
        for (path, text) in [
            (
                Position::WEIGHTS_FILE,
                include_str!("../bashni/eval/weights.txt"),
            ),
            (
                turkish::Position::WEIGHTS_FILE,
                include_str!("../turkish/eval/weights.txt"),
            ),
            (
                russian::Position::WEIGHTS_FILE,
                include_str!("../russian/eval/weights.txt"),
            ),
            (
                brazilian::Position::WEIGHTS_FILE,
                include_str!("../brazilian/eval/weights.txt"),
            ),
            (
                lasca::Position::WEIGHTS_FILE,
                include_str!("../lasca/eval/weights.txt"),
            ),
        ] {
            let on_disk = std::fs::read_to_string(format!("{root}/{path}")).unwrap();
            assert_eq!(on_disk, text, "{path}");
        }
    }

    #[test]
    fn numbers_and_lines_are_read_strictly() {
        assert_eq!(
            parse_exact::<2>("# c\n\n1 -2 a\n  -30\t4 b c\r\n"),
            Ok([[1, -2], [-30, 4]])
        );
        assert_eq!(parse_exact::<1>("1 2\n"), Ok([[1, 2]]));
        assert_eq!(
            parse_exact::<1>("1x0 2 man\n"),
            Err(WeightsError::BadLine(1))
        );
        assert_eq!(parse_exact::<1>("#\n1\n"), Err(WeightsError::BadLine(2)));
        assert_eq!(parse_exact::<1>("- 2 a\n"), Err(WeightsError::BadLine(1)));
        assert_eq!(
            parse_exact::<1>("2147483648 0 a\n"),
            Err(WeightsError::BadLine(1))
        );
        assert_eq!(
            parse_exact::<1>("-2147483647 0 a\n"),
            Ok([[-2147483647, 0]])
        );
        assert_eq!(parse_exact::<2>("1 2 a\n"), Err(WeightsError::Count(1, 2)));
        assert_eq!(
            parse_exact::<1>("1 2 a\n3 4 b\n"),
            Err(WeightsError::Count(2, 1))
        );
    }

    #[test]
    fn damaged_files_are_refused() {
        let good = render::<Position>(Position::WEIGHTS, &[]);
        let first = good.find("\n#\n").unwrap() + 3;
        let first = first + good[first..].find('\n').unwrap() + 1;
        let end = first + good[first..].find('\n').unwrap() + 1;
        let short = format!("{}{}", &good[..first], &good[end..]);
        let n = Position::NUM_FEATURES;
        assert_eq!(
            parse::<Position>(&short),
            Err(WeightsError::Count(n - 1, n))
        );
        let bad = format!("{}1x0 2 man\n{}", &good[..first], &good[end..]);
        assert!(matches!(
            parse::<Position>(&bad),
            Err(WeightsError::BadLine(_))
        ));
        // Another game's file has another number of features.
        let turkish = render::<turkish::Position>(turkish::Position::WEIGHTS, &[]);
        assert!(matches!(
            parse::<Position>(&turkish),
            Err(WeightsError::Count(_, _))
        ));
    }
}
