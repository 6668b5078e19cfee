//! The engine's options: their declarations for `uci`, and `setoption` checked against them.
//!
//! Each numeric option's name, default and range is declared once, here, as a [`Spin`]; the
//! protocol, `bashni analyse` and `bashni bench` all read them from these constants.

use crate::games::Variant;
use crate::games::kit::nnue::{NetError, Network};
use crate::protocol::quote::{QUOTE_CHARS, quote};
use crate::search::egdb::{DEFAULT_PROBE_LIMIT, Databases};
use crate::search::skill::{LADDER, MAX_LEVEL};
use crate::search::{Engine, Features, Strength, TableError};
use std::sync::Arc;

mod error;

pub use error::OptionError;

/// The `EvalFile` value that stands for the network compiled in.
pub const EMBEDDED_NET: &str = "<embedded>";

/// A numeric option: its protocol name, default and inclusive range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spin {
    /// Name as `uci` lists it.
    pub name: &'static str,
    /// Value until changed.
    pub default: u64,
    /// Smallest value accepted.
    pub min: u64,
    /// Largest value accepted.
    pub max: u64,
}

/// Transposition table size, MiB.
pub const HASH: Spin = Spin {
    name: "Hash",
    default: Engine::DEFAULT_HASH_MB as u64,
    min: 1,
    max: 65536,
};
/// Search (and perft) threads, up to what the library runs: the range of the `--threads`
/// flags, where measuring an oversubscribed machine is a fair thing to ask for.
pub const THREADS: Spin = Spin {
    name: "Threads",
    default: 1,
    min: 1,
    max: Engine::MAX_THREADS as u64,
};

/// The protocol's `Threads` option: [`THREADS`] up to one per hardware thread (see
/// [`Engine::max_useful_threads`]; a GUI gains nothing from more), known only at run time.
pub fn threads() -> Spin {
    Spin {
        max: Engine::max_useful_threads() as u64,
        ..THREADS
    }
}
/// Principal variations reported.
pub const MULTIPV: Spin = Spin {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: 64,
};
/// Time kept in reserve per move, ms.
pub const MOVE_OVERHEAD: Spin = Spin {
    name: "Move Overhead",
    default: Engine::DEFAULT_MOVE_OVERHEAD,
    min: 0,
    max: 5000,
};

/// Most pieces of a position the endgame databases are probed for in the search (0: never).
pub const EGDB_PROBE_LIMIT: Spin = Spin {
    name: "EGDBProbeLimit",
    default: DEFAULT_PROBE_LIMIT as u64,
    min: 0,
    max: 32,
};

/// The `EGDBPath` value that stands for no databases.
pub const NO_EGDB: &str = "<empty>";

/// The `EGDBPath` value (and default) that stands for the default folder
/// ([`crate::egdb::default_dir`]): its tables if it has any, else none, never an error.
pub const DEFAULT_EGDB: &str = "<default>";

/// Playing level, 0 (weakest) to 20 (full strength).
pub const SKILL_LEVEL: Spin = Spin {
    name: "Skill Level",
    default: MAX_LEVEL as u64,
    min: 0,
    max: MAX_LEVEL as u64,
};
/// Playing strength in Elo on the measured ladder of levels, used when `UCI_LimitStrength`
/// is on.
pub const UCI_ELO: Spin = Spin {
    name: "UCI_Elo",
    default: LADDER[MAX_LEVEL as usize] as u64,
    min: LADDER[0] as u64,
    max: LADDER[MAX_LEVEL as usize] as u64,
};

impl Spin {
    /// The `option name ... type spin ...` line of the `uci` answer.
    pub fn declaration(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
        )
    }

    /// Checks a `setoption` value: a whole number in range.
    pub fn parse(&self, value: Option<&str>) -> Result<u64, OptionError> {
        let v = value.ok_or(OptionError::MissingValue(self.name))?.trim();
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            let bad = OptionError::BadValue(self.name, v.to_string(), "a whole number");
            // A negative number is a number, just out of range.
            let negative = v
                .strip_prefix('-')
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            return Err(if negative { self.out_of_range(v) } else { bad });
        }
        match v.parse::<u64>() {
            Ok(n) if (self.min..=self.max).contains(&n) => Ok(n),
            _ => Err(self.out_of_range(v)),
        }
    }

    fn out_of_range(&self, v: &str) -> OptionError {
        let v = super::command::quote(v);
        OptionError::OutOfRange(self.name, v, self.min, self.max)
    }

    /// The same check for a command-line flag (clap's `value_parser`), as a `u64`.
    pub fn flag(self) -> impl clap::builder::TypedValueParser<Value = u64> {
        clap::value_parser!(u64).range(self.min..=self.max)
    }
}

