//! One deliberately simple reference move generator for every game (Bashni, Russian, Brazilian,
//! Turkish, Lasca: docs/rules*.md), for differential testing of the library's fast generators. A game is
//! a [`Rules`] value of plain rule parameters (`games.rs`), each read off its rules page; the
//! generator below follows those parameters and nothing else, so that a rule is written once
//! for all the games that share it. The board is a plain array of `Vec` columns, one a square
//! (a game without columns has columns of one piece), a capture is a recursion that clones the
//! board at every jump, and nothing comes from the `bashni` library, so that a bug in the
//! library cannot hide in the reference too. Clarity over speed throughout.
#![allow(dead_code)]

mod fen;
pub mod games;

pub use fen::{parse_fen, to_fen};

/// What a jump does to the piece or column it jumps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Taking {
    /// The jumped piece leaves the board at once (Turkish).
    RemoveAtOnce,
    /// The jumped piece stays, blocking, until the move ends, and then leaves (Russian).
    RemoveAtEnd,
    /// The jumped column's top piece goes at once to the bottom of the moving column; the rest
    /// stays, commanded by its next piece (Bashni, Lasca).
    TopUnderCapturer,
}

/// What happens to a man that lands on its far rank in the middle of a capture.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Crowning {
    /// It is crowned there and goes on capturing as a king (Bashni, Russian, Turkish).
    GoesOnAsKing,
    /// It is crowned there and the move ends (Lasca).
    EndsCapture,
    /// It goes on as a man, and is crowned only if the move ends on its far rank (Brazilian).
    AtTheEnd,
}

/// When two capture sequences are the same move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SameMove {
    /// Only when they land on the same squares in the same order (Bashni, Turkish, Lasca).
    Path,
    /// When they have the same start, end, captured pieces and resulting position (Russian).
    StartEndCaptured,
}

/// One game's rules, as plain values. Each field says what it changes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    /// Files and ranks (8, or 7 for Lasca).
    pub size: i32,
    /// Every square is played on (Turkish); otherwise only those with file + rank even.
    pub every_square: bool,
    /// Pieces move along ranks and files (Turkish); otherwise along diagonals.
    pub orthogonal: bool,
    /// Men jump backward too; otherwise only where they step (forward, and sideways in Turkish).
    pub men_capture_backward: bool,
    /// Kings slide and jump from afar and land anywhere behind; otherwise they step.
    pub flying_kings: bool,
    /// What a jump takes.
    pub taking: Taking,
    /// A column jumped earlier in the move may be jumped again once another one has been
    /// jumped in between (Bashni); otherwise no square is jumped twice in one move.
    pub rejump_after_another: bool,
    /// A king that can land where the capture goes on must land on one of those squares.
    pub landing_rule: bool,
    /// Two consecutive jumps may not go in opposite directions (Turkish).
    pub no_reverse: bool,
    /// Only the captures that take the most pieces are legal (Turkish, Brazilian), kings and
    /// men alike.
    pub majority: bool,
    /// What a man that reaches its far rank during a capture does.
    pub crowning: Crowning,
    /// When two capture sequences are one move.
    pub same_move: SameMove,
    /// A man's quiet move resets the clock (Russian, Turkish); otherwise only a capture does.
    pub men_reset_clock: bool,
}

/// A square as (file, rank), from 0; off the board when outside `0..size`.
pub type Square = (i32, i32);

/// The board: `board[square]` is a column, top piece (its commander) first; an empty square
/// has an empty column.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    size: i32,
    columns: Vec<Vec<Piece>>,
}

impl Board {
    /// An empty board of `size` files and ranks.
    pub fn new(size: i32) -> Board {
        Board {
            size,
            columns: vec![Vec::new(); (size * size) as usize],
        }
    }
}

impl std::ops::Index<Square> for Board {
    type Output = Vec<Piece>;
    fn index(&self, (f, r): Square) -> &Vec<Piece> {
        &self.columns[(r * self.size + f) as usize]
    }
}

impl std::ops::IndexMut<Square> for Board {
    fn index_mut(&mut self, (f, r): Square) -> &mut Vec<Piece> {
        &mut self.columns[(r * self.size + f) as usize]
    }
}

impl Rules {
    /// Whether the game has columns, and so the FEN its parentheses.
    pub fn towers(&self) -> bool {
        self.taking == Taking::TopUnderCapturer
    }

    /// Whether `sq` is on the board and played on.
    pub fn playable(&self, (f, r): Square) -> bool {
        let on = (0..self.size).contains(&f) && (0..self.size).contains(&r);
        on && (self.every_square || (f + r) % 2 == 0)
    }

    /// The rank where a man of this colour is crowned.
    fn far_rank(&self, white: bool) -> i32 {
        if white { self.size - 1 } else { 0 }
    }

    /// The four directions, as (file step, rank step).
    fn directions(&self) -> [Square; 4] {
        if self.orthogonal {
            [(0, 1), (1, 0), (0, -1), (-1, 0)]
        } else {
            [(1, 1), (-1, 1), (-1, -1), (1, -1)]
        }
    }

