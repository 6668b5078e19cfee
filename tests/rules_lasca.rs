//! One small position per rule of docs/rules-lasca.md (the rule numbers are
//! `RULES-lasca.md`'s), and the doc's perft table checked against the engine.

use crate::common::rules::sorted;
use bashni::games::kit::Color;
use bashni::games::lasca::Position;
use bashni::games::lasca::board::Square;
use bashni::games::{Game, Outcome, Record, Rules};

/// The FEN of columns on named squares (`("d4", "(Wb)")`), `side` to move.
fn fen(columns: &[(&str, &str)], side: &str) -> String {
    let mut grid = vec![vec![String::new(); 7]; 7];
    for (sq, col) in columns {
        let s = Square::parse(sq).unwrap_or_else(|| panic!("{sq} is not playable"));
        grid[s.rank() as usize][s.file() as usize] = col.to_string();
    }
    let ranks: Vec<String> = (0..7)
        .rev()
        .map(|r| {
            let mut out = String::new();
            let mut gap = 0;
            for c in &grid[r] {
                if c.is_empty() {
                    gap += 1;
                } else {
                    if gap > 0 {
                        out += &gap.to_string();
                    }
                    gap = 0;
                    out += c;
                }
            }
            if gap > 0 {
                out += &gap.to_string();
            }
            out
        })
        .collect();
    format!("{} {side}", ranks.join("/"))
}

fn pos(columns: &[(&str, &str)], side: &str) -> Position {
    crate::common::rules::pos(&fen(columns, side))
}

fn moves_of(p: &Position) -> Vec<String> {
    crate::common::rules::legal_texts(p)
}

