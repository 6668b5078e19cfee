//! Endgame databases in the search (docs/egdb.md, "In the engine"): the tables of the game
//! searched, probed at nodes with few pieces, and their values as scores.
//!
//! The search is generic over [`Game`], the tables over [`EgdbGame`]; [`Tablebase`] joins
//! them: the engine keeps each game's tables behind it, and a search of game `G` finds
//! `G`'s tables (if any) by type. Without tables the search tests one `Option`.

use super::Score;
use crate::egdb::{EgdbGame, Outcome, Plies, Probe, Store, Value, Wdl, for_egdb_game};
use crate::games::{Game, Variant};
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Score of a database win at the root in 0 plies: a database win `n` plies (the plies to
/// the node plus the database's distance to the next capture or man move) from the root
/// scores `TB_WIN - n`. Below every mate score ([`super::WIN_BOUND`]) and above every
/// evaluation.
pub const TB_WIN: i32 = 28_000;
/// Internal scores beyond this (in absolute value) and within [`super::WIN_BOUND`] are
/// database wins or losses.
pub const TB_BOUND: i32 = TB_WIN - 1000;
/// The centi-men a database win at distance 0 is reported as: a database win `n` plies from
/// the root is `cp TB_WIN_CP - n`, a loss `cp -(TB_WIN_CP - n)` (the same in every game,
/// whatever its man is worth internally).
pub const TB_WIN_CP: i32 = 20_000;
/// Reported centi-men beyond this (in absolute value) are database wins or losses.
pub const TB_BOUND_CP: i32 = TB_WIN_CP - 1000;

/// Default of the `EGDBProbeLimit` option: the most pieces a probed position may have.
pub const DEFAULT_PROBE_LIMIT: u32 = 6;

/// A reported score of an internal database score `s` (`|s|` in the database band), or
/// `None` for any other score.
pub(super) fn tb_score(s: i32) -> Option<Score> {
    let n = TB_WIN - s.abs();
    ((TB_BOUND + 1..=super::WIN_BOUND).contains(&s.abs()))
        .then(|| Score::Cp(s.signum() * (TB_WIN_CP - n)))
}

/// The internal score of a reported database score (inverse of [`tb_score`]), or `None`.
pub(super) fn tb_internal(cp: i32) -> Option<i32> {
    (cp.abs() > TB_BOUND_CP).then(|| cp.signum() * (TB_WIN - (TB_WIN_CP - cp.abs())))
}

/// One thread's probe of the tables of game `G`.
pub trait TbProbe<G> {
    /// The value of `pos` for its side to move at clock 0, if it has at most `limit` pieces
    /// and its material has a table; as the search needs it: the distance of a win or a loss
    /// (whose outcome the clock decides) is exact, that of a cursed win or blessed loss (a
    /// draw at any clock) is 0. Reads the distance layer only for a win or a loss.
    fn probe(&mut self, pos: &G, limit: u32) -> Option<Value>;
    /// The same with every distance exact.
    fn probe_exact(&mut self, pos: &G, limit: u32) -> Option<Value>;
}

/// The tables of game `G` as the search uses them.
pub trait Tablebase<G>: Send + Sync {
    /// A probe for one search thread (it keeps its own cache).
    fn prober(&self) -> Box<dyn TbProbe<G> + Send + '_>;
    /// The no-progress rule's limit the values are solved under.
    fn clock_limit(&self) -> u16;
}

/// Whether `pos` has at most `limit` pieces.
fn within<G: EgdbGame>(pos: &G, limit: u32) -> bool {
    let l = pos.layout();
    (l.men[0] | l.men[1] | l.kings[0] | l.kings[1]).count_ones() <= limit
}

impl<G: EgdbGame> TbProbe<G> for Probe<'_, G> {
    fn probe(&mut self, pos: &G, limit: u32) -> Option<Value> {
        if !within(pos, limit) {
            return None;
        }
        match self.probe_wdl(pos).ok()? {
            Wdl::Win | Wdl::Loss => Probe::probe(self, pos).ok(),
            Wdl::CursedWin => Some(Value::CursedWin(Plies(0))),
            Wdl::Draw => Some(Value::Draw),
            Wdl::BlessedLoss => Some(Value::BlessedLoss(Plies(0))),
        }
    }

    fn probe_exact(&mut self, pos: &G, limit: u32) -> Option<Value> {
        within(pos, limit).then(|| Probe::probe(self, pos).ok())?
    }
}

/// Slots of a [`CachedProbe`]: 2^15 of 16 bytes, 512 KiB a search thread.
const VALUE_CACHE_SLOTS: usize = 1 << 15;

/// One thread's probe of the tables with the values it found lately, by position hash: the
/// search meets the same table positions again in every iteration (quiescence leaves are
/// not kept in the transposition table), and decoding a table's block for each costs as
/// much as tens of nodes. A value is the position's at clock 0, so it holds at any clock.
pub struct CachedProbe<'a, G> {
    probe: Box<dyn TbProbe<G> + Send + 'a>,
    /// `(hash, value)`; hash 0 is an empty slot.
    slots: Vec<(u64, Option<Value>)>,
    limit: u32,
}

