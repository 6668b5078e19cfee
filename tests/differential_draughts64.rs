//! Differential testing of the draughts-64 games, Russian and Brazilian draughts (one move
//! generator, `bashni::games::kit::draughts64`, under each game's laws): the fast generator
//! against the simple reference in `reference/` (with each game's rule values), on positions
//! from seeded random playouts and on random placements with kings (moves compared by start,
//! end and captured set, and by resulting FEN), and perft 3 on a few hundred of them. For
//! Brazilian draughts the positions are counted that hold what a wrong implementation of its
//! laws would get wrong: a majority capture by or of kings, a capture of a man that passes
//! its far rank without ending there, and several longest captures that take the same pieces.

use crate::differential_kit;
use crate::reference;

use differential_kit as kit;
use reference::games::{BRAZILIAN, RUSSIAN};

use bashni::games::Rules;
use bashni::games::bashni::Move;
use bashni::games::kit::bitboard::Bitboard;
use bashni::games::kit::draughts64::{Laws, Position, movegen};
use bashni::games::kit::moves::MoveList;
use bashni::games::kit::square::Square;
use bashni::games::{brazilian, russian};
use rand::{RngExt, SeedableRng};

/// Positions from random games; `capture_bias` prefers the longest captures.
fn playout_positions<L: Laws>(seed: u64, games: usize, capture_bias: bool) -> Vec<Position<L>>
where
    Position<L>: Rules<Move = Move>,
{
    kit::playout_positions(
        seed,
        games,
        150,
        capture_bias,
        |m: &Move| m.jumped().len(),
        |_: &Position<L>| false,
    )
}

/// Random placements on the dark squares: a few men and kings of each side (men never on
/// their own far rank), either side to move.
fn random_positions<L: Laws>(
    rules: &'static reference::Rules,
    seed: u64,
    n: usize,
) -> Vec<Position<L>>
where
    Position<L>: Rules<Move = Move>,
{
    let squares: Vec<Square> = Square::all().collect();
    kit::random_positions(rules, seed, n, 7, |rng| {
        let sq = squares[rng.random_range(0..squares.len())];
        (sq.file() as usize, sq.rank() as usize)
    })
}

