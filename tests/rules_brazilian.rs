//! One small position per rule of docs/rules-brazilian.md (each beside what Russian draughts,
//! the same board under other laws, does there), the draw rule, and the engine's perft table
//! in the doc checked against the engine. The agreement with pydraughts is in
//! `hub_pydraughts.rs`, with the reference generator in `differential_draughts64.rs`.

use bashni::games::kit::Color;
use bashni::games::{Game, Rules, brazilian, russian};

use crate::common::rules::{moves_in, sorted};

fn pos(fen: &str) -> brazilian::Position {
    crate::common::rules::pos(fen)
}

fn moves_of(fen: &str) -> Vec<String> {
    moves_in::<brazilian::Position>(fen)
}

fn russian_moves_of(fen: &str) -> Vec<String> {
    moves_in::<russian::Position>(fen)
}

fn after(fen: &str, mv: &str) -> String {
    crate::common::rules::after_in::<brazilian::Position>(fen, mv)
}

#[test]
fn men_step_forward_and_capture_both_ways() {
    assert_eq!(moves_of("8/8/8/8/3w4/8/8/8 w"), sorted(&["d4-c5", "d4-e5"]));
    assert_eq!(moves_of("8/8/8/8/3w4/2b5/8/8 w"), sorted(&["d4:b2"]));
    assert_eq!(moves_of("8/8/8/8/3b4/2w3w1/8/8 w"), sorted(&["c3:e5"]));
}

#[test]
fn the_capture_that_takes_the_most_pieces_is_compulsory() {
    let fen = "8/8/5b2/8/1b1b4/2w5/8/8 w";
    assert_eq!(moves_of(fen), sorted(&["c3:e5:g7"]));
    assert_eq!(russian_moves_of(fen), sorted(&["c3:a5", "c3:e5:g7"]));
    // Over all the pieces of the side to move: e3's single capture gives way to c3's double.
    let fen = "8/8/5b2/8/3b4/2w1w3/8/8 w";
    assert_eq!(moves_of(fen), sorted(&["c3:e5:g7"]));
    assert_eq!(russian_moves_of(fen), sorted(&["c3:e5:g7", "e3:c5"]));
}

#[test]
fn a_king_counts_as_one_piece_like_a_man() {
    // Two men rather than one king.
    assert_eq!(moves_of("8/8/5b2/8/1B1b4/2w5/8/8 w"), sorted(&["c3:e5:g7"]));
    // One king or one man: either.
    assert_eq!(
        moves_of("8/8/8/8/1B1b4/2w5/8/8 w"),
        sorted(&["c3:a5", "c3:e5"])
    );
    // A king capturing counts the same: its one piece against a man's two.
    let fen = "8/8/5b2/8/3b4/2w5/8/6W1 w";
    assert_eq!(moves_of(fen), sorted(&["c3:e5:g7"]));
    assert_eq!(
        russian_moves_of(fen),
        sorted(&["c3:e5:g7", "g1:a7", "g1:b6", "g1:c5"])
    );
}

#[test]
fn a_man_passing_its_far_rank_goes_on_as_a_man() {
    let fen = "8/2b1b3/1w6/8/8/8/8/8 w";
    assert_eq!(moves_of(fen), sorted(&["b6:d8:f6"]));
    assert_eq!(after(fen, "b6:d8:f6"), "8/8/5w2/8/8/8/8/8 b 0 1");
    assert_eq!(
        russian_moves_of(fen),
        sorted(&["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"])
    );
}

#[test]
fn a_man_is_crowned_where_its_capture_ends() {
    let fen = "8/2b5/1w3b2/8/8/8/5B2/8 w";
    assert_eq!(moves_of(fen), sorted(&["b6:d8"]));
    assert_eq!(after(fen, "b6:d8"), "3W4/8/5b2/8/8/8/5B2/8 b 0 1");
    assert_eq!(russian_moves_of(fen), sorted(&["b6:d8:h4:e1"]));
}

#[test]
fn a_king_lands_where_the_capture_goes_on() {
    assert_eq!(
        moves_of("8/8/8/8/5b2/2b5/8/W7 w"),
        sorted(&["a1:e5:g3", "a1:e5:h2"])
    );
    assert_eq!(
        moves_of("8/8/8/8/8/2b5/8/W7 w"),
        sorted(&["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"])
    );
}

