//! `bashni play --puzzles`: tactics puzzles in the terminal (docs/puzzles.md). The shipped
//! puzzles of the game (puzzles/<game>.csv, built into the binary) or a puzzle file's are set
//! one after another: the board from the solver's side after the opponent's last move; the
//! person types the solver's moves as in a game; a right move is answered with the
//! opponent's reply, a wrong one with the solution.

use super::Io;
use super::input::{self, Input};
use super::resolve::{Resolved, move_list, resolve};
use super::{PlayArgs, side_name};
use crate::display::{BoardStyle, board, tower_list};
use crate::games::Game;
use crate::record::puzzle::{Puzzle, parse_file, shipped};
use std::io::{BufRead, Read};

/// Most bytes of a puzzle file given with `--puzzle-file`.
const MAX_FILE: u64 = 16 << 20;

/// Most bytes of one typed line.
const MAX_LINE: usize = 4096;

/// How a puzzle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Solved,
    Failed,
    Skipped,
    /// The person left (`quit`, or the end of the input).
    Left,
}

/// The person's results so far.
#[derive(Default)]
struct Tally {
    solved: u32,
    failed: u32,
    skipped: u32,
}

/// The puzzles `args` ask for: the file's or the shipped ones, of `--theme` only.
fn load<G: Game>(args: &PlayArgs) -> Result<Vec<Puzzle>, String> {
    let (name, text) = match &args.puzzle_file {
        Some(path) => (
            path.display().to_string(),
            crate::files::read_regular_text(path, MAX_FILE)
                .map_err(|e| format!("{}: {e}", path.display()))?,
        ),
        None => (
            format!("puzzles/{}.csv", G::VARIANT),
            shipped(G::VARIANT).to_string(),
        ),
    };
    let all = parse_file(&text).map_err(|(line, e)| format!("{name}: line {line}: {e}"))?;
    let chosen: Vec<Puzzle> = match &args.theme {
        Some(t) => all.into_iter().filter(|p| p.themes.contains(t)).collect(),
        None => all,
    };
    if chosen.is_empty() {
        let what = args
            .theme
            .as_ref()
            .map_or(String::new(), |t| format!(" of theme {t}"));
        return Err(format!("{name}: no puzzle{what}"));
    }
    Ok(chosen)
}

/// Runs the puzzles of `args` in game `G`; the exit code (2 when there are none to set).
pub fn run<G: Game>(args: &PlayArgs) -> i32 {
    let puzzles = match load::<G>(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let io = Io::detect();
    let mut input = std::io::stdin().lock();
    let mut tally = Tally::default();
    println!(
        "bashni play --puzzles: {} puzzles. Type the solver's moves; next skips, board \
         shows the board again, quit leaves.",
        puzzles.len()
    );
    for (n, p) in puzzles.iter().enumerate() {
        let outcome = match p.replay::<G>() {
            Ok(_) => set::<G>(p, n + 1, puzzles.len(), &io, &mut input),
            Err(e) => {
                println!("Puzzle {}: {e}; skipped.", p.id);
                Outcome::Skipped
            }
        };
        match outcome {
            Outcome::Solved => tally.solved += 1,
            Outcome::Failed => tally.failed += 1,
            Outcome::Skipped => tally.skipped += 1,
            Outcome::Left => break,
        }
    }
    println!(
        "Puzzles: {} solved, {} failed, {} skipped.",
        tally.solved, tally.failed, tally.skipped
    );
    0
}

/// Draws `pos` from the solver's side, `last` marked.
fn show<G: Game>(pos: &G, solver_black: bool, last: &G::Move, io: &Io) {
    let style = BoardStyle {
        flipped: solver_black,
        color: io.color,
        marked: G::move_squares(last),
    };
    println!();
    for line in board(pos, &style) {
        println!("{line}");
    }
    if let Some(list) = tower_list(pos) {
        println!("{list}");
    }
}

/// One line of input, at most [`MAX_LINE`] bytes kept; `None` at the end of the input.
fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let mut limited = Read::take(&mut *input, MAX_LINE as u64 + 1);
    match limited.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&buf).trim().to_string()),
    }
}

/// Sets puzzle `p` (number `n` of `total`), whose line replays.
fn set<G: Game>(p: &Puzzle, n: usize, total: usize, io: &Io, input: &mut impl BufRead) -> Outcome {
    let Ok(mut pos) = G::from_fen(&p.fen) else {
        return Outcome::Skipped;
    };
    let Ok(mut last) = pos.parse_move(&p.moves[0]) else {
        return Outcome::Skipped;
    };
    pos.play(&last);
    let solver = pos.side_to_move();
    let black = solver == crate::games::kit::Color::Black;
    println!();
    println!(
        "Puzzle {n}/{total} ({}, rating {}): {} played {}. {} to move and win.",
        p.id,
        p.rating,
        side_name(solver.opponent()),
        p.moves[0],
        side_name(solver)
    );
    show(&pos, black, &last, io);
    let mut next = 1;
    loop {
        if io.interactive {
            print!("your move> ");
            let _ = std::io::Write::flush(&mut std::io::stdout());
        }
        let Some(line) = read_line(input) else {
            return Outcome::Left;
        };
        match line.as_str() {
            "" => continue,
            "quit" | "q" | "exit" => return Outcome::Left,
            "next" | "skip" => {
                println!("The solution: {}.", p.moves[next..].join(" "));
                return Outcome::Skipped;
            }
            "board" => {
                show(&pos, black, &last, io);
                continue;
            }
            "help" => {
                println!("Type your move (c3 d4, c3:e5:g7), or next, board, quit.");
                continue;
            }
            _ => {}
        }
        let typed = match input::parse::<G>(&line) {
            Ok(Input::Path(squares)) => squares,
            Ok(_) => {
                println!("Type a move, or next, board, help, quit.");
                continue;
            }
            Err(e) => {
                println!("{e}");
                continue;
            }
        };
        let mv = match resolve(&pos, &typed) {
            Resolved::Move(m) => m,
            Resolved::Ambiguous(moves) => {
                println!("Which one? {}; type the whole path.", move_list(&moves));
                continue;
            }
            Resolved::Illegal { reason, options } => {
                println!("Illegal: {reason}. Legal: {}.", move_list(&options));
                continue;
            }
        };
        if pos.parse_move(&p.moves[next]).ok() != Some(mv) {
            println!(
                "Wrong: {mv} is not it. The solution: {}.",
                p.moves[next..].join(" ")
            );
            return Outcome::Failed;
        }
        pos.play(&mv);
        if next + 1 == p.moves.len() {
            println!("Right: {mv}. Solved!");
            return Outcome::Solved;
        }
        let Ok(reply) = pos.parse_move(&p.moves[next + 1]) else {
            return Outcome::Skipped;
        };
        pos.play(&reply);
        last = reply;
        println!(
            "Right: {mv}. {} answers {reply}.",
            side_name(solver.opponent())
        );
        show(&pos, black, &last, io);
        next += 2;
    }
}
