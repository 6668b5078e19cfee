//! The `kish` crate (an independent Turkish draughts library) as an oracle, where its three
//! differences from our rules (docs/rules-turkish.md, section 7) cannot matter: it crowns a
//! man at the end of the move instead of during it, it counts a position without a legal move
//! as 1 instead of 0, and it merges nothing. So its moves are compared only in positions where
//! no capture of ours crowns a man before its last landing, and its perft only in trees where
//! no node does and no node before the leaves is without a legal move.

use bashni::games::Rules;
use bashni::games::kit::Color;
use bashni::games::turkish::Position;
use bashni::games::turkish::board::promotion_mask;
use rand::{RngExt, SeedableRng, rngs::StdRng};

fn to_kish(pos: &Position) -> kish::Board {
    let team = match pos.side() {
        Color::White => kish::Team::White,
        Color::Black => kish::Team::Black,
    };
    let state = kish::State {
        pieces: [pos.pieces(Color::White), pos.pieces(Color::Black)],
        kings: pos.kings(),
    };
    kish::Board::new(team, state)
}

/// The boards after each legal move, as (white, black, kings) sets, sorted.
fn ours_after(pos: &Position) -> Vec<[u64; 3]> {
    let mut v: Vec<[u64; 3]> = pos
        .legal_moves()
        .iter()
        .map(|m| {
            let a = pos.played(m);
            [a.pieces(Color::White), a.pieces(Color::Black), a.kings()]
        })
        .collect();
    v.sort();
    v
}

fn kish_after(board: &kish::Board) -> Vec<[u64; 3]> {
    let mut v: Vec<[u64; 3]> = board
        .actions()
        .iter()
        .map(|a| {
            let s = board.apply(a).state;
            [s.pieces[0], s.pieces[1], s.kings]
        })
        .collect();
    v.sort();
    v
}

/// Whether some legal move crowns a man before its last landing (where kish differs).
fn crowns_mid_capture(pos: &Position) -> bool {
    let far = promotion_mask(pos.side());
    pos.legal_moves().iter().any(|m| {
        let l = m.landings();
        pos.kings() & m.from().bit() == 0 && l[..l.len() - 1].iter().any(|s| s.bit() & far != 0)
    })
}

/// Whether perft to `depth` from `pos` meets a node that kish would count differently.
fn kish_differs_below(pos: &Position, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    let moves = pos.legal_moves();
    moves.is_empty()
        || crowns_mid_capture(pos)
        || moves
            .iter()
            .any(|m| kish_differs_below(&pos.played(m), depth - 1))
}

fn playout_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..150 {
            out.push(pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(&moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

#[test]
fn perft_from_the_start_agrees_with_kish() {
    let ours = Position::startpos();
    let theirs = kish::Board::new_default();
    assert_eq!(to_kish(&ours), theirs);
    for depth in 1..=6 {
        assert_eq!(
            ours.perft(depth),
            theirs.perft(depth as u64),
            "depth {depth}"
        );
    }
}

#[test]
fn move_sets_agree_with_kish_on_random_playouts() {
    let positions = playout_positions(11, 120);
    let mut compared = 0;
    let mut with_king = 0;
    for pos in &positions {
        if crowns_mid_capture(pos) {
            continue;
        }
        assert_eq!(
            ours_after(pos),
            kish_after(&to_kish(pos)),
            "{}",
            pos.to_fen()
        );
        compared += 1;
        with_king += (pos.kings() != 0) as usize;
    }
    println!("{compared} positions compared, {with_king} with kings");
    assert!(
        compared >= 5000 && with_king >= 1000,
        "{compared} {with_king}"
    );
}

#[test]
fn perft_3_agrees_with_kish_on_sampled_positions() {
    let positions = playout_positions(12, 40);
    let mut compared = 0;
    for pos in positions.iter().step_by(7) {
        if kish_differs_below(pos, 3) {
            continue;
        }
        assert_eq!(pos.perft(3), to_kish(pos).perft(3), "{}", pos.to_fen());
        compared += 1;
    }
    assert!(compared >= 300, "only {compared}");
}

#[test]
fn kish_crowns_at_the_end_of_the_move_and_we_do_not() {
    // Our rule: d6 is crowned on d8 and flies on along rank 8 (docs/rules-turkish.md).
    // kish's man stays a man on d8 and cannot take f8 at a distance.
    let pos = Position::from_fen("5b2/3b4/3w4/8/8/8/8/8 w").unwrap();
    assert!(crowns_mid_capture(&pos));
    let ours: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(ours.len(), 2);
    let theirs = to_kish(&pos).actions();
    assert_eq!(theirs.len(), 1, "kish: the man stops on d8");
}