    /// Where a piece steps or slides: a king every way, a man never backward.
    fn step_directions(&self, p: Piece) -> Vec<Square> {
        let forward = if p.white { 1 } else { -1 };
        let dirs = self.directions();
        dirs.into_iter()
            .filter(|d| p.king || d.1 != -forward)
            .collect()
    }

    /// Where a piece jumps.
    fn jump_directions(&self, p: Piece) -> Vec<Square> {
        if p.king || self.men_capture_backward {
            self.directions().to_vec()
        } else {
            self.step_directions(p)
        }
    }

    /// Whether this piece goes any distance along a line, or one square.
    fn flies(&self, p: Piece) -> bool {
        p.king && self.flying_kings
    }
}

/// One piece: its colour and whether it is a king (Lasca's officer).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub white: bool,
    pub king: bool,
}

/// A position of the game its `rules` describe.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    pub rules: &'static Rules,
    pub board: Board,
    pub white_to_move: bool,
    /// Plies since the last capture (or man's move, where `men_reset_clock`).
    pub clock: u32,
    pub fullmove: u32,
}

/// One legal move.
#[derive(Clone, Debug)]
pub struct Move {
    /// The squares the piece stands on: its start, then where it steps or each landing.
    pub path: Vec<Square>,
    /// The squares jumped, in order (none for a quiet move).
    pub jumped: Vec<Square>,
    pub after: Position,
}

impl Move {
    /// The move as the rules pages write it: the path's squares joined by `-` for a quiet
    /// move and `:` for a capture.
    pub fn text(&self) -> String {
        let names: Vec<String> = self.path.iter().map(|&s| name(s)).collect();
        names.join(if self.jumped.is_empty() { "-" } else { ":" })
    }

    /// The start square's name.
    pub fn from(&self) -> String {
        name(self.path[0])
    }

    /// The end square's name.
    pub fn to(&self) -> String {
        name(*self.path.last().unwrap())
    }

    /// The names of the jumped squares, sorted (a square jumped twice is named twice).
    pub fn captured(&self) -> Vec<String> {
        let mut names: Vec<String> = self.jumped.iter().map(|&s| name(s)).collect();
        names.sort();
        names
    }
}

/// A square's name: `a1` is (0, 0).
fn name((f, r): Square) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn add((f, r): Square, (df, dr): Square) -> Square {
    (f + df, r + dr)
}

/// A capture in progress.
#[derive(Clone)]
struct Capture {
    /// The board without the moving column (its start square is empty for the whole move).
    board: Board,
    /// The moving column, commander first.
    column: Vec<Piece>,
    /// The squares stood on: the start, then each landing.
    path: Vec<Square>,
    /// The squares jumped, in order.
    jumped: Vec<Square>,
    /// The direction of the last jump.
    last_direction: Option<Square>,
    /// Crowned where the rules end the move there.
    stopped: bool,
}

/// A single jump: its direction, the square jumped and the landing square.
type Jump = (Square, Square, Square);

/// Every single jump the moving column can make next: over the first column along a line (the
/// next square, unless the commander flies) if an enemy commands it and the rules let it be
/// jumped now, onto the empty square behind (or, flying, any of those up to the next column).
/// A piece jumped and left standing (Russian) is a column like any other here: it blocks.
fn jumps(rules: &Rules, c: &Capture) -> Vec<Jump> {
    let mut out = Vec::new();
    if c.stopped {
        return out;
    }
    let piece = c.column[0];
    let here = *c.path.last().unwrap();
    for d in rules.jump_directions(piece) {
        if rules.no_reverse && c.last_direction == Some((-d.0, -d.1)) {
            continue;
        }
        let mut over = add(here, d);
        while rules.flies(piece) && rules.playable(over) && c.board[over].is_empty() {
            over = add(over, d);
        }
        let enemy = rules.playable(over)
            && c.board[over]
                .first()
                .is_some_and(|p| p.white != piece.white);
        let banned = if rules.rejump_after_another {
            c.jumped.last() == Some(&over)
        } else {
            c.jumped.contains(&over)
        };
        if !enemy || banned {
            continue;
        }
        let mut land = add(over, d);
        while rules.playable(land) && c.board[land].is_empty() {
            out.push((d, over, land));
            if !rules.flies(piece) {
                break;
            }
            land = add(land, d);
        }
    }
    out
}

/// The capture after one more jump.
fn jump(rules: &Rules, c: &Capture, (d, over, land): Jump) -> Capture {
    let mut n = c.clone();
    match rules.taking {
        Taking::RemoveAtOnce => n.board[over].clear(),
        Taking::RemoveAtEnd => {}
        Taking::TopUnderCapturer => {
            let top = n.board[over].remove(0);
            n.column.push(top);
        }
    }
    n.jumped.push(over);
    n.path.push(land);
    n.last_direction = Some(d);
    let commander = &mut n.column[0];
    if !commander.king
        && land.1 == rules.far_rank(commander.white)
        && rules.crowning != Crowning::AtTheEnd
    {
        commander.king = true;
        n.stopped = rules.crowning == Crowning::EndsCapture;
    }
    n
}

