//! The standard draughts FEN (`W:Wa1,...:B...`) for Russian and Turkish draughts: read
//! wherever a FEN is read (the library, `bashni analyse`, the page's new game with a FEN or
//! a PDN written by pydraughts), written in PDN `[FEN]` tags.

use crate::common;
use crate::common::deadline::Bounded;

use bashni::games::{Rules, Variant, russian, turkish};
use bashni::record::game_record::fen_tag;
use bashni::serve::json::{self, Value};
use common::serve::Server;
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// A game pydraughts 0.6.7 wrote (PDNWriter): a set-up position with kings, then captures
/// written `d4xf6`.
const PYDRAUGHTS_PDN: &str = r#"[Event "pydraughts"]
[GameType "25,W,8,8,A0,0"]
[FEN "W:Wa1,c3,e3,c1,e1,g1,b2,d2,f2,h2,a3,Kg3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,Kh8"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. a3-b4 h6-g5 4. b2-c3 e5-d4 5. e3xc5 h8xb2 6. a1xc3 b6xb2 7. c1xa3 g5-f4 8. g3xe5 d6xf4 9. f2-g3 c7-d6 10. g3xc7 b8xd6 11. h2-g3 d8-c7 12. d2-e3 f8-g7 13. b4-a5 a7-b6 14. g1-h2 e7-f6 15. g3-f4 f6-g5 16. f4xa7 c7-d6 17. a7-b8 d6-c5 18. e1-f2 c5-d4 19. e3xc5 *
"#;

#[test]
fn both_games_read_the_standard_fen_in_every_form() {
    let chess = russian::Position::from_fen("1b6/8/8/8/8/2W5/8/w7 b 0 1").unwrap();
    for fen in [
        "B:Wa1,Kc3:Bb8",
        "B:W1,K10:B29",
        "b:WKc3,a1:Bb8.",
        "B:W1,K10:B29:H0:F1",
    ] {
        let p = russian::Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(p.to_fen(), chess.to_fen(), "{fen}");
    }
    assert_eq!(chess.to_pdn_fen(), "B:Wa1,Kc3:Bb8");
    let start = russian::Position::from_fen("W:W1-12:B21-32").unwrap();
    assert_eq!(start.to_fen(), russian::START_FEN);
    let t = turkish::Position::startpos();
    assert_eq!(
        turkish::Position::from_fen(&t.to_pdn_fen())
            .unwrap()
            .to_fen(),
        t.to_fen()
    );
    assert_eq!(
        turkish::Position::from_fen("W:W9-24:B41-56")
            .unwrap()
            .to_fen(),
        t.to_fen()
    );
    // A Turkish man on its own last rank is refused as in the chess-style FEN.
    assert!(turkish::Position::from_fen("W:Wa8:Bb1").is_err());
    let e = russian::Position::from_fen("W:Wa2:Bb8")
        .unwrap_err()
        .to_string();
    assert!(e.contains("no piece can stand on a2"), "{e}");
    assert_eq!(
        fen_tag(Variant::Russian, "1b6/8/8/8/8/2W5/8/w7 b 0 1"),
        "B:Wa1,Kc3:Bb8"
    );
    assert_eq!(
        fen_tag(Variant::Bashni, "8/8/8/8/8/8/8/w7 w"),
        "8/8/8/8/8/8/8/w7 w"
    );
}

#[test]
fn analyse_reads_a_pydraughts_fen_and_pdn() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("standard_fen");
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = dir.join("pydraughts.pdn");
    std::fs::write(&pdn, PYDRAUGHTS_PDN).unwrap();
    let fen_line = |what: &str| {
        let out = Command::new(BASHNI)
            .args(["analyse", "--variant", "russian", what, "--depth", "2"])
            .output_bounded()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{text}");
        text.lines()
            .find_map(|l| l.strip_prefix("FEN: ").map(str::to_string))
            .unwrap()
    };
    assert_eq!(
        fen_line(pdn.to_str().unwrap()),
        "1W6/8/8/w1w5/8/w7/5w1w/8 b 0 19"
    );
    // pydraughts' FEN of the same final position (no clocks in it).
    assert_eq!(
        fen_line("B:Wa5,c5,f2,h2,a3,Kb8:B"),
        "1W6/8/8/w1w5/8/w7/5w1w/8 b 0 1"
    );
}

/// One request to `bashni serve`; the JSON answer.
#[test]
fn the_page_starts_games_from_a_standard_fen_and_a_pydraughts_pdn() {
    let server = Server::start(&[]);
    let fens = |v: &Value| v.to_string();
    let body = r#"{"variant":"russian","human":"both","fen":"B:Wa1,Kc3:Bb8"}"#;
    let (status, v) = server.call("POST", "/api/games", body);
    assert_eq!(status, 201, "{v}");
    assert!(fens(&v).contains("1b6/8/8/8/8/2W5/8/w7 b"), "{v}");
    let body = json::object([
        ("human", Value::from("both")),
        ("pdn", Value::from(PYDRAUGHTS_PDN)),
    ]);
    let (status, v) = server.call("POST", "/api/games", &body.to_string());
    assert_eq!(status, 201, "{v}");
    assert!(fens(&v).contains("1W6/8/8/w1w5/8/w7/5w1w/8 b"), "{v}");
}
