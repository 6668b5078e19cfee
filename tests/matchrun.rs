//! `bashni match` and `bashni openings`, run as a user runs them: the real binary against
//! itself, and against scripted misbehaving engines (tests/fake_engines/misbehave.sh wraps
//! the real engine and, at its N-th `go`, answers an illegal move or no move, exits, goes
//! silent, or answers late; tests/fake_engines/no_variant.sh hides the games it plays).
//! Matches of every game. Searches are shallow, limited by depth: the file runs in seconds,
//! and no verdict depends on the machine's speed (a clock or stall limit that must not run
//! out is many times what a depth-limited reply takes; one that must run out is beaten by a
//! fake that sleeps or stays silent, which a busy machine only makes later).

use crate::common::deadline::{Bounded, Lines, wait_output};
use bashni::games::bashni::notation::{START_FEN, parse_fen};
use bashni::games::{Game, Outcome, Record, Variant, lasca, russian, turkish};
use bashni::record::pdn::parse_games;
use std::path::PathBuf;
use std::process::Command;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");
const MISBEHAVE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fake_engines/misbehave.sh"
);
const NO_VARIANT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fake_engines/no_variant.sh"
);

/// Output of a finished command.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The `Finished game` lines.
    fn finished(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| l.starts_with("Finished game"))
            .collect()
    }

    /// The line that starts with `prefix`.
    fn line(&self, prefix: &str) -> &str {
        self.stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' in:\n{}\n{}", self.stdout, self.stderr))
    }

    /// The number after `key` on the line that starts with `prefix`.
    fn number(&self, prefix: &str, key: &str) -> u64 {
        let line = self.line(prefix);
        let words: Vec<&str> = line.split_whitespace().collect();
        let i = words.iter().position(|w| *w == key).expect(key);
        words[i + 1].trim_end_matches(',').parse().unwrap()
    }

    /// The pentanomial counts.
    fn ptnml(&self) -> Vec<u64> {
        let line = self.line("Ptnml(0-2):");
        line.trim_start_matches("Ptnml(0-2): [")
            .trim_end_matches(']')
            .split(", ")
            .map(|c| c.parse().unwrap())
            .collect()
    }

    fn ok(&self) -> &Run {
        assert_eq!(self.code, 0, "{}\n{}", self.stdout, self.stderr);
        self
    }
}

