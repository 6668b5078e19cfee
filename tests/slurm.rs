//! The batch deployment on a real Slurm: a single-node cluster started on this machine
//! (tests/slurm/cluster.sh), a 4-task datagen array and a 4-task match array submitted with the
//! script users run (deploy/slurm/submit.sh), each followed by its merge job
//! (`--dependency=afterok`), and a Russian 2-3 piece endgame-database build (one array a level,
//! then `egdb verify`). Checks: the merged datagen file is byte-identical to a one-machine run
//! with the same seed; the merged match report's counts are the sum of the parts and those of
//! the whole match played on one machine; every game replays as legal; the array's tables are
//! byte-identical to a one-machine `bashni egdb build` and verify.
//!
//! Ignored by default (it needs Debian's slurmctld, slurmd, slurm-client and munge, and root);
//! `.ci/run` installs them and runs `cargo test --profile suite -- --ignored slurm::`.

use crate::common::deadline::Bounded;
use bashni::games::bashni::game::Game;
use bashni::games::bashni::notation::START_FEN;
use bashni::record::pdn::parse_games;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The running cluster; dropping it stops every daemon (also when the test fails).
struct Cluster {
    dir: PathBuf,
    conf: String,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let out = run(Command::new(format!("{ROOT}/tests/slurm/cluster.sh"))
            .arg("start")
            .arg(dir));
        assert!(
            out.status.success(),
            "cluster did not start: {}",
            text(&out.stderr)
        );
        Cluster {
            dir: dir.to_path_buf(),
            conf: text(&out.stdout).trim().to_string(),
        }
    }

    /// Runs deploy/slurm/submit.sh for `kind`; returns the merge job's id.
    fn submit(&self, kind: &str, shards: u32, dir: &Path, flags: &[&str]) -> String {
        let out = run(Command::new(format!("{ROOT}/deploy/slurm/submit.sh"))
            .arg(kind)
            .arg(shards.to_string())
            .arg(dir)
            .args(flags)
            .env("SLURM_CONF", &self.conf)
            .env("BASHNI", BASHNI));
        assert!(out.status.success(), "submit {kind}: {}", text(&out.stderr));
        let said = text(&out.stdout);
        let merge = said
            .split("merge job ")
            .nth(1)
            .expect("the script names the merge job");
        merge
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .to_string()
    }

    /// Runs `deploy/slurm/submit.sh egdb`; returns the verify job's id.
    fn submit_egdb(&self, variant: &str, pieces: u32, dir: &Path) -> String {
        let out = run(Command::new(format!("{ROOT}/deploy/slurm/submit.sh"))
            .args(["egdb", variant, &pieces.to_string()])
            .arg(dir)
            .env("SLURM_CONF", &self.conf)
            .env("BASHNI", BASHNI));
        assert!(out.status.success(), "submit egdb: {}", text(&out.stderr));
        let said = text(&out.stdout);
        let verify = said
            .split("verify job ")
            .nth(1)
            .expect("the script names the verify job");
        verify
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .to_string()
    }

    /// Waits until job `id` has completed; fails on any other end or after `limit`.
    fn wait(&self, id: &str, limit: Duration, logs: &Path) {
        let start = Instant::now();
        loop {
            let out = run(Command::new("scontrol")
                .args(["show", "job", id])
                .env("SLURM_CONF", &self.conf));
            let show = text(&out.stdout);
            if show.contains("JobState=COMPLETED") {
                return;
            }
            let ended = [
                "FAILED",
                "CANCELLED",
                "TIMEOUT",
                "NODE_FAIL",
                "OUT_OF_MEMORY",
            ];
            let bad = ended
                .iter()
                .any(|s| show.contains(&format!("JobState={s}")))
                || show.contains("DependencyNeverSatisfied");
            if bad || start.elapsed() > limit {
                panic!(
                    "job {id} did not complete:\n{show}\nlogs:\n{}",
                    logs_of(logs)
                );
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(format!("{ROOT}/tests/slurm/cluster.sh"))
            .arg("stop")
            .arg(&self.dir)
            .output_bounded();
    }
}

fn run(cmd: &mut Command) -> Output {
    cmd.output_bounded().expect("run a command")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn logs_of(dir: &Path) -> String {
    let mut all = String::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "log") {
            all += &format!(
                "== {}\n{}\n",
                p.display(),
                std::fs::read_to_string(&p).unwrap_or_default()
            );
        }
    }
    all
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
#[ignore = "needs a single-node Slurm (slurmctld, slurmd, munge): run by .ci/run"]
fn datagen_match_and_egdb_arrays_on_a_real_slurm() {
    let started = Instant::now();
    let base = std::env::temp_dir().join(format!("bashni-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let cluster = Cluster::start(&base.join("cluster"));

    // 1. Both arrays and their merge jobs are queued at once.
    let datagen_flags = ["--games", "12", "--depth", "3", "--seed", "7"];
    let data_dir = base.join("datagen");
    let data_merge = cluster.submit("datagen", 4, &data_dir, &datagen_flags);
    let engine = format!("cmd={BASHNI}");
    let match_flags = [
        "--engine", &engine, "name=a", "--engine", &engine, "name=b", "--nodes", "300", "--games",
        "10", "--seed", "3",
    ];
    let match_dir = base.join("match");
    let match_merge = cluster.submit("match", 4, &match_dir, &match_flags);
    let egdb_dir = base.join("egdb");
    let egdb_verify = cluster.submit_egdb("russian", 3, &egdb_dir);
    cluster.wait(&data_merge, Duration::from_secs(300), &data_dir);
    cluster.wait(&match_merge, Duration::from_secs(300), &match_dir);
    cluster.wait(&egdb_verify, Duration::from_secs(300), &egdb_dir);

    // 2. Datagen: the merged file is the one-machine run, byte for byte.
    let single = base.join("single.txt");
    let out = run(Command::new(BASHNI)
        .arg("datagen")
        .args(datagen_flags)
        .arg("--out")
        .arg(&single));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let merged = std::fs::read(data_dir.join("data.txt")).unwrap();
    assert!(!merged.is_empty());
    assert_eq!(
        merged,
        std::fs::read(&single).unwrap(),
        "merged datagen differs"
    );

    // 3. Match: the merged counts are the sum of the parts' ...
    let whole = json(&match_dir.join("match.json"));
    let mut sum = [0u64; 3];
    let mut penta = [0u64; 5];
    for i in 1..=4 {
        let part = json(&match_dir.join(format!("part-{i}.json")));
        assert_eq!(part["shard"], format!("{i}/4"));
        for k in 0..3 {
            sum[k] += part["wdl"][k].as_u64().unwrap();
        }
        for k in 0..5 {
            penta[k] += part["pentanomial"][k].as_u64().unwrap();
        }
    }
    let counts = |v: &Value, key: &str| -> Vec<u64> {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    assert_eq!(counts(&whole, "wdl"), sum.to_vec());
    assert_eq!(counts(&whole, "pentanomial"), penta.to_vec());
    assert_eq!(whole["played"], 10);
    // ... and those of the same match played whole on one machine.
    let one = base.join("one.json");
    let mut args: Vec<&str> = vec!["match"];
    args.extend_from_slice(&match_flags);
    let out = run(Command::new(BASHNI)
        .args(&args)
        .arg("--quiet")
        .arg("--result")
        .arg(&one));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let one = json(&one);
    for key in [
        "wdl",
        "wdl_first_as_white",
        "pentanomial",
        "terminations",
        "match_id",
    ] {
        assert_eq!(whole[key], one[key], "{key}");
    }
    let report = std::fs::read_to_string(match_dir.join("report.txt")).unwrap();
    assert!(
        report.contains("Merged 4 parts") && report.contains("(10 games)"),
        "{report}"
    );

    // 4. Every game of the merged PDN replays as legal.
    let pdn = std::fs::read_to_string(match_dir.join("games.pdn")).unwrap();
    let games = parse_games(&pdn).unwrap();
    assert_eq!(games.len(), 10);
    for g in &games {
        let moves: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        Game::from_fen_and_moves(g.tag("FEN").unwrap_or(START_FEN), &moves)
            .expect("a merged game replays as legal");
    }
    // 5. Endgame databases: the array's tables are those of one `build`, byte for byte, and
    // the verification job found each value consistent.
    let single = base.join("egdb-single");
    let out = run(Command::new(BASHNI)
        .args([
            "egdb",
            "build",
            "--variant",
            "russian",
            "--pieces",
            "3",
            "--out",
        ])
        .arg(&single));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut tables = 0;
    for entry in std::fs::read_dir(&single).unwrap() {
        let name = entry.unwrap().file_name();
        let from_array = std::fs::read(egdb_dir.join(&name)).expect("the array wrote it");
        assert!(
            from_array == std::fs::read(single.join(&name)).unwrap(),
            "{name:?} differs"
        );
        tables += 1;
    }
    assert_eq!(tables, 16);
    let verified = logs_of(&egdb_dir);
    assert!(
        verified.contains("russian: 16 tables") && verified.contains("each agrees with its moves"),
        "{verified}"
    );
    drop(cluster);
    let _ = std::fs::remove_dir_all(&base);
    eprintln!("slurm test: {:.1} s", started.elapsed().as_secs_f64());
}
