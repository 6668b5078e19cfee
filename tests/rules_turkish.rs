//! One small position per rule of docs/rules-turkish.md, perft from the start, and the engine's
//! perft table in the doc checked against the engine.

use bashni::games::Rules;
use bashni::games::kit::Color;
use bashni::games::turkish::Position;

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
fn men_step_forward_or_sideways_never_back() {
    let w = "8/8/8/8/3w4/8/8/8 w";
    assert_eq!(moves_of(w), sorted(&["d4-c4", "d4-d5", "d4-e4"]));
    let b = "8/8/8/8/3b4/8/8/8 b";
    assert_eq!(moves_of(b), sorted(&["d4-c4", "d4-d3", "d4-e4"]));
    assert_eq!(moves_of("8/8/8/8/8/8/w7/8 w"), sorted(&["a2-a3", "a2-b2"]));
}

#[test]
fn a_man_reaching_the_last_rank_is_crowned() {
    let fen = "8/3w4/8/8/8/8/8/8 w";
    assert_eq!(moves_of(fen), sorted(&["d7-c7", "d7-d8", "d7-e7"]));
    assert_eq!(after(fen, "d7-d8"), "3W4/8/8/8/8/8/8/8 b 0 1");
}

#[test]
fn kings_fly_along_ranks_and_files() {
    let m = moves_of("8/8/8/8/3W4/8/8/8 w");
    assert_eq!(m.len(), 14);
    assert!(m.contains(&"d4-d8".to_string()) && m.contains(&"d4-a4".to_string()));
    // A king move is no progress: the clock counts it.
    assert_eq!(
        after("8/8/8/8/3W4/8/b7/8 w 4 7", "d4-h4"),
        "8/8/8/8/7W/8/b7/8 b 5 7"
    );
}

#[test]
fn men_capture_forward_and_sideways_never_back() {
    assert_eq!(moves_of("8/8/8/3b4/3w4/8/8/8 w"), sorted(&["d4:d6"]));
    assert_eq!(moves_of("8/8/8/8/2bw4/8/8/8 w"), sorted(&["d4:b4"]));
    // A black man behind the white man cannot be taken: only quiet moves.
    assert_eq!(
        moves_of("8/8/8/8/3w4/3b4/8/8 w"),
        sorted(&["d4-c4", "d4-d5", "d4-e4"])
    );
}

#[test]
fn a_king_captures_at_distance_and_lands_anywhere_beyond() {
    assert_eq!(
        moves_of("8/8/8/8/W2b4/8/8/8 w"),
        sorted(&["a4:e4", "a4:f4", "a4:g4", "a4:h4"])
    );
}

#[test]
fn capturing_is_compulsory() {
    // The king could slide anywhere, but the man on d4 can capture.
    assert_eq!(moves_of("8/8/8/3b4/3w4/8/8/W7 w"), sorted(&["d4:d6"]));
}

#[test]
fn the_longest_capture_is_compulsory() {
    // d2 could take d3 (one piece) or c2 then b3 (two): only the two-piece capture is legal.
    assert_eq!(moves_of("8/8/8/8/8/1b1b4/2bw4/8 w"), sorted(&["d2:b2:b4"]));
}

#[test]
fn captured_pieces_are_removed_at_once_and_never_block() {
    // The king takes d4 going north, then b6, a5, and crosses d4 again on rank 4 to take f4:
    // d4 is already off the board.
    let fen = "8/8/1b6/b7/3b1b2/8/3W4/8 w";
    assert_eq!(moves_of(fen), sorted(&["d2:d6:a6:a4:g4", "d2:d6:a6:a4:h4"]));
    assert_eq!(after(fen, "d2:d6:a6:a4:h4"), "8/8/8/8/7W/8/8/8 b 0 1");
}

#[test]
fn no_180_degree_turn_between_two_jumps() {
    // After taking d6 the king may not come straight back down to take d2 (or the other way
    // round), so each capture takes one piece.
    assert_eq!(
        moves_of("8/8/3b4/8/3W4/8/3b4/8 w"),
        sorted(&["d4:d1", "d4:d7", "d4:d8"])
    );
}

