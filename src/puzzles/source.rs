//! The games puzzles are mined from: `bashni datagen` files (the positions of each game, in
//! order) and PDN files (a start and its moves), read as text and checked against the game
//! being mined (`--variant`). A file is told by its first meaningful line: a datagen line is
//! `<FEN> | <score> | <result>`; anything else is read as PDN.

use crate::datagen::format::parse_game_end;
use crate::files::{LineRead, read_line_limited, read_regular_text};
use crate::games::Variant;
use crate::record::pdn::parse_games;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

/// Most bytes of a PDN file read (a datagen file is read a line at a time, without a limit).
pub const MAX_PDN_FILE: u64 = 256 << 20;

/// Longest datagen line read (a Bashni FEN with every tower tall is under 300 bytes).
const MAX_DATA_LINE: usize = 1024;

/// One game of an input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceGame {
    /// The file's name without its folders.
    pub file: String,
    /// The game's number: datagen's own index (its `# game` line), a PDN game's place in its
    /// file (from 1).
    pub number: u64,
    /// What the game holds.
    pub body: Body,
}

/// What one game holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// A datagen game: the FENs of its written positions in order (only quiet positions are
    /// written, so two in a row are not always one ply apart).
    Positions(Vec<String>),
    /// A PDN game: its start (the `FEN` tag, if any) and its main line's moves.
    Moves {
        /// The `FEN` tag.
        start: Option<String>,
        /// The moves, as the PDN writes them.
        moves: Vec<String>,
    },
}

/// The file name of `path` for `Source` fields: its last part, with any comma made `_` (the
/// CSV field stays plain).
fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        )
        .replace(',', "_")
}

/// Whether `line` is a datagen position line.
fn is_data_line(line: &str) -> bool {
    line.split('|').count() == 3
}

/// Reads every game of `paths`, in order, each checked to be of game `variant`.
pub fn read_games(paths: &[impl AsRef<Path>], variant: Variant) -> Result<Vec<SourceGame>, String> {
    let mut games = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let name = path.display();
        let text_start = first_line(path).map_err(|e| format!("{name}: {e}"))?;
        if text_start.as_deref().is_some_and(is_data_line) {
            read_datagen(path, variant, &mut games).map_err(|e| format!("{name}: {e}"))?;
        } else {
            read_pdn(path, variant, &mut games).map_err(|e| format!("{name}: {e}"))?;
        }
    }
    Ok(games)
}

/// The file's first line that is neither blank nor a `#` comment, if any.
fn first_line(path: &Path) -> Result<Option<String>, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    let mut input = BufReader::new(File::open(path).map_err(|e| e.to_string())?);
    let mut buf = Vec::new();
    for _ in 0..1000 {
        match read_line_limited(&mut input, &mut buf, MAX_DATA_LINE, 1 << 20)
            .map_err(|e| e.to_string())?
        {
            LineRead::Eof => return Ok(None),
            LineRead::Endless(_) => return Ok(Some(String::new())),
            LineRead::Line(_) => {
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim();
                if !line.is_empty() && !line.starts_with('#') {
                    return Ok(Some(line.to_string()));
                }
            }
        }
    }
    Ok(Some(String::new()))
}

