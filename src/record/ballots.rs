//! The ballot openings a game begins with: the drawing tables tournaments draw their
//! openings from (`openings/ballots/`: the FMJD table for Russian draughts, its Brazilian
//! version for Brazilian, the IDF basic positions for both), each ballot a code (`12-IV`) and its moves. A
//! game from the initial position is named by the longest ballot of a table that its moves
//! begin with; the page shows it under the board, and the server's PDN writes it in its tags.

use crate::games::{Game, Record, Variant};
use std::sync::OnceLock;

/// One drawing table: its short name, its game, and the text of its file (one ballot a line,
/// `a3-b4 b6-a5 b2-a3 # 1-IV`, lines of `#` alone comments).
pub struct Table {
    /// Its short name (`FMJD`, `IDF`).
    pub name: &'static str,
    /// Its game.
    pub variant: Variant,
    /// The file's text.
    pub text: &'static str,
}

/// The tables of every game (docs/match.md#ballots gives their sources; tests/ballots.rs
/// reads every line): the FMJD table first, so that it names a ballot the IDF table has too.
pub const TABLES: &[Table] = &[
    Table {
        name: "FMJD",
        variant: Variant::Russian,
        text: include_str!("../../openings/ballots/russian-fmjd.txt"),
    },
    Table {
        name: "IDF",
        variant: Variant::Russian,
        text: include_str!("../../openings/ballots/idf-basic.txt"),
    },
    Table {
        name: "FMJD",
        variant: Variant::Brazilian,
        text: include_str!("../../openings/ballots/brazilian-fmjd.txt"),
    },
    Table {
        name: "IDF",
        variant: Variant::Brazilian,
        text: include_str!("../../openings/ballots/idf-basic.txt"),
    },
];

/// A ballot: its table, its code, its moves in the game's own notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ballot {
    /// The table's short name.
    pub table: &'static str,
    /// The ballot's code in it (`1-IV`).
    pub code: String,
    /// Its moves from the initial position, as the game writes them.
    pub moves: Vec<String>,
}

impl Ballot {
    /// `FMJD 1-IV`.
    pub fn label(&self) -> String {
        format!("{} {}", self.table, self.code)
    }
}

/// The ballots of a table's text: each line's moves and code (a line without `#`, or with no
/// move before it, is none).
pub fn entries(text: &str) -> impl Iterator<Item = (&str, Vec<&str>)> {
    text.lines().filter_map(|line| {
        let (moves, code) = line.split_once('#')?;
        let moves: Vec<&str> = moves.split_whitespace().collect();
        (!moves.is_empty() && !code.trim().is_empty()).then(|| (code.trim(), moves))
    })
}

/// The ballots of game `G` from `tables`, their moves replayed and written as `G` writes
/// them (a capture's whole path); a line `G` cannot play is left out (the tables' own test
/// checks every line).
pub fn ballots_of<G: Game>(variant: Variant, tables: &[Table]) -> Vec<Ballot> {
    let mut out = Vec::new();
    for t in tables.iter().filter(|t| t.variant == variant) {
        for (code, moves) in entries(t.text) {
            if let Ok(r) = Record::<G>::from_fen_and_moves(G::START_FEN, &moves) {
                let moves = r.moves().iter().map(ToString::to_string).collect();
                out.push(Ballot {
                    table: t.name,
                    code: code.to_string(),
                    moves,
                });
            }
        }
    }
    out
}

/// The longest ballot among `ballots` that `moves` (from the initial position) begin with;
/// the first table's on a tie.
pub fn longest<'a>(ballots: &'a [Ballot], moves: &[String]) -> Option<&'a Ballot> {
    ballots
        .iter()
        .filter(|b| b.moves.len() <= moves.len() && b.moves[..] == moves[..b.moves.len()])
        .fold(None, |best: Option<&Ballot>, b| match best {
            Some(x) if x.moves.len() >= b.moves.len() => Some(x),
            _ => Some(b),
        })
}

/// Every game's ballots from [`TABLES`], read once.
fn all() -> &'static [(Variant, Vec<Ballot>)] {
    static ALL: OnceLock<Vec<(Variant, Vec<Ballot>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        Variant::ALL
            .iter()
            .map(|&v| (v, crate::for_variant!(v, G => ballots_of::<G>(v, TABLES))))
            .collect()
    })
}

