//! The reference generator checked on its own, with no library beside it: Bashni's rule values
//! against the worked examples and perft counts of docs/rules.md, and Lasca's (which the
//! library does not play yet) against the start perft table of RULES-lasca.md.

mod reference;
use reference::games::{BASHNI, LASCA};
use reference::{Move, Rules, legal_moves, perft, to_fen};

fn parse_fen(fen: &str) -> Result<reference::Position, String> {
    reference::parse_fen(&BASHNI, fen)
}

fn names(fen: &str) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(&parse_fen(fen).unwrap())
        .into_iter()
        .map(|m| m.text)
        .collect();
    v.sort();
    v
}

/// The perft counts of `fen` in the game `rules` at depths 1 to `expected.len()`.
fn perfts(rules: &'static Rules, fen: &str, depths: usize) -> Vec<u64> {
    let start = reference::parse_fen(rules, fen).unwrap();
    (1..=depths as u32).map(|d| perft(&start, d)).collect()
}

#[test]
fn worked_examples() {
    assert_eq!(
        names("8/8/8/6B1/1b1b4/6b1/8/W7 w"),
        ["a1:e5:h2", "a1:f6:h4:e1:a5"]
    );
    let after = legal_moves(&parse_fen("8/8/8/6B1/1b1b4/6b1/8/W7 w").unwrap());
    let m: &Move = after.iter().find(|m| m.text == "a1:f6:h4:e1:a5").unwrap();
    assert_eq!(to_fen(&m.after), "8/8/8/(WbBbb)7/8/8/8/8 b 0 1");
    let loop_moves: Vec<String> = ["a7", "b6", "c5"]
        .iter()
        .map(|e| format!("b4:e7:g5:e3:c5:e7:g5:e3:{e}"))
        .collect();
    assert_eq!(names("8/8/3(bb)1(bb)2/8/1W1(bb)1(bb)2/8/8/8 w"), loop_moves);
    let m = legal_moves(&parse_fen("8/2b5/1w3(bw)2/8/8/8/5B2/8 w").unwrap());
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].text, "b6:d8:h4:e1");
    assert_eq!(to_fen(&m[0].after), "8/8/5w2/8/8/8/8/4(WbbB)3 b 0 1");
}

#[test]
fn perft_from_the_start() {
    let start = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1";
    assert_eq!(perfts(&BASHNI, start, 5), [7, 49, 302, 1469, 7482]);
    assert_eq!(to_fen(&parse_fen(start).unwrap()), start);
}

const LASCA_START: &str = "b1b1b1b/1b1b1b1/b1b1b1b/7/w1w1w1w/1w1w1w1/w1w1w1w w";

/// Lasca's moves of `fen`, sorted, each with the FEN after it.
fn lasca_moves(fen: &str) -> Vec<(String, String)> {
    let pos = reference::parse_fen(&LASCA, fen).unwrap();
    let mut v: Vec<(String, String)> = legal_moves(&pos)
        .into_iter()
        .map(|m| (m.text, to_fen(&m.after)))
        .collect();
    v.sort();
    v
}

#[test]
fn lasca_perft_from_the_start() {
    let expected = [6, 6, 18, 54, 116, 324, 846, 2148, 5692];
    assert_eq!(perfts(&LASCA, LASCA_START, 9), expected);
    let start = reference::parse_fen(&LASCA, LASCA_START).unwrap();
    assert_eq!(to_fen(&start), format!("{LASCA_START} 0 1"));
}

/// RULES-lasca.md, section 6: the start's divide at depth 10, which adds up to perft 10.
#[test]
fn lasca_divide_at_depth_10() {
    let start = reference::parse_fen(&LASCA, LASCA_START).unwrap();
    let mut divide: Vec<(String, u64)> = legal_moves(&start)
        .into_iter()
        .map(|m| (m.text, perft(&m.after, 9)))
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
fn lasca_rules() {
    let texts = |fen| {
        lasca_moves(fen)
            .into_iter()
            .map(|m| m.0)
            .collect::<Vec<_>>()
    };
    // 7: a soldier does not jump backward (an officer does); it steps instead.
    assert_eq!(texts("7/7/7/3w3/2b4/7/7 w"), ["d4-c5", "d4-e5"]);
    assert_eq!(texts("7/7/7/3W3/2b4/7/7 w"), ["d4:b2"]);
    // 8: only the top piece is taken; the prisoner under it is freed.
    let freed = lasca_moves("7/7/7/3(bw)3/2w4/7/7 w");
    assert_eq!(
        freed,
        [("c3:e5".into(), "7/7/4(wb)2/3w3/7/7/7 b 0 1".into())]
    );
    // 12: round four columns once, either way, and no column a second time (two moves).
    let loops = lasca_moves("7/7/2(bb)1(bb)2/1W5/2(bb)1(bb)2/7/7 w");
    let after = "7/7/2b1b2/1(Wbbbb)5/2b1b2/7/7 b 0 1";
    let round = |path: &str| (path.to_string(), after.to_string());
    assert_eq!(loops, [round("b4:d2:f4:d6:b4"), round("b4:d6:f4:d2:b4")]);
    // 13: a soldier crowned during a capture stops there; an officer goes on.
    let crowned = lasca_moves("7/3b1b1/2w4/7/7/7/7 w");
    assert_eq!(
        crowned,
        [("c5:e7".into(), "4(Wb)2/5b1/7/7/7/7/7 b 0 1".into())]
    );
    assert_eq!(texts("7/3b1b1/2W4/7/7/7/7 w"), ["c5:e7:g5"]);
}
