//! Exact wins and losses: positions with a forced win of known length, found by a brute-force
//! solver, searched with every search feature on. The engine must report exactly the shortest
//! win (`mate N`), play a move that wins that fast, report the longest defence of a lost
//! position exactly, search every depth it is asked for, and stop `go mate N` on a proven win.

use crate::common;

use bashni::games::bashni::movegen::{has_legal_move, legal_moves};
use bashni::games::bashni::notation::{parse_fen, parse_move, to_fen};
use bashni::games::bashni::position::Position;
use bashni::games::bashni::setup::Setup;
use bashni::games::kit::color::Color;
use bashni::games::kit::moves::Move;
use bashni::games::kit::square::Square;
use bashni::games::kit::tower::{Piece, Tower};
use bashni::search::{Engine, Score, SearchControl, SearchLimits, SearchResult};
use common::gui::Gui;
use rand::{RngExt, SeedableRng, rngs::StdRng};
use std::collections::HashMap;
use std::time::Duration;

fn search(pos: &Position, limits: &SearchLimits) -> SearchResult {
    search_on(1, pos, limits)
}

/// [`search`] on `threads` threads.
fn search_on(threads: usize, pos: &Position, limits: &SearchLimits) -> SearchResult {
    let mut e = Engine::new();
    e.set_threads(threads);
    let c = SearchControl::new(false);
    e.search(pos, &[], limits, &c, &mut |_| {})
}

fn depth(d: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(d),
        multipv: 1,
        ..Default::default()
    }
}

/// Brute-force AND-OR search for forced wins (a side with no legal move has lost), with a
/// table of results already known. It knows nothing of the engine's search.
#[derive(Default)]
struct Solver {
    known: HashMap<(u64, u32), bool>,
}

impl Solver {
    /// Whether the side to move can leave the opponent without a legal move within `plies`.
    fn wins_within(&mut self, pos: &Position, plies: u32) -> bool {
        if plies == 0 {
            return false;
        }
        if let Some(&w) = self.known.get(&(pos.hash(), plies)) {
            return w;
        }
        let mut wins = false;
        for m in legal_moves(pos).iter() {
            if self.move_wins_within(pos, m, plies) {
                wins = true;
                break;
            }
        }
        self.known.insert((pos.hash(), plies), wins);
        wins
    }

    /// Whether playing `m` wins within `plies` (counting `m`).
    fn move_wins_within(&mut self, pos: &Position, m: &Move, plies: u32) -> bool {
        let child = pos.played(m);
        if !has_legal_move(&child) {
            return true;
        }
        if plies < 3 {
            return false;
        }
        for r in legal_moves(&child).iter() {
            if !self.wins_within(&child.played(r), plies - 2) {
                return false;
            }
        }
        true
    }

    /// The shortest forced win in own moves, if there is one within `max` of them.
    fn shortest_win(&mut self, pos: &Position, max: u32) -> Option<u32> {
        (1..=max).find(|&n| self.wins_within(pos, 2 * n - 1))
    }

    /// The moves that win in `n` own moves.
    fn winning_moves(&mut self, pos: &Position, n: u32) -> Vec<Move> {
        let moves = legal_moves(pos);
        moves
            .iter()
            .filter(|m| self.move_wins_within(pos, m, 2 * n - 1))
            .copied()
            .collect()
    }
}

/// The dark squares of the board as (file, rank), a1 = (0, 0).
fn dark_squares() -> Vec<(usize, usize)> {
    (0..8)
        .flat_map(|r| (0..8).map(move |f| (f, r)))
        .filter(|(f, r)| (f + r) % 2 == 0)
        .collect()
}

