//! Text pictures of a position for people: the board diagram (`d`, `bashni analyse`), the
//! board a person plays on (`bashni play`: colour on a terminal, the last move marked, either
//! side at the bottom) and the evaluation broken into its terms (`eval`).

use crate::games::Game;
use crate::games::bashni::eval::{evaluate, side_terms};
use crate::games::bashni::position::Position;
use crate::games::kit::color::Color;
use crate::games::kit::linear::{self, LinearEval};
use crate::search::Score;

/// Text of one board cell: the tower top first (`b`, `(Wbb)`), `.` for an empty square,
/// blank for a square the game does not use.
fn cell<G: Game>(file: u8, rank: u8, pos: &G) -> String {
    match pos.tower_at(file, rank) {
        None => String::new(),
        Some(t) if t.is_empty() => ".".to_string(),
        Some(t) => t.to_string(),
    }
}

/// The name of the square at (file, rank): `a1` is (0, 0).
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// Colour name for people.
pub fn color_name(c: Color) -> &'static str {
    c.name()
}

/// The number of files and ranks of `pos`'s board: 8, or 7 for a game that plays on no
/// square of file h or rank 8 (Lasca).
pub fn board_size<G: Game>(pos: &G) -> u8 {
    let eighth = (0..8).any(|i| pos.tower_at(7, i).is_some() || pos.tower_at(i, 7).is_some());
    if eighth { 8 } else { 7 }
}

/// The board diagram, the last rank at the top, every tower written in full (top piece
/// first), then the FEN and the side to move. Each file is as wide as its tallest tower.
pub fn diagram<G: Game>(pos: &G) -> Vec<String> {
    let n = board_size(pos);
    let cells: Vec<Vec<String>> = (0..n)
        .rev()
        .map(|r| (0..n).map(|f| cell(f, r, pos)).collect())
        .collect();
    let widths = column_widths(&cells);
    let row_text = |label: String, texts: Vec<&str>| {
        let mut s = format!(" {label} ");
        for (t, w) in texts.iter().zip(&widths) {
            s.push_str(&format!(" {t:<w$}"));
        }
        s.trim_end().to_string()
    };
    let files = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut lines = vec![row_text(" ".to_string(), files[..n as usize].to_vec())];
    for (i, row) in cells.iter().enumerate() {
        lines.push(row_text(
            (n as usize - i).to_string(),
            row.iter().map(String::as_str).collect(),
        ));
    }
    lines.push(String::new());
    lines.push(match G::VARIANT {
        crate::games::Variant::Bashni => {
            "w b = men, W B = kings; a tower is written top first: (Wbb)".to_string()
        }
        crate::games::Variant::Lasca => {
            "w b = soldiers, W B = officers; a column is written top first: (Wbb)".to_string()
        }
        _ => "w b = men, W B = kings".to_string(),
    });
    lines.push(format!("FEN: {}", pos.to_fen()));
    let since = match G::VARIANT {
        crate::games::Variant::Bashni | crate::games::Variant::Lasca => "since the last capture",
        _ => "since the last capture or man's move",
    };
    lines.push(format!(
        "{} to move; {} {since}; move {}",
        capitalised(color_name(pos.side_to_move())),
        plies(pos.clock()),
        pos.fullmove()
    ));
    lines
}

/// Width of each column: its widest cell, at least 1.
fn column_widths(cells: &[Vec<String>]) -> Vec<usize> {
    (0..cells[0].len())
        .map(|f| {
            cells
                .iter()
                .map(|row| row[f].len())
                .max()
                .unwrap_or(1)
                .max(1)
        })
        .collect()
}

/// Width of a cell of the play board: a tower's top piece and its height (`W3`).
const GLYPH_WIDTH: usize = 2;

/// A square of the play board in [`GLYPH_WIDTH`] characters: `.` empty, the piece's letter
/// for one piece, the top piece's letter and the height for a tower (`W3`: a white king on
/// two more pieces; `W+` from 10 pieces up), blank for a light square. The whole tower is
/// in [`tower_list`].
fn glyph<G: Game>(file: u8, rank: u8, pos: &G) -> String {
    let Some(t) = pos.tower_at(file, rank) else {
        return String::new();
    };
    match t.height() {
        0 => ".".to_string(),
        1 => t.to_string(),
        h @ 2..=9 => format!("{}{h}", t.top().letter()),
        _ => format!("{}+", t.top().letter()),
    }
}

