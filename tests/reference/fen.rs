//! The reference's FEN, one reader and one writer for every game: ranks from the far one down,
//! a digit for that many empty squares, a letter for a piece, and, in the games with columns,
//! a column of several pieces in parentheses, top first; then the side to move, the clock and
//! the move number (both optional on reading, `0 1`). Kept apart from the library's readers so
//! that a FEN both sides print alike is a real check.

use super::{Board, Piece, Position, Rules};

fn letter(p: Piece) -> char {
    match (p.white, p.king) {
        (true, false) => 'w',
        (true, true) => 'W',
        (false, false) => 'b',
        (false, true) => 'B',
    }
}

fn piece_of(c: char) -> Result<Piece, String> {
    let (white, king) = match c {
        'w' => (true, false),
        'W' => (true, true),
        'b' => (false, false),
        'B' => (false, true),
        _ => return Err(format!("bad letter {c}")),
    };
    Ok(Piece { white, king })
}

/// The columns of one rank's text, file by file (an empty column for an empty square).
fn read_rank(rules: &Rules, text: &str) -> Result<Vec<Vec<Piece>>, String> {
    let mut squares = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            squares.extend((0..d).map(|_| Vec::new()));
        } else if c == '(' && rules.towers() {
            let rest = chars.as_str();
            let close = rest.find(')').ok_or("unclosed column")?;
            let column = rest[..close]
                .chars()
                .map(piece_of)
                .collect::<Result<Vec<_>, _>>()?;
            chars = rest[close + 1..].chars();
            if column.is_empty() {
                return Err("empty column".into());
            }
            squares.push(column);
        } else {
            squares.push(vec![piece_of(c)?]);
        }
    }
    if squares.len() != rules.size as usize {
        return Err(format!("rank {text} is not {} squares wide", rules.size));
    }
    Ok(squares)
}

/// Reads a FEN of the game `rules` describes.
pub fn parse_fen(rules: &'static Rules, s: &str) -> Result<Position, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() < 2 {
        return Err("missing side".into());
    }
    let n = rules.size as usize;
    let mut board = Board::new(rules.size);
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != n {
        return Err(format!("need {n} ranks"));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = n - 1 - i;
        for (file, column) in read_rank(rules, text)?.into_iter().enumerate() {
            let sq = (file as i32, rank as i32);
            if !column.is_empty() && !rules.playable(sq) {
                return Err("a piece on a square not played on".into());
            }
            board[sq] = column;
        }
    }
    let white_to_move = match fields[1] {
        "w" => true,
        "b" => false,
        _ => return Err("bad side".into()),
    };
    let number = |i: usize, default: u32| fields.get(i).map_or(Ok(default), |c| c.parse());
    Ok(Position {
        rules,
        board,
        white_to_move,
        clock: number(2, 0).map_err(|_| "bad clock")?,
        fullmove: number(3, 1).map_err(|_| "bad move number")?,
    })
}

/// Writes a FEN with all its fields.
pub fn to_fen(p: &Position) -> String {
    let n = p.rules.size;
    let mut ranks = Vec::new();
    for rank in (0..n).rev() {
        let mut out = String::new();
        let mut gap = 0;
        for file in 0..n {
            let column = &p.board[(file, rank)];
            if column.is_empty() {
                gap += 1;
                continue;
            }
            if gap > 0 {
                out.push_str(&gap.to_string());
                gap = 0;
            }
            let letters: String = column.iter().map(|&x| letter(x)).collect();
            if column.len() == 1 {
                out.push_str(&letters);
            } else {
                out.push_str(&format!("({letters})"));
            }
        }
        if gap > 0 {
            out.push_str(&gap.to_string());
        }
        ranks.push(out);
    }
    let side = if p.white_to_move { "w" } else { "b" };
    format!("{} {side} {} {}", ranks.join("/"), p.clock, p.fullmove)
}