impl<'a, G: Game> CachedProbe<'a, G> {
    /// A probe of `tb` whose positions have at most `limit` pieces.
    pub fn new(tb: &'a dyn Tablebase<G>, limit: u32) -> Self {
        CachedProbe {
            probe: tb.prober(),
            slots: vec![(0, None); VALUE_CACHE_SLOTS],
            limit,
        }
    }

    /// [`TbProbe::probe`] of `pos` (at the limit given), from the cache if it holds it.
    pub fn probe(&mut self, pos: &G) -> Option<Value> {
        let hash = pos.hash();
        let slot = &mut self.slots[hash as usize & (VALUE_CACHE_SLOTS - 1)];
        if slot.0 == hash && hash != 0 {
            return slot.1;
        }
        let v = self.probe.probe(pos, self.limit);
        *slot = (hash, v);
        v
    }
}

impl<G: EgdbGame> Tablebase<G> for Store<G> {
    fn prober(&self) -> Box<dyn TbProbe<G> + Send + '_> {
        Box::new(Store::prober(self))
    }
    fn clock_limit(&self) -> u16 {
        G::CLOCK_LIMIT
    }
}

/// The score of database value `v` at a node `ply` plies from the root whose clock is
/// `clock` plies of `limit`: a win `TB_WIN - ply - distance`, a draw 0, a loss the negation.
pub(super) fn value_score(v: Value, clock: u16, limit: u16, ply: usize) -> i32 {
    let far = |v: Value| ply as i32 + v.distance().map_or(0, |d| i32::from(d.0));
    match v.at_clock(clock, limit) {
        Outcome::Win => TB_WIN - far(v),
        Outcome::Draw => 0,
        Outcome::Loss => -TB_WIN + far(v),
    }
}

/// The endgame databases the engine was given (`EGDBPath`): every game's tables found in
/// one folder, and the most pieces a probed position may have.
#[derive(Clone)]
pub struct Databases {
    dir: PathBuf,
    /// Each an `Arc<dyn Tablebase<G>>` of its game `G`.
    games: Vec<Arc<dyn Any + Send + Sync>>,
    /// Tables read, of each game that has them.
    counts: Vec<(Variant, usize)>,
    tables: usize,
}

impl std::fmt::Debug for Databases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Databases({}, {} tables)",
            self.dir.display(),
            self.tables
        )
    }
}

/// Two sets of databases are the same if read from the same folder.
impl PartialEq for Databases {
    fn eq(&self, other: &Databases) -> bool {
        self.dir == other.dir && self.tables == other.tables
    }
}

impl Eq for Databases {}

impl Databases {
    /// Every table of every game that has them ([`crate::egdb::GAMES`]: Russian, Brazilian,
    /// Turkish) in `dir`, each game's read by its own name (`brazilian-KvK.egdb`) and
    /// checked to be its own. A damaged or foreign file, or a folder that does not read, is
    /// an error of one line.
    pub fn open(dir: &Path) -> Result<Databases, String> {
        let mut games: Vec<Arc<dyn Any + Send + Sync>> = Vec::new();
        let mut counts = Vec::new();
        for v in crate::egdb::GAMES {
            let n = for_egdb_game!(v, G => {
                let store = Store::<G>::open(dir).map_err(|e| e.to_string())?;
                let n = store.file_tables().len();
                let tb: Arc<dyn Tablebase<G>> = Arc::new(store);
                games.push(Arc::new(tb));
                n
            }, _ => unreachable!("{v} is one of the games with tables"));
            counts.push((v, n));
        }
        Ok(Databases {
            dir: dir.to_path_buf(),
            games,
            tables: counts.iter().map(|(_, n)| n).sum(),
            counts,
        })
    }

    /// The databases in the default folder ([`crate::egdb::default_dir`]), where the engine
    /// looks when told no folder:
    /// `None` when there is no such folder or no table in it (never an error: a user who
    /// built no tables has none); an error only for a table there that does not read.
    pub fn open_default() -> Result<Option<Databases>, String> {
        let Some(dir) = crate::egdb::default_dir().filter(|d| d.is_dir()) else {
            return Ok(None);
        };
        let dbs = Databases::open(&dir)?;
        Ok((dbs.tables > 0).then_some(dbs))
    }

