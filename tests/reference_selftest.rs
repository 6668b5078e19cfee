//! The reference generator checked on its own, with no library beside it: each game's rule
//! values against the worked examples of its rules page (docs/rules*.md), Bashni's against its
//! start perft counts, and Lasca's (which the library does not play yet) against the start
//! perft table and divide of RULES-lasca.md and a position for each of its capture rules.

use crate::reference;
use reference::games::{BASHNI, BRAZILIAN, LASCA, RUSSIAN, TURKISH};
use reference::{Rules, legal_moves, parse_fen, perft, to_fen};

/// The legal moves of `fen` in the game `rules`, sorted, each with the FEN after it.
fn moves(rules: &'static Rules, fen: &str) -> Vec<(String, String)> {
    let pos = parse_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut v: Vec<(String, String)> = legal_moves(&pos)
        .into_iter()
        .map(|m| (m.text(), to_fen(&m.after)))
        .collect();
    v.sort();
    v
}

/// The legal moves of `fen` in the game `rules`, sorted.
fn texts(rules: &'static Rules, fen: &str) -> Vec<String> {
    moves(rules, fen).into_iter().map(|m| m.0).collect()
}

/// The FEN after the move `text` of `fen`.
fn after(rules: &'static Rules, fen: &str, text: &str) -> String {
    let found = moves(rules, fen).into_iter().find(|m| m.0 == text);
    found.unwrap_or_else(|| panic!("{fen}: no {text}")).1
}

/// The perft counts of `fen` in the game `rules` at depths 1 to `depths`.
fn perfts(rules: &'static Rules, fen: &str, depths: usize) -> Vec<u64> {
    let start = parse_fen(rules, fen).unwrap();
    (1..=depths as u32).map(|d| perft(&start, d)).collect()
}

/// Each (FEN, its legal moves) of a game's worked examples.
fn check_examples(rules: &'static Rules, examples: &[(&str, &[&str])]) {
    for &(fen, expected) in examples {
        assert_eq!(texts(rules, fen), expected, "{fen}");
    }
}

#[test]
fn bashni_worked_examples() {
    let flying = "8/8/8/6B1/1b1b4/6b1/8/W7 w";
    assert_eq!(texts(&BASHNI, flying), ["a1:e5:h2", "a1:f6:h4:e1:a5"]);
    let tower = after(&BASHNI, flying, "a1:f6:h4:e1:a5");
    assert_eq!(tower, "8/8/8/(WbBbb)7/8/8/8/8 b 0 1");
    let loop_moves: Vec<String> = ["a7", "b6", "c5"]
        .iter()
        .map(|e| format!("b4:e7:g5:e3:c5:e7:g5:e3:{e}"))
        .collect();
    let twice_round = "8/8/3(bb)1(bb)2/8/1W1(bb)1(bb)2/8/8/8 w";
    assert_eq!(texts(&BASHNI, twice_round), loop_moves);
    let crowned = moves(&BASHNI, "8/2b5/1w3(bw)2/8/8/8/5B2/8 w");
    let expected = ("b6:d8:h4:e1", "8/8/5w2/8/8/8/8/4(WbbB)3 b 0 1");
    assert_eq!(crowned, [(expected.0.into(), expected.1.into())]);
}

#[test]
fn bashni_perft_from_the_start() {
    let start = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1";
    assert_eq!(perfts(&BASHNI, start, 5), [7, 49, 302, 1469, 7482]);
    assert_eq!(to_fen(&parse_fen(&BASHNI, start).unwrap()), start);
}

