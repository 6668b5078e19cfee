//! One small position per rule of docs/rules.md, the worked examples, perft from the start, bad
//! FENs, and round trips along random games.

use crate::common::deadline::Bounded;
use crate::common::rules::sorted;
use bashni::games::bashni::movegen::legal_moves;
use bashni::games::bashni::notation::{START_FEN, parse_fen, parse_move, to_fen};
use bashni::games::bashni::perft::perft;
use bashni::games::bashni::position::Position;
use bashni::games::kit::square::Square;
use rand::{RngExt, SeedableRng, rngs::StdRng};

fn moves_of(fen: &str) -> Vec<String> {
    let pos = parse_fen(fen).unwrap();
    let mut v: Vec<String> = legal_moves(&pos).iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn after(fen: &str, mv: &str) -> String {
    let pos = parse_fen(fen).unwrap();
    let m = parse_move(&pos, mv).unwrap();
    to_fen(&pos.played(&m))
}

#[test]
fn example_1_flying_king_builds_a_tower() {
    let fen = "8/8/8/6B1/1b1b4/6b1/8/W7 w";
    assert_eq!(moves_of(fen), sorted(&["a1:e5:h2", "a1:f6:h4:e1:a5"]));
    let pos = parse_fen(fen).unwrap();
    let m = parse_move(&pos, "a1:f6:h4:e1:a5").unwrap();
    let next = pos.played(&m);
    assert_eq!(
        next.tower(Square::parse("a5").unwrap()).to_string(),
        "(WbBbb)"
    );
}

#[test]
fn example_2_rejumping_towers_in_a_loop() {
    let fen = "8/8/3(bb)1(bb)2/8/1W1(bb)1(bb)2/8/8/8 w";
    let expected: Vec<String> = ["a7", "b6", "c5"]
        .iter()
        .map(|e| format!("b4:e7:g5:e3:c5:e7:g5:e3:{e}"))
        .collect();
    assert_eq!(moves_of(fen), expected);
    for m in &expected {
        let next = parse_fen(&after(fen, m)).unwrap();
        let to = Square::parse(&m[m.len() - 2..]).unwrap();
        assert_eq!(next.tower(to).to_string(), "(Wbbbbbbbb)");
    }
}

#[test]
fn example_3_promotion_mid_capture() {
    let fen = "8/2b5/1w3(bw)2/8/8/8/5B2/8 w";
    assert_eq!(moves_of(fen), sorted(&["b6:d8:h4:e1"]));
    assert_eq!(after(fen, "b6:d8:h4:e1"), "8/8/5w2/8/8/8/8/4(WbbB)3 b 0 1");
}

#[test]
fn perft_from_the_start() {
    let pos = Position::startpos();
    let expected = [1u64, 7, 49, 302, 1469, 7482, 37908, 189912];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, d as u32), n, "depth {d}");
    }
}

#[test]
fn men_step_forward_only() {
    assert_eq!(moves_of("8/8/8/8/3w4/8/8/8 w"), sorted(&["d4-c5", "d4-e5"]));
    assert_eq!(moves_of("8/8/8/8/3b4/8/8/8 b"), sorted(&["d4-c3", "d4-e3"]));
    assert_eq!(moves_of("8/8/8/8/8/8/8/w7 w"), sorted(&["a1-b2"]));
}

#[test]
fn quiet_promotion() {
    assert_eq!(
        after("8/w7/8/8/8/8/8/6b1 w", "a7-b8"),
        "1W6/8/8/8/8/8/8/6b1 b 1 1"
    );
    assert_eq!(
        after("8/8/8/8/8/8/1b6/6W1 b 4 9", "b2-a1"),
        "8/8/8/8/8/8/8/B5W1 w 5 10"
    );
}

#[test]
fn men_capture_backward_and_capture_is_compulsory() {
    // The man on d4 must take c3 backwards although it could step forward.
    assert_eq!(moves_of("8/8/8/8/3w4/2b5/8/8 w"), sorted(&["d4:b2"]));
    // A quiet move elsewhere is not allowed when a capture exists.
    assert_eq!(moves_of("8/8/8/8/3w4/2b5/8/6w1 w"), sorted(&["d4:b2"]));
}