    /// What was read, in one line: `18 endgame tables read from DIR (russian 18)`, or that
    /// none was.
    pub fn summary(&self) -> String {
        let dir = self.dir.display();
        if self.tables == 0 {
            return format!(
                "no endgame table in {dir} (tables are the files `bashni egdb build` writes, \
                 such as russian-KvK.egdb)"
            );
        }
        let games: Vec<String> = self
            .counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(v, n)| format!("{v} {n}"))
            .collect();
        let s = if self.tables == 1 { "" } else { "s" };
        format!(
            "{} endgame table{s} read from {dir} ({})",
            self.tables,
            games.join(", ")
        )
    }

    /// Why the tables do nothing for game `variant`, if they do nothing: the game has no
    /// endgame databases (Bashni, Lasca), or none of its tables is in the folder.
    pub fn unused_by(&self, variant: Variant) -> Option<String> {
        match self.counts.iter().find(|(v, _)| *v == variant) {
            None => Some(format!(
                "{variant} has no endgame databases: the tables are not used"
            )),
            Some((_, 0)) => Some(format!(
                "no table of {variant} in {}: the search of {variant} probes none",
                self.dir.display()
            )),
            Some(_) => None,
        }
    }

    /// The folder the tables were read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many tables were read (of every game).
    pub fn tables(&self) -> usize {
        self.tables
    }

    /// One line on `pos` if the tables of its game hold it (whatever its number of pieces):
    /// `Endgame database: win, 18 plies to the next capture or man move`, with what the
    /// clock makes of it when that differs.
    pub fn describe<G: Game>(&self, pos: &G) -> Option<String> {
        let tb = self.of::<G>()?;
        let v = tb.prober().probe_exact(pos, u32::MAX)?;
        Some(describe_value(v, pos.clock(), tb.clock_limit()))
    }

    /// The tables of game `G`, if it has any.
    pub fn of<G: Game>(&self) -> Option<Arc<dyn Tablebase<G>>> {
        self.games
            .iter()
            .find_map(|g| g.downcast_ref::<Arc<dyn Tablebase<G>>>())
            .cloned()
    }
}

/// The line of [`Databases::describe`] for value `v` at clock `clock` of `limit`.
pub fn describe_value(v: Value, clock: u16, limit: u16) -> String {
    let class = match v {
        Value::Win(_) => "win",
        Value::CursedWin(_) => "cursed win (a draw by the no-progress rule)",
        Value::Draw => "draw",
        Value::BlessedLoss(_) => "blessed loss (a draw by the no-progress rule)",
        Value::Loss(_) => "loss",
    };
    let mut line = format!("Endgame database: {class}");
    match v.distance() {
        Some(Plies(0)) => line.push_str(", no legal move"),
        Some(d) => line.push_str(&format!(
            ", {d} plies to the next capture or man move{}",
            if matches!(v, Value::CursedWin(_) | Value::BlessedLoss(_)) {
                " without the rule"
            } else {
                ""
            }
        )),
        None => {}
    }
    if matches!(v, Value::Win(_) | Value::Loss(_)) && v.at_clock(clock, limit) == Outcome::Draw {
        line.push_str(&format!("; a draw with the clock at {clock} of {limit}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_values_at_their_clock() {
        assert_eq!(
            describe_value(Value::Win(Plies(18)), 0, 30),
            "Endgame database: win, 18 plies to the next capture or man move"
        );
        assert_eq!(
            describe_value(Value::Win(Plies(18)), 20, 30),
            "Endgame database: win, 18 plies to the next capture or man move; a draw with the \
             clock at 20 of 30"
        );
        assert_eq!(describe_value(Value::Draw, 5, 30), "Endgame database: draw");
        assert!(describe_value(Value::CursedWin(Plies(40)), 0, 30).contains("without the rule"));
        assert_eq!(
            describe_value(Value::Loss(Plies(0)), 0, 30),
            "Endgame database: loss, no legal move"
        );
    }

    #[test]
    fn database_scores_sit_between_evaluations_and_mates() {
        let s = value_score(Value::Win(Plies(18)), 0, 30, 2);
        assert_eq!(s, TB_WIN - 20);
        assert!(s > TB_BOUND && s < super::super::WIN_BOUND);
        assert_eq!(tb_score(s), Some(Score::Cp(TB_WIN_CP - 20)));
        assert_eq!(tb_internal(TB_WIN_CP - 20), Some(s));
        assert_eq!(tb_score(-s), Some(Score::Cp(-(TB_WIN_CP - 20))));
        assert_eq!(value_score(Value::Win(Plies(18)), 13, 30, 2), 0);
        assert_eq!(value_score(Value::CursedWin(Plies(3)), 0, 30, 0), 0);
        assert_eq!(value_score(Value::Loss(Plies(4)), 0, 30, 1), -TB_WIN + 5);
        // In the table a database result is counted from its node, as a mate is.
        assert_eq!(super::super::to_tt(s, 2), (TB_WIN - 18) as i16);
        assert_eq!(super::super::from_tt((TB_WIN - 18) as i16, 5), TB_WIN - 23);
        assert_eq!(super::super::from_tt(super::super::to_tt(-s, 2), 2), -s);
        assert_eq!(tb_score(500), None);
        assert_eq!(tb_internal(999), None);
    }
}
