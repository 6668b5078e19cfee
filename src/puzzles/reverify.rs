//! `bashni puzzles --reverify FILE`: a puzzle file put through the miner's final check again
//! ([`super::check`]), for files mined before the check existed or with other settings. A
//! puzzle whose every solver move passes is kept whole; any other is dropped and named on
//! standard error (a line cut short would need the searches that rated it again: mine it
//! again instead).

use super::PuzzlesArgs;
use super::check::checked;
use crate::games::Game;
use crate::record::puzzle::{HEADER, Puzzle, parse_file};
use std::path::Path;
use std::time::Instant;

/// Most bytes of a puzzle file read.
const MAX_FILE: u64 = 64 << 20;

/// Why `p` fails the final check, if it does.
fn fails<G: Game>(
    engine: &mut crate::search::Engine,
    p: &Puzzle,
    args: &PuzzlesArgs,
) -> Option<String> {
    let record = match p.replay::<G>() {
        Ok(r) => r,
        Err(e) => return Some(e.to_string()),
    };
    let moves = record.moves();
    let start = record.start().played(&moves[0]);
    let solution = &moves[1..];
    let kept = checked(engine, &start, solution, args.check_nodes, args.gap);
    (kept.len() < solution.len())
        .then(|| format!("solver move {} fails the check", kept.len() / 2 + 1))
}

/// Re-verifies `file` into `args.out`.
pub fn run<G: Game>(args: &PuzzlesArgs, file: &Path) -> Result<(), String> {
    let start = Instant::now();
    super::check_out(&args.out)?;
    let name = file.display();
    let text =
        crate::files::read_regular_text(file, MAX_FILE).map_err(|e| format!("{name}: {e}"))?;
    let puzzles = parse_file(&text).map_err(|(line, e)| format!("{name}: line {line}: {e}"))?;
    let mut engine = crate::search::Engine::new();
    engine
        .set_hash_mb(args.hash as usize)
        .map_err(|err| format!("--hash {}: {err}", args.hash))?;
    let mut out = format!("{HEADER}\n");
    let mut kept = 0;
    for p in &puzzles {
        match fails::<G>(&mut engine, p, args) {
            None => {
                out.push_str(&p.to_line());
                out.push('\n');
                kept += 1;
            }
            Some(why) => eprintln!("{}: dropped: {why}", p.id),
        }
    }
    crate::files::replace(&args.out, out.as_bytes())
        .map_err(|e| format!("cannot write '{}': {e}", args.out.display()))?;
    eprintln!(
        "puzzles: kept {kept} of {} puzzles of {name} in {:.1} s -> {}",
        puzzles.len(),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}
