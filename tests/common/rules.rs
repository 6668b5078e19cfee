//! The rules tests' small vocabulary, for any game behind [`Rules`]: a position from a FEN, its
//! legal moves as sorted text, the FEN after a move.

use bashni::games::Rules;

/// The position of `fen` in game `R` (panics naming the FEN if it does not read).
pub fn pos<R: Rules>(fen: &str) -> R {
    R::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves of `fen` in game `R`, as text, sorted.
pub fn moves_in<R: Rules>(fen: &str) -> Vec<String> {
    legal_texts(&pos::<R>(fen))
}

/// The legal moves of `p`, as text, sorted.
pub fn legal_texts<R: Rules>(p: &R) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// The FEN of `fen` in game `R` after the move `mv` (panics naming both if it is refused).
pub fn after_in<R: Rules>(fen: &str, mv: &str) -> String {
    let p = pos::<R>(fen);
    let m = p
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{fen} {mv}: {e}"));
    p.played(&m).to_fen()
}

/// `v` as owned strings, sorted (to compare with [`moves_in`]).
pub fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