/// docs/rules-russian.md, section 5.
#[test]
fn russian_worked_examples() {
    let a1_behind: &[&str] = &["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"];
    check_examples(
        &RUSSIAN,
        &[
            ("8/8/8/8/3w4/2b5/8/8 w", &["d4:b2"]),
            ("8/8/8/8/3b4/2w3w1/8/8 w", &["c3:e5"]),
            ("8/8/5b2/8/1b1b4/2w5/8/8 w", &["c3:a5", "c3:e5:g7"]),
            ("8/8/8/8/5b2/2b5/8/W7 w", &["a1:e5:g3", "a1:e5:h2"]),
            ("8/8/8/8/8/2b5/8/W7 w", a1_behind),
            (
                "8/8/3b1b2/8/1W1b1b2/8/8/8 w",
                &["b4:e7:g5:e3:a7", "b4:e7:g5:e3:b6", "b4:e7:g5:e3:c5"],
            ),
            ("8/2b5/1w3b2/8/8/8/5B2/8 w", &["b6:d8:h4:e1"]),
        ],
    );
    let crowned = after(&RUSSIAN, "8/2b5/1w3b2/8/8/8/5B2/8 w", "b6:d8:h4:e1");
    assert_eq!(crowned, "8/8/8/8/8/8/8/4W3 b 0 1");
    // One move, two paths: the two ways round back to b4 are listed once, by either path.
    let round = texts(&RUSSIAN, "8/8/8/2b1b3/1W6/2b1b3/8/8 w");
    assert_eq!(round.len(), 3, "{round:?}");
    let has = |text: &str| round.iter().any(|t| t == text);
    assert!(has("b4:d2:f4:d6:a3") && has("b4:d6:f4:d2:a5"), "{round:?}");
    assert!(has("b4:d2:f4:d6:b4") || has("b4:d6:f4:d2:b4"), "{round:?}");
    // Not from the page: after c1:e3:g1 the taken f2 still stands between the king and d4, so
    // the capture ends (were f2 gone at once, the king would fly back over it to take d4).
    let blocked = "7b/4b1b1/5b2/8/1b1w1w2/6w1/3w1w1w/w1B1w3 b";
    let expected = ["a7", "b6", "c5", "g1", "g5", "h6"].map(|end| format!("c1:e3:{end}"));
    assert_eq!(texts(&RUSSIAN, blocked), expected);
}

/// docs/rules-brazilian.md, section 5.
#[test]
fn brazilian_worked_examples() {
    let a1_behind: &[&str] = &["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"];
    check_examples(
        &BRAZILIAN,
        &[
            ("8/8/5b2/8/1b1b4/2w5/8/8 w", &["c3:e5:g7"]),
            ("8/8/5b2/8/3b4/2w1w3/8/8 w", &["c3:e5:g7"]),
            ("8/8/5b2/8/1B1b4/2w5/8/8 w", &["c3:e5:g7"]),
            ("8/8/8/8/1B1b4/2w5/8/8 w", &["c3:a5", "c3:e5"]),
            ("8/8/5b2/8/3b4/2w5/8/6W1 w", &["c3:e5:g7"]),
            ("8/2b1b3/1w6/8/8/8/8/8 w", &["b6:d8:f6"]),
            ("8/2b5/1w3b2/8/8/8/5B2/8 w", &["b6:d8"]),
            ("8/8/8/8/5b2/2b5/8/W7 w", &["a1:e5:g3", "a1:e5:h2"]),
            ("8/8/8/8/8/2b5/8/W7 w", a1_behind),
            (
                "8/8/3b1b2/8/1W1b1b2/8/8/8 w",
                &["b4:e7:g5:e3:a7", "b4:e7:g5:e3:b6", "b4:e7:g5:e3:c5"],
            ),
        ],
    );
    let passing = after(&BRAZILIAN, "8/2b1b3/1w6/8/8/8/8/8 w", "b6:d8:f6");
    assert_eq!(passing, "8/8/5w2/8/8/8/8/8 b 0 1");
    let crowned = after(&BRAZILIAN, "8/2b5/1w3b2/8/8/8/5B2/8 w", "b6:d8");
    assert_eq!(crowned, "3W4/8/5b2/8/8/8/5B2/8 b 0 1");
    let round = texts(&BRAZILIAN, "8/8/8/2b1b3/1W6/2b1b3/8/8 w");
    assert_eq!(round.len(), 3, "{round:?}");
}