#[test]
fn flying_king_slides_and_captures_from_afar() {
    assert_eq!(moves_of("8/8/8/8/3W4/8/8/8 w").len(), 13);
    assert_eq!(
        moves_of("8/8/8/8/8/8/8/W5b1 w"),
        sorted(&[
            "a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8"
        ])
    );
    assert_eq!(
        moves_of("8/8/8/8/8/2b5/8/W7 w"),
        sorted(&["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"])
    );
}

#[test]
fn king_landing_rule() {
    // Only f6 lets the king go on (over e7), so it must land there.
    assert_eq!(moves_of("8/4b3/8/8/8/2b5/8/W7 w"), sorted(&["a1:f6:d8"]));
}

#[test]
fn jump_takes_effect_at_once_and_freed_prisoner_blocks() {
    // The jumped black man goes under the white man; the white prisoner on d4 is freed.
    assert_eq!(
        after("8/8/8/8/3(bw)4/2w5/8/8 w", "c3:e5"),
        "8/8/8/4(wb)3/3w4/8/8/8 b 0 1"
    );
    // The freed man on c3 then blocks the king's way back.
    assert_eq!(
        moves_of("8/8/5b2/8/8/2(bw)5/8/W7 w"),
        sorted(&["a1:d4:g7", "a1:d4:h8", "a1:e5:g7", "a1:e5:h8"])
    );
}

#[test]
fn no_immediate_rejump_of_the_same_square() {
    // After c3:e5 the tower on d4 still has a black commander, but it cannot be jumped
    // straight back.
    assert_eq!(moves_of("8/8/8/8/3(bb)4/2w5/8/8 w"), sorted(&["c3:e5"]));
    assert_eq!(
        moves_of("8/8/8/8/3(bb)4/8/8/W7 w"),
        sorted(&["a1:e5", "a1:f6", "a1:g7", "a1:h8"])
    );
}

#[test]
fn towers_move_with_their_commanders_rank() {
    assert_eq!(
        moves_of("8/8/8/8/3(wB)4/8/8/8 w"),
        sorted(&["d4-c5", "d4-e5"])
    );
    assert_eq!(moves_of("8/8/8/8/3(Ww)4/8/8/8 w").len(), 13);
}

#[test]
fn origin_is_empty_during_the_move() {
    // The king goes round four men and may land back on its own square.
    let fen = "8/8/1b1b4/8/1b1b4/2W5/8/8 w";
    let moves = moves_of(fen);
    assert!(moves.contains(&"c3:e5:c7:a5:c3".to_string()), "{moves:?}");
    assert!(moves.contains(&"c3:a5:c7:e5:c3".to_string()), "{moves:?}");
    let next = parse_fen(&after(fen, "c3:e5:c7:a5:c3")).unwrap();
    assert_eq!(
        next.tower(Square::parse("c3").unwrap()).to_string(),
        "(Wbbbb)"
    );
}

#[test]
fn man_on_far_rank_stays_a_man() {
    // A tower on the far rank can never be jumped (no square behind it), so a prisoner is
    // never freed there; the consequence tested: a man standing on its far rank is a man,
    // has no step, and captures backward as a man (one landing square only).
    assert_eq!(moves_of("3w4/8/8/8/8/8/8/6b1 w"), Vec::<String>::new());
    assert_eq!(moves_of("3w4/4b3/8/8/8/8/8/8 w"), sorted(&["d8:f6"]));
}

#[test]
fn different_paths_are_different_moves() {
    let fen = "8/8/1b1b4/8/1b1b4/2W5/8/8 w";
    let moves = moves_of(fen);
    // Both round trips end on c3 with the same tower, yet are two moves.
    let a = after(fen, "c3:e5:c7:a5:c3");
    let b = after(fen, "c3:a5:c7:e5:c3");
    assert_eq!(a, b);
    assert!(moves.len() >= 2);
}

#[test]
fn move_notation_variants() {
    let pos = parse_fen("8/8/8/6B1/1b1b4/6b1/8/W7 w").unwrap();
    assert_eq!(
        parse_move(&pos, "a1xe5xh2").unwrap().to_string(),
        "a1:e5:h2"
    );
    assert_eq!(parse_move(&pos, "a1:h2").unwrap().to_string(), "a1:e5:h2");
    assert_eq!(
        parse_move(&pos, "a1:a5").unwrap().to_string(),
        "a1:f6:h4:e1:a5"
    );
    let err = parse_move(&Position::startpos(), "c3-c4")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("illegal move c3-c4: legal moves are a3-b4 c3-b4"),
        "{err}"
    );
    assert!(parse_move(&Position::startpos(), "c3").is_err());
    assert!(parse_move(&Position::startpos(), "c3-z9").is_err());
}

