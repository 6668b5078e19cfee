//! `bashni analyse --pdn`: the review of a game. A game played by `bashni match` is reviewed
//! and written back as PDN that bashni reads again, a score comment on every move; a move
//! that hangs two men is marked `??`, the engine's own move is not marked, nor is a move
//! from the opening book; a finished game is worth its result; counts read in their number.

use crate::common::deadline::Bounded;
use bashni::games::{Rules, russian};
use bashni::record::pdn::parse_games;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs bashni; (exit code, stdout, stderr).
fn bashni(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BASHNI).args(args).output_bounded().unwrap();
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
        // A book move keeps the word: `{book +0.20}`; the last may be the result.
        let score = match b.comment.as_deref() {
            Some("book") => c.strip_prefix("book ").unwrap_or_else(|| panic!("{c}")),
            _ => c,
        };
        let result = ["1-0", "0-1", "1/2-1/2"].contains(&score);
        assert!(score.starts_with(['+', '-']) || result, "{c}");
    }
    // bashni reads its own annotated game again (marks and variations included).
    let (code, stdout, stderr) = bashni(&["analyse", out.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
}

/// Reviews the one-move Russian game `mv` from `fen` (`comment` after the move, if any);
/// the review's output.
fn review_one_with(fen: &str, mv: &str, comment: &str) -> String {
    // Tests run at once: each review its own file.
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let pdn = temp(&format!("one-{mv}-{n}.pdn"));
    let text = format!("[GameType \"25\"]\n[FEN \"{fen}\"]\n\n1. {mv} {comment} *\n");
    std::fs::write(&pdn, text).unwrap();
    let (code, stdout, stderr) =
        bashni(&["analyse", "--pdn", pdn.to_str().unwrap(), "--depth", "6"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    stdout
}

/// The words of the line of ply 1 in a review's output.
fn ply_one(stdout: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap_or_else(|| panic!("{stdout}"));
    line.split_whitespace().map(str::to_string).collect()
}

/// Reviews the one-move Russian game `mv` from `fen`; the review's line for ply 1.
fn review_one(fen: &str, mv: &str) -> Vec<String> {
    ply_one(&review_one_with(fen, mv, ""))
}

/// White: c3, g3, b2; Black: e5, a7, h8. c3-d4 lets e5xc3xa1 take two men and crown.
const HANGS_TWO: &str = "7b/b7/8/4b3/8/2w3w1/1w6/8 w 0 1";

#[test]
fn a_move_that_hangs_two_men_is_a_blunder_and_the_best_move_is_not_marked() {
    let fen = HANGS_TWO;
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

/// A Brazilian game (`GameType 26`) is reviewed as Brazilian draughts: the same blunder,
/// after which Black's e5 must take both men (the majority rule) and is crowned on a1.
#[test]
fn a_brazilian_game_is_reviewed_by_its_own_rules() {
    let pdn = temp("brazilian-one.pdn");
    let text = format!("[GameType \"26\"]\n[FEN \"{HANGS_TWO}\"]\n\n1. c3-d4 e5xc3xa1 *\n");
    std::fs::write(&pdn, text).unwrap();
    let (code, out, err) = bashni(&["analyse", "--pdn", pdn.to_str().unwrap(), "--depth", "6"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.starts_with("Reviewing 2 plies of brazilian; "), "{out}");
    let one = ply_one(&out);
    assert_eq!(one.last().map(String::as_str), Some("??"), "{one:?}");
}

#[test]
fn counts_are_written_in_their_number() {
    // One move, one blunder: singular; none of the rest: plural.
    let out = review_one_with(HANGS_TWO, "c3-d4", "");
    assert!(out.starts_with("Reviewing 1 ply of russian; "), "{out}");
    assert!(
        out.contains(
            "\nWhite: 1 move, 0 inaccuracies (?!), 0 mistakes (?), 1 blunder (??), average loss "
        ),
        "{out}"
    );
    assert!(
        out.contains("\nBlack: 0 moves, 0 inaccuracies (?!), 0 mistakes (?), 0 blunders (??), "),
        "{out}"
    );
}

#[test]
fn a_book_move_is_shown_as_book_and_never_marked_nor_counted() {
    // The blunder of the test above, played from the book: not the player's choice.
    let out = review_one_with(HANGS_TWO, "c3-d4", "{book}");
    let line = ply_one(&out);
    assert_eq!(line.last().map(String::as_str), Some("book"), "{out}");
    assert!(!out.contains("??\n"), "{out}");
    assert!(
        out.contains(
            "\nWhite: 0 moves (after 1 book move), 0 inaccuracies (?!), 0 mistakes (?), \
             0 blunders (??), average loss 0 centi-men\n"
        ),
        "{out}"
    );
    // A match game from the built-in book: each `{book}` move is shown as book, and each
    // side's summary counts only the moves after the book.
    let pdn = temp("book.pdn");
    let out = temp("book-reviewed.pdn");
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
        "16",
        "--seed",
        "5",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let played = &parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap()[0];
    let book = played
        .moves
        .iter()
        .take_while(|m| m.comment.as_deref() == Some("book"))
        .count();
    assert!(book >= 2 && book < played.moves.len(), "{book} book plies");
    let (code, review, stderr) = bashni(&[
        "analyse",
        "--pdn",
        pdn.to_str().unwrap(),
        "--depth",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{review}\n{stderr}");
    for (i, m) in played.moves.iter().enumerate() {
        let line = review
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&(i + 1).to_string()))
            .unwrap_or_else(|| panic!("no ply {}: {review}", i + 1));
        assert_eq!(line.ends_with("  book"), i < book, "{line}\n{review}");
        if i < book {
            assert!(!line.contains('?'), "{line}");
        }
        assert!(
            line.split_whitespace().nth(1) == Some(m.text.as_str()),
            "{line}"
        );
    }
    let judged = played.moves.len() - book;
    let (white, black) = (judged.div_ceil(2), judged / 2);
    let counted = |n: usize, noun: &str| format!("{n} {noun}{}", if n == 1 { "" } else { "s" });
    let side = |name: &str, n: usize| {
        let (moves, book) = (counted(n, "move"), counted(book / 2, "book move"));
        format!("\n{name}: {moves} (after {book}), ")
    };
    // The book has an even number of plies: White moves first after it.
    assert_eq!(book % 2, 0);
    assert!(review.contains(&side("White", white)), "{review}");
    assert!(review.contains(&side("Black", black)), "{review}");
    // Written back, the book moves keep the word, and a second review reads them as book.
    let text = std::fs::read_to_string(&out).unwrap();
    let back = &parse_games(&text).unwrap()[0];
    for m in &back.moves[..book] {
        assert!(m.comment.as_deref().unwrap().starts_with("book "), "{text}");
        assert!(m.mark.is_empty(), "{text}");
    }
    let (code, again, _) = bashni(&["analyse", "--pdn", out.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(code, 0);
    assert_eq!(
        again.lines().filter(|l| l.ends_with("  book")).count(),
        book,
        "{again}"
    );
}

#[test]
fn a_finished_game_is_worth_its_result_not_a_mate_in_zero() {
    // White's man takes Black's last piece: the game is over, White has won.
    let out = review_one_with("8/8/8/8/8/8/1b6/w7 w 0 1", "a1:c3", "");
    let line = ply_one(&out);
    assert_eq!(line[2], "1-0", "{out}");
    assert!(!out.contains("M0"), "{out}");
    // Black's man takes White's last piece, backwards.
    let out = review_one_with("8/8/8/8/8/2w5/1b6/8 b 0 1", "b2:d4", "");
    let line = ply_one(&out);
    assert_eq!(line[2], "0-1", "{out}");
    assert!(!out.contains("M0"), "{out}");
}

/// Two Russian games of different lengths in one file.
fn two_games() -> PathBuf {
    let pdn = temp("two.pdn");
    let text = "[GameType \"25\"]\n\n1. c3-d4 f6-e5 *\n\n\
                [GameType \"25\"]\n\n1. c3-b4 f6-g5 2. b4-a5 *\n";
    std::fs::write(&pdn, text).unwrap();
    pdn
}

#[test]
fn both_paths_read_the_first_game_of_a_file_or_game_n() {
    let pdn = two_games();
    let file = pdn.to_str().unwrap();
    let russian = ["--variant", "russian", "--depth", "1"];
    // The position at the end of a game: the first by default, the second with --game 2.
    let fen = |extra: &[&str]| {
        let args: Vec<&str> = ["analyse", file]
            .iter()
            .chain(&russian)
            .chain(extra)
            .copied()
            .collect();
        let (code, out, err) = bashni(&args);
        assert_eq!(code, 0, "{out}\n{err}");
        out.lines()
            .find(|l| l.starts_with("FEN: "))
            .unwrap()
            .to_string()
    };
    assert!(fen(&[]).ends_with(" w 0 2"), "{}", fen(&[]));
    assert!(fen(&["--game", "1"]).ends_with(" w 0 2"));
    assert!(
        fen(&["--game", "2"]).ends_with(" b 0 2"),
        "{}",
        fen(&["--game", "2"])
    );
    // The review reads the same game.
    let reviewed = |extra: &[&str]| {
        let args: Vec<&str> = ["analyse", "--pdn", file, "--depth", "1"]
            .iter()
            .chain(extra)
            .copied()
            .collect();
        let (code, out, err) = bashni(&args);
        assert_eq!(code, 0, "{out}\n{err}");
        out.lines().next().unwrap().to_string()
    };
    assert!(
        reviewed(&[]).starts_with("Reviewing 2 plies "),
        "{}",
        reviewed(&[])
    );
    assert!(reviewed(&["--game", "2"]).starts_with("Reviewing 3 plies "));
    // A game the file does not hold, and --game without a file.
    let (code, _, err) = bashni(&["analyse", file, "--variant", "russian", "--game", "3"]);
    assert_eq!(
        (code, err.trim_end()),
        (
            2,
            format!("error: {file} has no game 3: it holds 2 games").as_str()
        )
    );
    let (code, _, err) = bashni(&["analyse", "--pdn", file, "--game", "3"]);
    assert_eq!(
        (code, err.as_str()),
        (2, "error: --game 3: the file holds 2 games\n")
    );
    let (code, _, err) = bashni(&["analyse", "--game", "2"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: --game 2 picks a game of a PDN file"),
        "{err}"
    );
}
