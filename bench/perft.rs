//! Perft speed benchmark (`cargo bench --bench perft`): the start position and a midgame with
//! towers of mixed colour and a king, five runs each; prints the median moves per second.

use bashni::games::bashni::notation::{START_FEN, parse_fen};
use bashni::games::bashni::perft::perft;
use std::time::Instant;

fn median_rate(fen: &str, depth: u32) -> (u64, f64) {
    let pos = parse_fen(fen).expect("valid FEN");
    let mut rates = Vec::new();
    let mut nodes = 0;
    for _ in 0..5 {
        let t = Instant::now();
        nodes = perft(&pos, depth);
        rates.push(nodes as f64 / t.elapsed().as_secs_f64());
    }
    rates.sort_by(|a, b| a.total_cmp(b));
    (nodes, rates[2])
}

fn main() {
    let cases = [
        ("start", START_FEN, 10),
        (
            "midgame",
            "1b3b2/6b1/3(bw)3(wwb)/6(Wwwbbbb)1/7w/4(bw)1(wbb)1/8/w3w1w1 w 0 21",
            11,
        ),
    ];
    for (name, fen, depth) in cases {
        let (nodes, rate) = median_rate(fen, depth);
        println!(
            "{name:<8} perft {depth}: {nodes} moves, median {:.1} M moves/s",
            rate / 1e6
        );
    }
}
