//! Text pictures of a position for people: the board diagram (`d`, `bashni analyse`) and the
//! evaluation broken into its terms (`eval`).

use crate::eval::{evaluate, side_terms};
use crate::rules::color::Color;
use crate::rules::notation::to_fen;
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::search::Score;

/// Text of one board cell: the tower top first (`b`, `(Wbb)`), `.` for an empty dark
/// square, blank for a light square.
fn cell(file: u8, rank: u8, pos: &Position) -> String {
    match Square::from_coords(file, rank) {
        None => String::new(),
        Some(sq) if pos.tower(sq).is_empty() => ".".to_string(),
        Some(sq) => pos.tower(sq).to_string(),
    }
}

/// Colour name for people.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The board diagram, rank 8 at the top, every tower written in full (top piece first), then
/// the FEN and the side to move. Each file is as wide as its tallest tower.
pub fn diagram(pos: &Position) -> Vec<String> {
    let cells: Vec<Vec<String>> = (0..8u8)
        .rev()
        .map(|r| (0..8u8).map(|f| cell(f, r, pos)).collect())
        .collect();
    let widths: Vec<usize> = (0..8)
        .map(|f| {
            cells
                .iter()
                .map(|row| row[f].len())
                .max()
                .unwrap_or(1)
                .max(1)
        })
        .collect();
    let row_text = |label: String, texts: Vec<&str>| {
        let mut s = format!(" {label} ");
        for (t, w) in texts.iter().zip(&widths) {
            s.push_str(&format!(" {t:<w$}"));
        }
        s.trim_end().to_string()
    };
    let files = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut lines = vec![row_text(" ".to_string(), files.to_vec())];
    for (i, row) in cells.iter().enumerate() {
        lines.push(row_text(
            (8 - i).to_string(),
            row.iter().map(String::as_str).collect(),
        ));
    }
    lines.push(String::new());
    lines.push("w b = men, W B = kings; a tower is written top first: (Wbb)".to_string());
    lines.push(format!("FEN: {}", to_fen(pos)));
    lines.push(format!(
        "{} to move; {} since the last capture; move {}",
        capitalised(color_name(pos.side())),
        plies(pos.clock()),
        pos.fullmove()
    ));
    lines
}

fn plies(n: u16) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

fn capitalised(s: &str) -> String {
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
    let tempo = total - (ours.total() - theirs.total());
    lines.push(format!("{:<14}{:>8}{:>8}{:>10}", "tempo", "", "", tempo));
    lines.push(format!(
        "{:<14}{:>8}{:>8}{:>10}",
        "total",
        white.total(),
        black.total(),
        total
    ));
    lines.push(format!(
        "Evaluation: {} (cp {total}) for {}, the side to move; net = {} minus {}",
        Score::Cp(total).human(),
        color_name(us),
        color_name(us),
        color_name(us.opponent())
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;

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