/// Current values of the options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size, MiB.
    pub hash_mb: u64,
    /// Search threads.
    pub threads: u64,
    /// Lines to report.
    pub multipv: u64,
    /// Whether the GUI may send `go ponder` (informational: it changes nothing in the search).
    pub ponder: bool,
    /// Time kept in reserve per move, ms.
    pub move_overhead: u64,
    /// Switchable search features (for self-play tests of what each is worth).
    pub features: Features,
    /// `Skill Level`.
    pub skill_level: u64,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead of `Skill Level`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub uci_elo: u64,
    /// `Use NNUE`: evaluate with the network (else the linear evaluation).
    pub use_nnue: bool,
    /// `EvalFile`: the network's file, or [`EMBEDDED_NET`].
    pub eval_file: String,
    /// The game of the network `eval_file` holds (none for [`EMBEDDED_NET`]).
    pub net_game: Option<Variant>,
    /// `EGDBPath`: the endgame databases read from it ([`NO_EGDB`]: none).
    pub egdb_path: String,
    /// The databases read from `egdb_path`.
    pub egdb: Option<Databases>,
    /// `EGDBProbeLimit`.
    pub egdb_limit: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: HASH.default,
            threads: threads().default,
            multipv: MULTIPV.default,
            ponder: false,
            move_overhead: MOVE_OVERHEAD.default,
            features: Features::default(),
            skill_level: SKILL_LEVEL.default,
            limit_strength: false,
            uci_elo: UCI_ELO.default,
            use_nnue: true,
            eval_file: EMBEDDED_NET.to_string(),
            net_game: None,
            egdb_path: DEFAULT_EGDB.to_string(),
            egdb: None,
            egdb_limit: EGDB_PROBE_LIMIT.default,
        }
    }
}

/// A change that `setoption` asks for, already checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// New table size.
    Hash(u64),
    /// New thread count.
    Threads(u64),
    /// New MultiPV.
    MultiPv(u64),
    /// New Ponder flag.
    Ponder(bool),
    /// New move overhead.
    MoveOverhead(u64),
    /// The `Clear Hash` button.
    ClearHash,
    /// A search feature switched on or off (index into [`Features::NAMES`]).
    Feature(usize, bool),
    /// New `Skill Level`.
    SkillLevel(u64),
    /// New `UCI_LimitStrength`.
    LimitStrength(bool),
    /// New `UCI_Elo`.
    UciElo(u64),
    /// `Use NNUE` on or off.
    UseNnue(bool),
    /// A network read and checked (`EvalFile`), with the value given (`None`: the
    /// compiled-in networks).
    EvalFile(String, Option<Arc<Network>>),
    /// `UCI_Variant`: the game to play (a new game of it starts).
    Variant(Variant),
    /// `EGDBPath`: the folder given and the databases read from it (`None`: none).
    EgdbPath(String, Option<Databases>),
    /// New `EGDBProbeLimit`.
    EgdbProbeLimit(u64),
}

/// The `option ...` lines of the `uci` answer, for a session that started in game `start`
/// (the default of `UCI_Variant`).
pub fn declarations(start: Variant) -> Vec<String> {
    let d = Options::default();
    let mut v = vec![
        HASH.declaration(),
        threads().declaration(),
        MULTIPV.declaration(),
        format!("option name Ponder type check default {}", d.ponder),
        MOVE_OVERHEAD.declaration(),
        "option name Clear Hash type button".to_string(),
        SKILL_LEVEL.declaration(),
        format!(
            "option name UCI_LimitStrength type check default {}",
            d.limit_strength
        ),
        UCI_ELO.declaration(),
        format!("option name Use NNUE type check default {}", d.use_nnue),
        format!("option name EvalFile type string default {}", d.eval_file),
        variant_declaration(start),
        format!("option name EGDBPath type string default {}", d.egdb_path),
        EGDB_PROBE_LIMIT.declaration(),
    ];
    for name in Features::NAMES {
        v.push(format!("option name {name} type check default true"));
    }
    v
}

/// The `UCI_Variant` line: a combo of every game, `start` (Bashni unless `bashni uci
/// --variant` named another) by default.
pub fn variant_declaration(start: Variant) -> String {
    let mut line = format!("option name {VARIANT_OPTION} type combo default {start}");
    for v in Variant::ALL {
        line.push_str(&format!(" var {v}"));
    }
    line
}

/// The name of the option that chooses the game.
pub const VARIANT_OPTION: &str = "UCI_Variant";

