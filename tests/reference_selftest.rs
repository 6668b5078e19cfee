//! The reference generator checked on its own against the worked examples and perft counts of
//! docs/rules.md.

mod reference;
use reference::{legal_moves, parse_fen, perft, to_fen};

fn names(fen: &str) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(&parse_fen(fen).unwrap())
        .into_iter()
        .map(|m| m.0)
        .collect();
    v.sort();
    v
}

#[test]
fn worked_examples() {
    assert_eq!(
        names("8/8/8/6B1/1b1b4/6b1/8/W7 w"),
        ["a1:e5:h2", "a1:f6:h4:e1:a5"]
    );
    let after = legal_moves(&parse_fen("8/8/8/6B1/1b1b4/6b1/8/W7 w").unwrap());
    let (_, p) = after.iter().find(|m| m.0 == "a1:f6:h4:e1:a5").unwrap();
    assert_eq!(to_fen(p), "8/8/8/(WbBbb)7/8/8/8/8 b 0 1");
    let loop_moves: Vec<String> = ["a7", "b6", "c5"]
        .iter()
        .map(|e| format!("b4:e7:g5:e3:c5:e7:g5:e3:{e}"))
        .collect();
    assert_eq!(names("8/8/3(bb)1(bb)2/8/1W1(bb)1(bb)2/8/8/8 w"), loop_moves);
    let m = legal_moves(&parse_fen("8/2b5/1w3(bw)2/8/8/8/5B2/8 w").unwrap());
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].0, "b6:d8:h4:e1");
    assert_eq!(to_fen(&m[0].1), "8/8/5w2/8/8/8/8/4(WbbB)3 b 0 1");
}

#[test]
fn perft_from_the_start() {
    let start =
        parse_fen("1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1").unwrap();
    let expected = [7u64, 49, 302, 1469, 7482];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&start, d as u32 + 1), n);
    }
    assert_eq!(
        to_fen(&start),
        "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1"
    );
}
