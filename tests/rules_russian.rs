//! One small position per rule of docs/rules-russian.md, perft from the start, counts taken by
//! hand from py-draughts, and the engine's perft table in the doc checked against the engine.

use bashni::games::Rules;
use bashni::games::kit::Color;
use bashni::games::russian::Position;

use crate::common::rules::sorted;

fn pos(fen: &str) -> Position {
    crate::common::rules::pos(fen)
}

fn moves_of(fen: &str) -> Vec<String> {
    crate::common::rules::moves_in::<Position>(fen)
}

fn after(fen: &str, mv: &str) -> String {
    crate::common::rules::after_in::<Position>(fen, mv)
}

#[test]
fn men_step_forward_and_capture_both_ways() {
    assert_eq!(moves_of("8/8/8/8/3w4/8/8/8 w"), sorted(&["d4-c5", "d4-e5"]));
    assert_eq!(moves_of("8/8/8/8/3w4/2b5/8/8 w"), sorted(&["d4:b2"]));
    assert_eq!(
        after("8/8/8/8/3w4/2b5/8/8 w", "d4:b2"),
        "8/8/8/8/8/8/1w6/8 b 0 1"
    );
}

#[test]
fn capturing_is_compulsory_but_any_sequence_may_be_chosen() {
    assert_eq!(moves_of("8/8/8/8/3b4/2w3w1/8/8 w"), sorted(&["c3:e5"]));
    // c3 may take one piece (b4) or two (d4, f6): both are legal.
    assert_eq!(
        moves_of("8/8/5b2/8/1b1b4/2w5/8/8 w"),
        sorted(&["c3:a5", "c3:e5:g7"])
    );
}

#[test]
fn jumped_pieces_block_and_are_never_jumped_twice() {
    // The king goes round d6, f6, f4, d4 once. Back on c5 its way to d6 is blocked by d6
    // itself, still on the board and already taken: the capture ends there (in Bashni it
    // would go round again).
    let fen = "8/8/3b1b2/8/1W1b1b2/8/8/8 w";
    assert_eq!(
        moves_of(fen),
        sorted(&["b4:e7:g5:e3:a7", "b4:e7:g5:e3:b6", "b4:e7:g5:e3:c5"])
    );
    assert_eq!(after(fen, "b4:e7:g5:e3:a7"), "8/W7/8/8/8/8/8/8 b 0 1");
}

#[test]
fn the_landing_rule() {
    // Behind c3 only e5 lets the king go on (over f4): it must land there.
    assert_eq!(
        moves_of("8/8/8/8/5b2/2b5/8/W7 w"),
        sorted(&["a1:e5:g3", "a1:e5:h2"])
    );
    // With nothing to take next, any square behind will do.
    assert_eq!(
        moves_of("8/8/8/8/8/2b5/8/W7 w"),
        sorted(&["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"])
    );
}

#[test]
fn a_man_crowned_mid_capture_goes_on_as_a_king() {
    // b6 takes c7, is crowned on d8 and flies on over f6 (landing on h4, the only square from
    // which it can go on: the landing rule) and over f2.
    let fen = "8/2b5/1w3b2/8/8/8/5B2/8 w";
    assert_eq!(moves_of(fen), sorted(&["b6:d8:h4:e1"]));
    assert_eq!(after(fen, "b6:d8:h4:e1"), "8/8/8/8/8/8/8/4W3 b 0 1");
}

#[test]
fn same_start_end_and_captured_set_is_one_move() {
    // The king can go round the four men either way; both ways that end on b4 are one move
    // (written the way it was found), and either path is read as that move.
    let fen = "8/8/8/2b1b3/1W6/2b1b3/8/8 w";
    let p = pos(fen);
    assert_eq!(
        moves_of(fen),
        sorted(&["b4:d2:f4:d6:a3", "b4:d6:f4:d2:a5", "b4:d6:f4:d2:b4"])
    );
    assert_eq!(p.perft(1), 3);
    let one = p.parse_move("b4:d6:f4:d2:b4").unwrap();
    assert_eq!(p.parse_move("b4:d2:f4:d6:b4"), Ok(one));
    assert_eq!(p.parse_move("b4xd2xf4xd6xb4"), Ok(one));
    assert_eq!(p.parse_move("b4:b4"), Ok(one));
    assert_eq!(after(fen, "b4:d2:f4:d6:b4"), "8/8/8/8/1W6/8/8/8 b 0 1");
}

