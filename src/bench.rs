//! `bashni bench`: a fixed set of positions of one game searched to a fixed depth. With one
//! thread the total node count is a fingerprint of the search and the game's evaluation: it
//! changes only when one of them does. Each game has its own positions ([`positions`]).

use crate::games::bashni::notation::START_FEN;
use crate::games::{Game, Variant};
use crate::search::{Engine, SearchControl, SearchLimits, TableError};
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// The bench positions: the start, early openings, middlegames with towers of mixed colour,
/// and endgames with kings and tall towers (reached by seeded semi-random games).
pub const POSITIONS: &[&str] = &[
    START_FEN,
    "1b1b1b1b/b1b1b1b1/1b6/2b3b1/3(bw)3w/w3w3/1w1w1w1w/w1w1w1w1 w 0 4",
    "1b1b1b1b/b1b1b1b1/1b1b4/w5b1/8/w3w1(bw)1/1w1w1w1w/w1w1w1w1 w 0 4",
    "1b1b1b1b/b1b1b3/1b1b3b/6b1/7(bwww)/w1w5/1w1w3w/w1w1w1w1 w 0 4",
    "1b1b1b1b/b1b1b3/3b1b1b/b3(bw)3/8/w1w1w1w1/1w1w3w/w1w1w1w1 w 2 4",
    "1b1b1b1b/b1b1b1b1/5b1(wb)/b1b5/8/w1w1w1w1/1w3w1w/w1w1w1w1 w 3 4",
    "1b3b1b/b1(bb)1b1b1/1(bw)3b1b/8/5(wb)2/w3w1(ww)1/1w3w2/w1w1w1w1 w 0 7",
    "1b1b1b1b/b3b1b1/3b3b/2(wb)1(wb)3/3(ww)1(wb)2/4w3/1w5w/w1w1w1w1 w 1 7",
    "1b1b1b1b/b1b3b1/3b3(wb)/4b3/7(bw)/w1(bw)1w3/1w1w3w/w1w1w1w1 w 0 7",
    "1b1b1b1b/b5b1/3(bb)1b1b/b3(bw)3/8/w1w1(ww)1w1/1w5w/w1w1w1w1 w 0 7",
    "1b1b3b/b1b1b1b1/1b1b3b/4(wb)3/3(ww)1(wb)2/w1w1w3/7w/w1w1w1w1 w 3 7",
    "1b1b1b1b/(wwbb)5b1/3b1b2/2b1(bww)3/7b/w1w3w1/1w3w1w/w5w1 w 7 11",
    "1b1b3b/b3b3/1b3b1(ww)/4(bbbb)3/5(bw)2/w1w3w1/1w1w3w/w1w3w1 w 0 11",
    "1b1b3b/b3b3/3b1b1b/b7/1(Bwwwwww)5(wbb)/w7/7w/w3w1w1 w 0 11",
    "1b1b1b1(Wbbb)/b3b3/1b1b1(bww)2/8/8/w1(bww)5/1w5w/w1w1w1w1 w 0 11",
    "1b1b1b1b/4b1b1/1b3(bwwww)1(wbb)/6b1/5b2/2w5/1w1w3w/w1w3w1 w 0 11",
    "5b1b/2b3b1/7(wb)/4(wbbbbb)1(wbb)1/3w3w/w3(ww)3/1w6/w1w1w3 w 1 16",
    "7b/b3b3/1b1(Wbbb)1b2/(bw)1(wb)5/3w4/w1(wbb)5/1w1w1w1w/w3w3 w 1 16",
    "1b3b1b/2b5/3b1b1(wbbbb)/4(bw)3/3(wb)4/w1w5/3(ww)1(ww)1w/w1w5 w 5 16",
    "1b1b1b2/8/8/6b1/3(wwbb)1(bw)2/2(bbbww)3(wbb)1/3w3w/w1w1w1w1 w 0 16",
    "1b3b2/6b1/3(bw)3(wwb)/6(Wwwbbbb)1/7w/4(bw)1(wbb)1/8/w3w1w1 w 0 21",
    "8/b7/1(bbbbbb)1(bW)1(wb)1b/(wb)7/8/(Bwwwww)7/3w3w/w1w5 w 1 21",
    "3b4/b1(bw)1(bb)3/7(wbb)/(bbb)7/1(bww)6/w1w3(bww)1/3w4/w3w1w1 w 0 21",
    "1b1b1b2/b5b1/3b3(wbb)/4(wbb)3/5w2/(Bwwwwww)7/3(Bwww)4/8 w 4 21",
    "7b/(bW)7/1(wwb)5b/w1(wbb)5/5(bbbb)2/w1w5/1(ww)5w/4w1(wbb)1 b 1 28",
    "5b2/(wb)5b1/7b/2(wW)5/3(wwbbbb)4/8/1w5(bbbww)/w1w1(Bw)1w1 b 0 28",
    "5b2/2b5/5b1(wwwwww)/2(wbbBbb)5/7(wbb)/2(wbb)3w1/3w4/6w1 b 2 28",
    "8/b5b1/5b1b/2(bB)5/3(bw)1(wwW)2/4(Bw)3/8/4(wwwwwwwbbbb)3 b 3 28",
    "1b6/b1(bw)5/8/4(Bbww)3/5(bwwWwww)2/8/3b4/2(BWw)1(Wbbbb)3 w 0 36",
    "1b3(bbbbBwwwww)2/b7/1(wbb)3(bbw)2/4(wWwb)3/8/8/5w2/w7 w 0 36",
    "5(BBW)2/8/8/(Wbb)7/3(Bwwwwwww)4/6(bbbb)1/7(wwwbbB)/8 w 1 46",
    "7(bwwww)/8/8/6b1/1B6/4(bb)1(WbbbB)1/8/2(Bwwwwwww)3(Bb)1 w 3 46",
];

