//! Issue 66: `--concurrency` capped at the game pairs to play and refused beyond what the
//! machine holds (it started a thread and two engines a unit: 1,400 threads, a panic, the
//! memory gone), and a `--pdn` file made only when a game is written (a match killed before
//! its first game left an empty one).

use super::{BASHNI, bashni, temp};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for anything here: only a guard against a hang, never a speed check.
const PATIENCE: Duration = Duration::from_secs(60);

/// A script that appends a line to `log` each time it starts, then is `engine` (or, without
/// one, reads its input to the end and says nothing, its output open: an engine that never
/// answers).
fn logging_engine(name: &str, log: &Path, engine: Option<&str>) -> PathBuf {
    let script = temp(name);
    let body = match engine {
        Some(e) => format!("exec {e}"),
        None => "while read -r line; do :; done".to_string(),
    };
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho started >> '{}'\n{body}\n", log.display()),
    )
    .unwrap();
    let _ = std::fs::remove_file(log);
    script
}

fn starts(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |t| t.lines().count())
}

#[test]
fn concurrency_beyond_the_machine_is_refused_in_one_line() {
    // Engines that cannot start: were the value taken, nothing would be played anyway.
    let run = bashni(
        "match --engine cmd=/no/such/engine --engine cmd=/no/such/engine --depth 1 \
         --games 2 --concurrency 100000",
        &[],
    );
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("error: --concurrency: 100000 games at once are more than this machine can hold (at most "),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

#[test]
fn concurrency_is_capped_at_the_pairs_to_play() {
    let log = temp("capped.log");
    let engine = logging_engine("capped.sh", &log, Some(BASHNI));
    let line = "match --engine cmd=sh arg=@F name=a --engine cmd=sh arg=@F name=b --depth 1 \
                --games 2 --concurrency 8";
    let run = bashni(line, &[&engine]);
    run.ok();
    assert_eq!(run.finished().len(), 2, "{}", run.stdout);
    // One pair to play: one worker, its two engines; not eight workers' sixteen.
    assert_eq!(starts(&log), 2, "{}", run.stdout);
}

#[test]
fn a_match_killed_before_its_first_game_leaves_no_pdn() {
    let log = temp("silent.log");
    let engine = logging_engine("silent.sh", &log, None);
    let pdn = temp("killed.pdn");
    let arg = format!("arg={}", engine.display());
    let mut child = Command::new(BASHNI)
        .args(["match", "--engine", "cmd=sh", &arg, "name=a"])
        .args(["--engine", "cmd=sh", &arg, "name=b"])
        .args(["--depth", "1", "--games", "2", "--pdn"])
        .arg(&pdn)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .stdin(Stdio::null())
        .spawn()
        .expect("start bashni match");
    let deadline = Instant::now() + PATIENCE;
    // The engines start only after the PDN file was checked: wait for one.
    while starts(&log) == 0 {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("no engine started within {PATIENCE:?}");
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        !pdn.exists(),
        "a match killed before its first game left {}",
        pdn.display()
    );
}
