//! One position made for each theme, in the games it names.

use super::*;
use crate::games::kit::rules::Rules;
use crate::games::{bashni, lasca, russian, turkish};

/// The themes of `moves` played from `fen` in game `G` (each move checked legal).
fn of<G: Game>(fen: &str, moves: &[&str]) -> Vec<String> {
    let start = G::from_fen(fen).unwrap();
    let mut pos = start.clone();
    let mut line = Vec::new();
    for text in moves {
        let m = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{fen}: {text}: {e}"));
        pos.play(&m);
        line.push(m);
    }
    themes(&start, &line)
}

fn has(themes: &[String], name: &str) -> bool {
    themes.iter().any(|t| t == name)
}

#[test]
fn a_shot_gives_one_and_takes_more() {
    // White gives b4 (a5:c3 is forced) and takes two back with d2:b4:d6: Black has nothing left.
    let fen = "8/8/8/b1b5/8/w1w5/3w4/4w3 w";
    let t = of::<russian::Position>(fen, &["c3-b4", "a5:c3", "d2:b4:d6"]);
    assert_eq!(t, ["mate", "mateIn2", "shot", "short"]);
    // In Bashni the same shot frees the white man that a5:c3 took prisoner.
    let t = of::<bashni::Position>(fen, &["c3-b4", "a5:c3", "d2:b4:d6"]);
    assert_eq!(t, ["mate", "mateIn2", "shot", "freeingPrisoners", "short"]);
    // Giving one to take one back is no shot.
    let t = of::<russian::Position>("8/8/8/b7/8/w1w5/3w4/4w3 w", &["c3-b4", "a5:c3", "d2:b4"]);
    assert!(!has(&t, "shot"), "{t:?}");
}

#[test]
fn a_multi_capture_takes_three_or_more() {
    // Bashni's king takes four (and buries the black king on g5).
    let t = of::<bashni::Position>("8/8/8/6B1/1b1b4/6b1/8/W7 w", &["a1:f6:h4:e1:a5"]);
    assert!(has(&t, "multiCapture") && has(&t, "buryingKing"), "{t:?}");
    // A Turkish man takes three straight and sideways.
    let t = of::<turkish::Position>("8/4b3/3b4/8/3b4/3w4/8/8 w", &["d3:d5:d7:f7"]);
    assert_eq!(t, ["mate", "mateIn1", "multiCapture", "oneMove"]);
    // Two are not enough.
    let t = of::<russian::Position>("7b/8/8/4b3/8/2b5/1w6/8 w", &["b2:d4:f6"]);
    assert_eq!(t, ["oneMove"]);
}

#[test]
fn a_promotion_crowns_a_solver_man() {
    let t = of::<bashni::Position>("8/2w5/7b/8/8/8/8/8 w", &["c7-d8"]);
    assert_eq!(t, ["promotion", "oneMove"]);
    let t = of::<russian::Position>("8/2w5/7b/8/8/8/8/8 w", &["c7-b8"]);
    assert_eq!(t, ["promotion", "oneMove"]);
    // A king's move crowns nothing.
    let t = of::<russian::Position>("8/2W5/7b/8/8/8/8/8 w", &["c7-b8"]);
    assert_eq!(t, ["oneMove"]);
}

#[test]
fn mate_is_no_legal_move_and_names_its_length() {
    // The black man on d4 is taken: Black has no piece left.
    let t = of::<russian::Position>("8/8/8/8/3b4/2w5/8/8 w", &["c3:e5"]);
    assert_eq!(t, ["mate", "mateIn1", "oneMove"]);
    // With a black man left on h8 that can move, no mate.
    let t = of::<russian::Position>("7b/8/8/8/3b4/2w5/8/8 w", &["c3:e5"]);
    assert_eq!(t, ["oneMove"]);
}

#[test]
fn freeing_prisoners_turning_towers_and_burying_kings() {
    // c3:e5 takes Black's commander on d4: the white man under it is free.
    let t = of::<bashni::Position>("7b/8/8/8/3(bw)4/2w5/8/8 w", &["c3:e5"]);
    assert_eq!(t, ["freeingPrisoners", "oneMove"]);
    // Under it a white man and a black one: the tower turns white with a black prisoner.
    let t = of::<bashni::Position>("7b/8/8/8/3(bwb)4/2w5/8/8 w", &["c3:e5"]);
    assert_eq!(t, ["freeingPrisoners", "turningTower", "oneMove"]);
    // A black king taken prisoner is buried.
    let t = of::<bashni::Position>("7b/8/8/8/3B4/2w5/8/8 w", &["c3:e5"]);
    assert_eq!(t, ["buryingKing", "oneMove"]);
    // The same in Lasca: an officer buried, a white soldier freed.
    let t = of::<lasca::Position>("6b/7/7/3(Bw)3/2w4/7/7 w", &["c3:e5"]);
    assert_eq!(t, ["freeingPrisoners", "buryingKing", "oneMove"]);
    // Russian draughts has no columns: a king taken is just taken.
    let t = of::<russian::Position>("7b/8/8/8/3B4/2w5/8/8 w", &["c3:e5"]);
    assert_eq!(t, ["oneMove"]);
}

#[test]
fn a_column_jumped_twice_in_one_move_is_seen_as_the_first_jump_left_it() {
    // docs/rules.md: the king goes round four towers of two black men twice.
    let pos = bashni::Position::from_fen("8/8/3(bb)1(bb)2/8/1W1(bb)1(bb)2/8/8/8 w").unwrap();
    let m = pos.parse_move("b4:e7:g5:e3:c5:e7:g5:e3:a7").unwrap();
    let heights: Vec<usize> = jumps(&pos, &m).iter().map(|j| j.column.height()).collect();
    assert_eq!(heights, [2, 2, 2, 2, 1, 1, 1, 1]);
}

#[test]
fn a_man_crowned_in_the_middle_of_a_capture() {
    // docs/rules.md: b6 takes c7, is crowned on d8 and flies on over f6 (freeing the white
    // man under it) and f2 (a black king).
    let t = of::<bashni::Position>("8/2b5/1w3(bw)2/8/8/8/5B2/8 w", &["b6:d8:h4:e1"]);
    assert_eq!(
        t,
        [
            "mate",
            "mateIn1",
            "multiCapture",
            "promotion",
            "freeingPrisoners",
            "buryingKing",
            "oneMove"
        ]
    );
}

#[test]
fn lengths() {
    let t = of::<russian::Position>("8/8/8/8/3b4/8/8/w7 w", &["a1-b2", "d4-c3", "b2:d4"]);
    assert!(has(&t, "short"), "{t:?}");
    assert_eq!(ALL.len(), 11);
}
