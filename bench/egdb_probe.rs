//! Endgame-database probe timings (`EGDB_DIR=DIR cargo bench --profile suite --bench
//! egdb_probe`): the Russian tables in DIR (built with `bashni egdb build --variant russian`),
//! positions without a capture to play of every table of the most pieces there.
//!
//! - cached: the same 8 positions over and over (their blocks decoded once), `probe_wdl`
//!   (the value layer) and `probe` (both layers);
//! - in order: every 7th such position of each table, one after the other (neighbours share
//!   blocks, most probes hit the cache);
//! - scattered: the same positions in a shuffled order (most probes decode a block).

use bashni::egdb::material::indexer;
use bashni::egdb::{EgdbGame, Store};
use bashni::games::Game;
use bashni::games::russian::Position;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

/// Nanoseconds a call of `f` over `positions`, `rounds` times.
fn time(positions: &[Position], rounds: usize, mut f: impl FnMut(&Position)) -> f64 {
    let t = Instant::now();
    for _ in 0..rounds {
        positions.iter().for_each(&mut f);
    }
    t.elapsed().as_nanos() as f64 / (positions.len() * rounds) as f64
}

fn main() {
    let dir = PathBuf::from(std::env::var("EGDB_DIR").expect("set EGDB_DIR to a folder of tables"));
    let store = Store::<Position>::open(&dir).expect("the tables open");
    let tables = store.file_tables();
    let most = tables
        .iter()
        .map(|(s, _)| s.pieces())
        .max()
        .expect("tables");
    let mut positions = Vec::new();
    for (sig, file) in tables.iter().filter(|(s, _)| s.pieces() == most) {
        let ix = indexer::<Position>(*sig);
        for slot in (0..file.slots).step_by(7) {
            if let Some(l) = ix.layout(slot) {
                let p = Position::from_layout(&l);
                if p.decided().is_none() && !p.can_capture() {
                    positions.push(p);
                }
            }
        }
    }
    println!(
        "{} tables of {most} pieces, {} positions",
        tables.len(),
        positions.len()
    );
    let mut probe = store.prober();
    let few: Vec<Position> = positions
        .iter()
        .step_by(positions.len() / 8)
        .take(8)
        .cloned()
        .collect();
    let cached_wdl = time(&few, 200_000, |p| {
        black_box(probe.probe_wdl(p).unwrap());
    });
    let cached = time(&few, 200_000, |p| {
        black_box(probe.probe(p).unwrap());
    });
    println!("cached: probe_wdl {cached_wdl:.0} ns, probe {cached:.0} ns");
    let mut probe = store.prober();
    let in_order_wdl = time(&positions, 1, |p| {
        black_box(probe.probe_wdl(p).unwrap());
    });
    let mut probe = store.prober();
    let in_order = time(&positions, 1, |p| {
        black_box(probe.probe(p).unwrap());
    });
    println!("in order: probe_wdl {in_order_wdl:.0} ns, probe {in_order:.0} ns");
    // A fixed shuffle (xorshift), the same every run.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for i in (1..positions.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        positions.swap(i, (x % (i as u64 + 1)) as usize);
    }
    let sample = &positions[..positions.len().min(200_000)];
    let mut probe = store.prober();
    let scattered_wdl = time(sample, 1, |p| {
        black_box(probe.probe_wdl(p).unwrap());
    });
    let mut probe = store.prober();
    let scattered = time(sample, 1, |p| {
        black_box(probe.probe(p).unwrap());
    });
    println!(
        "scattered ({} positions): probe_wdl {scattered_wdl:.0} ns, probe {scattered:.0} ns",
        sample.len()
    );
}