/// A random endgame as a FEN: the side to move gets two to four commanders, the other side
/// one or two; some are kings, some command towers holding pieces of either colour.
fn random_endgame(rng: &mut StdRng) -> String {
    let mut board: [[Option<String>; 8]; 8] = Default::default();
    let mut free = dark_squares();
    let white_moves = rng.random_bool(0.5);
    let ours = rng.random_range(2..5);
    let theirs = rng.random_range(1..3);
    for i in 0..ours + theirs {
        let white = (i < ours) == white_moves;
        let (f, r) = free.swap_remove(rng.random_range(0..free.len()));
        let far_rank = if white { 7 } else { 0 };
        let king = rng.random_bool(if i < ours { 0.4 } else { 0.3 }) || r == far_rank;
        let top = match (white, king) {
            (true, false) => 'w',
            (true, true) => 'W',
            (false, false) => 'b',
            (false, true) => 'B',
        };
        let mut tower = top.to_string();
        if rng.random_bool(0.35) {
            for _ in 0..rng.random_range(1..3) {
                let p = ['w', 'b', 'W', 'B'][rng.random_range(0..4)];
                tower.push(p);
            }
        }
        board[r][f] = Some(tower);
    }
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for cell in &board[r] {
                match cell {
                    None => empty += 1,
                    Some(t) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if t.len() == 1 {
                            s.push_str(t);
                        } else {
                            s.push_str(&format!("({t})"));
                        }
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    format!(
        "{} {}",
        ranks.join("/"),
        if white_moves { 'w' } else { 'b' }
    )
}

/// A random position of three to five pieces, towers where two land on one square.
fn random_small_position(rng: &mut StdRng) -> Position {
    let mut pos = Setup::new();
    let squares: Vec<Square> = Square::all().collect();
    let n = rng.random_range(3..6);
    for i in 0..n {
        let sq = squares[rng.random_range(0..squares.len())];
        let color = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let king = rng.random_bool(0.4) || sq.rank() == color.promotion_rank();
        let mut t = pos.tower(sq);
        t = if t.is_empty() {
            Tower::single(Piece::new(color, king))
        } else {
            t.with_bottom(Piece::new(color, king))
        };
        pos.put(sq, t);
    }
    pos.build().expect("at most 5 pieces")
}

#[test]
fn win_distances_are_exact() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut wins = 0;
    let mut checked = 0;
    while checked < 150 {
        let pos = random_small_position(&mut rng);
        if !has_legal_move(&pos) {
            continue;
        }
        checked += 1;
        let shortest = Solver::default().shortest_win(&pos, 3).map(|n| 2 * n - 1);
        let r = search(&pos, &depth(9));
        match shortest {
            Some(n) => {
                wins += 1;
                assert_eq!(r.score, Score::WinIn(n), "{}", to_fen(&pos));
            }
            None => assert!(
                !matches!(r.score, Score::WinIn(p) if p <= 5),
                "{} scored {:?}",
                to_fen(&pos),
                r.score
            ),
        }
    }
    assert!(wins >= 20, "only {wins} forced wins among the samples");
}

/// A position with a shortest forced win of `n` own moves and the moves that achieve it.
struct Won {
    fen: String,
    n: u32,
    winning: Vec<Move>,
}

/// Forced wins of 2 to 5 own moves from seeded random endgames, `per_length` of each length.
fn won_positions(per_length: usize) -> Vec<Won> {
    let mut rng = StdRng::seed_from_u64(2026);
    let mut found: Vec<Won> = Vec::new();
    let mut count = [0usize; 6];
    let mut tries = 0;
    while (2..=5).any(|n| count[n] < per_length) {
        tries += 1;
        assert!(tries < 200_000, "too few forced wins among the samples");
        let fen = random_endgame(&mut rng);
        let Ok(pos) = parse_fen(&fen) else { continue };
        if !has_legal_move(&pos) {
            continue;
        }
        let mut solver = Solver::default();
        let Some(n) = solver.shortest_win(&pos, 5) else {
            continue;
        };
        if n < 2 || count[n as usize] >= per_length {
            continue;
        }
        count[n as usize] += 1;
        let winning = solver.winning_moves(&pos, n);
        found.push(Won { fen, n, winning });
    }
    found
}

/// Whether a move is a long capture: several pieces taken, or a king flying over a distance.
fn long_capture(m: &Move) -> bool {
    let far = m.from().file().abs_diff(m.landings()[0].file()) > 2;
    m.is_capture() && (m.jumped().len() >= 2 || far)
}

#[test]
fn forced_wins_are_exact() {
    forced_wins_are_exact_on(1);
}

/// The threads share proofs and leave each other's moves for later (`abdada.rs`): neither may
/// change a win's distance.
#[test]
fn forced_wins_are_exact_with_two_threads() {
    forced_wins_are_exact_on(2);
}

fn forced_wins_are_exact_on(threads: usize) {
    let search = |pos: &Position, limits: &SearchLimits| search_on(threads, pos, limits);
    let positions = won_positions(8);
    assert!(positions.len() >= 30);
    let (mut kings, mut towers, mut long) = (0, 0, 0);
    for w in &positions {
        let pos = parse_fen(&w.fen).unwrap();
        let plies = 2 * w.n - 1;
        let r = search(&pos, &depth(2 * w.n + 1));
        assert_eq!(r.score, Score::WinIn(plies), "{} (mate {})", w.fen, w.n);
        assert_eq!(r.depth, 2 * w.n + 1, "{}", w.fen);
        long += r.pv.iter().filter(|m| long_capture(m)).count().min(1);
        let best = r.best.unwrap();
        assert!(
            w.winning.contains(&best),
            "{}: {best} does not win in {}",
            w.fen,
            w.n
        );
        // The defender, after the winning move, loses in exactly the remaining plies.
        let lost = pos.played(&best);
        let r = search(&lost, &depth(2 * w.n + 1));
        assert_eq!(r.score, Score::LossIn(plies - 1), "{}", to_fen(&lost));
        kings += w.fen.contains(['W', 'B']) as usize;
        towers += w.fen.contains('(') as usize;
    }
    assert!(
        kings >= 10 && towers >= 10 && long >= 5,
        "{kings} {towers} {long}"
    );
}

/// Black wins in 4 own moves (issue 11); a reduced search used to stop at depth 10 with a
/// mate in 5.
const MATE_IN_4: &str = "8/b5b1/1(bw)6/(Bbwwwww)1(bw)5/8/(bBww)7/5(Bbww)1(Wbb)/8 b 0 43";

/// The last `info depth` line with a score, split into words.
fn last_score_line(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .expect("no info line")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn field(words: &[String], key: &str) -> String {
    let i = words.iter().position(|w| w == key).expect(key);
    words[i + 1].clone()
}

/// Whether `text` is a move that wins in `n` own moves in `fen`.
fn wins_in(fen: &str, text: &str, n: u32) -> bool {
    let pos = parse_fen(fen).unwrap();
    let m = parse_move(&pos, text).unwrap();
    Solver::default().move_wins_within(&pos, &m, 2 * n - 1)
}

#[test]
fn go_depth_searches_every_depth_and_finds_the_shortest_win() {
    let mut gui = Gui::new();
    gui.send(&format!("position fen {MATE_IN_4}"));
    gui.send("go depth 16");
    let (lines, best) = gui.bestmove();
    let last = last_score_line(&lines);
    assert_eq!(field(&last, "depth"), "16");
    assert_eq!(field(&last, "mate"), "4", "{}", last.join(" "));
    assert!(wins_in(MATE_IN_4, &best, 4), "{best}");
    for d in 1..=16 {
        let tag = format!("info depth {d} ");
        assert!(lines.iter().any(|l| l.starts_with(&tag)), "no depth {d}");
    }
}

#[test]
fn go_mate_stops_on_a_proven_win() {
    let mut gui = Gui::new();
    gui.send(&format!("position fen {MATE_IN_4}"));
    // No other limit: the search ends by itself once the mate is proven.
    gui.send("go mate 4");
    let (lines, best) = gui.bestmove();
    let last = last_score_line(&lines);
    let n: u32 = field(&last, "mate").parse().unwrap();
    assert!((1..=4).contains(&n), "{}", last.join(" "));
    assert!(wins_in(MATE_IN_4, &best, n), "{best}");
    let depth: u32 = field(&last, "depth").parse().unwrap();
    assert!(depth < 16, "went on to depth {depth}");
    // A shorter mate than exists is not found: another limit ends the search.
    gui.send("go mate 2 depth 9");
    let (lines, _) = gui.bestmove();
    let last = last_score_line(&lines);
    assert_eq!(field(&last, "depth"), "9");
    assert_eq!(field(&last, "mate"), "4");
}

#[test]
fn infinite_search_waits_for_stop_even_after_a_win() {
    let mut gui = Gui::new();
    gui.send(&format!("position fen {MATE_IN_4}"));
    gui.send("go infinite");
    // The win is found first (how soon depends on the machine: waiting for it, not for a
    // fixed time, makes "after a win" true on any machine), and no bestmove comes with it...
    let found = gui.until(|l| l.contains(" score mate 4 ") || l.starts_with("bestmove"));
    assert!(!found.last().unwrap().starts_with("bestmove"), "{found:?}");
    // ... nor in the time after it: only `stop` ends the search.
    let deadline = std::time::Instant::now() + Duration::from_millis(700);
    while let Some((_, l)) =
        gui.next_timed(deadline.saturating_duration_since(std::time::Instant::now()))
    {
        assert!(!l.starts_with("bestmove"), "{l}");
    }
    gui.send("stop");
    let (_, best) = gui.bestmove();
    assert!(wins_in(MATE_IN_4, &best, 4), "{best}");
}

#[test]
fn a_forced_reply_gets_a_real_score() {
    let mut gui = Gui::new();
    gui.send("position fen 8/8/8/8/8/8/1b6/w7 w");
    gui.send("go movetime 100");
    let (lines, best) = gui.bestmove();
    assert_eq!(best, "a1:c3");
    assert_eq!(field(&last_score_line(&lines), "mate"), "1");
}

#[test]
fn long_searches_report_the_current_root_move() {
    let mut gui = Gui::new();
    gui.send("position startpos");
    gui.send("go infinite");
    let lines = gui.until(|l| l.contains(" currmove "));
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    let k: usize = words[words.iter().position(|w| *w == "currmovenumber").unwrap() + 1]
        .parse()
        .unwrap();
    let m = words[words.iter().position(|w| *w == "currmove").unwrap() + 1];
    let start = Position::startpos();
    assert!(parse_move(&start, m).is_ok(), "{m}");
    assert!((1..=legal_moves(&start).len()).contains(&k));
    gui.send("stop");
    gui.bestmove();
}