/// Reads a `UCI_Variant` value: a game's name, in any case.
fn variant(value: Option<&str>) -> Result<OptionChange, OptionError> {
    let v = value.ok_or(OptionError::MissingValue(VARIANT_OPTION))?;
    v.parse().map(OptionChange::Variant).map_err(|_| {
        OptionError::BadValue(
            VARIANT_OPTION,
            v.to_string(),
            "bashni, turkish, russian, brazilian or lasca",
        )
    })
}

fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    let v = value.ok_or(OptionError::MissingValue(name))?;
    match v.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::BadValue(name, v.to_string(), "true or false")),
    }
}

/// Checks `setoption name <name> [value <value>]`; option names are case-insensitive.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
    match name.to_ascii_lowercase().as_str() {
        "hash" => {
            let mb = HASH.parse(value)?;
            match available_mib() {
                Some(avail) if mb > avail => Err(OptionError::NotEnoughMemory(mb, avail)),
                _ => Ok(OptionChange::Hash(mb)),
            }
        }
        "threads" => threads().parse(value).map(OptionChange::Threads),
        "multipv" => MULTIPV.parse(value).map(OptionChange::MultiPv),
        "ponder" => check("Ponder", value).map(OptionChange::Ponder),
        "move overhead" => MOVE_OVERHEAD.parse(value).map(OptionChange::MoveOverhead),
        "clear hash" => Ok(OptionChange::ClearHash),
        "skill level" => SKILL_LEVEL.parse(value).map(OptionChange::SkillLevel),
        "uci_limitstrength" => check("UCI_LimitStrength", value).map(OptionChange::LimitStrength),
        "uci_elo" => UCI_ELO.parse(value).map(OptionChange::UciElo),
        "use nnue" => check("Use NNUE", value).map(OptionChange::UseNnue),
        "evalfile" => eval_file(value),
        "uci_variant" => variant(value),
        "egdbpath" => egdb_path(value),
        "egdbprobelimit" => EGDB_PROBE_LIMIT
            .parse(value)
            .map(OptionChange::EgdbProbeLimit),
        other => match Features::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(other))
        {
            Some(i) => check(Features::NAMES[i], value).map(|on| OptionChange::Feature(i, on)),
            None => Err(OptionError::Unknown(name.to_string())),
        },
    }
}

/// Reads the network `EvalFile` names ([`EMBEDDED_NET`]: the one compiled in).
fn eval_file(value: Option<&str>) -> Result<OptionChange, OptionError> {
    let path = value.ok_or(OptionError::MissingValue("EvalFile"))?.trim();
    let net = if path == EMBEDDED_NET {
        None
    } else {
        Some(Arc::new(
            crate::games::load_network(path).map_err(OptionError::Net)?,
        ))
    };
    Ok(OptionChange::EvalFile(path.to_string(), net))
}

/// Reads the endgame databases in the folder `EGDBPath` names (empty or [`NO_EGDB`]: none;
/// [`DEFAULT_EGDB`]: the default folder's, if it has any). Every game's tables there are
/// read; a game without tables (Bashni, Lasca) probes none.
pub fn egdb_path(value: Option<&str>) -> Result<OptionChange, OptionError> {
    let path = value.unwrap_or("").trim();
    if path.is_empty() || path == NO_EGDB {
        return Ok(OptionChange::EgdbPath(NO_EGDB.to_string(), None));
    }
    if path == DEFAULT_EGDB {
        let dbs = Databases::open_default().map_err(OptionError::Egdb)?;
        return Ok(OptionChange::EgdbPath(DEFAULT_EGDB.to_string(), dbs));
    }
    let dbs = Databases::open(std::path::Path::new(path)).map_err(|e| {
        // The folder is named in the error (and in the path of a table refused): a value
        // longer than an error quotes is cut, as every input an error repeats is.
        let long = path.chars().count() > QUOTE_CHARS;
        OptionError::Egdb(if long {
            e.replace(path, &quote(path))
        } else {
            e
        })
    })?;
    Ok(OptionChange::EgdbPath(path.to_string(), Some(dbs)))
}

/// Memory available to allocate, MiB, where the system says (Linux `MemAvailable`).
pub fn available_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl OptionChange {
    /// Refuses a change that does not fit the game played, `variant`: a network of another
    /// game.
    pub fn check_game(&self, variant: Variant) -> Result<(), OptionError> {
        if let OptionChange::EvalFile(_, Some(net)) = self
            && net.shape().game != variant.name()
        {
            let game = net.shape().game.to_string();
            let wanted = variant.name();
            return Err(OptionError::Net(NetError::Game(game, wanted)));
        }
        Ok(())
    }
}

