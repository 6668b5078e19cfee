//! `bashni bench`: a fixed set of positions searched to a fixed depth. With one thread the
//! total node count is a fingerprint of the search: it changes only when the search does.

use crate::rules::notation::{START_FEN, parse_fen};
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

/// Searches every bench position to `depth`; prints one line per position and the total
/// line `nodes <N> time <ms> nps <nps>`. Returns the total node count, or the error when
/// the table cannot be allocated.
pub fn run(depth: u32, threads: usize, hash_mb: usize) -> Result<u64, TableError> {
    let mut engine = Engine::new();
    engine.set_hash_mb(hash_mb)?;
    engine.set_threads(threads);
    let limits = SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut total_nodes = 0u64;
    let mut total_time = std::time::Duration::ZERO;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = parse_fen(fen).expect("bench FENs are valid");
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

    #[test]
    fn positions_are_valid_and_many() {
        assert!(POSITIONS.len() >= 30);
        for fen in POSITIONS {
            parse_fen(fen).unwrap();
        }
    }
}
