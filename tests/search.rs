//! Search tests: loss distances, tactics that need depth, legal moves everywhere, determinism, limits, stop, draws, and the shared table under threads.

use crate::common::deadline::{DEADLINE, join};
use bashni::games::bashni::movegen::legal_moves;
use bashni::games::bashni::notation::{parse_fen, parse_move};
use bashni::games::bashni::position::Position;
use bashni::search::tt::{Bound, Entry, TranspositionTable};
use bashni::search::{Engine, Score, SearchControl, SearchLimits, SearchResult};
use rand::{RngExt, SeedableRng, rngs::StdRng};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn search(pos: &Position, limits: SearchLimits, threads: usize) -> SearchResult {
    let mut e = Engine::new();
    e.set_threads(threads);
    let c = SearchControl::new(false);
    e.search(pos, &[], &limits, &c, &mut |_| {})
}

/// [`search`] with the linear evaluation alone (`Use NNUE` off).
fn search_linear(pos: &Position, limits: SearchLimits) -> SearchResult {
    let mut e = Engine::new();
    e.use_network(false);
    let c = SearchControl::new(false);
    e.search(pos, &[], &limits, &c, &mut |_| {})
}

fn depth(d: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(d),
        ..Default::default()
    }
}

#[test]
fn lost_position_reports_loss_distance() {
    // Black's only man must step into a capture of the last piece: loss in 2 plies.
    let pos = parse_fen("8/8/8/8/8/b7/8/w1w5 b").unwrap();
    let r = search(&pos, depth(6), 1);
    assert_eq!(r.score, Score::LossIn(2));
    // No legal move at all: no best move, a loss now.
    let none = parse_fen("8/8/8/8/8/8/8/w7 b").unwrap();
    let r = search(&none, depth(4), 1);
    assert!(r.best.is_none());
    assert_eq!(r.score, Score::LossIn(0));
}

#[test]
fn best_move_is_legal_in_random_positions() {
    let mut rng = StdRng::seed_from_u64(9);
    let mut engine = Engine::new();
    for i in 0..60 {
        let mut pos = Position::startpos();
        for _ in 0..rng.random_range(0..120) {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.play(&moves[rng.random_range(0..moves.len())]);
        }
        engine.set_threads(1 + i % 2);
        let c = SearchControl::new(false);
        let r = engine.search(&pos, &[], &depth(5), &c, &mut |_| {});
        let legal = legal_moves(&pos);
        match r.best {
            Some(m) => assert!(legal.contains(&m)),
            None => assert!(legal.is_empty()),
        }
        // The PV is a legal line.
        let mut p = pos.clone();
        for m in &r.pv {
            assert!(legal_moves(&p).contains(m));
            p.play(m);
        }
    }
}

#[test]
fn one_thread_is_deterministic() {
    let pos = parse_fen("1b1b1b1b/b1b1b3/3b1b1b/b3(bw)3/8/w1w1w1w1/1w1w3w/w1w1w1w1 w 2 4").unwrap();
    let a = search(&pos, depth(7), 1);
    let b = search(&pos, depth(7), 1);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
}

/// Time limits are checked by the search ending at all (within [`DEADLINE`], a hang guard that a
/// machine ten times slower stays far inside): a move time or clock that is ignored searches
/// the start position for hours. How soon it ends is a speed figure (bench/, the latency
/// benchmark), not a verdict.
#[test]
fn limits_are_respected() {
    let pos = Position::startpos();
    let t = Instant::now();
    let r = search(
        &pos,
        SearchLimits {
            movetime: Some(200),
            ..Default::default()
        },
        1,
    );
    assert!(
        t.elapsed() < DEADLINE,
        "movetime 200 took {:?}",
        t.elapsed()
    );
    assert!(r.best.is_some());
    let r = search(
        &pos,
        SearchLimits {
            nodes: Some(20_000),
            ..Default::default()
        },
        1,
    );
    assert!(r.nodes >= 20_000 && r.nodes < 21_000, "nodes {}", r.nodes);
    let r = search(&pos, depth(3), 1);
    assert_eq!(r.depth, 3);
    // White to move with one second against Black's ten hours: spending Black's clock would
    // think for many minutes.
    let t = Instant::now();
    let clock = SearchLimits {
        wtime: Some(1000),
        winc: Some(10),
        btime: Some(36_000_000),
        binc: Some(10),
        ..Default::default()
    };
    search(&pos, clock, 2);
    assert!(
        t.elapsed() < DEADLINE,
        "clock search took {:?}",
        t.elapsed()
    );
}