/// Runs bashni with the words of `line`; `@B` is the bashni binary, `@M` the misbehaving
/// engine script, `@N` the script that hides games, `@F` and `@G` the paths `files`
/// (substituted after splitting: paths may hold spaces).
fn bashni(line: &str, files: &[&PathBuf]) -> Run {
    let file = |i: usize| files.get(i).map(|f| f.to_str().unwrap().to_string());
    let args: Vec<String> = line
        .split_whitespace()
        .map(|w| {
            w.replace("@B", BASHNI)
                .replace("@M", MISBEHAVE)
                .replace("@N", NO_VARIANT)
                .replace("@F", file(0).as_deref().unwrap_or("@F"))
                .replace("@G", file(1).as_deref().unwrap_or("@G"))
        })
        .collect();
    let out = Command::new(BASHNI)
        .args(&args)
        .output_bounded()
        .expect("run bashni");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh temporary file path.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Plays `games` games of bashni (first, "good") against a misbehaving bashni ("bad") that
/// does `mode` at its `n`-th go. The stall limit is the default 30 s: a reply at depth 2
/// takes milliseconds, so only the silent fake ever stalls (see [`silence_is_a_stall`]).
fn against_bad(mode: &str, n: u32, games: u32, extra: &str, files: &[&PathBuf]) -> Run {
    bashni(
        &format!(
            "match --engine cmd=@B name=good --engine cmd=bash arg=@M arg=@B arg={mode} arg={n} \
             name=bad --games {games} --seed 1 {extra}"
        ),
        files,
    )
}

#[test]
fn short_match_has_consistent_totals_and_a_pdn_that_replays() {
    let pdn = temp("short.pdn");
    let run = bashni(
        "match --engine cmd=@B name=a --engine cmd=@B name=b option.Hash=4 --each depth=2 \
         --games 7 --concurrency 2 --random-openings 4 --seed 5 --pdn @F",
        &[&pdn],
    );
    run.ok();
    assert_eq!(run.finished().len(), 7);
    let (w, l, d) = (
        run.number("Games:", "Wins:"),
        run.number("Games:", "Losses:"),
        run.number("Games:", "Draws:"),
    );
    assert_eq!(run.number("Games:", "Games:"), 7);
    assert_eq!(w + l + d, 7);
    // Three complete pairs; the seventh game has no partner.
    assert_eq!(run.ptnml().iter().sum::<u64>(), 3);
    assert_eq!(run.line("Faults:"), "Faults: none");
    assert!(run.line("Elo:").contains("LOS:"));
    let mut numbers: Vec<u64> = run
        .finished()
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, (1..=7).collect::<Vec<u64>>());

    // The PDN: seven games that replay under our rules to their recorded end.
    let games = parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(games.len(), 7);
    let (mut white_points, mut a_points) = (0.0, 0.0);
    for g in &games {
        for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
            assert!(g.tag(tag).is_some(), "no {tag} tag");
        }
        assert_eq!(g.tag("GameType"), Some("Bashni"));
        assert_eq!(
            g.tag("FEN"),
            None,
            "random openings are moves from the start"
        );
        assert_eq!(g.tag("Result"), Some(g.result.as_str()));
        assert_eq!(g.tag("PlyCount").unwrap(), g.moves.len().to_string());
        let mut game = bashni::games::bashni::game::Game::new(parse_fen(START_FEN).unwrap());
        for (i, m) in g.moves.iter().enumerate() {
            game.play_text(&m.text)
                .unwrap_or_else(|e| panic!("move {i}: {e}"));
            if i < 4 {
                assert_eq!(m.comment.as_deref(), Some("book"));
            } else {
                let c = m.comment.as_deref().unwrap();
                assert!(c.ends_with('s') && c.contains("/2 "), "comment {c}");
            }
        }
        let points = match g.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        white_points += points;
        a_points += if g.tag("White") == Some("a") {
            points
        } else {
            1.0 - points
        };
        match g.tag("Termination").unwrap() {
            "no legal move" => {
                assert!(game.outcome().is_some_and(|o| o.winner().is_some()));
                assert_ne!(g.result, "1/2-1/2");
            }
            "threefold repetition" | "30-ply rule" => {
                assert!(game.outcome().is_some());
                assert_eq!(g.result, "1/2-1/2");
            }
            "max plies" => assert_eq!(g.result, "1/2-1/2"),
            t => panic!("unexpected termination {t}"),
        }
    }
    assert!(white_points <= 7.0);
    assert_eq!(a_points, w as f64 + d as f64 / 2.0);
}

#[test]
fn illegal_move_loses_and_the_match_goes_on() {
    let run = against_bad("illegal", 2, 2, "--depth 2", &[]);
    run.ok();
    let f = run.finished();
    assert_eq!(f.len(), 2, "{}", run.stdout);
    let want = "Finished game 1 (good vs bad): 1-0 {bad (Black) illegal move a1-h8}";
    assert!(f[0].contains(want), "{}", f[0]);
    assert!(!f[1].contains("illegal"), "{}", f[1]);
    assert!(run.line("Faults:").contains("bad illegal move 1"));
}

#[test]
fn no_move_while_moves_exist_is_illegal() {
    let pdn = temp("none.pdn");
    let run = against_bad("none", 1, 1, "--depth 2 --initial --pdn @F", &[&pdn]);
    run.ok();
    assert!(
        run.finished()[0].contains("illegal move (none)"),
        "{}",
        run.stdout
    );
    let games = parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(games[0].tag("Termination"), Some("illegal move"));
    assert_eq!(games[0].result, "1-0");
    assert_eq!(games[0].moves.len(), 1);
}

#[test]
fn crash_loses_and_recover_restarts() {
    let run = against_bad("crash", 2, 3, "--depth 2 --recover", &[]);
    run.ok();
    let f = run.finished();
    assert_eq!(f.len(), 3, "{}", run.stdout);
    assert!(f[0].contains("1-0 {bad (Black) crash}"), "{}", f[0]);
    // Restarted, it crashes again at its second go, now as White.
    assert!(f[1].contains("0-1 {bad (White) crash}"), "{}", f[1]);
    assert_eq!(run.line("Terminations:"), "Terminations: crash 3");
}

