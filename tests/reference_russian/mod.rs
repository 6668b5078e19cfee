//! A deliberately simple reference implementation of Russian draughts (docs/rules-russian.md),
//! for differential testing of the fast generator. A plain 8x8 array, recursion that clones
//! the board at every jump, jumped pieces marked dead until the move ends, sequences merged by
//! (start, end, captured set, a man crowned or not) at the end; no bitboards and nothing from the `bashni` library.
#![allow(dead_code)]

/// A piece: its colour and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub white: bool,
    pub king: bool,
}

/// What a square holds during a capture: a live piece, or one jumped in this move (it stays
/// until the move ends, blocks, and may not be jumped again).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Live(Piece),
    Dead,
}

/// A position: `board[file][rank]`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub board: [[Option<Piece>; 8]; 8],
    pub white_to_move: bool,
    pub clock: u32,
    pub fullmove: u32,
}

/// One legal move: its text (one of its paths), start, end, the captured squares (sorted
/// names), and the position after it.
#[derive(Clone, Debug)]
pub struct RefMove {
    pub text: String,
    pub from: String,
    pub to: String,
    pub captured: Vec<String>,
    /// A man that ends as a king.
    pub crowned: bool,
    pub after: RefPos,
}

fn letter(p: Piece) -> char {
    match (p.white, p.king) {
        (true, false) => 'w',
        (true, true) => 'W',
        (false, false) => 'b',
        (false, true) => 'B',
    }
}

/// Parses a FEN (board, side, optional clock and move number); no towers.
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
            let (white, king) = match c {
                'w' => (true, false),
                'W' => (true, true),
                'b' => (false, false),
                'B' => (false, true),
                _ => return Err(format!("bad letter {c}")),
            };
            if file >= 8 || (file + rank) % 2 != 0 {
                return Err("bad square".into());
            }
            board[file][rank] = Some(Piece { white, king });
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

const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// A capture in progress.
#[derive(Clone)]
struct Capture {
    board: [[Cell; 8]; 8],
    piece: Piece,
    at: (i32, i32),
    path: Vec<String>,
    captured: Vec<(i32, i32)>,
}

/// Every single jump from the state: (jumped square, landing square).
fn jumps(c: &Capture) -> Vec<((i32, i32), (i32, i32))> {
    let mut out = Vec::new();
    for (df, dr) in DIRS {
        let (mut f, mut r) = (c.at.0 + df, c.at.1 + dr);
        if c.piece.king {
            while on_board(f, r) && c.board[f as usize][r as usize] == Cell::Empty {
                f += df;
                r += dr;
            }
        }
        if !on_board(f, r) {
            continue;
        }
        match c.board[f as usize][r as usize] {
            Cell::Live(p) if p.white != c.piece.white => {}
            _ => continue,
        }
        let (mut lf, mut lr) = (f + df, r + dr);
        while on_board(lf, lr) && c.board[lf as usize][lr as usize] == Cell::Empty {
            out.push(((f, r), (lf, lr)));
            if !c.piece.king {
                break;
            }
            lf += df;
            lr += dr;
        }
    }
    out
}

fn apply_jump(c: &Capture, jumped: (i32, i32), land: (i32, i32)) -> Capture {
    let mut n = c.clone();
    n.board[jumped.0 as usize][jumped.1 as usize] = Cell::Dead;
    n.captured.push(jumped);
    n.at = land;
    n.path.push(name(land.0, land.1));
    if land.1 == if n.piece.white { 7 } else { 0 } {
        n.piece.king = true;
    }
    n
}