/// The position after `mv`, as the columns on the given squares (`""` for empty).
fn after(p: &Position, mv: &str, look: &[&str]) -> Vec<String> {
    let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    let q = p.played(&m);
    look.iter()
        .map(|s| {
            let c = q.column(Square::parse(s).unwrap());
            if c.is_empty() {
                String::new()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[test]
fn rule_01_the_board_has_25_squares_corners_included() {
    assert_eq!(Square::all().count(), 25);
    for corner in ["a1", "g1", "a7", "g7"] {
        assert!(Square::parse(corner).is_some(), "{corner}");
    }
    assert!(Square::parse("b1").is_none() && Square::parse("h8").is_none());
    assert!(Position::from_fen("7/7/7/7/7/7/1w5 w").is_err());
}

#[test]
fn rule_02_eleven_soldiers_a_side_on_ranks_1_to_3_and_5_to_7() {
    let p = Position::startpos();
    assert_eq!(
        p.to_fen(),
        "b1b1b1b/1b1b1b1/b1b1b1b/7/w1w1w1w/1w1w1w1/w1w1w1w w 0 1"
    );
    assert_eq!(p.pieces(Color::White).count_ones(), 11);
    assert_eq!(p.pieces(Color::Black).count_ones(), 11);
    assert_eq!(p.officers(), 0);
}

#[test]
fn rule_03_white_begins_and_every_reply_is_forced() {
    let p = Position::startpos();
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(
        moves_of(&p),
        sorted(&["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4"])
    );
    // Each first move offers a column that Black must take: perft(2) = perft(1).
    for m in p.legal_moves().iter() {
        let q = p.played(m);
        assert_eq!(q.side_to_move(), Color::Black);
        assert!(q.legal_moves().iter().all(|r| r.is_capture()), "{m}");
        assert_eq!(q.legal_moves().len(), 1, "{m}");
    }
}

#[test]
fn rule_04_a_column_moves_whole_and_its_commander_owns_it() {
    let p = pos(&[("c3", "(wbb)"), ("e5", "(bw)")], "w");
    assert_eq!(moves_of(&p), sorted(&["c3-b4", "c3-d4"]));
    assert_eq!(after(&p, "c3-d4", &["c3", "d4"]), ["", "(wbb)"]);
    // The column on e5 is Black's though a white piece is in it: alone, White cannot move.
    let q = pos(&[("e5", "(bw)")], "w");
    assert_eq!(q.winner(), Some(Color::Black));
}

#[test]
fn rule_05_soldiers_step_one_square_diagonally_forward() {
    let w = pos(&[("d4", "w"), ("a3", "(wB)")], "w");
    assert_eq!(moves_of(&w), sorted(&["a3-b4", "d4-c5", "d4-e5"]));
    let b = pos(&[("d4", "b"), ("c3", "w"), ("b2", "w")], "b");
    assert_eq!(moves_of(&b), sorted(&["d4-e3"]));
}

#[test]
fn rule_06_officers_step_one_square_any_diagonal_and_do_not_fly() {
    let p = pos(&[("d4", "W")], "w");
    assert_eq!(moves_of(&p), sorted(&["d4-c3", "d4-c5", "d4-e3", "d4-e5"]));
    assert!(p.parse_move("d4-f6").is_err());
    // A column led by an officer moves as an officer, whatever lies below.
    let q = pos(&[("d4", "(Bww)")], "b");
    assert_eq!(moves_of(&q).len(), 4);
}

#[test]
fn rule_07_soldiers_jump_forward_only_officers_every_way() {
    // A black column behind a white soldier cannot be jumped by it.
    let p = pos(&[("d4", "w"), ("c3", "b")], "w");
    assert_eq!(moves_of(&p), sorted(&["d4-c5", "d4-e5"]));
    // An officer jumps backwards onto the empty square beyond.
    let q = pos(&[("d4", "W"), ("c3", "b")], "w");
    assert_eq!(moves_of(&q), sorted(&["d4:b2"]));
    // No jump without an empty square beyond.
    let r = pos(&[("d4", "W"), ("c3", "b"), ("b2", "w")], "w");
    assert!(moves_of(&r).iter().all(|m| !m.contains(':')));
}

#[test]
fn rule_08_only_the_commander_is_taken_and_goes_to_the_bottom() {
    let p = pos(&[("c3", "(wb)"), ("d4", "(bwB)")], "w");
    // d4's black soldier goes under c3's column; d4's white soldier is freed and commands.
    assert_eq!(moves_of(&p), ["c3:e5"]);
    assert_eq!(
        after(&p, "c3:e5", &["c3", "d4", "e5"]),
        ["", "(wB)", "(wbb)"]
    );
    // Nothing leaves the board.
    let q = p.played(&p.parse_move("c3:e5").unwrap());
    let pieces: usize = Square::all().map(|s| q.column(s).height()).sum();
    assert_eq!(pieces, 5);
}

#[test]
fn rule_09_capturing_is_compulsory() {
    let p = pos(&[("c3", "w"), ("d4", "b"), ("g3", "w")], "w");
    assert_eq!(moves_of(&p), ["c3:e5"]);
    assert!(p.parse_move("g3-f4").is_err());
}

#[test]
fn rule_10_any_capture_may_be_chosen_however_many_it_takes() {
    let p = pos(&[("c3", "w"), ("b4", "b"), ("d4", "b"), ("f6", "b")], "w");
    assert_eq!(moves_of(&p), sorted(&["c3:a5", "c3:e5:g7"]));
}

#[test]
fn rule_11_a_capture_goes_on_while_the_column_can_jump() {
    let p = pos(&[("c3", "w"), ("d4", "b"), ("f6", "b")], "w");
    assert_eq!(moves_of(&p), ["c3:e5:g7"]);
    assert!(p.parse_move("c3:e5").is_err());
    assert_eq!(after(&p, "c3:e5:g7", &["g7"]), ["(Wbb)"]);
}

#[test]
fn rule_12_no_column_is_jumped_twice_and_loops_may_end_at_the_start() {
    // The officer's column jumps d4, then may not jump it back though Black still
    // commands it.
    let p = pos(&[("c3", "W"), ("d4", "(bb)")], "w");
    assert_eq!(moves_of(&p), ["c3:e5"]);
    assert_eq!(after(&p, "c3:e5", &["d4", "e5"]), ["b", "(Wb)"]);
    // Round four columns and back to the start square, either way round: two moves.
    let ring = [
        ("c3", "W"),
        ("d4", "b"),
        ("d6", "b"),
        ("b6", "b"),
        ("b4", "b"),
    ];
    let q = pos(&ring, "w");
    assert_eq!(moves_of(&q), sorted(&["c3:a5:c7:e5:c3", "c3:e5:c7:a5:c3"]));
    let look = ["c3", "d4", "d6", "b6", "b4"];
    assert_eq!(
        after(&q, "c3:e5:c7:a5:c3", &look),
        ["(Wbbbb)", "", "", "", ""]
    );
}

#[test]
fn rule_13_only_the_commander_is_promoted_and_promotion_ends_the_move() {
    // A soldier-led column reaching rank 7 stops, though an officer could jump f6 next.
    let p = pos(&[("c5", "(wB)"), ("d6", "b"), ("f6", "b")], "w");
    assert_eq!(moves_of(&p), ["c5:e7"]);
    assert_eq!(after(&p, "c5:e7", &["e7"]), ["(WBb)"]);
    // An officer-led column passes through rank 7 and goes on.
    let q = pos(&[("c5", "W"), ("d6", "b"), ("f6", "b")], "w");
    assert_eq!(moves_of(&q), ["c5:e7:g5"]);
    // A step onto the far rank promotes too; Black's is rank 1.
    let r = pos(&[("b2", "(bw)")], "b");
    assert_eq!(after(&r, "b2-a1", &["a1"]), ["(Bw)"]);
}

#[test]
fn rule_14_officers_keep_their_rank_as_prisoners() {
    // Taking d4's black soldier frees the white officer below it.
    let p = pos(&[("c3", "w"), ("d4", "(bW)")], "w");
    assert_eq!(after(&p, "c3:e5", &["d4", "e5"]), ["W", "(wb)"]);
    // A captured officer stays an officer at the bottom of the column.
    let q = pos(&[("c3", "w"), ("d4", "B")], "w");
    assert_eq!(after(&q, "c3:e5", &["e5"]), ["(wB)"]);
}

#[test]
fn rule_15_a_side_with_no_legal_move_loses() {
    // Black's soldier on b2 is blocked by a1 and c1 (they stand on the edge, so cannot be
    // jumped).
    let p = pos(&[("a1", "w"), ("c1", "w"), ("b2", "b")], "b");
    assert!(!p.has_legal_move());
    assert_eq!(p.winner(), Some(Color::White));
    // Black commands no column: White has taken every black commander.
    let q = pos(&[("d4", "(wbbb)")], "b");
    assert_eq!(q.winner(), Some(Color::White));
    assert_eq!(Position::startpos().winner(), None);
}

#[test]
fn rule_16_no_draw_rule_but_the_engine_adjudicates_repetition_and_no_capture_runs() {
    // The rules never end this game; the engine's policy draws it at the third repetition.
    let start = fen(&[("a1", "W"), ("g7", "B")], "w");
    let mut g = Record::<Position>::from_fen_and_moves(&start, &[] as &[&str]).unwrap();
    for m in ["a1-b2", "g7-f6", "b2-a1", "f6-g7"].iter().cycle().take(8) {
        assert_eq!(g.outcome(), None);
        assert_eq!(g.position().winner(), None);
        g.play_text(m).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Repetition));
    // ... and after 100 plies without a capture.
    let late = format!("{} 99 60", fen(&[("a1", "W"), ("g7", "B")], "w"));
    let g = Record::<Position>::from_fen_and_moves(&late, &["a1-b2"]).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::ClockRule));
    assert_eq!(<Position as Game>::CLOCK_RULE, "100-ply-rule");
}

/// The perft table of docs/rules-lasca.md, read from the doc and checked against the engine
/// to depth 13 (the deeper rows are dated measurements).
#[test]
fn perft_table_of_the_doc() {
    let rows = crate::common::docs::perft_table("docs/rules-lasca.md");
    let p = Position::startpos();
    let checked: Vec<_> = rows.into_iter().filter(|r| r.0 <= 13).collect();
    assert_eq!(
        checked.len(),
        13,
        "the doc's table has depths 1-13 and more"
    );
    for (depth, nodes) in checked {
        assert_eq!(p.perft(depth), nodes, "depth {depth}");
    }
}
