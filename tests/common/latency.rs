//! Latency measurements (a benchmark, not a test): run through the ignored test
//! `latency_figures` of tests/protocol.rs.

use super::gui::Gui;
use bashni::games::bashni::game::Game;
use bashni::games::bashni::notation::{START_FEN, parse_fen};
use std::time::Duration;

/// Median and maximum of some durations, in ms.
fn stats(mut v: Vec<Duration>) -> String {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "median {:.1} ms, max {:.1} ms (n={})",
        ms(v[v.len() / 2]),
        ms(v[v.len() - 1]),
        v.len()
    )
}

/// Measures the latency targets of engine-protocol.md and prints them: `stop` and `isready`
/// during `go infinite`, `go movetime T`, and a whole game at 1 s + 10 ms per side.
pub fn report() {
    for threads in [1, 2] {
        let mut gui = Gui::new();
        gui.send(&format!("setoption name Threads value {threads}"));
        let (mut stop, mut ready) = (Vec::new(), Vec::new());
        for i in 0..20 {
            gui.send("go infinite");
            std::thread::sleep(Duration::from_millis(50 + 20 * i));
            let sent = gui.send("isready");
            ready.push(gui.until_timed(|l| l == "readyok").1 - sent);
            std::thread::sleep(Duration::from_millis(20));
            let sent = gui.send("stop");
            stop.push(gui.until_timed(|l| l.starts_with("bestmove")).1 - sent);
        }
        println!("threads {threads}: stop -> bestmove: {}", stats(stop));
        println!(
            "threads {threads}: isready -> readyok while searching: {}",
            stats(ready)
        );
        for t in [100u64, 200, 500, 1000] {
            let mut took = Vec::new();
            for _ in 0..5 {
                let sent = gui.send(&format!("go movetime {t}"));
                took.push(gui.until_timed(|l| l.starts_with("bestmove")).1 - sent);
            }
            println!(
                "threads {threads}: go movetime {t}: answered after {}",
                stats(took)
            );
        }
        // A whole game at 1 s + 10 ms per side, the engine playing both sides.
        let mut g = Game::new(parse_fen(START_FEN).unwrap());
        let mut clock = [1000i64, 1000];
        let mut used = Vec::new();
        while g.outcome().is_none() && g.moves().len() < 200 {
            let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
            gui.send(&format!("position startpos moves {}", moves.join(" ")));
            let side = g.moves().len() % 2;
            let sent = gui.send(&format!(
                "go wtime {} btime {} winc 10 binc 10",
                clock[0], clock[1]
            ));
            let (lines, t) = gui.until_timed(|l| l.starts_with("bestmove"));
            let took = t - sent;
            used.push(took);
            clock[side] -= took.as_millis() as i64;
            assert!(
                clock[side] > 0,
                "lost on time after {} plies",
                g.moves().len()
            );
            clock[side] += 10;
            let best = lines
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_string();
            g.play_text(&best).unwrap();
        }
        println!(
            "threads {threads}: game at 1s+10ms: {} plies, per move {}, clocks left {:?} ms",
            g.moves().len(),
            stats(used),
            clock
        );
    }
}