/// Turkish draughts' bench positions: the start, and positions of self-play games (`bashni
/// datagen --variant turkish`, hand-set evaluation, 5000 nodes a move) from every phase,
/// with kings from the middlegame on.
pub const TURKISH_POSITIONS: &[&str] = &[
    crate::games::turkish::START_FEN,
    "8/bbbbb1bb/bbb1bbbb/3b1b2/1ww4w/w2wwww1/wwwwwwww/8 w 0 4",
    "8/2bb1bbb/bbb1bbb1/b7/1w2ww2/www1www1/www2ww1/3B4 w 0 15",
    "8/bbbb1bbb/bbbb1b2/3bb2w/1w6/w1www3/wwwwwwww/8 b 0 7",
    "8/2bb2bb/2bbbb1b/w1b1bb1b/4www1/2w1wwww/ww1w1ww1/8 b 0 18",
    "7W/1b1b2b1/1bb1bb2/4bb2/1wwbwwb1/1ww1ww1w/b1w1w1w1/8 b 0 22",
    "8/b4bb1/bbb2b1b/b3bb1b/b4w2/w1wwwwww/w1ww1w1w/8 w 0 20",
    "8/3bb1b1/bb1b1bb1/bbbb1b2/ww3w2/wwww1wbb/1ww3b1/8 w 0 23",
    "8/3b2bb/1b2bbbb/3b1b2/b3wwww/2w1wwww/2w2w2/8 w 0 34",
    "8/5b2/bb2bb1b/bb2bbb1/4ww1w/wwwwww1w/5w2/8 w 0 40",
    "8/2b1bb1b/b1bb1b2/b7/2ww1w1b/w1w1ww2/3www2/8 w 0 22",
    "8/b4b2/2bb2bb/w1b3bb/1ww1w1w1/2ww2ww/6w1/8 w 0 38",
    "8/2b4b/b2bbb2/1b1b1b2/w1w4b/1www2w1/2w3ww/8 b 0 26",
    "3B4/1b3b1b/4bb1b/b7/1ww1ww1w/w4w1w/6w1/8 w 0 35",
    "8/5b2/bbb2bbb/5B1b/2b2ww1/3w1ww1/5w2/8 w 0 43",
    "W7/2bb1w2/3bbb2/8/7w/ww3w1w/w7/3B2B1 w 0 51",
    "2W5/5b2/5b1b/b6b/b4b2/3w2ww/w6w/8 b 0 37",
    "3W1W1W/1b6/6w1/2w1w1b1/8/3w1w2/3ww3/7B b 0 40",
    "8/6bb/2bb2bb/8/5w2/8/7w/W7 b 0 20",
    "8/b1b5/5b2/3b4/2w2w1b/2w2w2/7w/8 w 0 43",
    "8/8/8/1W5b/7b/w1w1w2w/w1w4w/8 b 0 47",
    "6WW/8/b7/b1b5/8/8/2b2B2/8 b 0 63",
    "8/8/1bbb1b2/3B3b/1w4w1/4w3/8/8 w 0 53",
    "8/b4bb1/2b1bbbb/7b/4w1w1/5w2/8/1B6 b 0 34",
    "8/4b3/4b1w1/8/2w5/8/7B/5B2 w 0 39",
];

