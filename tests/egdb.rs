//! `bashni egdb` (docs/egdb.md): every value of the 2-3 piece tables against a simple
//! independent solver (tests/egdb/simple.rs) at every clock, known theory, `verify`, and
//! damaged or foreign files refused.

pub(crate) mod simple;

use crate::common::deadline::Bounded;
use bashni::egdb::{EgdbGame, Store, Value, Wdl};
use bashni::games::{Game, Rules, russian, turkish};
use simple::Result3;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const BASHNI: &str = env!("CARGO_BIN_EXE_bashni");

/// Runs `bashni` with `args`: (exit code, stdout and stderr).
pub(crate) fn bashni(args: &[&str]) -> (i32, String) {
    let out = Command::new(BASHNI)
        .args(args)
        .output_bounded()
        .expect("run bashni");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

pub(crate) fn build(dir: &Path, args: &[&str]) {
    let mut all = vec!["egdb", "build", "--out", dir.to_str().unwrap()];
    all.extend(args);
    let (code, out) = bashni(&all);
    assert_eq!(code, 0, "{all:?}: {out}");
}

/// A folder of tables built once per test run: `variant`'s tables of 2 to `pieces` pieces,
/// then `material` (one more piece) from them.
pub(crate) fn tables(
    cell: &'static OnceLock<PathBuf>,
    name: &str,
    variant: &str,
    pieces: u32,
    material: &str,
) -> &'static Path {
    cell.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        let _ = std::fs::remove_dir_all(&dir);
        let (small, large) = (pieces.to_string(), (pieces + 1).to_string());
        build(&dir, &["--variant", variant, "--pieces", &small]);
        let one_more = [
            "--variant",
            variant,
            "--pieces",
            &large,
            "--material",
            material,
        ];
        build(&dir, &one_more);
        dir
    })
}

/// Russian tables of 2-3 pieces, and KKKvK (three kings against one) from them.
pub(crate) fn russian_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    tables(&DIR, "egdb-russian", "russian", 3, "KKKvK")
}

/// Turkish tables of 2 pieces, and the kings' 3-piece tables (KKvK, KvKK) from them.
fn turkish_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    tables(&DIR, "egdb-turkish", "turkish", 2, "KKvK")
}

pub(crate) const TWO: &[&str] = &["wb", "wB", "Wb", "WB"];
pub(crate) const THREE: &[&str] = &[
    "wwb", "wwB", "wWb", "wWB", "WWb", "WWB", "wbb", "wbB", "wBB", "Wbb", "WbB", "WBB",
];

