//! `bashni datagen --resume`: where a stopped run starts again, and the partly written game
//! at the end of its file removed, but only when that end can be nothing else: datagen lines
//! of one game (one result), no more of them than one game of the run writes, after a
//! complete game. A file that is not datagen output, holds no complete game, is data of
//! another game or ends with more than one game's lines is refused whole, never cut. Without
//! `--resume`, [`check_appending`] refuses to append to data of another game.

use super::format::{GameResult, parse_game_end, parse_sample};
use crate::files::{LineRead, read_line_limited, size_text};
use crate::games::Rules;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom};
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
    /// No complete game: no `# game` line shows where a game ends (file, its length).
    NoGame(String, u64),
    /// After the last complete game, a position whose result differs from the ones before
    /// it: two games, not one unfinished one (file, line number).
    SeveralGames(String, u64),
    /// After the last complete game, more positions than one game writes (file, how many,
    /// the most one game writes).
    TooLong(String, u64, u64),
    /// The file changed while it was read (file).
    Changed(String),
    /// A `# game` line names another game than the run's (file, line number, whose data
    /// it is).
    OtherGame(String, u64, String),
    /// The end of a file to append to is data of another game (file, whose data it is).
    AppendToOtherGame(String, String),
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
            ResumeError::NoGame(name, bytes) => write!(
                f,
                "cannot resume '{name}': it holds no complete game (no '# game' line), so nothing shows that its {bytes} bytes are an unfinished game of this run; the file is left as it is (if a run stopped in its first game, remove the file and start again)"
            ),
            ResumeError::SeveralGames(name, n) => write!(
                f,
                "cannot resume '{name}': line {n} is a position of another game than the lines before it (another result), so the end of the file is not one unfinished game; the file is left as it is"
            ),
            ResumeError::TooLong(name, lines, max) => write!(
                f,
                "cannot resume '{name}': the {lines} positions after its last complete game are more than one game of this run writes (at most {max}, --max-plies minus --skip-plies), so they are not an unfinished game; the file is left as it is"
            ),
            ResumeError::Changed(name) => {
                write!(f, "cannot resume '{name}': it changed while it was read")
            }
            ResumeError::OtherGame(name, n, why) => write!(
                f,
                "cannot resume '{name}': line {n}: {why}; the file is left as it is"
            ),
            ResumeError::AppendToOtherGame(name, why) => write!(
                f,
                "cannot append to '{name}': {why}; write this game's data to another file"
            ),
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
    /// Complete position lines after the last complete game.
    tail_samples: u64,
    /// Their result (all of one game's positions have its result).
    tail_result: Option<GameResult>,
    /// The first of them whose result differs from the ones before it.
    mixed_tail: Option<u64>,
}