#[test]
fn crash_without_recover_stops_the_match() {
    let run = against_bad("crash", 2, 6, "--depth 2", &[]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.finished().len(), 1, "{}", run.stdout);
    assert!(run.stderr.contains("--recover"), "{}", run.stderr);
}

/// The stall limit is waited out once a game, so it is short, but still about a hundred
/// times a depth-2 reply through the fake's shell loop (a few ms): a busy machine does not
/// make an honest reply a stall.
#[test]
fn silence_is_a_stall() {
    let run = against_bad("silent", 3, 2, "--depth 2 --recover --stall-timeout 2", &[]);
    run.ok();
    let f = run.finished();
    assert_eq!(f.len(), 2);
    assert!(f[0].contains("1-0 {bad (Black) stall}"), "{}", f[0]);
    assert!(f[1].contains("0-1 {bad (White) stall}"), "{}", f[1]);
}

#[test]
fn late_answer_is_a_time_forfeit() {
    // The fake waits 1 s at its second go; its clock then has at most 0.9 s (0.8 s and one
    // increment), so it forfeits however fast the machine. The searches stop at depth 2
    // (milliseconds, against the 0.1 s increment), so no honest move runs out of time on a
    // busy machine; the referee's 1 s grace after the clock ran out leaves 0.9 s for the
    // fake's late answer to come in, so it is a forfeit and not a stall.
    let run = against_bad("slow", 2, 2, "--tc 0.8+0.1 --depth 2", &[]);
    run.ok();
    let f = run.finished();
    assert!(f[0].contains("1-0 {bad (Black) time forfeit ("), "{}", f[0]);
    assert!(!f[1].contains("forfeit"), "{}", f[1]);
}

#[test]
fn sprt_stops_once_it_decides() {
    // Depth 3 against depth 1: H1 (at least +10 Elo) is accepted long before 400 games.
    let run = bashni(
        "match --engine cmd=@B name=deep depth=3 --engine cmd=@B name=shallow depth=1 \
         --rounds 200 --random-openings 6 --seed 2 --concurrency 2 \
         --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05",
        &[],
    );
    run.ok();
    let games = run.number("Games:", "Games:");
    assert!(games < 400, "{}", run.stdout);
    assert!(run.line("SPRT:").ends_with("H1 accepted"), "{}", run.stdout);
    assert!(run.line("SPRT:").contains("[-2.94, 2.94]"));
}

#[test]
fn adjudication_and_ply_limit() {
    let base = "match --engine cmd=@B --engine cmd=@B --depth 3 --games 2 --random-openings 4";
    let run = bashni(&format!("{base} --resign movecount=1 score=1"), &[]);
    run.ok();
    assert_eq!(
        run.line("Terminations:"),
        "Terminations: resign adjudication 2"
    );
    let run = bashni(
        &format!("{base} --draw movenumber=1 movecount=1 score=100000"),
        &[],
    );
    run.ok();
    assert_eq!(
        run.line("Terminations:"),
        "Terminations: draw adjudication 2"
    );
    let run = bashni(&format!("{base} --max-plies 10"), &[]);
    run.ok();
    assert_eq!(run.line("Terminations:"), "Terminations: max plies 2");
}

#[test]
fn openings_file_round_trip() {
    let file = temp("openings.txt");
    let line = "openings --plies 6 --count 3 --seed 9 --depth 4";
    bashni(&format!("{line} --out @F"), &[&file]).ok();
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3);
    for (i, line) in lines.iter().enumerate() {
        let opening =
            bashni::record::openings::parse_line::<bashni::games::bashni::Position>(line, i + 1)
                .unwrap();
        assert_eq!(opening.moves.len(), 6, "{line}");
    }
    // The same seed gives the same openings.
    assert_eq!(bashni(line, &[]).stdout, text);
    let pdn = temp("openings.pdn");
    let run = bashni(
        "match --engine cmd=@B --engine cmd=@B --depth 1 --rounds 3 --openings @G --pdn @F",
        &[&pdn, &file],
    );
    run.ok();
    assert_eq!(run.number("Games:", "Games:"), 6);
    // Each opening twice: the games start with its moves.
    let games = parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    let mut used: Vec<String> = games
        .iter()
        .map(|g| {
            let first: Vec<&str> = g.moves[..6].iter().map(|m| m.text.as_str()).collect();
            first.join(" ")
        })
        .collect();
    used.sort();
    let mut want: Vec<String> = lines
        .iter()
        .flat_map(|l| [l.to_string(), l.to_string()])
        .collect();
    want.sort();
    assert_eq!(used, want);
}

