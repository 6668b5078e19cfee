//! A deliberately simple reference implementation of the rules (docs/rules.md), for differential
//! testing of the fast generator. Plain 8x8 arrays of `Vec` towers, recursion that clones the
//! board at every jump, no bitboards and nothing from the `bashni` library.
#![allow(dead_code)]

/// One piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub white: bool,
    pub king: bool,
}

/// A position: `board[file][rank]` holds a tower, top piece first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub board: Vec<Vec<Vec<Piece>>>,
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

fn piece_of(c: char) -> Option<Piece> {
    match c {
        'w' => Some(Piece {
            white: true,
            king: false,
        }),
        'W' => Some(Piece {
            white: true,
            king: true,
        }),
        'b' => Some(Piece {
            white: false,
            king: false,
        }),
        'B' => Some(Piece {
            white: false,
            king: true,
        }),
        _ => None,
    }
}

/// Parses a FEN.
pub fn parse_fen(s: &str) -> Result<RefPos, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() < 2 {
        return Err("missing side".into());
    }
    let mut board = vec![vec![Vec::new(); 8]; 8];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 8 {
        return Err("need 8 ranks".into());
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        let chars: Vec<char> = text.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                k += 1;
                continue;
            }
            let mut tower = Vec::new();
            if c == '(' {
                k += 1;
                while k < chars.len() && chars[k] != ')' {
                    tower.push(piece_of(chars[k]).ok_or("bad letter")?);
                    k += 1;
                }
                if k == chars.len() || tower.is_empty() {
                    return Err("bad tower".into());
                }
            } else {
                tower.push(piece_of(c).ok_or("bad letter")?);
            }
            k += 1;
            if file >= 8 || (file + rank) % 2 != 0 {
                return Err("bad square".into());
            }
            board[file][rank] = tower;
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
    let clock = fields
        .get(2)
        .map_or(Ok(0), |c| c.parse())
        .map_err(|_| "bad clock")?;
    let fullmove = fields
        .get(3)
        .map_or(Ok(1), |c| c.parse())
        .map_err(|_| "bad number")?;
    Ok(RefPos {
        board,
        white_to_move,
        clock,
        fullmove,
    })
}