/// Reads a datagen file of game `G` to its end, line by line with bounded memory; a
/// `# game` line of another game stops it.
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
            g.check(G::VARIANT)
                .map_err(|why| ResumeError::OtherGame(name.into(), number, why))?;
            s.last_game = Some(g.index);
            s.end_of_last_game = s.len;
            s.bad_tail = None;
            s.tail_samples = 0;
            s.tail_result = None;
            s.mixed_tail = None;
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
                Ok(Some(sample)) => {
                    s.tail_samples += 1;
                    if s.tail_result.is_some_and(|r| r != sample.result) {
                        s.mixed_tail.get_or_insert(number);
                    }
                    s.tail_result = Some(sample.result);
                    None
                }
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
            .all(|c| c.is_ascii_alphanumeric() || " -/".contains(c));
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
/// part to remove checked to be one game's datagen data: after a complete game, of one
/// result, at most `longest_game` positions (the most one game of the run writes,
/// [`super::game::GameSettings::max_samples`]). Anything else stops the run with the file
/// untouched. A missing or empty file starts the run from its beginning.
pub fn resume_point<G: Rules>(
    path: &Path,
    range: &Range<u64>,
    longest_game: u64,
) -> Result<u64, ResumeError> {
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
    check_tail(&found, &name, longest_game)?;
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

/// Whether the end of a scanned file after its last complete game can be only the cut end
/// of one game of at most `longest_game` positions, so that removing it loses nothing.
fn check_tail(found: &Scan, name: &str, longest_game: u64) -> Result<(), ResumeError> {
    if let Some((line, why)) = &found.bad_tail {
        let bytes = found.len - found.end_of_last_game;
        return Err(ResumeError::NotData(name.into(), *line, why.clone(), bytes));
    }
    if found.last_game.is_none() && found.len > 0 {
        return Err(ResumeError::NoGame(name.into(), found.len));
    }
    if let Some(line) = found.mixed_tail {
        return Err(ResumeError::SeveralGames(name.into(), line));
    }
    if found.tail_samples > longest_game {
        return Err(ResumeError::TooLong(
            name.into(),
            found.tail_samples,
            longest_game,
        ));
    }
    Ok(())
}

/// Bytes at the end of a file that [`check_appending`] reads: many games' worth.
const TAIL: u64 = 64 << 10;

/// Checks that appending game `G`'s data to `path` (without `--resume`) does not mix two
/// games: the last `# game` line in its last [`TAIL`] bytes must name `G`. A file that does
/// not exist, is not a regular file or has no such line there passes.
pub fn check_appending<G: Rules>(path: &Path) -> Result<(), ResumeError> {
    let name = path.display().to_string();
    let io = |e| ResumeError::Io(name.clone(), e);
    match fs::metadata(path) {
        Ok(m) if m.is_file() => {}
        _ => return Ok(()),
    }
    let mut file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(TAIL)))
        .map_err(io)?;
    let mut tail = Vec::new();
    file.take(TAIL).read_to_end(&mut tail).map_err(io)?;
    // Whole lines only: the last one may be cut, the first one is cut or whole.
    let mut lines: Vec<&[u8]> = tail.split(|&b| b == b'\n').collect();
    lines.pop();
    let last = lines
        .iter()
        .rev()
        .filter_map(|l| std::str::from_utf8(l).ok())
        .find_map(|l| parse_game_end(l.trim_end_matches('\r')));
    match last {
        Some(end) => end
            .check(G::VARIANT)
            .map_err(|why| ResumeError::AppendToOtherGame(name, why)),
        None => Ok(()),
    }
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
        let marker = "# game 1 1/2 44 bashni";
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
    fn only_one_short_game_after_a_complete_one_may_be_removed() {
        let win = format!("{START_FEN} | 12 | 1-0\n");
        let loss = format!("{START_FEN} | -3 | 0-1\n");
        let check = |text: &str, longest: u64| check_tail(&scan_text(text), "f", longest);
        let game = format!("{win}# game 0 1-0 30\n");
        // One game's three positions and a cut one: at most three may go.
        let tail = format!("{win}{win}{win}{}", &win[..9]);
        assert!(check(&format!("{game}{tail}"), 3).is_ok());
        let e = check(&format!("{game}{tail}"), 2).unwrap_err();
        assert!(matches!(e, ResumeError::TooLong(_, 3, 2)), "{e}");
        // Two results: two games.
        let e = check(&format!("{game}{win}{loss}{win}"), 100).unwrap_err();
        assert!(matches!(e, ResumeError::SeveralGames(_, 4)), "{e}");
        // No complete game at all, however short and well-formed.
        let e = check(&win, 100).unwrap_err();
        assert!(
            matches!(e, ResumeError::NoGame(_, n) if n == win.len() as u64),
            "{e}"
        );
        assert!(check("", 100).is_ok());
        // A complete game resets the count and the result.
        assert!(check(&format!("{win}{win}# game 0 1-0 9\n{loss}"), 1).is_ok());
    }

    #[test]
    fn data_of_another_game_is_refused() {
        let sample = format!("{START_FEN} | 12 | 1-0\n");
        let text = format!("{sample}# game 0 1-0 30 bashni\n{sample}# game 1 0-1 9 russian\n");
        let e = scan::<Position>(&mut Cursor::new(text.into_bytes()), "f").unwrap_err();
        assert!(matches!(e, ResumeError::OtherGame(_, 4, _)), "{e}");
        assert_eq!(
            e.to_string(),
            "cannot resume 'f': line 4: data of Russian draughts (its '# game' lines end with \
             'russian'), not of Bashni; the file is left as it is"
        );
    }

    #[test]
    fn appending_looks_at_the_last_game_line() {
        let dir = std::env::temp_dir().join(format!("bashni-append-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let p = dir.join("data.txt");
        let sample = format!("{START_FEN} | 12 | 1-0\n");
        // Many games, so that the first lines are outside the tail read.
        let mut text = String::new();
        for g in 0..2000 {
            text += &format!("{sample}# game {g} 1-0 30 russian\n");
        }
        text += &sample[..20];
        fs::write(&p, &text).unwrap();
        assert!(check_appending::<crate::games::russian::Position>(&p).is_ok());
        let e = check_appending::<Position>(&p).unwrap_err();
        assert!(
            e.to_string().starts_with(&format!(
                "cannot append to '{}': data of Russian",
                p.display()
            )),
            "{e}"
        );
        // A cut last line, no game line in the tail, no file, a device: nothing to check.
        fs::write(&p, format!("{sample}# game 0 1-0 30 rus")).unwrap();
        assert!(check_appending::<Position>(&p).is_ok());
        assert!(check_appending::<Position>(&dir.join("missing.txt")).is_ok());
        assert!(check_appending::<Position>(Path::new("/dev/null")).is_ok());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_endless_line_is_refused() {
        let mut zeros = BufReader::new(io::repeat(0));
        let e = scan::<Position>(&mut zeros, "z").unwrap_err();
        assert!(matches!(e, ResumeError::LongLine(_, 1)), "{e}");
    }
}
