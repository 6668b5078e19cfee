//! `bashni datagen --resume`: where a stopped run starts again, and the partly written game
//! at the end of its file removed, but only when that end is datagen data: a file that is not
//! datagen output is refused whole, never cut.

use super::format::{GameResult, parse_game_end, parse_sample};
use crate::files::{LineRead, read_line_limited, size_text};
use crate::games::Rules;
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, BufReader};
use std::ops::Range;
use std::path::Path;

/// Bytes of a line kept while scanning: a data line is far shorter.
const LINE_KEEP: usize = 4096;
/// Longest line scanned for its end: a longer one is not datagen output, and without a bound
/// an endless stream (`/dev/zero`) would be read forever.
const LINE_SCAN: u64 = 1 << 20;

/// Why a run cannot resume from its `--out` file.
#[derive(Debug)]
pub enum ResumeError {
    /// The file cannot be read or cut (file, error).
    Io(String, io::Error),
    /// The file is a device, a pipe or a directory: nothing to resume.
    NotRegular(String),
    /// A line longer than [`LINE_SCAN`] (file, line number).
    LongLine(String, u64),
    /// After the last complete game, a line that datagen does not write (file, line number,
    /// what is wrong, bytes after the last game).
    NotData(String, u64, String, u64),
    /// The file changed while it was read (file).
    Changed(String),
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Io(name, e) => write!(f, "cannot resume '{name}': {e}"),
            ResumeError::NotRegular(name) => write!(
                f,
                "cannot resume '{name}': not a regular file (--resume continues a file written by datagen)"
            ),
            ResumeError::LongLine(name, n) => write!(
                f,
                "cannot resume '{name}': line {n} is longer than {}, so it is not datagen output; the file is left as it is",
                size_text(LINE_SCAN)
            ),
            ResumeError::NotData(name, n, why, bytes) => write!(
                f,
                "cannot resume '{name}': line {n} is not datagen data ({why}); resuming would remove the {bytes} bytes after its last complete game, so the file is left as it is"
            ),
            ResumeError::Changed(name) => {
                write!(f, "cannot resume '{name}': it changed while it was read")
            }
        }
    }
}

impl std::error::Error for ResumeError {}

/// What a scan of a datagen file found.
#[derive(Debug, Default, PartialEq, Eq)]
struct Scan {
    /// Bytes read: the file's length.
    len: u64,
    /// Where the last complete game ends.
    end_of_last_game: u64,
    /// The index of the last complete game.
    last_game: Option<u64>,
    /// The first line after the last complete game that datagen would not have written.
    bad_tail: Option<(u64, String)>,
}

/// Reads a datagen file of game `G` to its end, line by line with bounded memory.
fn scan<G: Rules>(input: &mut impl io::BufRead, name: &str) -> Result<Scan, ResumeError> {
    let mut s = Scan::default();
    let mut buf = Vec::new();
    let mut number = 0u64;
    loop {
        let len = match read_line_limited(input, &mut buf, LINE_KEEP, LINE_SCAN) {
            Ok(LineRead::Eof) => return Ok(s),
            Ok(LineRead::Line(len)) => len,
            Ok(LineRead::Endless(_)) => return Err(ResumeError::LongLine(name.into(), number + 1)),
            Err(e) => return Err(ResumeError::Io(name.into(), e)),
        };
        number += 1;
        s.len += len;
        let complete = buf.ends_with(b"\n");
        let text = std::str::from_utf8(&buf).map(|t| t.trim_end_matches(['\n', '\r']));
        if complete && let Some(g) = text.ok().and_then(parse_game_end) {
            s.last_game = Some(g);
            s.end_of_last_game = s.len;
            s.bad_tail = None;
            continue;
        }
        if s.bad_tail.is_some() {
            continue;
        }
        let problem = match text {
            _ if len > buf.len() as u64 => {
                Some(format!("longer than {}", size_text(LINE_KEEP as u64)))
            }
            Err(_) => Some("not UTF-8".to_string()),
            Ok(t) if complete => match parse_sample::<G>(t) {
                Ok(Some(_)) => None,
                Ok(None) => Some("a blank or comment line".to_string()),
                Err(e) => Some(e.to_string()),
            },
            Ok(t) => {
                (!could_start_a_line::<G>(t)).then(|| "not the start of a data line".to_string())
            }
        };
        s.bad_tail = problem.map(|p| (number, p));
    }
}