/// Prints a FEN with all fields.
pub fn to_fen(p: &RefPos) -> String {
    let mut out = String::new();
    for rank in (0..8).rev() {
        let mut gap = 0;
        for file in 0..8 {
            let t = &p.board[file][rank];
            if t.is_empty() {
                gap += 1;
                continue;
            }
            if gap > 0 {
                out.push_str(&gap.to_string());
                gap = 0;
            }
            if t.len() == 1 {
                out.push(letter(t[0]));
            } else {
                out.push('(');
                out.extend(t.iter().map(|&x| letter(x)));
                out.push(')');
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

/// State during a capture: the board (origin already emptied), the moving tower, where it
/// stands, the square jumped last, and the path so far.
#[derive(Clone)]
struct Capture {
    board: Vec<Vec<Vec<Piece>>>,
    tower: Vec<Piece>,
    at: (i32, i32),
    last: Option<(i32, i32)>,
    path: Vec<String>,
}

fn is_enemy(board: &[Vec<Vec<Piece>>], f: i32, r: i32, white: bool) -> bool {
    board[f as usize][r as usize]
        .first()
        .is_some_and(|p| p.white != white)
}

fn empty(board: &[Vec<Vec<Piece>>], f: i32, r: i32) -> bool {
    board[f as usize][r as usize].is_empty()
}

/// Every jump available from the state: (jumped square, landing square).
fn jumps(c: &Capture) -> Vec<((i32, i32), (i32, i32))> {
    let white = c.tower[0].white;
    let king = c.tower[0].king;
    let mut out = Vec::new();
    for (df, dr) in DIRS {
        let (mut f, mut r) = (c.at.0 + df, c.at.1 + dr);
        if king {
            while on_board(f, r) && empty(&c.board, f, r) {
                f += df;
                r += dr;
            }
        }
        if !on_board(f, r) || !is_enemy(&c.board, f, r, white) || c.last == Some((f, r)) {
            continue;
        }
        let jumped = (f, r);
        let (mut lf, mut lr) = (f + df, r + dr);
        while on_board(lf, lr) && empty(&c.board, lf, lr) {
            out.push((jumped, (lf, lr)));
            if !king {
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
    let taken = n.board[jumped.0 as usize][jumped.1 as usize].remove(0);
    n.tower.push(taken);
    n.at = land;
    n.last = Some(jumped);
    n.path.push(name(land.0, land.1));
    let far = if n.tower[0].white { 7 } else { 0 };
    if land.1 == far {
        n.tower[0].king = true;
    }
    n
}

fn extend(c: Capture, done: &mut Vec<Capture>) {
    let all = jumps(&c);
    if all.is_empty() {
        done.push(c);
        return;
    }
    // Landing rule: for each jumped square, if some landings continue, use only those.
    type Coord = (i32, i32);
    let mut by_jumped: Vec<(Coord, Vec<Coord>)> = Vec::new();
    for (j, l) in all {
        match by_jumped.iter_mut().find(|(x, _)| *x == j) {
            Some((_, v)) => v.push(l),
            None => by_jumped.push((j, vec![l])),
        }
    }
    for (j, lands) in by_jumped {
        let nexts: Vec<Capture> = lands.iter().map(|&l| apply_jump(&c, j, l)).collect();
        let continuing: Vec<&Capture> = nexts.iter().filter(|n| !jumps(n).is_empty()).collect();
        if continuing.is_empty() {
            done.extend(nexts.iter().cloned());
        } else {
            for n in continuing {
                extend(n.clone(), done);
            }
        }
    }
}

fn finish(p: &RefPos, board: Vec<Vec<Vec<Piece>>>, capture: bool) -> RefPos {
    RefPos {
        board,
        white_to_move: !p.white_to_move,
        clock: if capture { 0 } else { p.clock + 1 },
        fullmove: p.fullmove + if p.white_to_move { 0 } else { 1 },
    }
}

/// Every legal move with the position it leads to.
pub fn legal_moves(p: &RefPos) -> Vec<(String, RefPos)> {
    let white = p.white_to_move;
    let mut captures = Vec::new();
    let mut quiets = Vec::new();
    for f in 0..8i32 {
        for r in 0..8i32 {
            let tower = &p.board[f as usize][r as usize];
            if tower.is_empty() || tower[0].white != white {
                continue;
            }
            let mut board = p.board.clone();
            board[f as usize][r as usize].clear();
            let start = Capture {
                board,
                tower: tower.clone(),
                at: (f, r),
                last: None,
                path: vec![name(f, r)],
            };
            if !jumps(&start).is_empty() {
                let mut done = Vec::new();
                extend(start, &mut done);
                for c in done {
                    let mut b = c.board;
                    b[c.at.0 as usize][c.at.1 as usize] = c.tower;
                    captures.push((c.path.join(":"), finish(p, b, true)));
                }
            }
            for (df, dr) in DIRS {
                let forward = if white { dr > 0 } else { dr < 0 };
                if !tower[0].king && !forward {
                    continue;
                }
                let (mut tf, mut tr) = (f + df, r + dr);
                while on_board(tf, tr) && empty(&p.board, tf, tr) {
                    let mut b = p.board.clone();
                    let mut t = std::mem::take(&mut b[f as usize][r as usize]);
                    if tr == if white { 7 } else { 0 } {
                        t[0].king = true;
                    }
                    b[tf as usize][tr as usize] = t;
                    quiets.push((
                        format!("{}-{}", name(f, r), name(tf, tr)),
                        finish(p, b, false),
                    ));
                    if !tower[0].king {
                        break;
                    }
                    tf += df;
                    tr += dr;
                }
            }
        }
    }
    if captures.is_empty() {
        quiets
    } else {
        captures
    }
}

/// Leaf count at `depth`.
pub fn perft(p: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(p)
        .iter()
        .map(|(_, n)| perft(n, depth - 1))
        .sum()
}
