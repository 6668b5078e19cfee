//! The official ballot tables (`openings/ballots/`, docs/match.md#ballots): every line read as
//! `bashni match --openings` reads it, in each game the table is for (every move legal, every
//! position valid and not over), one ballot a line with its code, the codes the tables'
//! layouts give, the table's count of ballots, and a short match played from one of them.

use bashni::games::{Game, Rules, brazilian, russian};
use bashni::record::openings::parse_text;
use std::collections::BTreeSet;
use std::process::Command;

fn ballots(file: &str) -> String {
    let path = format!("{}/openings/ballots/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The code of each ballot line (`# 1-I`), in order.
fn codes(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let comment = l.split_once('#').expect("a code on every line").1;
            comment.split_whitespace().next().unwrap().to_string()
        })
        .collect()
}

/// `categories` categories of `per` ballots each, `1-I` to `<categories>-<per in Roman>`,
/// less `without`.
fn layout(categories: u32, per: usize, without: &[&str]) -> Vec<String> {
    const ROMAN: [&str; 16] = [
        "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
        "XV", "XVI",
    ];
    (1..=categories)
        .flat_map(|c| ROMAN[..per].iter().map(move |r| format!("{c}-{r}")))
        .filter(|code| !without.contains(&code.as_str()))
        .collect()
}

/// Reads `file` in game `G`: `count` openings, each a legal line or a valid position with a
/// move, and the positions distinct but for `repeated` ballots.
fn check<G: Game>(file: &str, count: usize, repeated: usize) {
    let text = ballots(file);
    let openings = parse_text::<G>(&text, file).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(openings.len(), count, "{file}");
    let mut seen = BTreeSet::new();
    for o in &openings {
        let game = o.game::<G>();
        assert!(game.outcome().is_none(), "{file}: {o:?} is over");
        assert!(game.position().has_legal_move(), "{file}: {o:?}");
        seen.insert(game.position().hash());
        assert!(o.moves.len() <= 6, "{file}: more than 3 moves each: {o:?}");
    }
    assert_eq!(seen.len(), count - repeated, "{file}: positions twice");
}

#[test]
fn the_fmjd_table_for_russian_draughts() {
    let text = ballots("russian-fmjd.txt");
    assert!(text.contains("https://results.fmjd.org/viewpage.php?page_id=2"));
    assert_eq!(codes(&text), layout(46, 16, &[]));
    // 16-I and 16-II repeat 15-XV and 15-XVI (the source's header says so).
    check::<russian::Position>("russian-fmjd.txt", 736, 2);
}

#[test]
fn the_fmjd_table_for_brazilian_draughts() {
    let text = ballots("brazilian-fmjd.txt");
    assert!(text.contains("https://results.fmjd.org/viewpage.php?page_id=2"));
    let left_out = [
        "1-IX", "4-XV", "5-IX", "5-XI", "19-V", "25-XIII", "30-XVI", "40-XIV", "41-XIII", "42-XIV",
        "43-II",
    ];
    assert_eq!(codes(&text), layout(46, 16, &left_out));
    check::<brazilian::Position>("brazilian-fmjd.txt", 725, 2);
    // The ballots they share are the same lines.
    let russian = ballots("russian-fmjd.txt");
    let lines = |t: &str| -> BTreeSet<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    assert!(lines(&text).is_subset(&lines(&russian)));
}

#[test]
fn the_idf_basic_table_for_both_games() {
    let text = ballots("idf-basic.txt");
    assert!(text.contains("https://idf64.org/tables-of-draw/"));
    assert_eq!(codes(&text), layout(15, 10, &[]));
    // 2-IV is 2-V's position (the source's header says so).
    check::<russian::Position>("idf-basic.txt", 150, 1);
    check::<brazilian::Position>("idf-basic.txt", 150, 1);
}

/// The ballots' lines mean the same position to both games where both read them: a move
/// list that is legal in Brazilian draughts leads to the same board in Russian draughts.
#[test]
fn a_shared_line_is_one_position_in_both_games() {
    let text = ballots("idf-basic.txt");
    let r = parse_text::<russian::Position>(&text, "r").unwrap();
    let b = parse_text::<brazilian::Position>(&text, "b").unwrap();
    for (r, b) in r.iter().zip(&b) {
        let fen_r = r.game::<russian::Position>().position().to_fen();
        let fen_b = b.game::<brazilian::Position>().position().to_fen();
        assert_eq!(fen_r, fen_b);
    }
}

/// `bashni match --openings` plays a ballot file: two games of the first ballot, by depth.
#[test]
fn a_match_plays_from_the_ballots() {
    let file = format!(
        "{}/openings/ballots/brazilian-fmjd.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let bashni = env!("CARGO_BIN_EXE_bashni");
    let out = Command::new(bashni)
        .args(["match", "--variant", "brazilian", "--engine"])
        .arg(format!("cmd={bashni}"))
        .arg("--engine")
        .arg(format!("cmd={bashni}"))
        .args(["--each", "depth=2", "--games", "2", "--openings", &file])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Faults: none"), "{text}");
}
