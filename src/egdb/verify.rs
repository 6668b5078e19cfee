//! `bashni egdb verify`: every stored position's value checked against its successors'.
//!
//! Under the rule the check is exact: a stored win in `d` must be the nearest win its moves
//! give (a move that resets the clock: one ply if the position after it is lost with a fresh
//! clock; another move: one ply more than the loss it leads to, within the limit), a stored
//! loss the furthest loss with every move losing, and anything else neither. Without the
//! rule the class is checked (a cursed win must have a move to a position lost without the
//! rule, a blessed loss every move to one won without it); a cursed win's distance is not.
//! Positions with a capture to play are not stored and not checked.

use super::game::EgdbGame;
use super::material::indexer;
use super::probe::{ProbeError, Store};
use super::value::{Plies, Value};

/// What `verify` found in one game's tables.
#[derive(Debug, Default)]
pub struct Report {
    /// Tables checked.
    pub tables: usize,
    /// Positions checked.
    pub positions: u64,
    /// The first disagreements, one line each.
    pub errors: Vec<String>,
    /// Disagreements in all.
    pub wrong: u64,
}

/// Checks every table of `store` read from a file.
pub fn verify<G: EgdbGame>(store: &Store<G>) -> Result<Report, ProbeError> {
    let mut report = Report::default();
    let mut probe = store.prober();
    for (sig, _) in store.file_tables() {
        report.tables += 1;
        let ix = indexer::<G>(sig);
        for slot in 0..ix.size() {
            let Some(layout) = ix.layout(slot) else {
                continue;
            };
            let pos = G::from_layout(&layout);
            if pos.decided().is_none() && pos.can_capture() {
                continue;
            }
            report.positions += 1;
            let stored = probe.probe(&pos)?;
            let expected = expected::<G>(&pos, &mut probe)?;
            if !agrees(stored, expected) {
                report.wrong += 1;
                if report.errors.len() < 10 {
                    report.errors.push(format!(
                        "{} {sig}: stored {stored}, its moves give {expected:?}",
                        pos.to_fen()
                    ));
                }
            }
        }
    }
    Ok(report)
}

/// What a position's moves give: under the rule `Some((true, d))` a win in `d`,
/// `Some((false, d))` a loss in `d`, `None` neither; and without the rule 1 (won), 0 or -1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expected {
    rule: Option<(bool, u16)>,
    free: i8,
}

fn expected<G: EgdbGame>(
    pos: &G,
    probe: &mut super::probe::Probe<'_, G>,
) -> Result<Expected, ProbeError> {
    if let Some(w) = pos.decided() {
        let won = w == pos.side_to_move();
        return Ok(Expected {
            rule: Some((won, 0)),
            free: if won { 1 } else { -1 },
        });
    }
    let moves = pos.legal_moves();
    let limit = G::CLOCK_LIMIT;
    let (mut best_win, mut all_lose, mut longest_loss) = (u16::MAX, true, 0);
    let (mut free_win, mut free_all_lose) = (false, true);
    let us = pos.side_to_move().index();
    let men = pos.layout().men[us];
    for m in moves.iter() {
        let child = pos.played(m);
        let v = probe.probe(&child)?;
        let resets = G::is_capture(m) || child.layout().men[us] != men;
        let d = if resets {
            1
        } else {
            v.distance().map_or(0, |d| d.0 + 1)
        };
        match v {
            Value::Loss(_) if d <= limit => best_win = best_win.min(d),
            Value::Win(_) if d <= limit => longest_loss = longest_loss.max(d),
            _ => all_lose = false,
        }
        free_win |= matches!(v, Value::Loss(_) | Value::BlessedLoss(_));
        free_all_lose &= matches!(v, Value::Win(_) | Value::CursedWin(_));
    }
    let rule = if best_win != u16::MAX {
        Some((true, best_win))
    } else if all_lose {
        Some((false, longest_loss))
    } else {
        None
    };
    let free = if free_win {
        1
    } else if free_all_lose {
        -1
    } else {
        0
    };
    Ok(Expected { rule, free })
}

fn agrees(stored: Value, e: Expected) -> bool {
    match stored {
        Value::Win(Plies(d)) => e.rule == Some((true, d)),
        Value::Loss(Plies(d)) => e.rule == Some((false, d)),
        Value::CursedWin(_) => e.rule.is_none() && e.free == 1,
        Value::BlessedLoss(_) => e.rule.is_none() && e.free == -1,
        Value::Draw => e.rule.is_none() && e.free == 0,
    }
}