/// Whether `text`, the last line of a file without its ending, is the start of a line
/// datagen writes for game `G`: a sample `<FEN> | <score> | <result>` or a `# game` marker,
/// cut anywhere.
fn could_start_a_line<G: Rules>(text: &str) -> bool {
    const MARKER: &str = "# game ";
    if MARKER.starts_with(text) {
        return true;
    }
    if let Some(rest) = text.strip_prefix(MARKER) {
        return rest
            .chars()
            .all(|c| c.is_ascii_digit() || " -/".contains(c));
    }
    let fields: Vec<&str> = text.split('|').collect();
    let last = fields.len() - 1;
    fields.len() <= 3
        && fields.iter().enumerate().all(|(i, f)| match (i, i < last) {
            (0, true) => G::from_fen(f).is_ok(),
            (0, false) => f
                .chars()
                .all(|c| c.is_ascii_digit() || "bwBW()/ ".contains(c)),
            (1, true) => f.trim().parse::<i32>().is_ok(),
            // A score cut anywhere, the space before the next `|` included.
            (1, false) => f.trim().chars().all(|c| c.is_ascii_digit() || c == '-'),
            _ => {
                let t = f.trim_start();
                [GameResult::WhiteWin, GameResult::Draw, GameResult::BlackWin]
                    .iter()
                    .any(|r| r.to_string().starts_with(t))
            }
        })
}

/// Where a run of the games `range` of game `G` starts again: after the last complete game
/// of `path`.
/// A partly written game at its end is removed, once the whole file has been read and the
/// part to remove checked to be datagen data; anything else there stops the run with the
/// file untouched. A missing file starts the run from its beginning.
pub fn resume_point<G: Rules>(path: &Path, range: &Range<u64>) -> Result<u64, ResumeError> {
    let name = path.display().to_string();
    match fs::metadata(path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return Err(ResumeError::NotRegular(name)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(range.start),
        Err(e) => return Err(ResumeError::Io(name, e)),
    }
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| ResumeError::Io(name.clone(), e))?;
    let found = scan::<G>(&mut BufReader::new(&file), &name)?;
    if let Some((line, why)) = found.bad_tail {
        let bytes = found.len - found.end_of_last_game;
        return Err(ResumeError::NotData(name, line, why, bytes));
    }
    if found.end_of_last_game < found.len {
        // The file is cut only as it was read: not if something wrote to it meanwhile.
        let now = file
            .metadata()
            .map_err(|e| ResumeError::Io(name.clone(), e))?;
        if now.len() != found.len {
            return Err(ResumeError::Changed(name));
        }
        file.set_len(found.end_of_last_game)
            .map_err(|e| ResumeError::Io(name.clone(), e))?;
        eprintln!(
            "resume: removed {} bytes of an unfinished game at the end of '{name}'",
            found.len - found.end_of_last_game
        );
    }
    Ok(match found.last_game {
        Some(g) if range.contains(&g) => g + 1,
        Some(g) if g >= range.end => range.end,
        _ => range.start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::Position;
    use crate::games::bashni::notation::START_FEN;
    use std::io::Cursor;

    fn scan_text(text: &str) -> Scan {
        scan::<Position>(&mut Cursor::new(text.as_bytes().to_vec()), "f").unwrap()
    }

    #[test]
    fn a_cut_game_is_datagen_data() {
        let sample = format!("{START_FEN} | 12 | 1-0\n");
        let whole = format!("{sample}# game 0 1-0 30\n{sample}{sample}");
        for cut in 0..sample.len() {
            let text = format!("{whole}{}", &sample[..cut]);
            let s = scan_text(&text);
            assert_eq!(s.bad_tail, None, "{text:?}");
            assert_eq!(s.last_game, Some(0));
            assert_eq!(s.end_of_last_game as usize, whole.len() - 2 * sample.len());
        }
        let marker = "# game 1 1/2 44";
        for cut in 1..marker.len() {
            let s = scan_text(&format!("{whole}{}", &marker[..cut]));
            assert_eq!(s.bad_tail, None, "{}", &marker[..cut]);
        }
        let s = scan_text(&format!("{whole}{marker}\n"));
        assert_eq!(
            (s.last_game, s.end_of_last_game, s.bad_tail),
            (Some(1), s.len, None)
        );
    }

    #[test]
    fn other_text_is_not() {
        let sample = format!("{START_FEN} | 12 | 1-0\n");
        for (tail, line) in [
            ("# bashni\n\nBashni is a game.\n".to_string(), 1),
            (format!("{sample}hello"), 2),
            (format!("{sample}{START_FEN} | 1x"), 2),
            (format!("{sample}\n{sample}"), 2),
            (format!("{START_FEN} | 12 | 1-0 | 3\n"), 1),
            ("1b1b1b1b/b1b1b1b1/xyz".to_string(), 1),
        ] {
            let s = scan_text(&format!("{sample}# game 0 0-1 9\n{tail}"));
            assert_eq!(s.bad_tail.map(|(n, _)| n - 2), Some(line), "{tail:?}");
        }
        // No game at all: the whole file is the tail.
        assert!(scan_text("just some notes\n").bad_tail.is_some());
        assert_eq!(scan_text(""), Scan::default());
    }

    #[test]
    fn an_endless_line_is_refused() {
        let mut zeros = BufReader::new(io::repeat(0));
        let e = scan::<Position>(&mut zeros, "z").unwrap_err();
        assert!(matches!(e, ResumeError::LongLine(_, 1)), "{e}");
    }
}