fn extend(c: Capture, done: &mut Vec<Capture>) {
    let all = jumps(&c);
    if all.is_empty() {
        if !c.captured.is_empty() {
            done.push(c);
        }
        return;
    }
    // The landing rule: per jumped piece, if some landings go on capturing, only those.
    let mut victims: Vec<(i32, i32)> = all.iter().map(|j| j.0).collect();
    victims.dedup();
    for v in victims {
        let nexts: Vec<Capture> = all
            .iter()
            .filter(|j| j.0 == v)
            .map(|&(j, l)| apply_jump(&c, j, l))
            .collect();
        let going_on: Vec<&Capture> = nexts.iter().filter(|n| !jumps(n).is_empty()).collect();
        if going_on.is_empty() {
            done.extend(nexts.iter().cloned());
        } else {
            for n in going_on {
                extend(n.clone(), done);
            }
        }
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

/// Every legal move, merged: one per (start, end, captured set).
pub fn legal_moves(p: &RefPos) -> Vec<RefMove> {
    let white = p.white_to_move;
    let mut captures = Vec::new();
    let mut quiets = Vec::new();
    for f in 0..8i32 {
        for r in 0..8i32 {
            let Some(piece) = p.board[f as usize][r as usize] else {
                continue;
            };
            if piece.white != white {
                continue;
            }
            let mut board = [[Cell::Empty; 8]; 8];
            for (bf, col) in p.board.iter().enumerate() {
                for (br, sq) in col.iter().enumerate() {
                    if let Some(x) = sq {
                        board[bf][br] = Cell::Live(*x);
                    }
                }
            }
            board[f as usize][r as usize] = Cell::Empty;
            let start = Capture {
                board,
                piece,
                at: (f, r),
                path: vec![name(f, r)],
                captured: Vec::new(),
            };
            extend(start, &mut captures);
            for (df, dr) in DIRS {
                let forward = if white { dr > 0 } else { dr < 0 };
                if !piece.king && !forward {
                    continue;
                }
                let (mut tf, mut tr) = (f + df, r + dr);
                while on_board(tf, tr) && p.board[tf as usize][tr as usize].is_none() {
                    let mut b = p.board;
                    b[f as usize][r as usize] = None;
                    let mut moved = piece;
                    if tr == if white { 7 } else { 0 } {
                        moved.king = true;
                    }
                    b[tf as usize][tr as usize] = Some(moved);
                    quiets.push(RefMove {
                        text: format!("{}-{}", name(f, r), name(tf, tr)),
                        from: name(f, r),
                        to: name(tf, tr),
                        captured: Vec::new(),
                        crowned: false,
                        after: finish(p, b, !piece.king),
                    });
                    if !piece.king {
                        break;
                    }
                    tf += df;
                    tr += dr;
                }
            }
        }
    }
    if captures.is_empty() {
        return quiets;
    }
    let mut out: Vec<RefMove> = Vec::new();
    for c in captures {
        let mut captured: Vec<String> = c.captured.iter().map(|&(f, r)| name(f, r)).collect();
        captured.sort();
        let from = c.path[0].clone();
        let to = name(c.at.0, c.at.1);
        let man = p.board[(c.path[0].as_bytes()[0] - b'a') as usize]
            [(c.path[0].as_bytes()[1] - b'1') as usize]
            .is_some_and(|x| !x.king);
        let crowned = man && c.piece.king;
        if out
            .iter()
            .any(|m| m.from == from && m.to == to && m.captured == captured && m.crowned == crowned)
        {
            continue;
        }
        let mut b = [[None; 8]; 8];
        for (bf, col) in c.board.iter().enumerate() {
            for (br, sq) in col.iter().enumerate() {
                if let Cell::Live(x) = sq {
                    b[bf][br] = Some(*x);
                }
            }
        }
        b[c.at.0 as usize][c.at.1 as usize] = Some(c.piece);
        out.push(RefMove {
            text: c.path.join(":"),
            from,
            to,
            captured,
            crowned,
            after: finish(p, b, true),
        });
    }
    out
}

/// Leaf count at `depth` (a position without a legal move counts 0).
pub fn perft(p: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(p)
        .iter()
        .map(|m| perft(&m.after, depth - 1))
        .sum()
}