impl Options {
    /// The game played is now `variant`: a network loaded for another game is dropped (the
    /// new game's compiled-in one evaluates). Returns a line saying so, if it was.
    pub fn game_changed(
        &mut self,
        variant: Variant,
        engine: Option<&mut Engine>,
    ) -> Option<String> {
        if self.eval_file == EMBEDDED_NET || self.net_game == Some(variant) {
            return None;
        }
        let dropped = std::mem::replace(&mut self.eval_file, EMBEDDED_NET.to_string());
        self.net_game = None;
        if let Some(engine) = engine {
            engine.set_network(None);
        }
        Some(format!(
            "EvalFile {dropped} is not a network of {variant}: EvalFile is {EMBEDDED_NET} again"
        ))
    }

    /// Records `change` and applies it to `engine`. A table that cannot be allocated is an
    /// error, and the option and the engine keep their old table.
    pub fn apply(&mut self, change: OptionChange, engine: &mut Engine) -> Result<(), TableError> {
        match change {
            OptionChange::Hash(mb) => {
                engine.set_hash_mb(mb as usize)?;
                self.hash_mb = mb;
            }
            OptionChange::Threads(n) => {
                self.threads = n;
                engine.set_threads(n as usize);
            }
            OptionChange::MultiPv(n) => self.multipv = n,
            OptionChange::Ponder(p) => self.ponder = p,
            OptionChange::MoveOverhead(ms) => {
                self.move_overhead = ms;
                engine.set_move_overhead(ms);
            }
            OptionChange::ClearHash => engine.clear_hash(),
            OptionChange::Feature(i, on) => {
                self.features.set(Features::NAMES[i], on);
                engine.features = self.features;
            }
            OptionChange::SkillLevel(n) => self.skill_level = n,
            OptionChange::LimitStrength(on) => self.limit_strength = on,
            OptionChange::UciElo(elo) => self.uci_elo = elo,
            OptionChange::UseNnue(on) => {
                self.use_nnue = on;
                engine.use_network(on);
            }
            OptionChange::EvalFile(path, net) => {
                self.eval_file = path;
                self.net_game = net.as_ref().and_then(|n| {
                    Variant::ALL
                        .into_iter()
                        .find(|v| v.name() == n.shape().game)
                });
                engine.set_network(net);
            }
            OptionChange::EgdbPath(path, dbs) => {
                self.egdb_path = path;
                self.egdb = dbs.clone();
                engine.set_egdb(dbs);
            }
            OptionChange::EgdbProbeLimit(n) => {
                self.egdb_limit = n;
                engine.set_egdb_limit(n as u32);
            }
            // The session keeps the game; nothing of the engine changes.
            OptionChange::Variant(_) => {}
        }
        engine.set_strength(self.strength());
        Ok(())
    }

    /// Gives `engine` the default folder's endgame databases, if it has any (a session's
    /// start: `EGDBPath` is [`DEFAULT_EGDB`] by default). A table there that does not read is
    /// said on stderr, and none is used: a session always starts.
    pub fn take_default_egdb(&mut self, engine: &mut Engine) {
        match Databases::open_default() {
            Ok(None) => {}
            Ok(dbs) => {
                self.egdb = dbs.clone();
                engine.set_egdb(dbs);
            }
            Err(e) => eprintln!("warning: EGDBPath {DEFAULT_EGDB}: {e}; no tables used"),
        }
    }

    /// What a session says of the databases `EGDBPath` read, in a game of `variant`: how
    /// many tables were read (with `read`, after the option was set), and a warning when
    /// none of them serves the game (one warning when the folder has no table at all).
    /// Nothing without `EGDBPath`.
    pub fn egdb_notes(&self, variant: Variant, read: bool) -> Vec<String> {
        let Some(dbs) = &self.egdb else {
            return Vec::new();
        };
        // The default folder's tables serve the games they can, without a word for the
        // others: nobody asked for them.
        if self.egdb_path == DEFAULT_EGDB && !read {
            return Vec::new();
        }
        if dbs.tables() == 0 {
            return vec![format!("warning: EGDBPath: {}", dbs.summary())];
        }
        let mut lines = Vec::new();
        if read {
            lines.push(format!("EGDBPath: {}", dbs.summary()));
        }
        if let Some(why) = dbs.unused_by(variant) {
            lines.push(format!("warning: EGDBPath: {why}"));
        }
        lines
    }