#[test]
fn stop_ends_an_infinite_search() {
    let pos = Position::startpos();
    let control = SearchControl::new(false);
    let c2 = Arc::clone(&control);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c2.stop();
        Instant::now()
    });
    let mut e = Engine::new();
    e.set_threads(2);
    let limits = SearchLimits {
        infinite: true,
        ..Default::default()
    };
    let r = e.search(&pos, &[], &limits, &control, &mut |_| {});
    let returned = Instant::now();
    let stopped_at = join(stopper, "the stopper thread");
    assert!(r.best.is_some());
    // Only `stop` can end it: returning at all is the check (DEADLINE is a hang guard).
    assert!(returned.duration_since(stopped_at) < DEADLINE);
}

#[test]
fn draw_rules_in_search() {
    // White is a king up, but 29 plies have passed without a capture and no capture is in
    // reach: whatever White does, the 30-ply rule draws.
    let pos = parse_fen("8/8/8/b7/8/8/8/W5W1 w 29 40").unwrap();
    assert_eq!(search(&pos, depth(6), 1).score, Score::Cp(0));
    // Repetition against the game history: after a1-b2 a5-b4 b2-a1 b4-a5 the position after a1-b2
    // has been seen before, so that move scores a draw.
    let mut game =
        bashni::games::bashni::game::Game::new(parse_fen("8/8/8/B7/8/8/8/W5W1 w 0 1").unwrap());
    for m in ["a1-b2", "a5-b4", "b2-a1", "b4-a5"] {
        game.play_text(m).unwrap();
    }
    let pos = game.position().clone();
    let only = vec![parse_move(&pos, "a1-b2").unwrap()];
    let limits = SearchLimits {
        depth: Some(4),
        searchmoves: only,
        ..Default::default()
    };
    let mut e = Engine::new();
    let c = SearchControl::new(false);
    let r = e.search(&pos, game.history(), &limits, &c, &mut |_| {});
    assert_eq!(r.score, Score::Cp(0));
    let free = search(
        &pos,
        SearchLimits {
            searchmoves: limits.searchmoves.clone(),
            ..depth(4)
        },
        1,
    );
    assert!(
        matches!(free.score, Score::Cp(c) if c > 100),
        "{:?}",
        free.score
    );
}

#[test]
fn tt_entries_are_never_torn() {
    let tt = Arc::new(TranspositionTable::new(1).unwrap());
    let keys: Vec<u64> = {
        let mut rng = StdRng::seed_from_u64(3);
        (0..20_000).map(|_| rng.random::<u64>() | 1).collect()
    };
    let keys = Arc::new(keys);
    // Every entry is a function of its key, so any mix of two writes is detectable.
    fn entry_for(k: u64) -> Entry {
        Entry {
            move_key: (k >> 32) as u32 | 1,
            score: (k & 0x3fff) as i16,
            depth: (k >> 16) as u8 & 127,
            proof: k & 4 == 4,
            bound: [Bound::Upper, Bound::Lower, Bound::Exact][(k % 3) as usize],
        }
    }
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let tt = Arc::clone(&tt);
            let keys = Arc::clone(&keys);
            std::thread::spawn(move || {
                let mut hits = 0u64;
                for round in 0..20 {
                    for (i, &k) in keys.iter().enumerate() {
                        if (i + t + round) % 2 == 0 {
                            tt.store(k, entry_for(k));
                        } else if let Some(e) = tt.probe(k) {
                            assert_eq!(e, entry_for(k), "torn entry for key {k:x}");
                            hits += 1;
                        }
                    }
                }
                hits
            })
        })
        .collect();
    let hits: u64 = handles
        .into_iter()
        .map(|h| join(h, "a thread of the table's test"))
        .sum();
    assert!(hits > 0);
}

#[test]
fn multipv_gives_distinct_lines() {
    let pos = Position::startpos();
    let mut e = Engine::new();
    let c = SearchControl::new(false);
    let mut firsts = std::collections::BTreeMap::new();
    let limits = SearchLimits {
        depth: Some(5),
        multipv: 3,
        ..Default::default()
    };
    // Lines only: a search that runs over a second (on a slow machine) also reports the root
    // move it is on (`currmove`), with no principal variation.
    e.search(&pos, &[], &limits, &c, &mut |i| {
        if i.depth == 5 && i.currmove.is_none() {
            firsts.insert(i.multipv, i.pv[0]);
        }
    });
    assert_eq!(firsts.len(), 3);
    let mut v: Vec<_> = firsts.values().collect();
    v.dedup();
    assert_eq!(v.len(), 3);
    let _ = parse_move(&pos, "c3-d4").unwrap();
}

