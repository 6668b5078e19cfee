//! Sharded matches as a batch user runs them: `bashni match --shard i/n --result FILE` for each
//! part, then `bashni match-report` over the parts. At fixed nodes the engines are
//! deterministic (each game starts with `ucinewgame`, which clears the table), so the parts
//! together must play exactly the whole match's games: the same moves and results in the same
//! order, and the merged report the same counts.

use crate::common::deadline::Bounded;
use bashni::games::{Record, Rules, Variant};
use bashni::record::pdn::parse_games;
use std::path::{Path, PathBuf};
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn bashni(args: &[&str]) -> Run {
    let out = Command::new(BASHNI)
        .args(args)
        .output_bounded()
        .expect("run bashni");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Plays `shard` (or the whole match) of a 9-game fixed-nodes match; `openings` are extra
/// match arguments choosing the openings.
fn play(shard: Option<&str>, openings: &[&str], pdn: &Path, result: &Path) -> Run {
    let mut args = vec![
        "match",
        "--engine",
        "cmd=",
        "name=a",
        "--engine",
        "cmd=",
        "name=b",
        "--nodes",
        "400",
        "--games",
        "9",
        "--seed",
        "11",
        "--quiet",
        "--pdn",
        s(pdn),
        "--result",
        s(result),
    ];
    let cmd = format!("cmd={BASHNI}");
    args[2] = &cmd;
    args[5] = &cmd;
    args.extend_from_slice(openings);
    if let Some(shard) = shard {
        args.extend_from_slice(&["--shard", shard]);
    }
    let run = bashni(&args);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    run
}

/// The report lines that hold counts (not the time line, nor the header).
fn counts(report: &str) -> Vec<String> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("Results of"))
        .filter(|l| !l.starts_with("Time:"))
        .map(String::from)
        .collect()
}

/// Each game's tags that do not depend on timing, its moves and result; every game replayed
/// as legal from its start in the game its `GameType` names.
fn games(pdn: &str) -> Vec<String> {
    parse_games(pdn)
        .expect("PDN parses")
        .iter()
        .map(|g| {
            let variant = Variant::from_pdn_game_type(g.tag("GameType").unwrap()).unwrap();
            let moves: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
            let fen = bashni::for_variant!(variant, G => {
                let fen = g.tag("FEN").unwrap_or(G::START_FEN);
                Record::<G>::from_fen_and_moves(fen, &moves).expect("the moves replay as legal");
                fen
            });
            let tags = [
                "Round",
                "White",
                "Black",
                "Result",
                "Termination",
                "GameType",
            ]
            .map(|t| g.tag(t));
            format!("{tags:?} {fen} {} {}", moves.join(" "), g.result)
        })
        .collect()
}

fn sharded_equals_whole(openings: &[&str], tag: &str) {
    let (whole_pdn, whole_json) = (
        temp(&format!("{tag}-whole.pdn")),
        temp(&format!("{tag}-whole.json")),
    );
    let whole = play(None, openings, &whole_pdn, &whole_json);
    let mut parts = Vec::new();
    let mut joined = String::new();
    for i in 1..=4 {
        let (pdn, json) = (
            temp(&format!("{tag}-{i}.pdn")),
            temp(&format!("{tag}-{i}.json")),
        );
        play(Some(&format!("{i}/4")), openings, &pdn, &json);
        joined += &std::fs::read_to_string(&pdn).unwrap();
        parts.push(json);
    }
    // Merged in any order: the report has the whole match's counts.
    parts.reverse();
    let mut args = vec!["match-report"];
    args.extend(parts.iter().map(|p| s(p)));
    let merged = bashni(&args);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert!(
        merged.stdout.starts_with("Merged 4 parts of match "),
        "{}",
        merged.stdout
    );
    assert_eq!(counts(&merged.stdout), counts(&whole.stdout));
    assert!(counts(&whole.stdout)[0].contains("(9 games)"));
    // The same games in the same order.
    let whole_games = games(&std::fs::read_to_string(&whole_pdn).unwrap());
    assert_eq!(whole_games.len(), 9);
    assert_eq!(games(&joined), whole_games);
}

#[test]
fn four_shards_of_a_book_match_are_the_whole_match() {
    sharded_equals_whole(&["--openings-order", "random"], "book");
}

#[test]
fn four_shards_of_random_openings_are_the_whole_match() {
    sharded_equals_whole(&["--random-openings", "4", "--filter-depth", "2"], "random");
}

#[test]
fn four_shards_of_a_turkish_match_are_the_whole_match() {
    sharded_equals_whole(
        &[
            "--variant",
            "turkish",
            "--random-openings",
            "4",
            "--filter-depth",
            "2",
        ],
        "turkish",
    );
}