    /// The playing strength these options ask for: `UCI_Elo` when `UCI_LimitStrength` is
    /// on, else `Skill Level`.
    pub fn strength(&self) -> Strength {
        if self.limit_strength {
            Strength::from_elo(self.uci_elo as u32)
        } else {
            Strength::level(self.skill_level as u32).unwrap_or(Strength::FULL)
        }
    }

    /// A fresh engine with these options.
    pub fn new_engine(&self) -> Engine {
        let mut e = Engine::new();
        if self.hash_mb != Engine::DEFAULT_HASH_MB as u64 {
            // Memory that was there once may be gone: then the default table stays.
            let _ = e.set_hash_mb(self.hash_mb as usize);
        }
        e.set_threads(self.threads as usize);
        e.set_move_overhead(self.move_overhead);
        e.features = self.features;
        e.use_network(self.use_nnue);
        e.set_strength(self.strength());
        e.set_egdb(self.egdb.clone());
        e.set_egdb_limit(self.egdb_limit as u32);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_values() {
        assert_eq!(parse_change("hash", Some("32")), Ok(OptionChange::Hash(32)));
        assert_eq!(
            parse_change("Move Overhead", Some("0")),
            Ok(OptionChange::MoveOverhead(0))
        );
        assert_eq!(
            parse_change("Ponder", Some("TRUE")),
            Ok(OptionChange::Ponder(true))
        );
        assert_eq!(
            parse_change("Clear Hash", None),
            Ok(OptionChange::ClearHash)
        );
        assert_eq!(
            parse_change("Threads", Some("0")),
            Err(OptionError::OutOfRange(
                "Threads",
                "0".into(),
                1,
                threads().max
            ))
        );
        assert_eq!(
            parse_change("Hash", Some("99999999999999999999999"))
                .unwrap_err()
                .to_string(),
            "setoption: Hash 99999999999999999999999 is outside 1..65536; not changed"
        );
        assert_eq!(
            parse_change("Threads", Some("-1")),
            Err(OptionError::OutOfRange(
                "Threads",
                "-1".into(),
                1,
                threads().max
            ))
        );
        assert_eq!(
            parse_change("MultiPV", Some("two")),
            Err(OptionError::BadValue(
                "MultiPV",
                "two".into(),
                "a whole number"
            ))
        );
        assert_eq!(
            parse_change("Hash", None),
            Err(OptionError::MissingValue("Hash"))
        );
        assert_eq!(
            parse_change("Contempt", Some("1")),
            Err(OptionError::Unknown("Contempt".into()))
        );
        assert_eq!(
            parse_change("uci_variant", Some("Turkish")),
            Ok(OptionChange::Variant(Variant::Turkish))
        );
        assert_eq!(
            parse_change("UCI_Variant", Some("chess"))
                .unwrap_err()
                .to_string(),
            "setoption: option 'UCI_Variant' needs bashni, turkish, russian, brazilian or lasca, got 'chess'; \
             not changed"
        );
    }

    #[test]
    fn strength_options() {
        let mut o = Options::default();
        let mut e = Engine::new();
        assert!(o.strength().is_full());
        let c = parse_change("skill level", Some("3")).unwrap();
        o.apply(c, &mut e).unwrap();
        assert_eq!(e.strength(), Strength::level(3).unwrap());
        let c = parse_change("UCI_Elo", Some(&LADDER[5].to_string())).unwrap();
        o.apply(c, &mut e).unwrap();
        // The Elo counts only once UCI_LimitStrength is on.
        assert_eq!(e.strength(), Strength::level(3).unwrap());
        let c = parse_change("UCI_LimitStrength", Some("true")).unwrap();
        o.apply(c, &mut e).unwrap();
        assert_eq!(e.strength(), Strength::level(5).unwrap());
        assert_eq!(o.new_engine().strength(), Strength::level(5).unwrap());
        assert!(matches!(
            parse_change("Skill Level", Some("21")),
            Err(OptionError::OutOfRange(..))
        ));
        assert!(matches!(
            parse_change("UCI_Elo", Some("0")),
            Err(OptionError::OutOfRange(..))
        ));
    }

    #[test]
    fn declares_every_option() {
        let d = declarations(Variant::Bashni);
        assert_eq!(d.len(), 14 + Features::NAMES.len());
        assert!(d.iter().all(|l| l.starts_with("option name ")));
        assert!(d.contains(
            &"option name UCI_Variant type combo default bashni var bashni var turkish var russian var brazilian var lasca"
                .to_string()
        ));
        assert!(declarations(Variant::Turkish).contains(
            &"option name UCI_Variant type combo default turkish var bashni var turkish var russian var brazilian var lasca"
                .to_string()
        ));
    }
}