/// Follows the capture `c` to every end: it must go on while a jump is possible. With the
/// landing rule, of the landings behind one jumped column those that let the capture go on
/// are the only ones allowed, if there are any.
fn extend(rules: &Rules, c: Capture, done: &mut Vec<Capture>) {
    let all = jumps(rules, &c);
    if all.is_empty() {
        if !c.jumped.is_empty() {
            done.push(c);
        }
        return;
    }
    // The jumps over one column are next to each other in `all` (one column per direction).
    let mut overs: Vec<Square> = all.iter().map(|j| j.1).collect();
    overs.dedup();
    for over in overs {
        let mut nexts: Vec<Capture> = all
            .iter()
            .filter(|j| j.1 == over)
            .map(|&j| jump(rules, &c, j))
            .collect();
        let goes_on = |n: &Capture| !jumps(rules, n).is_empty();
        if rules.landing_rule && nexts.iter().any(goes_on) {
            nexts.retain(goes_on);
        }
        for n in nexts {
            extend(rules, n, done);
        }
    }
}

/// The position after a move that leaves `board`.
fn next(p: &Position, board: Board, resets_clock: bool) -> Position {
    Position {
        rules: p.rules,
        board,
        white_to_move: !p.white_to_move,
        clock: if resets_clock { 0 } else { p.clock + 1 },
        fullmove: p.fullmove + u32::from(!p.white_to_move),
    }
}

/// Every complete capture sequence of the column on `from`.
fn captures_from(p: &Position, from: Square) -> Vec<Capture> {
    let mut board = p.board.clone();
    let column = std::mem::take(&mut board[from]);
    let start = Capture {
        board,
        column,
        path: vec![from],
        jumped: Vec::new(),
        last_direction: None,
        stopped: false,
    };
    let mut done = Vec::new();
    extend(p.rules, start, &mut done);
    done
}

/// The move a finished capture sequence makes.
fn capture_move(p: &Position, c: Capture) -> Move {
    let mut board = c.board;
    if p.rules.taking == Taking::RemoveAtEnd {
        for &sq in &c.jumped {
            board[sq].clear();
        }
    }
    let end = *c.path.last().unwrap();
    let mut column = c.column;
    if p.rules.crowning == Crowning::AtTheEnd && end.1 == p.rules.far_rank(column[0].white) {
        column[0].king = true;
    }
    board[end] = column;
    Move {
        path: c.path,
        jumped: c.jumped,
        after: next(p, board, true),
    }
}

/// The quiet moves of the column on `from`: steps, or slides of a flying king.
fn quiet_moves_from(p: &Position, from: Square) -> Vec<Move> {
    let rules = p.rules;
    let piece = p.board[from][0];
    let mut out = Vec::new();
    for d in rules.step_directions(piece) {
        let mut to = add(from, d);
        while rules.playable(to) && p.board[to].is_empty() {
            let mut board = p.board.clone();
            let mut column = std::mem::take(&mut board[from]);
            if to.1 == rules.far_rank(piece.white) {
                column[0].king = true;
            }
            board[to] = column;
            out.push(Move {
                path: vec![from, to],
                jumped: Vec::new(),
                after: next(p, board, rules.men_reset_clock && !piece.king),
            });
            if !rules.flies(piece) {
                break;
            }
            to = add(to, d);
        }
    }
    out
}

/// Every legal move, each once, with the position it leads to: the captures if there are any
/// (capturing is compulsory; the longest only under the majority rule), else the quiet moves.
pub fn legal_moves(p: &Position) -> Vec<Move> {
    let rules = p.rules;
    let squares = (0..rules.size).flat_map(|r| (0..rules.size).map(move |f| (f, r)));
    let mine: Vec<Square> = squares
        .filter(|&sq| {
            p.board[sq]
                .first()
                .is_some_and(|x| x.white == p.white_to_move)
        })
        .collect();
    let mut captures: Vec<Capture> = mine.iter().flat_map(|&sq| captures_from(p, sq)).collect();
    if captures.is_empty() {
        return mine
            .iter()
            .flat_map(|&sq| quiet_moves_from(p, sq))
            .collect();
    }
    if rules.majority {
        let most = captures.iter().map(|c| c.jumped.len()).max().unwrap();
        captures.retain(|c| c.jumped.len() == most);
    }
    let mut out: Vec<Move> = Vec::new();
    for c in captures {
        let m = capture_move(p, c);
        let merged = rules.same_move == SameMove::StartEndCaptured
            && out.iter().any(|o| {
                (o.from(), o.to(), o.captured(), &o.after)
                    == (m.from(), m.to(), m.captured(), &m.after)
            });
        if !merged {
            out.push(m);
        }
    }
    out
}

/// Leaf count at `depth` (a position without a legal move counts 0).
pub fn perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(p)
        .iter()
        .map(|m| perft(&m.after, depth - 1))
        .sum()
}