#[test]
fn a_man_crowned_mid_capture_goes_on_as_a_king() {
    // d6 takes d7 and lands on d8, is crowned there, and goes on as a flying king along rank 8
    // to take f8 at a distance (a man could not).
    let fen = "5b2/3b4/3w4/8/8/8/8/8 w";
    assert_eq!(moves_of(fen), sorted(&["d6:d8:g8", "d6:d8:h8"]));
    assert_eq!(after(fen, "d6:d8:g8"), "6W1/8/8/8/8/8/8/8 b 0 1");
}

#[test]
fn the_180_degree_ban_holds_right_after_crowning() {
    // Crowned on d8, the new king may not go straight back down the d-file to take d3.
    let fen = "8/3b4/3w4/8/8/3b4/8/8 w";
    assert_eq!(moves_of(fen), sorted(&["d6:d8"]));
    assert_eq!(after(fen, "d6:d8"), "3W4/8/8/8/8/3b4/8/8 b 0 1");
}

#[test]
fn distinct_landing_paths_are_distinct_moves() {
    // The same two pieces, taken in the same order, four ways: four moves (two end on h2).
    let fen = "8/8/8/8/8/8/W1b2b2/8 w";
    assert_eq!(
        moves_of(fen),
        sorted(&["a2:d2:g2", "a2:d2:h2", "a2:e2:g2", "a2:e2:h2"])
    );
    assert_eq!(pos(fen).perft(1), 4);
}

#[test]
fn no_legal_move_loses_and_counts_zero() {
    // The man on a4 is blocked: a5 and b4 cannot be jumped (a6 and c4 are taken).
    let blocked = pos("8/8/b7/b7/wbb5/8/8/8 w");
    assert!(blocked.legal_moves().is_empty());
    assert_eq!(blocked.winner(), Some(Color::Black));
    assert_eq!((blocked.perft(1), blocked.perft(3)), (0, 0));
    let no_pieces = pos("8/8/8/8/8/8/8/B7 w");
    assert_eq!(no_pieces.winner(), Some(Color::Black));
    assert_eq!(pos(bashni::games::turkish::START_FEN).winner(), None);
}

#[test]
fn perft_from_the_start() {
    let p = Position::startpos();
    let expected = [1u64, 8, 64, 708, 7538, 85090, 931312, 10782382];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(p.perft(d as u32), n, "depth {d}");
    }
}

#[test]
fn moves_are_read_in_every_accepted_form() {
    let fen = "8/8/1b6/b7/3b1b2/8/3W4/8 w";
    let p = pos(fen);
    let m = p.parse_move("d2:d6:a6:a4:g4").unwrap();
    assert_eq!(p.parse_move("d2xd6xa6xa4xg4"), Ok(m));
    assert_eq!(p.parse_move("d2:g4"), Ok(m));
    let e = p.parse_move("d2:d6").unwrap_err().to_string();
    assert!(
        e.starts_with("illegal move d2:d6: legal moves are d2:d6:a6:a4:g4"),
        "{e}"
    );
    let e = pos("8/8/8/8/8/8/W1b2b2/8 w")
        .parse_move("a2:h2")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "ambiguous move a2:h2: could be a2:d2:h2 a2:e2:h2"
    );
}

/// The perft table of docs/rules-turkish.md, read from the doc and checked against the engine
/// (depths up to 7 here; depth 8 is in the doc too, checked by hand).
#[test]
fn the_docs_perft_table_is_the_engines() {
    let rows = crate::common::docs::perft_table("docs/rules-turkish.md");
    assert!(rows.len() >= 8, "{rows:?}");
    let p = Position::startpos();
    for &(d, n) in rows.iter().filter(|r| r.0 <= 7) {
        assert_eq!(p.perft(d), n, "depth {d}");
    }
    assert_eq!(rows[7], (8, 123_290_300));
}