/// Russian draughts' bench positions: the start, and positions of self-play games (`bashni
/// datagen --variant russian`, hand-set evaluation, 5000 nodes a move) from every phase.
pub const RUSSIAN_POSITIONS: &[&str] = &[
    crate::games::russian::START_FEN,
    "1b1b1b1b/b1b1b1b1/3b3b/b7/5w1w/w1w5/1w3w1w/w1w1w1w1 w 0 4",
    "1b3b1b/b1b1b1b1/1b1b3b/6b1/1w6/w5w1/1w1w1w1w/w1w1w1w1 w 0 4",
    "1b1b1b1b/2b1b1b1/3b3b/2b5/5w2/w3w3/3w1w1w/w1w1w1w1 w 0 5",
    "1b1b1b1b/6b1/1b3b1b/b1b5/8/w1w1w3/1w3w1w/w1w1w1w1 w 0 6",
    "1b1b1b1b/b1b3b1/7b/8/3b4/w5w1/3w1w1w/w1w1w1w1 w 0 6",
    "1b1b1b1b/b3b3/5b2/b5w1/1b5w/2w1w3/1w1w4/w3w1w1 w 0 10",
    "3b1b1b/2b1b3/3b1b1b/w1b5/8/4w1w1/1w5w/w1w1w1w1 w 0 8",
    "1b1b3b/4b3/1b1b3b/b7/5w2/w1w1w3/3w4/w1w1w3 b 0 10",
    "1b1b1b1b/b1b5/7b/2b5/5w2/w1w1w3/8/w1w1w1w1 b 0 8",
    "1b1b1b1b/b1b5/8/2b3b1/8/w1w1w3/1w6/w1w1w1w1 w 0 8",
    "1b3b1b/b5b1/5b1b/8/5w2/w7/5w2/w1w1w1w1 b 0 9",
    "1b3b2/2b3b1/5b1b/2w5/7w/6w1/7w/w3w1w1 b 0 15",
    "1b1b4/w5b1/3b3b/8/7w/b5w1/1w6/2w3w1 b 0 20",
    "5b2/2b3b1/3b3b/8/1b1w1w1b/4w1w1/5w2/w5w1 b 0 16",
    "5b1b/2b3b1/3b4/4b3/1w5w/w1w5/3w3w/8 w 0 18",
    "1b3b2/4b3/5b2/b7/7w/2w1w3/3w4/2w5 b 0 20",
    "5b2/8/1b3b2/b7/5w1w/6w1/8/w1w5 b 0 20",
    "8/2b5/3b1b2/6b1/8/4w3/1w3w2/4w3 w 0 24",
    "1b6/8/8/b3b3/7b/8/3w1w1w/2w5 b 0 25",
    "8/8/7b/b7/3W4/8/8/2B1B3 w 0 34",
    "5b2/b7/5w1w/8/8/8/1b6/2B5 w 0 33",
    "3b4/8/5b1b/b5B1/8/8/7w/6w1 w 0 32",
    "1W6/8/5B1w/8/8/8/8/4w3 b 0 30",
    "8/8/8/4W3/8/8/3B4/6W1 b 0 39",
];

/// The bench positions of `variant`.
pub fn positions(variant: Variant) -> &'static [&'static str] {
    match variant {
        Variant::Bashni => POSITIONS,
        Variant::Turkish => TURKISH_POSITIONS,
        Variant::Russian => RUSSIAN_POSITIONS,
    }
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
    for (i, fen) in positions(G::VARIANT).iter().enumerate() {
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
        let all = positions(G::VARIANT);
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
    }
}
