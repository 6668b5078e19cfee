//! `bashni analyse --pdn`: the review of a game. A game played by `bashni match` is reviewed
//! and written back as PDN that bashni reads again, a score comment on every move; a move
//! that hangs two men is marked `??`, the engine's own move is not marked.

use bashni::games::{Rules, russian};
use bashni::record::pdn::parse_games;
use std::path::PathBuf;
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs bashni; (exit code, stdout, stderr).
fn bashni(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BASHNI).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_match_game_is_reviewed_and_written_back_with_a_score_on_every_move() {
    let pdn = temp("match.pdn");
    let out = temp("reviewed.pdn");
    let (code, stdout, stderr) = bashni(&[
        "match",
        "--engine",
        &format!("cmd={BASHNI}"),
        "--engine",
        &format!("cmd={BASHNI}"),
        "--depth",
        "1",
        "--games",
        "1",
        "--random-openings",
        "4",
        "--seed",
        "7",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let played = &parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap()[0];
    let (code, stdout, stderr) = bashni(&[
        "analyse",
        "--pdn",
        pdn.to_str().unwrap(),
        "--depth",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("White: "), "{stdout}");
    assert!(stdout.contains("Black: "), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let back = &parse_games(&text).unwrap()[0];
    assert_eq!(back.moves.len(), played.moves.len());
    for (a, b) in back.moves.iter().zip(&played.moves) {
        assert_eq!(a.text, b.text);
        let c = a
            .comment
            .as_deref()
            .unwrap_or_else(|| panic!("no comment: {text}"));
        assert!(c.starts_with(['+', '-']), "{c}");
    }
    // bashni reads its own annotated game again (marks and variations included).
    let (code, stdout, stderr) = bashni(&["analyse", out.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
}

/// Reviews the one-move Russian game `mv` from `fen`; the review's line for ply 1.
fn review_one(fen: &str, mv: &str) -> Vec<String> {
    let pdn = temp(&format!("one-{mv}.pdn"));
    let text = format!("[GameType \"25\"]\n[FEN \"{fen}\"]\n\n1. {mv} *\n");
    std::fs::write(&pdn, text).unwrap();
    let (code, stdout, stderr) =
        bashni(&["analyse", "--pdn", pdn.to_str().unwrap(), "--depth", "6"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap_or_else(|| panic!("{stdout}"));
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn a_move_that_hangs_two_men_is_a_blunder_and_the_best_move_is_not_marked() {
    // White: c3, g3, b2; Black: e5, a7, h8. c3-d4 lets e5xc3xa1 take two men and crown.
    let fen = "7b/b7/8/4b3/8/2w3w1/1w6/8 w 0 1";
    assert!(russian::Position::from_fen(fen).is_ok());
    let blunder = review_one(fen, "c3-d4");
    assert_eq!(
        blunder.last().map(String::as_str),
        Some("??"),
        "{blunder:?}"
    );
    // The engine's best move, played: no mark.
    let best = &blunder[4];
    let good = review_one(fen, best);
    assert!(!good.last().unwrap().contains('?'), "{good:?}");
}

/// Each position of a `--movetime` review gets its own think time (the search's clock used to
/// run from the start of the whole review, so every position after the first few was searched
/// for no time at all). Only a lower bound is checked: a busy machine makes it slower, not
/// faster, and a position with one legal move may end its search early.
#[test]
fn every_position_of_a_movetime_review_gets_its_time() {
    let pdn = temp("timed.pdn");
    let engine = format!("cmd={BASHNI}");
    let (code, stdout, stderr) = bashni(&[
        "match",
        "--engine",
        &engine,
        "--engine",
        &engine,
        "--depth",
        "1",
        "--games",
        "1",
        "--max-plies",
        "24",
        "--seed",
        "3",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let plies = parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap()[0]
        .moves
        .len() as u64;
    assert!(plies >= 16, "{plies} plies");
    let start = std::time::Instant::now();
    let (code, stdout, stderr) = bashni(&[
        "analyse",
        "--pdn",
        pdn.to_str().unwrap(),
        "--movetime",
        "60",
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let ms = start.elapsed().as_millis() as u64;
    assert!(
        ms >= plies * 60 / 4,
        "{plies} positions reviewed in {ms} ms at 60 ms each"
    );
}