/// The towers of two or more pieces written in full, top first, in reading order from
/// White's side (rank 8 first): `towers, top first: c5 (Wbb), f4 (bw)`; `None` when there
/// are none.
pub fn tower_list<G: Game>(pos: &G) -> Option<String> {
    let mut list = Vec::new();
    for rank in (0..8).rev() {
        for file in 0..8 {
            if let Some(t) = pos.tower_at(file, rank)
                && t.height() > 1
            {
                list.push(format!("{} {t}", square_name(file, rank)));
            }
        }
    }
    let what = match G::VARIANT {
        crate::games::Variant::Lasca => "columns",
        _ => "towers",
    };
    (!list.is_empty()).then(|| format!("{what}, top first: {}", list.join(", ")))
}

/// How [`board`] draws: which side is at the bottom, colour or plain text, which squares
/// to mark (the last move's path).
#[derive(Clone, Debug, Default)]
pub struct BoardStyle {
    /// Black at the bottom (files h to a, rank 1 at the top).
    pub flipped: bool,
    /// ANSI colours (a terminal without `NO_COLOR`); plain text otherwise.
    pub color: bool,
    /// Squares to mark, as (file, rank): in colour with a highlighted background, in plain
    /// text in brackets.
    pub marked: Vec<(u8, u8)>,
}

/// ANSI escapes of the colour board.
mod ansi {
    pub const RESET: &str = "\x1b[0m";
    pub const LIGHT: &str = "\x1b[48;5;180m";
    pub const DARK: &str = "\x1b[48;5;94m";
    pub const MARKED: &str = "\x1b[48;5;136m";
    pub const WHITE_PIECE: &str = "\x1b[1;97m";
    pub const BLACK_PIECE: &str = "\x1b[1;30m";
    pub const FRAME: &str = "\x1b[2;39m";
}

/// One cell of the play board, `width` + 2 columns wide.
fn board_cell(text: &str, width: usize, dark: bool, marked: bool, color: bool) -> String {
    if !color {
        let (l, r) = if marked { ('[', ']') } else { (' ', ' ') };
        return format!("{l}{text:<width$}{r}");
    }
    let bg = match (dark, marked) {
        (false, _) => ansi::LIGHT,
        (true, false) => ansi::DARK,
        (true, true) => ansi::MARKED,
    };
    let mut s = format!("{bg} ");
    for ch in text.chars() {
        let fg = match ch {
            'w' | 'W' => ansi::WHITE_PIECE,
            'b' | 'B' => ansi::BLACK_PIECE,
            _ => "",
        };
        if fg.is_empty() {
            s.push(if ch == '.' { ' ' } else { ch });
        } else {
            s.push_str(&format!("{fg}{ch}{}{bg}", ansi::RESET));
        }
    }
    s.push_str(&" ".repeat(width - text.len() + 1));
    s.push_str(ansi::RESET);
    s
}