#[test]
fn bad_arguments_are_reported() {
    for (line, needle) in [
        ("--engine cmd=@B --depth 1", "exactly two --engine"),
        (
            "--engine cmd=@B --engine cmd=@B foo=1 --depth 1",
            "unknown engine key 'foo'",
        ),
        (
            "--engine cmd=@B --engine name=x --depth 1",
            "engine 2 has no cmd",
        ),
        ("--engine cmd=@B --engine cmd=@B", "has no limit"),
        (
            "--engine cmd=@B --engine cmd=@B --tc ten",
            "time control 'ten'",
        ),
        (
            "--engine cmd=@B --engine cmd=@B --depth 1 --sprt elo0=5",
            "--sprt",
        ),
        (
            "--engine cmd=@B --engine cmd=@B --depth 1 --resign score=5",
            "--resign",
        ),
        (
            "--engine cmd=@B --engine cmd=@B option.Nope=1 --depth 1",
            "no option 'Nope'",
        ),
        (
            "--engine cmd=@B --engine cmd=/no/such/engine --depth 1",
            "cannot start",
        ),
        (
            "--engine cmd=@B --engine cmd=@B --depth 1 --openings /no/such/file",
            "openings file",
        ),
    ] {
        let run = bashni(&format!("match {line}"), &[]);
        assert_eq!(run.code, 2, "{line}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(needle), "{line}: {}", run.stderr);
    }
}

/// Issue 14 item 7: an option value the engine refuses (`info string error` after
/// `setoption`) stops the match before the first game, like an unknown option name.
#[test]
fn refused_option_values_stop_the_match() {
    for (option, needle) in [
        ("option.Hash=0", "refused option Hash=0"),
        ("option.Threads=9999", "refused option Threads=9999"),
        ("option.MultiPV=abc", "refused option MultiPV=abc"),
    ] {
        let line = format!("match --engine cmd=@B --engine cmd=@B {option} --depth 1 --games 2");
        let run = bashni(&line, &[]);
        assert_eq!(run.code, 2, "{line}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(needle), "{line}: {}", run.stderr);
        assert!(run.stderr.contains("error: setoption"), "{}", run.stderr);
        let played = run.stdout.contains("Games:") && !run.stdout.contains("Games: 0,");
        assert!(!played, "{}", run.stdout);
    }
}

/// Plays a short match of `G` between two bashni engines and checks its PDN: every game of
/// the game's `GameType`, replaying as legal to the end its termination names.
fn short_match_of<G: Game>(variant: &str, seed: u32) {
    let pdn = temp(&format!("{variant}.pdn"));
    let run = bashni(
        &format!(
            "match --variant {variant} --engine cmd=@B name=a --engine cmd=@B name=b \
             --each depth=2 --games 4 --random-openings 4 --seed {seed} --pdn @F"
        ),
        &[&pdn],
    );
    run.ok();
    assert!(
        run.stdout
            .starts_with(&format!("Match a (depth 2) vs b (depth 2) in {variant}, ")),
        "{}",
        run.stdout
    );
    assert_eq!(run.finished().len(), 4, "{}", run.stdout);
    assert_eq!(run.line("Faults:"), "Faults: none");
    let games = parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    let rule = G::CLOCK_RULE.replacen("-rule", " rule", 1);
    for g in &games {
        let game_type = g.tag("GameType").unwrap();
        assert_eq!(Variant::from_pdn_game_type(game_type), Some(G::VARIANT));
        assert_eq!(game_type, G::VARIANT.pdn_game_type());
        assert_eq!(g.tag("FEN"), None);
        assert_eq!(g.tag("PlyCount").unwrap(), g.moves.len().to_string());
        let mut game = Record::new(G::startpos());
        for (i, m) in g.moves.iter().enumerate() {
            assert_eq!(game.outcome(), None, "the game went on after its end");
            let played = game
                .play_text(&m.text)
                .unwrap_or_else(|e| panic!("{variant} move {i} {}: {e}", m.text));
            // PDN joins the squares of a Russian or Turkish capture with `x`.
            let written = bashni::record::game_record::pdn_move(G::VARIANT, &played.to_string());
            assert_eq!(written, m.text);
            let book = m.comment.as_deref() == Some("book");
            assert_eq!(book, i < 4, "move {i}");
        }
        let termination = g.tag("Termination").unwrap();
        let outcome = game.outcome();
        match termination {
            "no legal move" => assert!(matches!(outcome, Some(Outcome::NoLegalMove(_)))),
            "one king against one man" => {
                assert!(matches!(outcome, Some(Outcome::KingAgainstMan(_))))
            }
            "threefold repetition" => assert_eq!(outcome, Some(Outcome::Repetition)),
            t if t == rule => assert_eq!(outcome, Some(Outcome::ClockRule)),
            "max plies" => assert_eq!(outcome, None),
            t => panic!("unexpected termination {t}"),
        }
        let result = match outcome.and_then(|o| o.winner()) {
            Some(bashni::games::kit::Color::White) => "1-0",
            Some(bashni::games::kit::Color::Black) => "0-1",
            None => "1/2-1/2",
        };
        assert_eq!(g.result, result, "{termination}");
    }
}

#[test]
fn short_turkish_match() {
    short_match_of::<turkish::Position>("turkish", 3);
}

#[test]
fn short_russian_match() {
    short_match_of::<russian::Position>("russian", 4);
}

#[test]
fn short_brazilian_match() {
    short_match_of::<bashni::games::brazilian::Position>("brazilian", 6);
}

#[test]
fn short_lasca_match() {
    short_match_of::<lasca::Position>("lasca", 5);
}

/// An engine that does not declare the game, or not with that value, stops the match before
/// its first game; for Bashni, the default, nothing is asked of it.
#[test]
fn an_engine_that_does_not_play_the_game_is_refused() {
    for (hide, game, needle) in [
        (
            "",
            "turkish",
            "engine 'old' cannot play turkish: it declares no UCI_Variant option",
        ),
        (
            "arg=russian",
            "russian",
            "engine 'old' cannot play russian: its UCI_Variant offers bashni, turkish",
        ),
    ] {
        let line = format!(
            "match --variant {game} --engine cmd=@B --engine cmd=bash arg=@N arg=@B {hide} \
             name=old --depth 1 --games 2"
        );
        let run = bashni(&line, &[]);
        assert_eq!(run.code, 2, "{line}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(needle), "{line}: {}", run.stderr);
        assert!(run.finished().is_empty(), "{}", run.stdout);
    }
    // The PDN file such a match would have written is not left behind; one that was there
    // before is kept as it was.
    let pdn = temp("refused.pdn");
    let line = "match --variant turkish --engine cmd=@B --engine cmd=bash arg=@N arg=@B \
                name=old --depth 1 --games 2 --pdn @F";
    assert_eq!(bashni(line, &[&pdn]).code, 2);
    assert!(
        !pdn.exists(),
        "a match that did not start left {}",
        pdn.display()
    );
    std::fs::write(&pdn, "[Event \"kept\"]\n").unwrap();
    assert_eq!(bashni(line, &[&pdn]).code, 2);
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), "[Event \"kept\"]\n");
    // An engine from before the other games still plays Bashni.
    let run = bashni(
        "match --engine cmd=@B --engine cmd=bash arg=@N arg=@B name=old --depth 1 --games 2",
        &[],
    );
    run.ok();
    assert_eq!(run.finished().len(), 2);
}

#[test]
fn openings_of_another_game() {
    let file = temp("turkish-openings.txt");
    let line = "openings --variant turkish --plies 4 --count 3 --seed 9 --depth 2";
    bashni(&format!("{line} --out @F"), &[&file]).ok();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# bashni openings --variant turkish --plies 4 --count 3 "));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3);
    for (i, line) in lines.iter().enumerate() {
        let o = bashni::record::openings::parse_line::<turkish::Position>(line, i + 1).unwrap();
        assert_eq!(o.moves.len(), 4, "{line}");
    }
    // The file is read as Turkish by a Turkish match, and refused by a Bashni one.
    let pdn = temp("turkish-openings.pdn");
    let run = bashni(
        "match --variant turkish --engine cmd=@B --engine cmd=@B --depth 1 --rounds 3 \
         --openings @G --pdn @F",
        &[&pdn, &file],
    );
    run.ok();
    let games = parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    let mut used: Vec<String> = games
        .iter()
        .map(|g| {
            let first: Vec<&str> = g.moves[..4].iter().map(|m| m.text.as_str()).collect();
            first.join(" ")
        })
        .collect();
    used.sort();
    let mut want: Vec<String> = lines
        .iter()
        .flat_map(|l| [l.to_string(), l.to_string()])
        .collect();
    want.sort();
    assert_eq!(used, want);
    let run = bashni(
        "match --engine cmd=@B --engine cmd=@B --depth 1 --games 2 --openings @G",
        &[&pdn, &file],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("openings line 2: "), "{}", run.stderr);
}

/// Without opening flags a match of another game plays that game's own book.
#[test]
fn each_game_plays_its_own_book() {
    let pdn = temp("russian-book.pdn");
    let run = bashni(
        "match --variant russian --engine cmd=@B --engine cmd=@B --depth 1 --games 2 \
         --openings-order random --seed 8 --pdn @F",
        &[&pdn],
    );
    run.ok();
    // The book writes captures with ':', Russian PDN with 'x'.
    let book: Vec<Vec<String>> = bashni::record::openings::book::<russian::Position>()
        .into_iter()
        .map(|o| o.moves.iter().map(|m| m.replace(':', "x")).collect())
        .collect();
    let games = parse_games(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        let n = g
            .moves
            .iter()
            .take_while(|m| m.comment.as_deref() == Some("book"))
            .count();
        let opening: Vec<String> = g.moves[..n].iter().map(|m| m.text.clone()).collect();
        assert!(n > 0 && book.contains(&opening), "{opening:?}");
    }
}

/// SIGTERM (what `timeout` sends) stops a match: the games so far are reported, the result
/// file written, and the exit code is 1. It is sent to the match's whole process group, as
/// `timeout` and a Ctrl-C at a terminal do: the engines, in groups of their own, play on
/// until the match ends their games, so none is reported as a crash.
#[test]
fn a_signal_stops_the_match_with_its_report() {
    use std::os::unix::process::CommandExt;
    let result = temp("signal.json");
    let mut child = Command::new(BASHNI)
        .args([
            "match",
            "--engine",
            &format!("cmd={BASHNI}"),
            "name=a",
            "--engine",
            &format!("cmd={BASHNI}"),
            "name=b",
            "--each",
            "depth=3",
            "--games",
            "1000",
            "--seed",
            "3",
            "--result",
            result.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("start bashni match");
    let mut lines = Lines::new(child.stdout.take().unwrap(), "bashni match");
    let mut stdout = String::new();
    let mut finished = 0;
    while finished < 2 {
        let line = lines.next().expect("the match ended early");
        finished += line.starts_with("Finished game") as u32;
        stdout += &line;
        stdout.push('\n');
    }
    let kill = Command::new("kill")
        .args(["-TERM", "--", &format!("-{}", child.id())])
        .status_bounded()
        .unwrap();
    assert!(kill.success());
    for line in lines {
        stdout += &line;
        stdout.push('\n');
    }
    let out = wait_output(child, "bashni match after SIGTERM");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout,
        stderr: stderr.into_owned(),
    };
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("stopped by SIGTERM"), "{}", run.stderr);
    let games = run.number("Games:", "Games:");
    assert!((2..1000).contains(&games), "{}", run.stdout);
    assert_eq!(run.finished().len() as u64, games);
    assert!(run.line("Elo:").contains("LOS:"));
    assert_eq!(run.line("Faults:"), "Faults: none", "{}", run.stdout);
    assert!(!run.stdout.contains("crash"), "{}", run.stdout);
    let json = std::fs::read_to_string(&result).expect("the result file is written");
    assert!(json.contains(&format!("\"played\": {games},")), "{json}");
}

/// cutechess-cli's and fastchess's spellings (`-engine`, `-each`, `-pgnout`, ...).
mod compat;
/// `--concurrency`'s bounds, and no PDN file before a game.
mod limits;