#[test]
fn jumped_pieces_block_and_are_never_jumped_twice() {
    let fen = "8/8/3b1b2/8/1W1b1b2/8/8/8 w";
    assert_eq!(
        moves_of(fen),
        sorted(&["b4:e7:g5:e3:a7", "b4:e7:g5:e3:b6", "b4:e7:g5:e3:c5"])
    );
    assert_eq!(after(fen, "b4:e7:g5:e3:a7"), "8/W7/8/8/8/8/8/8 b 0 1");
}

#[test]
fn same_start_end_and_captured_set_is_one_move() {
    let fen = "8/8/8/2b1b3/1W6/2b1b3/8/8 w";
    let p = pos(fen);
    assert_eq!(
        moves_of(fen),
        sorted(&["b4:d2:f4:d6:a3", "b4:d6:f4:d2:a5", "b4:d6:f4:d2:b4"])
    );
    let one = p.parse_move("b4:d6:f4:d2:b4").unwrap();
    assert_eq!(p.parse_move("b4:d2:f4:d6:b4"), Ok(one));
    assert_eq!(p.parse_move("b4xd2xf4xd6xb4"), Ok(one));
    assert_eq!(p.parse_move("b4:b4"), Ok(one));
    // A shorter capture is no move at all.
    assert!(
        pos("8/8/5b2/8/1b1b4/2w5/8/8 w")
            .parse_move("c3:a5")
            .is_err()
    );
}

#[test]
fn no_legal_move_loses() {
    let blocked = pos("8/8/8/8/8/2b5/1b6/w7 w");
    assert!(blocked.legal_moves().is_empty());
    assert_eq!(blocked.winner(), Some(Color::Black));
    assert_eq!(blocked.perft(2), 0);
}

#[test]
fn twenty_king_moves_of_each_side_draw() {
    assert_eq!(brazilian::CLOCK_LIMIT, 40);
    assert_eq!(
        <brazilian::Position as Game>::CLOCK_RULE,
        "20-move-king-rule"
    );
    let kings = "8/B7/8/8/8/8/8/W7 w 39 60";
    assert!(!pos(kings).clock_draw());
    let later = pos(kings).played(&pos(kings).parse_move("a1-b2").unwrap());
    assert_eq!(later.clock(), 40);
    assert!(later.clock_draw());
    // A man's move starts the count again.
    let man = "8/8/8/4B3/8/2w5/8/W7 w 39 60";
    let p = pos(man);
    assert_eq!(p.played(&p.parse_move("c3-d4").unwrap()).clock(), 0);
}

#[test]
fn towers_are_refused() {
    let e = brazilian::Position::from_fen("8/8/8/8/3(wb)4/8/8/8 w").unwrap_err();
    assert_eq!(
        e.to_string(),
        "a tower on d4: Brazilian draughts has one piece per square"
    );
}

/// The perft table of docs/rules-brazilian.md, read from the doc and checked against the
/// engine (to 4.4 million; the depth-10 row is a dated measurement).
#[test]
fn the_docs_perft_table_is_the_engines() {
    let rows = crate::common::docs::perft_table("docs/rules-brazilian.md");
    assert!(rows.len() >= 10, "{rows:?}");
    let p = brazilian::Position::startpos();
    for &(d, n) in rows.iter().filter(|r| r.1 <= 5_000_000) {
        assert_eq!(p.perft(d), n, "depth {d}");
    }
}

/// The table of positions built to trap a wrong implementation, read from the doc and checked
/// against the engine.
#[test]
fn the_docs_trap_positions_are_the_engines() {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/rules-brazilian.md"
    ))
    .unwrap();
    let start = doc
        .find("| position (standard FEN) |")
        .expect("the trap table");
    let rows: Vec<(String, Vec<u64>)> = doc[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let counts = cells[3]
                .split(", ")
                .map(|n| n.replace(',', "").parse().unwrap())
                .collect();
            (cells[1].trim_matches('`').to_string(), counts)
        })
        .collect();
    assert!(rows.len() >= 6, "{rows:?}");
    for (fen, counts) in rows {
        let p = pos(&fen);
        let engine: Vec<u64> = (1..=counts.len() as u32).map(|d| p.perft(d)).collect();
        assert_eq!(engine, counts, "{fen}");
    }
}
