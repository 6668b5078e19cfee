//! A deliberately simple reference implementation of Lasca (docs/rules-lasca.md), for
//! differential testing of the fast generator. A 7x7 array of columns (each a `Vec` of piece
//! letters, top first), recursion that copies the whole board at every jump and plays each
//! jump on it as it goes (the commander of the jumped column really goes under the moving
//! column at once, the moving column really leaves its start square), the jumped squares
//! kept in a list; no bitboards and nothing from the `bashni` library.
#![allow(dead_code)]

/// A position: `board[file][rank]`, each a column top first (`w b W B`), empty for none.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub board: Vec<Vec<Vec<char>>>,
    pub white_to_move: bool,
    pub clock: u32,
    pub fullmove: u32,
}

fn playable(f: i32, r: i32) -> bool {
    (0..7).contains(&f) && (0..7).contains(&r) && (f + r) % 2 == 0
}

fn is_white(p: char) -> bool {
    p == 'w' || p == 'W'
}

fn is_officer(p: char) -> bool {
    p == 'W' || p == 'B'
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Parses a FEN (board, side, optional clock and move number).
pub fn parse_fen(s: &str) -> Result<RefPos, String> {
    let fields: Vec<&str> = s.split_whitespace().collect();
    if fields.len() < 2 {
        return Err("missing side".into());
    }
    let mut board = vec![vec![Vec::new(); 7]; 7];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 7 {
        return Err("need 7 ranks".into());
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 6 - i;
        let mut file = 0;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                continue;
            }
            let column: Vec<char> = if c == '(' {
                chars.by_ref().take_while(|&c| c != ')').collect()
            } else {
                vec![c]
            };
            if file >= 7 || !playable(file as i32, rank as i32) {
                return Err("piece off the playable squares".into());
            }
            board[file][rank] = column;
            file += 1;
        }
    }
    let num = |i: usize, d: u32| {
        fields
            .get(i)
            .map_or(Ok(d), |t| t.parse().map_err(|_| "bad number".to_string()))
    };
    Ok(RefPos {
        board,
        white_to_move: fields[1] == "w",
        clock: num(2, 0)?,
        fullmove: num(3, 1)?,
    })
}

/// Writes the FEN with clock and move number.
pub fn to_fen(p: &RefPos) -> String {
    let mut ranks = Vec::new();
    for rank in (0..7).rev() {
        let mut s = String::new();
        let mut gap = 0;
        for file in 0..7 {
            let col = &p.board[file][rank];
            if col.is_empty() {
                gap += 1;
                continue;
            }
            if gap > 0 {
                s += &gap.to_string();
                gap = 0;
            }
            if col.len() == 1 {
                s.push(col[0]);
            } else {
                s += &format!("({})", col.iter().collect::<String>());
            }
        }
        if gap > 0 {
            s += &gap.to_string();
        }
        ranks.push(s);
    }
    let side = if p.white_to_move { "w" } else { "b" };
    format!("{} {side} {} {}", ranks.join("/"), p.clock, p.fullmove)
}

/// The diagonal directions a column led by `top` moves in.
fn dirs(top: char) -> Vec<(i32, i32)> {
    match top {
        'w' => vec![(1, 1), (-1, 1)],
        'b' => vec![(1, -1), (-1, -1)],
        _ => vec![(1, 1), (-1, 1), (1, -1), (-1, -1)],
    }
}

fn far_rank(white: bool) -> i32 {
    if white { 6 } else { 0 }
}

/// One capture in progress: the board as it is now (the moving column lifted off), where
/// the column stands, the column itself, the squares jumped and the path so far.
#[derive(Clone)]
struct Walk {
    board: Vec<Vec<Vec<char>>>,
    at: (i32, i32),
    column: Vec<char>,
    jumped: Vec<(i32, i32)>,
    path: Vec<(i32, i32)>,
}