/// Random placements crowded on the upper half of the board (ranks 4 to 8), where White's men
/// capture onto and past their far rank.
fn crowded_top<L: Laws>(rules: &'static reference::Rules, seed: u64, n: usize) -> Vec<Position<L>>
where
    Position<L>: Rules<Move = Move>,
{
    let squares: Vec<Square> = Square::all().filter(|s| s.rank() >= 3).collect();
    kit::random_positions(rules, seed, n, 7, |rng| {
        let sq = squares[rng.random_range(0..squares.len())];
        (sq.file() as usize, sq.rank() as usize)
    })
}

/// Placements built for a man that passes its far rank: a man of the side to move one rank
/// short of the rank before its far rank (its 6th), enemies on its 7th rank and around, a
/// few more pieces of either side anywhere (kings among them).
fn passing_men<L: Laws>(rules: &'static reference::Rules, seed: u64, n: usize) -> Vec<Position<L>>
where
    Position<L>: Rules<Move = Move>,
{
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let squares: Vec<Square> = Square::all().collect();
    let on_rank =
        |r: u8| -> Vec<Square> { squares.iter().copied().filter(|s| s.rank() == r).collect() };
    (0..n)
        .map(|_| {
            let white = rng.random_bool(0.5);
            // (rank from the mover's side, 0-based) -> board rank
            let rank = |r: u8| if white { r } else { 7 - r };
            let mut board = reference::Board::new(8);
            let mut put = |sq: Square, white: bool, king: bool| {
                board[(sq.file() as i32, sq.rank() as i32)] =
                    vec![reference::Piece { white, king }];
            };
            let sixth = on_rank(rank(5));
            put(sixth[rng.random_range(0..sixth.len())], white, false);
            let seventh = on_rank(rank(6));
            for _ in 0..rng.random_range(1..=4) {
                put(
                    seventh[rng.random_range(0..seventh.len())],
                    !white,
                    rng.random_bool(0.3),
                );
            }
            for _ in 0..rng.random_range(1..=5) {
                let sq = squares[rng.random_range(0..squares.len())];
                let side = rng.random_bool(0.5);
                let far = if side { 7 } else { 0 };
                put(sq, side, sq.rank() == far || rng.random_bool(0.3));
            }
            let pos = reference::Position {
                rules,
                board,
                white_to_move: white,
                clock: 0,
                fullmove: 1,
            };
            let fen = reference::to_fen(&pos);
            Position::<L>::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
        })
        .collect()
}

/// A move as the rules identify it: start, end, captured squares (sorted), and the FEN after.
fn key<L: Laws>(pos: &Position<L>, m: &Move) -> (String, String, Vec<String>, String)
where
    Position<L>: Rules<Move = Move>,
{
    let mut captured: Vec<String> = m.jumped().iter().map(|s| s.to_string()).collect();
    captured.sort();
    (
        m.from().to_string(),
        m.to().to_string(),
        captured,
        pos.played(m).to_fen(),
    )
}

fn compare<L: Laws>(rules: &'static reference::Rules, pos: &Position<L>)
where
    Position<L>: Rules<Move = Move>,
{
    let fen = pos.to_fen();
    let rpos = kit::reference_position(rules, &fen);
    let legal = pos.legal_moves();
    let fast: Vec<_> = legal.iter().map(|m| key(pos, m)).collect();
    let slow_moves = reference::legal_moves(&rpos);
    let slow: Vec<_> = slow_moves
        .iter()
        .map(|m| {
            let after = reference::to_fen(&m.after);
            (m.from(), m.to(), m.captured(), after)
        })
        .collect();
    kit::same_moves(&fen, fast.clone(), slow);
    let mut merged = fast.clone();
    merged.sort();
    merged.dedup();
    assert_eq!(merged.len(), fast.len(), "{fen}: a move listed twice");
    // Every path the reference chose for a move names the engine's move for it.
    for m in &slow_moves {
        let parsed = pos
            .parse_move(&m.text())
            .unwrap_or_else(|e| panic!("{fen} {}: {e}", m.text()));
        let k = key(pos, &parsed);
        assert_eq!(
            (&k.0, &k.1, &k.2),
            (&m.from(), &m.to(), &m.captured()),
            "{fen} {}",
            m.text()
        );
    }
    for m in legal.iter() {
        let after = pos.played(m);
        assert_eq!(after.hash(), after.compute_hash(), "{fen} {m}");
    }
}

/// What a position holds that tells the games' laws apart (only counted, for the test to
/// say it met enough of each).
#[derive(Default, Debug)]
struct Traps {
    /// Positions with a king.
    with_king: usize,
    /// Positions with a capture of 3 or more pieces.
    long: usize,
    /// Positions where the longest capture is not the only one (the majority rule decides),
    /// with a king taking or taken.
    majority_with_kings: usize,
    /// Positions where a man's capture lands on its far rank and goes on.
    passing_man: usize,
    /// Positions where two paths of one legal move take the same pieces (merged).
    merged_paths: usize,
}

/// Brazilian draughts without the majority rule, to tell where that rule decides.
static BRAZILIAN_ANY_CAPTURE: reference::Rules = reference::Rules {
    majority: false,
    ..BRAZILIAN
};

impl Traps {
    fn count<L: Laws>(&mut self, rules: &'static reference::Rules, pos: &Position<L>)
    where
        Position<L>: Rules<Move = Move>,
    {
        let legal = pos.legal_moves();
        let kings = pos.kings();
        self.with_king += !kings.is_empty() as usize;
        self.long += legal.iter().any(|m| m.jumped().len() >= 3) as usize;
        let mut paths = MoveList::new();
        movegen::generate_captures(pos, &mut paths, false);
        self.merged_paths += (paths.len() > legal.len()) as usize;
        let far = Bitboard::promotion(pos.side());
        self.passing_man += paths.iter().any(|m| {
            let on_the_way = &m.landings()[..m.landings().len() - 1];
            !kings.has(m.from()) && on_the_way.iter().any(|&s| far.has(s))
        }) as usize;
        if rules.majority {
            let fen = pos.to_fen();
            let any =
                reference::legal_moves(&kit::reference_position(&BRAZILIAN_ANY_CAPTURE, &fen));
            let decided = any.len() > legal.len();
            let king = |name: &str| kings.has(Square::parse(name).expect("a square"));
            let kings_in = any
                .iter()
                .any(|m| king(&m.from()) || m.captured().iter().any(|c| king(c)));
            self.majority_with_kings += (decided && kings_in) as usize;
        }
    }
}

/// The engine's moves and the reference's agree on random playouts and placements of game
/// `L` (`rules` its reference values); what the positions held.
fn move_lists_agree<L: Laws>(rules: &'static reference::Rules, seed: u64) -> Traps
where
    Position<L>: Rules<Move = Move>,
{
    let mut positions = playout_positions::<L>(seed, 60, false);
    positions.extend(playout_positions::<L>(seed + 1, 60, true));
    positions.extend(random_positions::<L>(rules, seed + 2, 4000));
    positions.extend(crowded_top::<L>(rules, seed + 3, 2000));
    positions.extend(passing_men::<L>(rules, seed + 4, 2000));
    assert!(positions.len() >= 10_000, "only {}", positions.len());
    let mut traps = Traps::default();
    for pos in &positions {
        compare(rules, pos);
        traps.count(rules, pos);
    }
    println!("{} positions: {traps:?}", positions.len());
    assert!(traps.with_king >= 2000 && traps.long >= 100, "{traps:?}");
    traps
}

#[test]
fn russian_move_lists_agree_on_random_playouts_and_placements() {
    move_lists_agree::<russian::RussianLaws>(&RUSSIAN, 1);
}

#[test]
fn brazilian_move_lists_agree_on_random_playouts_and_placements() {
    let traps = move_lists_agree::<brazilian::BrazilianLaws>(&BRAZILIAN, 11);
    assert!(traps.majority_with_kings >= 200, "{traps:?}");
    assert!(traps.passing_man >= 200, "{traps:?}");
    assert!(traps.merged_paths >= 30, "{traps:?}");
}

#[test]
fn perft_3_agrees_on_sampled_positions() {
    let mut positions = playout_positions::<russian::RussianLaws>(4, 30, false);
    positions.extend(playout_positions(5, 30, true));
    positions.extend(random_positions(&RUSSIAN, 6, 300));
    kit::perft_3_agrees(&positions, 400, &RUSSIAN);
    let mut positions = playout_positions::<brazilian::BrazilianLaws>(14, 30, false);
    positions.extend(playout_positions(15, 30, true));
    positions.extend(random_positions(&BRAZILIAN, 16, 300));
    kit::perft_3_agrees(&positions, 400, &BRAZILIAN);
}

#[test]
fn reference_perft_from_the_start() {
    let expected = [7, 49, 302, 1469, 7482, 37986];
    kit::reference_perft_is(&RUSSIAN, russian::START_FEN, &expected);
    let expected = [7, 49, 302, 1469, 7473];
    kit::reference_perft_is(&BRAZILIAN, brazilian::START_FEN, &expected);
}