#[test]
fn every_kind_of_bad_fen_is_refused_with_its_reason() {
    let cases = [
        (
            "1b1b1b1b/b1b1b1b1/1b1b1b1b/1b6/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w",
            "light square b5",
        ),
        ("8/8/8/8/8/w1w1w1w11/8/8 w", "rank 3 has 9 files"),
        ("8/8/8/8/8/w1w1w1/8/8 w", "rank 3 has 6 files"),
        ("8/8/8/8/8/8/8/z7 w", "unknown character 'z'"),
        ("8/8/8/8/8/8/8/()7 w", "empty tower"),
        ("8/8/8/8/8/8/8/(wb w", "unclosed tower at character 15"),
        (
            "1w1w1w1w/w1w1w1w1/1w1w1w1w/w7/8/8/8/8 w",
            "white has 13 pieces",
        ),
        ("8/8/8/8/8/8/8/8", "missing side"),
        ("8/8/8/8/8/8/8/8 x", "side to move 'x'"),
        ("8/8/8/8/8/8/8 w", "7 ranks"),
        ("8/8/8/8/8/8/8/8 w x 1", "plies since capture"),
        ("", "empty"),
    ];
    for (fen, msg) in cases {
        let err = parse_fen(fen).unwrap_err().to_string();
        assert!(err.contains(msg), "{fen}: {err}");
    }
}

#[test]
fn round_trips_and_hash_along_random_games() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..200 {
        let mut pos = parse_fen(START_FEN).unwrap();
        for _ in 0..200 {
            assert_eq!(pos.hash(), pos.compute_hash());
            let fen = to_fen(&pos);
            let back = parse_fen(&fen).unwrap();
            assert_eq!(back, pos, "{fen}");
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            for m in moves.iter() {
                assert_eq!(parse_move(&pos, &m.to_string()).unwrap(), *m);
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos.play(&m);
        }
    }
}

#[test]
fn perft_command_refuses_absurd_depths_and_divides() {
    let bashni = env!("CARGO_BIN_EXE_bashni");
    let out = std::process::Command::new(bashni)
        .args(["perft", "100"])
        .output_bounded()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("perft depth 100 is too large"), "{err}");
    let out = std::process::Command::new(bashni)
        .args(["perft", "3", "--divide"])
        .output_bounded()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "{text}");
    assert_eq!(lines[0], "a3-b4 47");
    assert!(lines[7].starts_with("nodes 302 "), "{text}");
}

/// The examples of docs/rules.md, section 5, that the spec's three above do not cover.
#[test]
fn documented_examples() {
    assert_eq!(moves_of("8/8/8/8/3w4/2b5/8/8 w"), sorted(&["d4:b2"]));
    assert_eq!(
        after("8/8/8/8/3w4/2b5/8/8 w", "d4:b2"),
        "8/8/8/8/8/8/1(wb)6/8 b 0 1"
    );
    assert_eq!(moves_of("8/8/8/8/3b4/2w3w1/8/8 w"), sorted(&["c3:e5"]));
    assert_eq!(
        after("8/8/8/8/3(bw)4/2w5/8/8 w", "c3:e5"),
        "8/8/8/4(wb)3/3w4/8/8/8 b 0 1"
    );
    assert_eq!(
        moves_of("8/8/8/8/8/2(bb)5/8/W7 w"),
        sorted(&["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"])
    );
    assert_eq!(
        moves_of("8/8/8/8/5b2/2b5/8/W7 w"),
        sorted(&["a1:e5:g3", "a1:e5:h2"])
    );
    assert_eq!(moves_of("8/2w5/8/8/8/8/8/8 w"), sorted(&["c7-b8", "c7-d8"]));
    assert_eq!(
        after("8/2w5/8/8/8/8/8/8 w", "c7-d8"),
        "3W4/8/8/8/8/8/8/8 b 1 1"
    );
}

/// The perft table of docs/rules.md (a file of this repository) agrees with the generator.
#[test]
fn documented_perft_table() {
    let rows = crate::common::docs::perft_table("docs/rules.md");
    assert!(rows.len() >= 11, "perft table too short: {rows:?}");
    let pos = Position::startpos();
    for (depth, count) in rows.into_iter().filter(|r| r.0 <= 8) {
        assert_eq!(perft(&pos, depth), count, "depth {depth}");
    }
}
