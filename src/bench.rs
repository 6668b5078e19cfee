//! `bashni bench`: a fixed set of positions of one game searched to a fixed depth. With one
//! thread the total node count is a fingerprint of the search and the game's evaluation: it
//! changes only when one of them does. Each game has its own positions
//! ([`Game::BENCH_POSITIONS`], in its folder's `bench.rs`).

use crate::games::{Game, Variant};
use crate::search::{Engine, SearchControl, SearchLimits, TableError};
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// The bench positions of `variant` (each game's [`Game::BENCH_POSITIONS`]).
pub fn positions(variant: Variant) -> &'static [&'static str] {
    crate::for_variant!(variant, G => G::BENCH_POSITIONS)
}

/// What `bashni bench` runs: the search's depth, threads and table size.
#[derive(Clone, Copy, Debug)]
pub struct BenchSettings {
    /// Depth of every search.
    pub depth: u32,
    /// Search threads.
    pub threads: usize,
    /// Transposition table, MiB.
    pub hash_mb: usize,
}

/// Searches every bench position of game `G` to `depth`; prints one line per position and
/// the total line `nodes <N> time <ms> nps <nps>`. Returns the total node count, or the error
/// when the table cannot be allocated.
pub fn run<G: Game>(settings: BenchSettings) -> Result<u64, TableError> {
    let BenchSettings {
        depth,
        threads,
        hash_mb,
    } = settings;
    let mut engine = Engine::new();
    engine.set_hash_mb(hash_mb)?;
    engine.set_threads(threads);
    let limits = SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut total_nodes = 0u64;
    let mut total_time = std::time::Duration::ZERO;
    for (i, fen) in G::BENCH_POSITIONS.iter().enumerate() {
        let pos = G::from_fen(fen).expect("bench FENs are valid");
        engine.new_game();
        let control = SearchControl::new(false);
        let t = Instant::now();
        let r = engine.search(&pos, &[], &limits, &control, &mut |_| {});
        total_time += t.elapsed();
        let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
        println!(
            "position {:>2} best {:<16} score {:>9} nodes {:>10} time {:>6} {fen}",
            i + 1,
            best,
            r.score.human(),
            r.nodes,
            t.elapsed().as_millis()
        );
        total_nodes += r.nodes;
    }
    // Search time only: clearing the table between positions is not search work.
    let ms = total_time.as_millis();
    let nps = (total_nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64;
    println!("nodes {total_nodes} time {ms} nps {nps}");
    Ok(total_nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid<G: Game>(least: usize) {
        let all = G::BENCH_POSITIONS;
        assert!(all.len() >= least);
        let mut seen = std::collections::HashSet::new();
        for fen in all {
            let pos = G::from_fen(fen).unwrap();
            assert!(pos.has_legal_move(), "{fen}");
            assert!(seen.insert(pos.hash()), "twice: {fen}");
        }
    }

    #[test]
    fn positions_are_valid_and_many() {
        valid::<crate::games::bashni::Position>(30);
        valid::<crate::games::turkish::Position>(24);
        valid::<crate::games::russian::Position>(24);
        valid::<crate::games::brazilian::Position>(24);
    }
}