/// The board a person plays on: a grid of cells of one width, a tower shown by its top piece
/// and height (`W3`; [`tower_list`] writes it in full), file letters above and below, rank
/// numbers left and right, the marked squares highlighted.
pub fn board<G: Game>(pos: &G, style: &BoardStyle) -> Vec<String> {
    let n = board_size(pos);
    let ranks: Vec<u8> = if style.flipped {
        (0..n).collect()
    } else {
        (0..n).rev().collect()
    };
    let files: Vec<u8> = if style.flipped {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    let cells: Vec<Vec<String>> = ranks
        .iter()
        .map(|&r| files.iter().map(|&f| glyph(f, r, pos)).collect())
        .collect();
    let widths = vec![GLYPH_WIDTH; n as usize];
    let (frame, reset) = if style.color {
        (ansi::FRAME, ansi::RESET)
    } else {
        ("", "")
    };
    let mut letters = String::from("   ");
    for (&f, w) in files.iter().zip(&widths) {
        letters.push_str(&format!(" {:<w$} ", (b'a' + f) as char));
    }
    let letters = format!("{frame}{}{reset}", letters.trim_end());
    let mut lines = vec![letters.clone()];
    for (row, &r) in cells.iter().zip(&ranks) {
        let mut s = format!("{frame} {} {reset}", r + 1);
        for ((text, &f), &w) in row.iter().zip(&files).zip(&widths) {
            let used = pos.tower_at(f, r).is_some();
            let marked = used && style.marked.contains(&(f, r));
            s.push_str(&board_cell(text, w, used, marked, style.color));
        }
        s.push_str(&format!("{frame} {}{reset}", r + 1));
        lines.push(s);
    }
    lines.push(letters);
    lines
}

/// `1 ply`, `2 plies`.
pub fn plies(n: impl Into<u64>) -> String {
    counted(n.into(), "ply", "plies")
}

/// `n` and the noun in its number: `1 move`, `3 moves`.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `s` with its first letter in upper case.
pub fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// The static evaluation term by term for both sides, the difference from the side to
/// move's view, the tempo bonus and the total.
pub fn eval_report(pos: &Position) -> Vec<String> {
    let us = pos.side();
    let ours = side_terms(pos, us);
    let theirs = side_terms(pos, us.opponent());
    let (white, black) = if us == Color::White {
        (ours, theirs)
    } else {
        (theirs, ours)
    };
    let mut lines = vec![format!(
        "{:<14}{:>8}{:>8}{:>10}",
        "term", "white", "black", "net"
    )];
    for ((name, w), (_, b)) in white.named().iter().zip(black.named().iter()) {
        let net = if us == Color::White { w - b } else { b - w };
        lines.push(format!("{name:<14}{w:>8}{b:>8}{net:>10}"));
    }
    let total = evaluate(pos);
    // Each term is blended between opening and endgame on its own: the sum may be a
    // centi-man off the whole evaluation.
    let rounding = total - (ours.total() - theirs.total());
    if rounding != 0 {
        lines.push(format!(
            "{:<14}{:>8}{:>8}{:>10}",
            "rounding", "", "", rounding
        ));
    }
    lines.push(format!(
        "{:<14}{:>8}{:>8}{:>10}",
        "total",
        white.total(),
        black.total(),
        total
    ));
    lines.push(units_line(<Position as Game>::MAN));
    lines.push(format!(
        "Evaluation: {} (internal {total}) for {}, the side to move; net = {} minus {}",
        Score::from_internal(total, <Position as Game>::MAN).human(),
        color_name(us),
        color_name(us),
        color_name(us.opponent())
    ));
    lines
}

/// [`eval_report`] for a game with a linear evaluation of its own (Turkish and Russian
/// draughts): the same table, of that game's terms ([`linear::side_terms`]).
pub fn linear_report<G: LinearEval>(pos: &G) -> Vec<String> {
    let us = pos.side_to_move();
    let white = linear::side_terms(pos, Color::White);
    let black = linear::side_terms(pos, Color::Black);
    // From the side to move's view, as the evaluation is.
    let view = |w: i32, b: i32| if us == Color::White { w - b } else { b - w };
    let row = |name: &str, w: &str, b: &str, net: i32| format!("{name:<14}{w:>8}{b:>8}{net:>10}");
    let mut lines = vec![format!(
        "{:<14}{:>8}{:>8}{:>10}",
        "term", "white", "black", "net"
    )];
    for ((name, w), (_, b)) in white.iter().zip(&black) {
        lines.push(row(name, &w.to_string(), &b.to_string(), view(*w, *b)));
    }
    let (w, b) = (
        white.iter().map(|t| t.1).sum::<i32>(),
        black.iter().map(|t| t.1).sum::<i32>(),
    );
    let total = linear::evaluate(pos);
    // Each term is blended between opening and endgame on its own: the sum may be a
    // centi-man a term off the whole evaluation.
    let rounding = total - view(w, b);
    if rounding != 0 {
        lines.push(row("rounding", "", "", rounding));
    }
    lines.push(row("total", &w.to_string(), &b.to_string(), total));
    lines.push(units_line(G::MAN));
    lines.push(format!(
        "Evaluation: {} (internal {total}) for {}, the side to move; net = {} minus {}",
        Score::from_internal(total, G::MAN).human(),
        color_name(us),
        color_name(us),
        color_name(us.opponent())
    ));
    lines
}

/// The line under an evaluation table that names its units and what the tempo row is, so
/// that the start's value (the tempo alone) is not read as an advantage.
fn units_line(man: i32) -> String {
    format!(
        "units: internal, {man} to a man (Game::MAN); tempo is the side to move's bonus, all \
         that a symmetric position such as the start scores"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::notation::{START_FEN, parse_fen};

    #[test]
    fn diagram_shows_towers_in_full() {
        let pos = parse_fen("8/8/8/(WbBbb)7/8/8/8/8 b 3 9").unwrap();
        let d = diagram(&pos);
        assert_eq!(d[0], "    a       b c d e f g h");
        assert_eq!(d[4], " 5  (WbBbb)   .   .   .");
        assert!(d.iter().any(|l| l == "FEN: 8/8/8/(WbBbb)7/8/8/8/8 b 3 9"));
        assert!(
            d.last()
                .unwrap()
                .starts_with("Black to move; 3 plies since")
        );
    }

    #[test]
    fn other_games_use_their_own_squares() {
        use crate::games::{russian, turkish};
        let t = turkish::Position::startpos();
        let d = diagram(&t);
        assert_eq!(d[0], "    a b c d e f g h");
        assert_eq!(d[2], " 7  b b b b b b b b");
        assert_eq!(d[1], " 8  . . . . . . . .");
        assert!(
            d.iter()
                .any(|l| l == &format!("FEN: {}", turkish::START_FEN))
        );
        let b = board(&t, &BoardStyle::default());
        assert_eq!(b[7], " 2  w   w   w   w   w   w   w   w   2");
        let r = russian::Position::startpos();
        assert_eq!(diagram(&r)[8], " 1  w   w   w   w");
        assert_eq!(tower_list(&r), None);
    }

    #[test]
    fn lasca_is_drawn_on_seven_files_and_ranks() {
        use crate::games::lasca;
        let p = lasca::notation::parse_fen("7/7/2(wbB)4/7/7/7/w6 b 3 9").unwrap();
        let d = diagram(&p);
        assert_eq!(d[0], "    a b c     d e f g");
        assert_eq!(d[3], " 5  .   (wbB)   .   .");
        assert_eq!(d[7], " 1  w   .       .   .");
        assert!(d[9].starts_with("w b = soldiers"), "{}", d[9]);
        assert!(d[11].starts_with("Black to move; 3 plies since the last capture"));
        let b = board(&p, &BoardStyle::default());
        assert_eq!(b.len(), 9);
        assert_eq!(b[0], "    a   b   c   d   e   f   g");
        assert_eq!(b[3], " 5  .       w3      .       .   5");
        assert_eq!(
            tower_list(&p).as_deref(),
            Some("columns, top first: c5 (wbB)")
        );
    }

    #[test]
    fn play_board_plain_and_flipped() {
        let pos = parse_fen("8/8/8/(WbBbb)7/8/8/8/6w1 b 3 9").unwrap();
        let style = BoardStyle {
            marked: vec![(6, 0)],
            ..BoardStyle::default()
        };
        let b = board(&pos, &style);
        assert_eq!(b.len(), 10);
        // Every file as wide as every other: a tower shows its top and height.
        assert_eq!(b[0], "    a   b   c   d   e   f   g   h");
        assert_eq!(b[4], " 5  W5      .       .       .       5");
        assert_eq!(b[8], " 1  .       .       .      [w ]     1");
        assert_eq!(b[9], b[0]);
        assert!(b.iter().all(|l| l.len() == b[1].len() || l == &b[0]));
        let flipped = board(
            &pos,
            &BoardStyle {
                flipped: true,
                ..style
            },
        );
        assert_eq!(flipped[0], "    h   g   f   e   d   c   b   a");
        assert_eq!(flipped[1], " 1     [w ]     .       .       .   1");
        assert_eq!(flipped[5], " 5      .       .       .       W5  5");
        assert_eq!(
            tower_list(&pos).as_deref(),
            Some("towers, top first: a5 (WbBbb)")
        );
        assert_eq!(tower_list(&Position::startpos()), None);
    }

    #[test]
    fn tall_towers_keep_the_cell_width() {
        let pos = parse_fen("8/8/8/8/8/8/8/(Bwwwwwwwwwww)7 w").unwrap();
        let b = board(&pos, &BoardStyle::default());
        assert!(b[8].starts_with(" 1  B+      .   "), "{}", b[8]);
        assert_eq!(
            tower_list(&pos).as_deref(),
            Some("towers, top first: a1 (Bwwwwwwwwwww)")
        );
    }

    #[test]
    fn play_board_in_colour() {
        let pos = parse_fen(START_FEN).unwrap();
        let b = board(
            &pos,
            &BoardStyle {
                color: true,
                ..BoardStyle::default()
            },
        );
        assert!(b[1].contains(ansi::BLACK_PIECE) && b[8].contains(ansi::WHITE_PIECE));
        assert!(b.iter().all(|l| l.ends_with(ansi::RESET)));
        assert!(!b.iter().any(|l| l.contains('.')));
    }

    #[test]
    fn linear_reports_add_up() {
        use crate::games::{Rules, russian, turkish};
        let t = turkish::Position::from_fen("8/8/8/3B4/8/2bb4/8/W6w b").unwrap();
        let r = linear_report(&t);
        assert!(r[0].starts_with("term "), "{r:?}");
        let total = r.iter().find(|l| l.starts_with("total")).unwrap();
        assert!(total.ends_with(&format!("{:>10}", t.evaluate())), "{total}");
        assert!(r.last().unwrap().contains(" for black, the side to move; "));
        let p = russian::Position::startpos();
        let r = linear_report(&p);
        let total = r.iter().find(|l| l.starts_with("total")).unwrap();
        assert!(total.ends_with(&format!("{:>10}", p.evaluate())), "{total}");
    }

    #[test]
    fn eval_report_adds_up() {
        let pos = Position::startpos();
        let r = eval_report(&pos);
        let total = r.iter().find(|l| l.starts_with("total")).unwrap();
        assert!(
            total.ends_with(&format!("{:>10}", evaluate(&pos))),
            "{total}"
        );
    }
}
