//! `bashni play --puzzles` driven through standard input as a person types: the first shipped
//! puzzle solved move by move, the second failed with another legal move, then `quit`; and
//! `--theme` choosing puzzles, a bad theme or file a clear error. The shipped files are given
//! with `--puzzle-file` (what the binary builds in is the same text: [`shipped_are_built_in`]).

use crate::common::deadline::{type_input, wait_output};
use crate::puzzle_check::{Line, read_file};
use bashni::games::{Rules, bashni as game};
use std::process::{Command, Stdio};

/// Runs `bashni play --puzzles` with `args`, `input` typed; exit code and standard output
/// and error.
fn play(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(["play", "--puzzles"])
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start bashni");
    type_input(&mut child, input);
    let out = wait_output(child, format!("bashni play --puzzles {args:?}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The path of the shipped puzzles of `game`.
fn file(game: &str) -> String {
    format!("{}/puzzles/{game}.csv", env!("CARGO_MANIFEST_DIR"))
}

fn shipped(game: &str) -> Vec<Line> {
    read_file(&std::fs::read_to_string(file(game)).unwrap())
}

#[test]
fn solve_one_fail_one() {
    let shipped = shipped("bashni");
    let (first, second) = (&shipped[0], &shipped[1]);
    // The first puzzle's solver moves, each typed with dashes as spaces.
    let mut input: String = first
        .moves
        .iter()
        .skip(1)
        .step_by(2)
        .map(|m| format!("{}\n", m.replace('-', " ")))
        .collect();
    // A legal move of the second puzzle that is not its solution.
    let mut pos = game::Position::from_fen(&second.fen).unwrap();
    pos.play(&pos.parse_move(&second.moves[0]).unwrap());
    let wrong = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .find(|m| *m != second.moves[1])
        .expect("a puzzle's position has two moves or more");
    input.push_str(&format!("{wrong}\nquit\n"));
    let (code, out, err) = play(&["--puzzle-file", &file("bashni")], &input);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!("Puzzle 1/{} ({}", shipped.len(), first.id)),
        "{out}"
    );
    assert!(out.contains("Solved!"), "{out}");
    assert!(
        out.contains(&format!(
            "Wrong: {wrong} is not it. The solution: {}.",
            second.moves[1..].join(" ")
        )),
        "{out}"
    );
    assert!(
        out.contains("Puzzles: 1 solved, 1 failed, 0 skipped."),
        "{out}"
    );
    // The board is drawn from the solver's side: Black's puzzles with rank 1 at the top.
    let black = first.fen.split(' ').nth(1) == Some("w");
    let board_top = out
        .lines()
        .find(|l| l.trim_start().starts_with(['1', '8']))
        .unwrap();
    assert_eq!(board_top.trim_start().starts_with('1'), black, "{out}");
}

#[test]
fn an_illegal_move_is_explained_and_the_puzzle_goes_on() {
    let (code, out, _) = play(&["--puzzle-file", &file("bashni")], "a1 h8\nnext\nquit\n");
    assert_eq!(code, 0);
    assert!(out.contains("The solution: "), "{out}");
    assert!(
        out.contains("Puzzles: 0 solved, 0 failed, 1 skipped."),
        "{out}"
    );
}

#[test]
fn themes_choose_puzzles_and_bad_ones_are_refused() {
    let shipped = shipped("russian");
    let theme = shipped[0].themes[0].clone();
    let with = shipped.iter().filter(|p| p.themes.contains(&theme)).count();
    let russian = file("russian");
    let args = [
        "--variant",
        "russian",
        "--puzzle-file",
        &russian,
        "--theme",
        &theme,
    ];
    let (code, out, _) = play(&args, "quit\n");
    assert_eq!(code, 0);
    assert!(
        out.contains(&format!("bashni play --puzzles: {with} puzzles.")),
        "{out}"
    );
    let (code, _, err) = play(&["--theme", "noSuchTheme"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no puzzle of theme noSuchTheme"), "{err}");
    let (code, _, err) = play(&["--puzzle-file", "/nonexistent.csv"], "");
    assert_eq!(code, 2);
    assert!(err.starts_with("error: /nonexistent.csv: "), "{err}");
    // A file of no puzzle (the header alone): a clear refusal.
    let empty = std::env::temp_dir().join(format!("bashni-no-puzzle-{}.csv", std::process::id()));
    std::fs::write(&empty, "PuzzleId,FEN,Moves,Rating,Themes,Source\n").unwrap();
    let (code, _, err) = play(&["--puzzle-file", empty.to_str().unwrap()], "quit\n");
    let _ = std::fs::remove_file(&empty);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no puzzle"), "{err}");
}

#[test]
fn shipped_are_built_in() {
    for game in ["bashni", "turkish", "russian", "brazilian", "lasca"] {
        let n = shipped(game).len();
        let (code, out, err) = play(&["--variant", game], "quit\n");
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains(&format!("bashni play --puzzles: {n} puzzles.")),
            "{game}: {out}"
        );
    }
}