/// docs/rules-turkish.md, section 5.
#[test]
fn turkish_worked_examples() {
    let steps: &[&str] = &["d4-c4", "d4-d5", "d4-e4"];
    check_examples(
        &TURKISH,
        &[
            ("8/8/8/8/3w4/8/8/8 w", steps),
            ("8/8/8/8/3w4/3b4/8/8 w", steps),
            ("8/8/8/3b4/3w4/8/8/8 w", &["d4:d6"]),
            (
                "8/8/8/8/W2b4/8/8/8 w",
                &["a4:e4", "a4:f4", "a4:g4", "a4:h4"],
            ),
            ("8/8/8/8/8/1b1b4/2bw4/8 w", &["d2:b2:b4"]),
            (
                "8/8/1b6/b7/3b1b2/8/3W4/8 w",
                &["d2:d6:a6:a4:g4", "d2:d6:a6:a4:h4"],
            ),
            ("8/8/3b4/8/3W4/8/3b4/8 w", &["d4:d1", "d4:d7", "d4:d8"]),
            ("5b2/3b4/3w4/8/8/8/8/8 w", &["d6:d8:g8", "d6:d8:h8"]),
            ("8/3b4/3w4/8/8/3b4/8/8 w", &["d6:d8"]),
            (
                "8/8/8/8/8/8/W1b2b2/8 w",
                &["a2:d2:g2", "a2:d2:h2", "a2:e2:g2", "a2:e2:h2"],
            ),
            ("8/8/b7/b7/wbb5/8/8/8 w", &[]),
        ],
    );
    let gone = after(&TURKISH, "8/8/1b6/b7/3b1b2/8/3W4/8 w", "d2:d6:a6:a4:h4");
    assert_eq!(gone, "8/8/8/8/7W/8/8/8 b 0 1");
    let crowned = after(&TURKISH, "5b2/3b4/3w4/8/8/8/8/8 w", "d6:d8:g8");
    assert_eq!(crowned, "6W1/8/8/8/8/8/8/8 b 0 1");
    assert_eq!(perfts(&TURKISH, "8/8/b7/b7/wbb5/8/8/8 w", 2), [0, 0]);
}

const LASCA_START: &str = "b1b1b1b/1b1b1b1/b1b1b1b/7/w1w1w1w/1w1w1w1/w1w1w1w w";

/// RULES-lasca.md, section 6, depths 1 to 9.
#[test]
fn lasca_perft_from_the_start() {
    let expected = [6, 6, 18, 54, 116, 324, 846, 2148, 5692];
    assert_eq!(perfts(&LASCA, LASCA_START, 9), expected);
    let start = parse_fen(&LASCA, LASCA_START).unwrap();
    assert_eq!(to_fen(&start), format!("{LASCA_START} 0 1"));
}

/// RULES-lasca.md, section 6: the start's divide at depth 10, which adds up to perft 10.
#[test]
fn lasca_divide_at_depth_10() {
    let start = parse_fen(&LASCA, LASCA_START).unwrap();
    let mut divide: Vec<(String, u64)> = legal_moves(&start)
        .into_iter()
        .map(|m| (m.text(), perft(&m.after, 9)))
        .collect();
    divide.sort();
    let expected = [
        ("a3-b4", 3740),
        ("c3-b4", 1543),
        ("c3-d4", 1666),
        ("e3-d4", 1666),
        ("e3-f4", 1543),
        ("g3-f4", 3740),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|&(m, n)| (m.into(), n)).collect();
    assert_eq!(divide, expected);
    assert_eq!(divide.iter().map(|d| d.1).sum::<u64>(), 13_898);
}

/// RULES-lasca.md's rules 7, 8, 12 and 13, each on a position built for it.
#[test]
fn lasca_capture_rules() {
    // 7: a soldier does not jump backward (an officer does); it steps instead.
    assert_eq!(texts(&LASCA, "7/7/7/3w3/2b4/7/7 w"), ["d4-c5", "d4-e5"]);
    assert_eq!(texts(&LASCA, "7/7/7/3W3/2b4/7/7 w"), ["d4:b2"]);
    // 8: only the top piece is taken; the prisoner under it is freed.
    let freed = moves(&LASCA, "7/7/7/3(bw)3/2w4/7/7 w");
    let expected = ("c3:e5", "7/7/4(wb)2/3w3/7/7/7 b 0 1");
    assert_eq!(freed, [(expected.0.into(), expected.1.into())]);
    // 12: round four columns once, either way, and no column a second time: two moves.
    let loops = moves(&LASCA, "7/7/2(bb)1(bb)2/1W5/2(bb)1(bb)2/7/7 w");
    let round = |path: &str| (path.into(), "7/7/2b1b2/1(Wbbbb)5/2b1b2/7/7 b 0 1".into());
    assert_eq!(loops, [round("b4:d2:f4:d6:b4"), round("b4:d6:f4:d2:b4")]);
    // 13: a soldier crowned during a capture stops there; an officer goes on.
    let crowned = moves(&LASCA, "7/3b1b1/2w4/7/7/7/7 w");
    let expected = ("c5:e7", "4(Wb)2/5b1/7/7/7/7/7 b 0 1");
    assert_eq!(crowned, [(expected.0.into(), expected.1.into())]);
    assert_eq!(texts(&LASCA, "7/3b1b1/2W4/7/7/7/7 w"), ["c5:e7:g5"]);
}