#[test]
fn parts_of_matches_of_different_games_are_refused() {
    let (pdn, a, b) = (
        temp("games.pdn"),
        temp("games-1.json"),
        temp("games-2.json"),
    );
    play(Some("1/2"), &["--variant", "russian"], &pdn, &a);
    play(Some("2/2"), &[], &pdn, &b);
    let text = std::fs::read_to_string(&a).unwrap();
    assert!(text.contains("\"variant\": \"russian\""), "{text}");
    let mixed = bashni(&["match-report", s(&a), s(&b)]);
    assert_eq!(mixed.code, 2);
    assert!(
        mixed
            .stderr
            .contains("matches of different games (russian and bashni)"),
        "{}",
        mixed.stderr
    );
}

#[test]
fn match_report_refuses_incomplete_duplicated_and_foreign_parts() {
    let paths: Vec<PathBuf> = ["1", "2", "other", "bad"]
        .iter()
        .map(|n| temp(&format!("refuse-{n}.json")))
        .collect();
    let json = |n: &str| {
        let i = ["1", "2", "other", "bad"]
            .iter()
            .position(|x| *x == n)
            .unwrap();
        paths[i].clone()
    };
    let pdn = temp("refuse.pdn");
    play(Some("1/2"), &[], &pdn, &json("1"));
    play(Some("2/2"), &[], &pdn, &json("2"));
    let missing = bashni(&["match-report", s(&json("1"))]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("missing shards: 2/2"),
        "{}",
        missing.stderr
    );
    let twice = bashni(&["match-report", s(&json("1")), s(&json("1")), s(&json("2"))]);
    assert!(twice.stderr.contains("shard 1/2 twice"), "{}", twice.stderr);
    // Another seed is another match.
    let other = bashni(&[
        "match",
        "--engine",
        &format!("cmd={BASHNI}"),
        "--engine",
        &format!("cmd={BASHNI}"),
        "--nodes",
        "400",
        "--games",
        "9",
        "--seed",
        "12",
        "--quiet",
        "--shard",
        "2/2",
        "--result",
        s(&json("other")),
    ]);
    assert_eq!(other.code, 0, "{}", other.stderr);
    let mixed = bashni(&["match-report", s(&json("1")), s(&json("other"))]);
    assert!(
        mixed.stderr.contains("different matches"),
        "{}",
        mixed.stderr
    );
    std::fs::write(json("bad"), "{\"format\": 1}").unwrap();
    let bad = bashni(&["match-report", s(&json("bad"))]);
    assert!(
        bad.stderr.contains("not a bashni match result"),
        "{}",
        bad.stderr
    );
    let absent = bashni(&["match-report", "/nonexistent/part.json"]);
    assert!(absent.stderr.contains("cannot read"), "{}", absent.stderr);
}

#[test]
fn a_shard_needs_a_fixed_length_and_a_seed() {
    let engine = format!("cmd={BASHNI}");
    let base = [
        "match", "--engine", &engine, "--engine", &engine, "--depth", "1",
    ];
    for extra in [
        &["--shard", "1/2", "--seed", "1"][..],
        &["--shard", "1/2", "--games", "4"][..],
        &[
            "--shard", "1/2", "--games", "4", "--seed", "1", "--sprt", "elo0=0", "elo1=5",
        ][..],
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let run = bashni(&args);
        assert_eq!(run.code, 2, "{extra:?}");
        assert!(
            run.stderr.contains("--shard plays part of a fixed match"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn shard_auto_reads_the_batch_environment() {
    let out = temp("auto.txt");
    let run = |vars: &[(&str, &str)], extra: &[&str]| {
        let mut cmd = Command::new(BASHNI);
        cmd.args([
            "datagen",
            "--games",
            "4",
            "--depth",
            "1",
            "--out",
            s(&out),
            "--shard",
            "auto",
        ])
        .args(extra)
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX");
        for (k, v) in vars {
            cmd.env(k, v);
        }
        cmd.output_bounded().unwrap()
    };
    let none = run(&[], &[]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no batch array found"));
    let k8s = run(&[("JOB_COMPLETION_INDEX", "1")], &["--shards", "2"]);
    assert!(
        k8s.status.success(),
        "{}",
        String::from_utf8_lossy(&k8s.stderr)
    );
    let games = std::fs::read_to_string(&out).unwrap();
    // Games 3 and 4 of 4 (numbered from 0 in the file).
    let numbers: Vec<&str> = games.lines().filter(|l| l.starts_with("# game ")).collect();
    assert!(
        numbers[0].starts_with("# game 2 ") && numbers.len() == 2,
        "{numbers:?}"
    );
}
