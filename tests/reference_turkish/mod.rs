//! A deliberately simple reference implementation of Turkish draughts (docs/rules-turkish.md),
//! for differential testing of the fast generator. A plain 8x8 array, recursion that clones
//! the board at every jump, every capture sequence collected and only the longest kept; no
//! bitboards and nothing from the `bashni` library.
#![allow(dead_code)]

/// A piece: its colour and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub white: bool,
    pub king: bool,
}

/// A position: `board[file][rank]`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub board: [[Option<Piece>; 8]; 8],
    pub white_to_move: bool,
    pub clock: u32,
    pub fullmove: u32,
}

fn letter(p: Piece) -> char {
    match (p.white, p.king) {
        (true, false) => 'w',
        (true, true) => 'W',
        (false, false) => 'b',
        (false, true) => 'B',
    }
}

/// Parses a FEN (board, side, optional clock and move number).
pub fn parse_fen(s: &str) -> Result<RefPos, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() < 2 {
        return Err("missing side".into());
    }
    let mut board = [[None; 8]; 8];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 8 {
        return Err("need 8 ranks".into());
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                continue;
            }
            let piece = match c {
                'w' => (true, false),
                'W' => (true, true),
                'b' => (false, false),
                'B' => (false, true),
                _ => return Err(format!("bad letter {c}")),
            };
            if file >= 8 {
                return Err("rank too wide".into());
            }
            board[file][rank] = Some(Piece {
                white: piece.0,
                king: piece.1,
            });
            file += 1;
        }
        if file != 8 {
            return Err("bad rank width".into());
        }
    }
    let white_to_move = match fields[1] {
        "w" => true,
        "b" => false,
        _ => return Err("bad side".into()),
    };
    let num = |i: usize, default: u32| fields.get(i).map_or(Ok(default), |c| c.parse());
    Ok(RefPos {
        board,
        white_to_move,
        clock: num(2, 0).map_err(|_| "bad clock")?,
        fullmove: num(3, 1).map_err(|_| "bad number")?,
    })
}

/// Prints a FEN with all fields.
pub fn to_fen(p: &RefPos) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut gap = 0;
        for file in 0..8 {
            match p.board[file][rank] {
                None => gap += 1,
                Some(piece) => {
                    if gap > 0 {
                        out.push_str(&gap.to_string());
                        gap = 0;
                    }
                    out.push(letter(piece));
                }
            }
        }
        if gap > 0 {
            out.push_str(&gap.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = if p.white_to_move { "w" } else { "b" };
    format!("{out} {side} {} {}", p.clock, p.fullmove)
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

/// North, east, south, west.
const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The directions a piece moves and captures in: all four for a king; forward and sideways
/// for a man.
fn dirs_of(p: Piece) -> Vec<(i32, i32)> {
    let back = if p.white { (0, -1) } else { (0, 1) };
    DIRS.iter()
        .copied()
        .filter(|&d| p.king || d != back)
        .collect()
}

/// A capture in progress: the board (origin emptied, captured pieces already gone), the
/// moving piece, where it is, the direction of the last jump, the path so far.
#[derive(Clone)]
struct Capture {
    board: [[Option<Piece>; 8]; 8],
    piece: Piece,
    at: (i32, i32),
    last: Option<(i32, i32)>,
    path: Vec<String>,
    taken: usize,
}

fn extend(c: Capture, done: &mut Vec<Capture>) {
    let mut any = false;
    for (df, dr) in dirs_of(c.piece) {
        if c.last == Some((-df, -dr)) {
            continue; // no 180-degree turn
        }
        let (mut f, mut r) = (c.at.0 + df, c.at.1 + dr);
        if c.piece.king {
            while on_board(f, r) && c.board[f as usize][r as usize].is_none() {
                f += df;
                r += dr;
            }
        }
        if !on_board(f, r) {
            continue;
        }
        match c.board[f as usize][r as usize] {
            Some(p) if p.white != c.piece.white => {}
            _ => continue,
        }
        let (mut lf, mut lr) = (f + df, r + dr);
        while on_board(lf, lr) && c.board[lf as usize][lr as usize].is_none() {
            any = true;
            let mut n = c.clone();
            n.board[f as usize][r as usize] = None;
            n.at = (lf, lr);
            n.last = Some((df, dr));
            n.path.push(name(lf, lr));
            n.taken += 1;
            let far = if n.piece.white { 7 } else { 0 };
            if lr == far {
                n.piece.king = true;
            }
            extend(n, done);
            if !c.piece.king {
                break;
            }
            lf += df;
            lr += dr;
        }
    }
    if !any && c.taken > 0 {
        done.push(c);
    }
}

fn finish(p: &RefPos, board: [[Option<Piece>; 8]; 8], progress: bool) -> RefPos {
    RefPos {
        board,
        white_to_move: !p.white_to_move,
        clock: if progress { 0 } else { p.clock + 1 },
        fullmove: p.fullmove + if p.white_to_move { 0 } else { 1 },
    }
}

/// Every legal move with the position it leads to.
pub fn legal_moves(p: &RefPos) -> Vec<(String, RefPos)> {
    let white = p.white_to_move;
    let mut captures: Vec<Capture> = Vec::new();
    let mut quiets = Vec::new();
    for f in 0..8i32 {
        for r in 0..8i32 {
            let Some(piece) = p.board[f as usize][r as usize] else {
                continue;
            };
            if piece.white != white {
                continue;
            }
            let mut board = p.board;
            board[f as usize][r as usize] = None;
            let start = Capture {
                board,
                piece,
                at: (f, r),
                last: None,
                path: vec![name(f, r)],
                taken: 0,
            };
            extend(start, &mut captures);
            for (df, dr) in dirs_of(piece) {
                let (mut tf, mut tr) = (f + df, r + dr);
                while on_board(tf, tr) && p.board[tf as usize][tr as usize].is_none() {
                    let mut b = p.board;
                    b[f as usize][r as usize] = None;
                    let mut moved = piece;
                    if tr == if white { 7 } else { 0 } {
                        moved.king = true;
                    }
                    b[tf as usize][tr as usize] = Some(moved);
                    quiets.push((
                        format!("{}-{}", name(f, r), name(tf, tr)),
                        finish(p, b, !piece.king),
                    ));
                    if !piece.king {
                        break;
                    }
                    tf += df;
                    tr += dr;
                }
            }
        }
    }
    let most = captures.iter().map(|c| c.taken).max().unwrap_or(0);
    if most == 0 {
        return quiets;
    }
    captures
        .into_iter()
        .filter(|c| c.taken == most)
        .map(|c| {
            let mut b = c.board;
            b[c.at.0 as usize][c.at.1 as usize] = Some(c.piece);
            (c.path.join(":"), finish(p, b, true))
        })
        .collect()
}

/// Leaf count at `depth` (a position without a legal move counts 0).
pub fn perft(p: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(p)
        .iter()
        .map(|(_, n)| perft(n, depth - 1))
        .sum()
}