/// Positions (from seeded games) where a depth-2 search picks another move, but the only
/// move that keeps a decisive advantage (the second best is at least 2 men worse) needs
/// depth: quiet sacrifices that force the opponent into a capture after which our towers
/// take several towers back, and prisoners freed along the way.
const TACTICS: &[(&str, &str, &str)] = &[
    // Sacrifice on c5: Black must take three (d6:b4:d2:f4), then g3:e5 and f4:d6:f8:b4
    // take more back.
    (
        "1b1b3b/b3b1b1/1(bb)1b1b1b/8/1(wb)6/2(ww)1(ww)1w1/1w5w/w1w1w1w1 w 1 8",
        "b4-c5",
        "sacrifice",
    ),
    // Sacrifice d4-c5 (freeing the white man under d4's tower when it is taken) wins a tower.
    (
        "1b1b1b1b/b1b3b1/3b1b2/(wb)5b1/3(wb)4/4(www)1w1/3w3w/w1w1w1w1 w 1 8",
        "d4-c5",
        "frees",
    ),
    // d8-e7 gives a man to open the way for a double tower capture.
    (
        "3W1b1b/(bbw)1b5/1b6/b7/1(bb)3b1(bWww)/(bw)7/1w3w1w/w1w1w3 w 0 23",
        "d8-e7",
        "sacrifice",
    ),
    // Black: c3-d2 sacrifices, e1:c3 is forced, and g7:e5:g3:e1 takes three towers.
    (
        "3b1b1b/8/1(bbbbb)3w1b/2(bw)5/5w2/2b1(www)3/5(wwb)2/w1w1w1w1 b 3 23",
        "c3-d2",
        "sacrifice",
    ),
];

#[test]
fn tactics_that_need_depth_are_found() {
    for &(fen, best, what) in TACTICS {
        let pos = parse_fen(fen).unwrap();
        let expected = parse_move(&pos, best).unwrap();
        let deep = search(&pos, depth(10), 1);
        assert_eq!(deep.best, Some(expected), "{what}: {fen}");
        assert!(
            matches!(deep.score, Score::Cp(c) if c >= 150) || matches!(deep.score, Score::WinIn(_)),
            "{fen}: {:?}",
            deep.score
        );
        // Depth finds what the linear evaluation does not see (the network, trained on
        // searched positions, sometimes sees it without depth).
        let shallow = search_linear(&pos, depth(2));
        assert_ne!(shallow.best, Some(expected), "{fen} is found without depth");
    }
}

#[test]
fn won_king_ending_is_found() {
    // Black's king and men against White's towers: d8-c7 forces a win; a depth-2 search
    // plays a7-b6 instead.
    let fen = "3(bw)4/b5(bbbbb)1/8/8/5w1(bwwwW)/(bww)7/7(wwbb)/w3(Bw)3 b 1 37";
    let pos = parse_fen(fen).unwrap();
    let r = search(&pos, depth(14), 1);
    assert!(matches!(r.score, Score::WinIn(_)), "{:?}", r.score);
    assert!(legal_moves(&pos).contains(&r.best.unwrap()));
}

/// With two threads, either may complete the next depth first, but the depths reach the
/// caller in order, none skipped (the choice of a line and its sending are one step: two
/// threads completing consecutive depths at the same moment once sent them swapped). The
/// last depth may come twice: when the answer's line is not the one shown first (a helper
/// showed it, the main thread completed it with another line), it is sent again.
#[test]
fn two_threads_report_the_depths_in_order() {
    let mut e = Engine::new();
    e.set_threads(2);
    let fens = [
        "5(BBW)2/8/8/(Wbb)7/3(Bwwwwwww)4/6(bbbb)1/7(wwwbbB)/8 w 1 46",
        "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1",
    ];
    for fen in fens {
        let pos = parse_fen(fen).unwrap();
        for _ in 0..300 {
            e.new_game();
            let mut depths = Vec::new();
            let control = SearchControl::new(false);
            e.search(&pos, &[], &depth(4), &control, &mut |info| {
                if info.currmove.is_none() {
                    depths.push(info.depth);
                }
            });
            let shown = depths.clone();
            while depths.len() > 1 && depths[depths.len() - 2] == depths[depths.len() - 1] {
                depths.pop();
            }
            assert_eq!(depths, (1..=4).collect::<Vec<u32>>(), "{fen}: {shown:?}");
        }
    }
}