/// Appends the games of a datagen file: each game's position lines up to its `# game` line,
/// which must name `variant`. Positions after the last `# game` line (a run cut short) are
/// left out.
fn read_datagen(path: &Path, variant: Variant, out: &mut Vec<SourceGame>) -> Result<(), String> {
    let file = file_name(path);
    let mut input = BufReader::new(File::open(path).map_err(|e| e.to_string())?);
    let mut buf = Vec::new();
    let mut fens = Vec::new();
    let mut line_no = 0u64;
    loop {
        line_no += 1;
        let read = read_line_limited(&mut input, &mut buf, MAX_DATA_LINE, 1 << 20)
            .map_err(|e| e.to_string())?;
        let line = match read {
            LineRead::Eof => return Ok(()),
            LineRead::Endless(_) => return Err(format!("line {line_no}: no line end")),
            LineRead::Line(n) if n as usize > MAX_DATA_LINE => {
                return Err(format!("line {line_no}: over {MAX_DATA_LINE} bytes"));
            }
            LineRead::Line(_) => String::from_utf8_lossy(&buf).into_owned(),
        };
        let line = line.trim();
        if let Some(end) = parse_game_end(line) {
            end.check(variant)
                .map_err(|e| format!("line {line_no}: {e}"))?;
            out.push(SourceGame {
                file: file.clone(),
                number: end.index,
                body: Body::Positions(std::mem::take(&mut fens)),
            });
        } else if is_data_line(line) {
            let fen = line.split('|').next().unwrap_or_default().trim();
            fens.push(fen.to_string());
        } else if !line.is_empty() && !line.starts_with('#') {
            return Err(format!("line {line_no}: not a datagen line"));
        }
    }
}

/// Appends the games of a PDN file; a `GameType` tag must name `variant`.
fn read_pdn(path: &Path, variant: Variant, out: &mut Vec<SourceGame>) -> Result<(), String> {
    let text = read_regular_text(path, MAX_PDN_FILE).map_err(|e| e.to_string())?;
    let games = parse_games(&text).map_err(|e| e.to_string())?;
    let file = file_name(path);
    for (i, g) in games.into_iter().enumerate() {
        if let Some(tag) = g.tag("GameType")
            && Variant::from_pdn_game_type(tag) != Some(variant)
        {
            return Err(format!(
                "game {}: GameType \"{tag}\" is not {variant} (mine it with --variant)",
                i + 1
            ));
        }
        out.push(SourceGame {
            file: file.clone(),
            number: i as u64 + 1,
            body: Body::Moves {
                start: g.tag("FEN").map(String::from),
                moves: g.moves.into_iter().map(|m| m.text).collect(),
            },
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("bashni-puzzle-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn datagen_and_pdn_files_are_told_apart() {
        let data = temp(
            "d.txt",
            "8/8/8/8/8/8/8/w7 w 0 7 | 1 | 1-0\n8/8/8/8/8/8/1w6/8 b 0 7 | 2 | 1-0\n\
             # game 4 1-0 30 bashni\nw7/8/8/8/8/8/8/8 w 0 9 | 0 | 1/2\n",
        );
        let pdn = temp(
            "g,1.pdn",
            "[GameType \"Bashni\"]\n\n1. c3-d4 f6-e5 *\n\n1. a3-b4 *\n",
        );
        let games = read_games(&[&data, &pdn], Variant::Bashni).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!((games[0].file.as_str(), games[0].number), ("d.txt", 4));
        assert_eq!(
            games[0].body,
            Body::Positions(vec![
                "8/8/8/8/8/8/8/w7 w 0 7".into(),
                "8/8/8/8/8/8/1w6/8 b 0 7".into()
            ])
        );
        assert_eq!((games[1].file.as_str(), games[1].number), ("g_1.pdn", 1));
        assert_eq!(
            games[2].body,
            Body::Moves {
                start: None,
                moves: vec!["a3-b4".into()]
            }
        );
    }

    #[test]
    fn another_games_files_are_refused() {
        let data = temp(
            "t.txt",
            "8/8/8/8/8/8/8/w7 w 0 7 | 1 | 1-0\n# game 0 1-0 3 turkish\n",
        );
        let e = read_games(&[&data], Variant::Bashni).unwrap_err();
        assert!(e.contains("line 2") && e.contains("turkish"), "{e}");
        let pdn = temp("t.pdn", "[GameType \"30,W,8,8,A0,0\"]\n\n1. d3-d4 *\n");
        let e = read_games(&[&pdn], Variant::Bashni).unwrap_err();
        assert!(e.contains("GameType"), "{e}");
        let e = read_games(&[Path::new("/nonexistent/x")], Variant::Bashni).unwrap_err();
        assert!(e.starts_with("/nonexistent/x: "), "{e}");
    }
}