#[test]
fn no_legal_move_loses_and_counts_zero() {
    let blocked = pos("8/8/8/8/8/2b5/1b6/w7 w");
    assert!(blocked.legal_moves().is_empty());
    assert_eq!(blocked.winner(), Some(Color::Black));
    assert_eq!(blocked.perft(2), 0);
    assert_eq!(pos("8/8/8/8/8/8/8/B7 w").winner(), Some(Color::Black));
}

#[test]
fn towers_are_refused() {
    let e = Position::from_fen("8/8/8/8/3(wb)4/8/8/8 w").unwrap_err();
    assert_eq!(
        e.to_string(),
        "a tower on d4: Russian draughts has one piece per square"
    );
}

#[test]
fn perft_from_the_start() {
    let p = Position::startpos();
    let expected = [1u64, 7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(p.perft(d as u32), n, "depth {d}");
    }
}

/// Counts taken by hand with py-draughts 1.10.1 (`pip install py-draughts`, its `RussianBoard`,
/// a plain recursive perft over `legal_moves`/`push`/`pop`), on positions with kings, long
/// captures and crowning during a capture.
#[test]
fn perft_agrees_with_py_draughts() {
    let cases: &[(&str, u32, u64)] = PY_DRAUGHTS;
    assert!(!cases.is_empty());
    for &(fen, depth, n) in cases {
        assert_eq!(pos(fen).perft(depth), n, "{fen} depth {depth}");
    }
}

/// (FEN, depth, py-draughts' count): positions from py-draughts' own random playouts
/// (seeded), and rule examples of this file.
const PY_DRAUGHTS: &[(&str, u32, u64)] = &[
    ("1b6/b7/3b4/2w5/5w2/8/5B2/8 b", 6, 1039),
    ("8/8/7w/8/1b6/8/3b3B/8 w", 6, 10855),
    ("1b3b2/b1b1b1b1/3b1b2/2w3b1/7w/4w1w1/3w1w1w/B7 b", 6, 989),
    ("1b3b1b/8/7b/b7/1w5W/2w5/1w3w1w/2w5 b", 6, 32196),
    ("1b6/8/8/4b3/8/2W3w1/5w2/w1B1w3 w", 6, 59925),
    ("8/w7/5b2/w3b1B1/8/8/8/8 b", 6, 15835),
    ("8/8/8/w7/8/w7/8/6B1 b", 6, 1546),
    ("1b6/b3b1b1/3b1b1b/8/7w/w5w1/1w3w1w/2B5 b", 6, 14258),
    ("1b3b1b/6b1/8/6w1/8/b3B3/7w/w7 w", 6, 4391),
    ("8/8/8/2B5/8/8/7W/8 b", 6, 232170),
    ("7b/2b1b3/3b4/8/1w6/8/5b2/6w1 w", 6, 618),
    ("7b/8/8/6b1/3b4/4b3/1w3b2/8 w", 6, 342),
    ("1b5b/b1b5/7b/4b3/8/8/8/w5w1 w", 6, 8208),
    ("7b/8/1b6/w7/1W1w4/8/5w2/w3w3 w", 6, 624),
    ("8/8/5b2/8/1b1b4/2w5/8/8 w", 4, 21),
];

/// The perft table of docs/rules-russian.md, read from the doc and checked against the engine.
#[test]
fn the_docs_perft_table_is_the_engines() {
    let rows = crate::common::docs::perft_table("docs/rules-russian.md");
    assert!(rows.len() >= 9, "{rows:?}");
    let p = Position::startpos();
    for &(d, n) in &rows {
        assert_eq!(p.perft(d), n, "depth {d}");
    }
}