fn finish(p: &RefPos, w: &Walk, out: &mut Vec<(String, RefPos)>) {
    let mut board = w.board.clone();
    let mut column = w.column.clone();
    promote(&mut column, w.at.1, p.white_to_move);
    board[w.at.0 as usize][w.at.1 as usize] = column;
    let text: Vec<String> = w.path.iter().map(|&(f, r)| name(f, r)).collect();
    out.push((text.join(":"), next(p, board, true)));
}

fn promote(column: &mut [char], rank: i32, white: bool) {
    if rank == far_rank(white) && (column[0] == 'w' || column[0] == 'b') {
        column[0] = column[0].to_ascii_uppercase();
    }
}

fn next(p: &RefPos, board: Vec<Vec<Vec<char>>>, capture: bool) -> RefPos {
    RefPos {
        board,
        white_to_move: !p.white_to_move,
        clock: if capture { 0 } else { p.clock + 1 },
        fullmove: p.fullmove + (!p.white_to_move) as u32,
    }
}

/// Extends the capture `w` by every jump it can make; a capture that cannot go on (or has
/// just promoted its soldier commander) is complete.
fn extend(p: &RefPos, w: &Walk, out: &mut Vec<(String, RefPos)>) {
    let white = p.white_to_move;
    let mut went_on = false;
    for (df, dr) in dirs(w.column[0]) {
        let (of, or) = (w.at.0 + df, w.at.1 + dr);
        let (lf, lr) = (w.at.0 + 2 * df, w.at.1 + 2 * dr);
        if !playable(lf, lr) || w.jumped.contains(&(of, or)) {
            continue;
        }
        let over = &w.board[of as usize][or as usize];
        if over.is_empty()
            || is_white(over[0]) == white
            || !w.board[lf as usize][lr as usize].is_empty()
        {
            continue;
        }
        went_on = true;
        let mut n = w.clone();
        let taken = n.board[of as usize][or as usize].remove(0);
        n.column.push(taken);
        n.jumped.push((of, or));
        n.at = (lf, lr);
        n.path.push((lf, lr));
        let soldier = n.column[0] == 'w' || n.column[0] == 'b';
        if soldier && lr == far_rank(white) {
            finish(p, &n, out);
        } else {
            extend(p, &n, out);
        }
    }
    if !went_on && w.path.len() > 1 {
        finish(p, w, out);
    }
}

/// Every legal move (its text) with the position after it.
pub fn legal_moves(p: &RefPos) -> Vec<(String, RefPos)> {
    let white = p.white_to_move;
    let mut captures = Vec::new();
    let mut steps = Vec::new();
    for f in 0..7 {
        for r in 0..7 {
            let col = &p.board[f as usize][r as usize];
            if col.is_empty() || is_white(col[0]) != white {
                continue;
            }
            let mut board = p.board.clone();
            let column = std::mem::take(&mut board[f as usize][r as usize]);
            let walk = Walk {
                board,
                at: (f, r),
                column: column.clone(),
                jumped: vec![],
                path: vec![(f, r)],
            };
            extend(p, &walk, &mut captures);
            for (df, dr) in dirs(column[0]) {
                let (tf, tr) = (f + df, r + dr);
                if playable(tf, tr) && p.board[tf as usize][tr as usize].is_empty() {
                    let mut board = walk.board.clone();
                    let mut moved = column.clone();
                    promote(&mut moved, tr, white);
                    board[tf as usize][tr as usize] = moved;
                    steps.push((
                        format!("{}-{}", name(f, r), name(tf, tr)),
                        next(p, board, false),
                    ));
                }
            }
        }
    }
    if captures.is_empty() { steps } else { captures }
}

/// Perft by the reference rules.
pub fn perft(p: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(p)
        .iter()
        .map(|(_, q)| perft(q, depth - 1))
        .sum()
}

/// Whether an officer lies below the top of some column.
pub fn has_buried_officer(p: &RefPos) -> bool {
    p.board
        .iter()
        .flatten()
        .any(|c| c.iter().skip(1).any(|&x| is_officer(x)))
}