/// Every position of `sets` against the simple solver, at every clock and without the rule.
pub(crate) fn check_every_value<G: EgdbGame>(dir: &Path, sets: &[&str], dark_only: bool) -> usize {
    let positions = simple::positions::<G>(sets, dark_only);
    let limit = G::CLOCK_LIMIT as usize;
    let solution = simple::solve(positions, limit);
    let store = Store::<G>::open(dir).expect("the tables read");
    let mut probe = store.prober();
    let mut wrong = Vec::new();
    for (p, pos) in solution.positions.iter().enumerate() {
        let v = probe.probe(pos).expect("in the tables");
        // The value layer alone gives the same class.
        assert_eq!(probe.probe_wdl(pos), Ok(Wdl::of(v)), "{}", pos.to_fen());
        let free = match v {
            Value::Win(_) | Value::CursedWin(_) => Result3::Win,
            Value::Draw => Result3::Draw,
            Value::BlessedLoss(_) | Value::Loss(_) => Result3::Loss,
        };
        let mut ok = free == solution.free[p];
        for c in 0..=limit {
            let expected = match v.at_clock(c as u16, limit as u16) {
                bashni::egdb::Outcome::Win => Result3::Win,
                bashni::egdb::Outcome::Draw => Result3::Draw,
                bashni::egdb::Outcome::Loss => Result3::Loss,
            };
            ok &= expected == solution.at[c][p];
        }
        if !ok && wrong.len() < 5 {
            let at: Vec<_> = (0..=limit)
                .map(|c| format!("{:?}", solution.at[c][p]))
                .collect();
            wrong.push(format!(
                "{}: tables {v}, simple solver {:?} by clock, {:?} free",
                pos.to_fen(),
                at,
                solution.free[p]
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    solution.positions.len()
}

#[test]
fn russian_two_and_three_pieces_agree_with_the_simple_solver_at_every_clock() {
    let mut sets = TWO.to_vec();
    sets.extend(THREE);
    let n = check_every_value::<russian::Position>(russian_dir(), &sets, true);
    assert!(n > 390_000, "{n} positions");
}

/// The search's probe keeps the values it found by position hash and decodes each block only
/// as far as it reads: asked in any order, and again, it answers as a fresh probe of each
/// position's block decoded whole.
#[test]
fn the_search_s_cached_probe_answers_as_whole_blocks_do() {
    use bashni::search::egdb::{CachedProbe, Tablebase};
    let store = Store::<russian::Position>::open(russian_dir()).expect("tables");
    let tb: &dyn Tablebase<russian::Position> = &store;
    let mut cached = CachedProbe::new(tb, 6);
    let positions = simple::positions::<russian::Position>(THREE, true);
    // A stride through the list, forwards and then backwards (every position a second
    // time): the blocks are met out of order, each many times.
    let order: Vec<usize> = (0..positions.len()).step_by(13).collect();
    let mut n = 0;
    for &i in order.iter().chain(order.iter().rev()) {
        let pos = &positions[i];
        let fresh = store.prober().probe(pos).ok();
        assert_eq!(cached.probe(pos), search_value(fresh), "{}", pos.to_fen());
        n += 1;
    }
    assert!(n > 50_000, "{n} probes");
}

/// A value as the search's probe gives it: a cursed win's or blessed loss's distance is 0
/// (a draw at every clock).
fn search_value(v: Option<Value>) -> Option<Value> {
    v.map(|v| match v {
        Value::CursedWin(_) => Value::CursedWin(bashni::egdb::Plies(0)),
        Value::BlessedLoss(_) => Value::BlessedLoss(bashni::egdb::Plies(0)),
        v => v,
    })
}

#[test]
fn turkish_two_pieces_and_three_kings_agree_with_the_simple_solver_at_every_clock() {
    let mut sets = TWO.to_vec();
    sets.push("WWB");
    let n = check_every_value::<turkish::Position>(turkish_dir(), &sets, false);
    assert!(n > 250_000, "{n} positions");
}

fn russian(fen: &str) -> russian::Position {
    russian::Position::from_fen(fen).expect("fen")
}

/// Every position of three white kings against one black king with `side` to move.
fn three_kings(side: &str) -> Vec<russian::Position> {
    simple::positions::<russian::Position>(&["WWWB"], true)
        .into_iter()
        .filter(|p| p.to_fen().split(' ').nth(1) == Some(side))
        .collect()
}

/// Whether the king of `color` stands on the long diagonal a1-h8.
fn on_long_diagonal(p: &russian::Position, white: bool) -> bool {
    (0..8).any(|i| {
        p.tower_at(i, i).is_some_and(|t| {
            !t.is_empty()
                && t.top().is_king()
                && (t.top().color() == bashni::games::kit::Color::White) == white
        })
    })
}

#[test]
fn russian_theory() {
    let store = Store::<russian::Position>::open(russian_dir()).expect("tables");
    let mut probe = store.prober();
    // One king against one king: drawn, unless a king is taken at once or is caught in a
    // corner (within three plies).
    let (mut draws, mut caught) = (0, 0);
    for p in simple::positions::<russian::Position>(&["WB"], true) {
        let v = probe.probe(&p).unwrap();
        if v == Value::Draw {
            draws += 1;
        } else {
            assert!(v.distance().unwrap().0 <= 3, "{}: {v}", p.to_fen());
            caught += 1;
        }
    }
    // Measured: 1,592 drawn, 392 not (most of them a capture to play).
    assert!(draws > 3 * caught, "{draws} drawn, {caught} not");
    // Three kings against one: the lone king on the long diagonal, the three kings off it,
    // the lone king to move without a capture: drawn (it keeps the diagonal).
    let (mut held, mut won, mut longest) = (0, 0, 0);
    for p in three_kings("b") {
        if on_long_diagonal(&p, false) && !on_long_diagonal(&p, true) && !p.can_capture() {
            assert_eq!(probe.probe(&p).unwrap(), Value::Draw, "{}", p.to_fen());
            held += 1;
        }
    }
    // Petrov's triangle: the lone king off the long diagonal, a king of the three on it, the
    // three to move: won within the fifteen-move rule from a fresh clock, but for a few
    // positions where the three kings stand in their own way (W:WKa1,Kb2,Kd2:BKc1: every
    // move frees the lone king or gives it a capture).
    let mut not_won = 0;
    for p in three_kings("w") {
        if !on_long_diagonal(&p, false) && on_long_diagonal(&p, true) && !p.can_capture() {
            match probe.probe(&p).unwrap() {
                Value::Win(d) => {
                    longest = longest.max(d.0);
                    won += 1;
                }
                Value::Draw => not_won += 1,
                v => panic!("{}: {v}", p.to_fen()),
            }
        }
    }
    // Measured: 44,516 won, 576 not.
    assert!(not_won * 50 < won, "{won} won, {not_won} not");
    assert!(held > 1000 && won > 10_000, "{held} held, {won} won");
    assert!(longest <= 29, "the longest win takes {longest} plies");
    // A worked example of docs/egdb.md.
    assert_eq!(
        probe.probe(&russian("W:WKc1,Ka3,Kg1:BKb8")).unwrap(),
        Value::Win(bashni::egdb::Plies(18))
    );
    eprintln!(
        "three kings: {held} held on the diagonal; triangle {won} won, {not_won} not, the longest in {longest} plies"
    );
}

#[test]
fn verify_finds_every_stored_value_consistent() {
    let (code, out) = bashni(&["egdb", "verify", "--dir", russian_dir().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("russian: 18 tables") && out.contains("each agrees with its moves"),
        "{out}"
    );
    let (code, out) = bashni(&["egdb", "verify", "--dir", turkish_dir().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn probe_prints_one_line_and_the_clock_matters() {
    let dir = russian_dir().to_str().unwrap();
    let probe = |fen: &str| {
        bashni(&[
            "egdb",
            "probe",
            "--variant",
            "russian",
            "--dir",
            dir,
            "--fen",
            fen,
        ])
    };
    assert_eq!(probe("W:WKa1:BKh8"), (0, "loss 2\n".to_string()));
    assert_eq!(probe("W:WKc1,Ka3,Kg1:BKb8"), (0, "win 18\n".to_string()));
    assert_eq!(
        probe("W:WKc1,Ka3,Kg1:BKb8:H20:F1"),
        (0, "win 18 (draw with the clock at 20 of 30)\n".to_string())
    );
    let (code, out) = probe("W:WKa1,Kc1,Ke1,Kg1:BKh8");
    assert_eq!((code, out.lines().count()), (1, 1), "{out}");
    assert!(out.starts_with("error: no table for KKKKvK"), "{out}");
}

#[test]
fn damaged_foreign_and_strange_files_are_refused_in_one_line() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("egdb-damaged");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read(russian_dir().join("russian-KvK.egdb")).unwrap();
    let table = dir.join("russian-KvK.egdb");
    let probe = || {
        bashni(&[
            "egdb",
            "probe",
            "--variant",
            "russian",
            "--dir",
            dir.to_str().unwrap(),
            "--fen",
            "W:WKa1:BKh8",
        ])
    };
    let refused = |(code, out): (i32, String), what: &str| {
        assert_eq!((code, out.lines().count()), (1, 1), "{out}");
        assert!(out.starts_with("error: ") && out.contains(what), "{out}");
    };
    // A byte changed in the header's sizes (then the file's size is not the one declared:
    // nothing more is read), the value layer's prior, the middle, the distance layer's last
    // byte.
    for at in [50, 100, good.len() / 2, good.len() - 1] {
        let mut damaged = good.clone();
        damaged[at] ^= 0x40;
        std::fs::write(&table, &damaged).unwrap();
        let why = if at == 50 {
            "damaged table (its size is not what its header says)"
        } else {
            "damaged table (checksum mismatch)"
        };
        refused(probe(), why);
    }
    let mut old = good.clone();
    old[8] = 1;
    std::fs::write(&table, &old).unwrap();
    refused(
        probe(),
        "table format version 1, this build reads version 2",
    );
    std::fs::write(&table, b"").unwrap();
    refused(probe(), "not an endgame table");
    std::fs::write(&table, &good[..30]).unwrap();
    refused(probe(), "damaged table");
    std::fs::write(&table, b"not a table at all").unwrap();
    refused(probe(), "not an endgame table");
    // A table under another name: refused, not misread.
    std::fs::write(
        &table,
        std::fs::read(russian_dir().join("russian-KvM.egdb")).unwrap(),
    )
    .unwrap();
    refused(probe(), "holds russian KvM");
    std::fs::write(&table, &good).unwrap();
    assert_eq!(probe(), (0, "loss 2\n".to_string()));
    let (code, out) = bashni(&[
        "egdb",
        "build",
        "--variant",
        "bashni",
        "--pieces",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("bashni has no endgame databases"), "{out}");
    let (code, _) = bashni(&[
        "egdb",
        "build",
        "--variant",
        "russian",
        "--pieces",
        "3",
        "--out",
        dir.to_str().unwrap(),
        "--material",
        "KKx",
    ]);
    assert_eq!(code, 2);
    let (code, out) = bashni(&[
        "egdb",
        "build",
        "--variant",
        "russian",
        "--pieces",
        "3",
        "--out",
        dir.to_str().unwrap(),
        "--material",
        "KKKvK",
    ]);
    assert_eq!(
        (code, out.as_str()),
        (
            1,
            "error: --material KKKvK has 4 pieces, more than --pieces 3\n"
        )
    );
}

#[test]
fn a_material_build_replaces_its_own_old_or_damaged_file() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("egdb-rebuild");
    let _ = std::fs::remove_dir_all(&dir);
    build(&dir, &["--variant", "turkish", "--pieces", "2"]);
    let table = dir.join("turkish-KvK.egdb");
    let good = std::fs::read(&table).unwrap();
    let mut old = good.clone();
    old[8] = 1;
    std::fs::write(&table, &old).unwrap();
    build(
        &dir,
        &["--variant", "turkish", "--pieces", "2", "--material", "KvK"],
    );
    assert_eq!(std::fs::read(&table).unwrap(), good);
    // Another table's damage still stops it.
    std::fs::write(dir.join("turkish-KvM.egdb"), b"junk").unwrap();
    let (code, out) = bashni(&[
        "egdb",
        "build",
        "--variant",
        "turkish",
        "--pieces",
        "2",
        "--material",
        "KvK",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("turkish-KvM.egdb: not an endgame table"),
        "{out}"
    );
}
