//! Scores: the one unit users see (centi-men, 100 to a man, in every game, or a mate
//! distance), its conversion from each evaluation's internal units, and the translation of
//! win scores between the root and a table entry's node.

use super::egdb;
use super::{DECISIVE_CP, WIN, WIN_BOUND};

/// A score as reported to users.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centi-men from the side to move's view.
    Cp(i32),
    /// The side to move wins in this many plies.
    WinIn(u32),
    /// The side to move loses in this many plies.
    LossIn(u32),
}

impl Score {
    /// Converts an internal score of an evaluation whose man is worth `man` internal units
    /// ([`crate::games::Game::MAN`]): centi-men `round(s * 100 / man)`, so that one man is
    /// `cp 100` in every game; wins and losses as they are.
    pub fn from_internal(s: i32, man: i32) -> Score {
        if let Some(tb) = egdb::tb_score(s) {
            tb
        } else if s > WIN_BOUND {
            Score::WinIn((WIN - s) as u32)
        } else if s < -WIN_BOUND {
            Score::LossIn((WIN + s) as u32)
        } else {
            Score::Cp(centi_men(s, man))
        }
    }

    /// The internal score of a reported one (inverse of [`Score::from_internal`], exact for
    /// `man` up to 200 and within `man / 200` internal units above).
    pub fn to_internal(self, man: i32) -> i32 {
        match self {
            Score::Cp(c) => egdb::tb_internal(c).unwrap_or_else(|| internal_units(c, man)),
            Score::WinIn(p) => WIN - p as i32,
            Score::LossIn(p) => p as i32 - WIN,
        }
    }

    /// A won or lost game as a distance in the side to move's own moves, the one unit of
    /// every mate distance shown (`mate N` in the protocol, `+MN` in PDN comments, `win in N
    /// moves` for people): positive when it wins, negative when it loses; `None` for a score
    /// in centi-men.
    pub fn mate_moves(&self) -> Option<i32> {
        match *self {
            Score::Cp(_) => None,
            Score::WinIn(p) => Some(own_moves(p) as i32),
            Score::LossIn(p) => Some(-(own_moves(p) as i32)),
        }
    }

    /// Protocol form: `cp 25`, `mate 3` (side to move wins in 3 of its moves), `mate -2`.
    pub fn protocol(&self) -> String {
        match *self {
            Score::Cp(c) => format!("cp {c}"),
            Score::WinIn(p) => format!("mate {}", own_moves(p)),
            Score::LossIn(p) => format!("mate -{}", own_moves(p)),
        }
    }

    /// Whether a score in centi-men says a side is simply winning: at least
    /// [`DECISIVE_CP`] either way (or a proven result).
    pub fn is_decisive(&self) -> bool {
        match *self {
            Score::Cp(c) => c.abs() >= DECISIVE_CP,
            Score::WinIn(_) | Score::LossIn(_) => true,
        }
    }

    /// Human form: `+1.25` men, `winning` / `losing` from [`DECISIVE_CP`] on (the side to
    /// move simply wins or loses; a figure there would not mean men), `win in 3 moves`,
    /// `loss in 1 move` (own moves, as `mate N` counts them), `lost` (no legal move now).
    pub fn human(&self) -> String {
        let moves = |p: u32| match own_moves(p) {
            1 => "1 move".to_string(),
            n => format!("{n} moves"),
        };
        match *self {
            Score::Cp(c) if c >= DECISIVE_CP => "winning".to_string(),
            Score::Cp(c) if c <= -DECISIVE_CP => "losing".to_string(),
            Score::Cp(c) => format!(
                "{}{}.{:02}",
                if c < 0 { "-" } else { "+" },
                c.abs() / 100,
                c.abs() % 100
            ),
            Score::WinIn(p) => format!("win in {}", moves(p)),
            Score::LossIn(0) => "lost".to_string(),
            Score::LossIn(p) => format!("loss in {}", moves(p)),
        }
    }
}

/// Internal units `s` of an evaluation whose man is `man` units, as centi-men (rounded to
/// nearest, halves away from zero): the unit of every reported score.
pub fn centi_men(s: i32, man: i32) -> i32 {
    let man = i64::from(man.max(1));
    let n = i64::from(s) * 100;
    let r = (n.abs() + man / 2) / man;
    (if n < 0 { -r } else { r }) as i32
}

/// Centi-men as internal units of an evaluation whose man is `man` units (rounded).
pub fn internal_units(cp: i32, man: i32) -> i32 {
    let n = i64::from(cp) * i64::from(man);
    let r = (n.abs() + 50) / 100;
    (if n < 0 { -r } else { r }) as i32
}

/// Plies as the moves of the side to move: a win in 3 plies is a win in 2 of its moves (its
/// own first, then its third ply), a loss in 2 plies a loss in 1.
fn own_moves(plies: u32) -> u32 {
    plies.div_ceil(2)
}

/// Score to store in the TT: wins and losses (mates and the endgame databases' results, both
/// counted from the root) relative to the node, not the root. No evaluation reaches
/// [`egdb::TB_BOUND`], so without databases only mates move.
#[inline]
pub(crate) fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score > egdb::TB_BOUND {
        score + ply as i32
    } else if score < -egdb::TB_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

/// Score read from the TT, made relative to the root again.
#[inline]
pub(crate) fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s > egdb::TB_BOUND {
        s - ply as i32
    } else if s < -egdb::TB_BOUND {
        s + ply as i32
    } else {
        s
    }
}