/// The ballot game `variant`'s `moves` (from its initial position) begin with, if a table
/// knows one.
pub fn ballot(variant: Variant, moves: &[String]) -> Option<Ballot> {
    let (_, ballots) = all().iter().find(|(v, _)| *v == variant)?;
    longest(ballots, moves).cloned()
}

/// How many ballots each table of [`TABLES`] holds that its game can play: `(game, table,
/// count)`.
pub fn counts() -> Vec<(Variant, &'static str, usize)> {
    TABLES
        .iter()
        .map(|t| {
            let (_, ballots) = all()
                .iter()
                .find(|(v, _)| *v == t.variant)
                .expect("every game");
            (
                t.variant,
                t.name,
                ballots.iter().filter(|b| b.table == t.name).count(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::russian::Position;

    /// A table as the ballot files write one (codes and moves made up for the test).
    const TABLE: &str = "# A test table: two categories.\n\
        # (a comment line)\n\
        c3-d4 f6-g5          # 1-I\n\
        c3-d4 f6-g5 g3-h4    # 1-II\n\
        e3-f4 d6-e5 f4:d6    # 2-I\n\
        c3-b4                # 2-II\n";

    fn moves(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_tables_lines_are_its_ballots() {
        let e: Vec<(&str, Vec<&str>)> = entries(TABLE).collect();
        assert_eq!(e.len(), 4);
        assert_eq!(e[1], ("1-II", vec!["c3-d4", "f6-g5", "g3-h4"]));
    }

    #[test]
    fn a_game_is_named_by_the_longest_ballot_it_begins_with() {
        let tables = [
            Table {
                name: "T",
                variant: Variant::Russian,
                text: TABLE,
            },
            Table {
                name: "U",
                variant: Variant::Russian,
                text: "c3-d4 # 9-IX\n",
            },
            Table {
                name: "B",
                variant: Variant::Bashni,
                text: "e3-f4 # 1-I\n",
            },
        ];
        let ballots = ballots_of::<Position>(Variant::Russian, &tables);
        assert_eq!(ballots.len(), 5, "the Bashni table is not Russian's");
        let name = |m: &str| longest(&ballots, &moves(m)).map(Ballot::label);
        assert_eq!(name("c3-d4 f6-g5 g3-h4 h6-g5").as_deref(), Some("T 1-II"));
        assert_eq!(name("c3-d4 f6-g5").as_deref(), Some("T 1-I"));
        assert_eq!(name("c3-d4 b6-a5").as_deref(), Some("U 9-IX"));
        assert_eq!(name("e3-f4 d6-e5 f4:d6").as_deref(), Some("T 2-I"));
        // Fewer moves than a ballot, or other moves: no name.
        assert_eq!(name("e3-f4 d6-e5"), None);
        assert_eq!(name("a3-b4"), None);
        assert_eq!(name(""), None);
    }

    #[test]
    fn the_real_tables_name_russian_and_brazilian_openings() {
        // Every ballot given as moves; those given as positions (most of the FMJD table's
        // categories 11 to 37, two of the IDF's) name no game from the initial position.
        let counts: Vec<(Variant, &str, usize)> = counts();
        assert_eq!(
            counts,
            [
                (Variant::Russian, "FMJD", 343),
                (Variant::Russian, "IDF", 148),
                (Variant::Brazilian, "FMJD", 335),
                (Variant::Brazilian, "IDF", 148),
            ]
        );
        let line = moves("a3-b4 b6-a5 b2-a3 f6-e5 g3-h4 h6-g5");
        for v in [Variant::Russian, Variant::Brazilian] {
            let b = ballot(v, &line).expect("FMJD 1-IV");
            assert_eq!(b.label(), "FMJD 1-IV");
        }
        assert_eq!(ballot(Variant::Bashni, &line), None);
        // The IDF's basic positions name what the FMJD table does not.
        let idf = ballot(Variant::Brazilian, &moves("g3-h4 h6-g5 a3-b4")).expect("IDF 1-III");
        assert_eq!(idf.label(), "IDF 1-III");
    }
}
