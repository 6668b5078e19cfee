//! A match split over batch jobs: each part (`bashni match --shard i/n`) plays a contiguous
//! range of the whole match's game pairs and writes its counts as JSON (`--result FILE`), and
//! `bashni match-report PART...` merges the parts into the report the whole match prints.
//! A whole match can write the same JSON (as part 1/1).

use super::config::parse_sprt;
use super::output::{Tally, print_report};
use super::stats::{Pentanomial, Wdl};
use crate::games::Variant;
use crate::shard::Shard;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The `format` field of a result file.
pub const FORMAT: &str = "bashni-match-result/1";

/// What makes two parts parts of the same match: a digest of every setting that decides which
/// games are played (the game, engines, limits, length, openings, seed, referee), and the
/// settings themselves in words for the error that shows two parts differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchIdentity {
    /// 16 hex digits (64-bit FNV-1a of `description`).
    pub id: String,
    /// The settings.
    pub description: String,
}

impl MatchIdentity {
    /// The identity of the match described by `description`.
    pub fn new(description: String) -> MatchIdentity {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in description.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        MatchIdentity {
            id: format!("{h:016x}"),
            description,
        }
    }
}

/// One part's result, as written to and read from its JSON file.
#[derive(Clone, Debug)]
pub struct Part {
    /// The match it belongs to.
    pub identity: MatchIdentity,
    /// The game played (also part of the identity).
    pub variant: Variant,
    /// Which part.
    pub shard: Shard,
    /// The two engines' names (results from the first's view).
    pub names: [String; 2],
    /// Games this part was to play.
    pub games: u64,
    /// What it played.
    pub tally: Tally,
    /// Seconds the part ran.
    pub seconds: f64,
}

/// Why parts cannot be merged.
#[derive(Debug)]
pub enum ReportError {
    /// A part cannot be read (path, reason).
    Io(PathBuf, std::io::Error),
    /// A part is not a result file (path, what is wrong).
    Format(PathBuf, String),
    /// Two parts come from different matches (the paths).
    DifferentMatch(PathBuf, PathBuf),
    /// Two parts are matches of different games (the paths and their games).
    DifferentGames(PathBuf, Variant, PathBuf, Variant),
    /// Two parts are the same shard (the shard, the paths).
    Duplicate(Shard, PathBuf, PathBuf),
    /// Shards missing from the set (their indices, the count).
    Missing(Vec<u64>, u64),
    /// A part stopped before playing all its games (path, played, expected).
    Incomplete(PathBuf, u64, u64),
    /// A bad `--sprt`.
    Sprt(String),
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            ReportError::Format(p, why) => {
                write!(f, "{}: not a bashni match result: {why}", p.display())
            }
            ReportError::DifferentMatch(a, b) => write!(
                f,
                "{} and {} are parts of different matches (other engines, settings or seed)",
                a.display(),
                b.display()
            ),
            ReportError::DifferentGames(a, va, b, vb) => write!(
                f,
                "{} and {} are parts of matches of different games ({va} and {vb})",
                a.display(),
                b.display()
            ),
            ReportError::Duplicate(s, a, b) => {
                write!(f, "shard {s} twice: {} and {}", a.display(), b.display())
            }
            ReportError::Missing(list, n) => {
                let list: Vec<String> = list.iter().map(|i| format!("{i}/{n}")).collect();
                write!(f, "missing shards: {}", list.join(", "))
            }
            ReportError::Incomplete(p, played, expected) => write!(
                f,
                "{}: the part stopped after {played} of its {expected} games (run that shard again)",
                p.display()
            ),
            ReportError::Sprt(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ReportError {}

fn wdl_json(w: &Wdl) -> Value {
    json!([w.wins, w.draws, w.losses])
}

impl Part {
    /// The JSON text of the part (one object, pretty-printed, ending in a newline).
    pub fn to_json(&self) -> String {
        let t = &self.tally;
        let faults: Vec<Value> = t
            .faults
            .iter()
            .map(|((engine, tag), n)| json!({"engine": engine, "termination": tag, "count": n}))
            .collect();
        let value = json!({
            "format": FORMAT,
            "match_id": self.identity.id,
            "match": self.identity.description,
            "variant": self.variant.name(),
            "shard": self.shard.to_string(),
            "names": self.names,
            "games": self.games,
            "played": t.games(),
            "wdl": wdl_json(&t.wdl),
            "wdl_first_as_white": wdl_json(&t.wdl_white),
            "pentanomial": t.penta.counts,
            "terminations": t.terminations,
            "faults": faults,
            "plies": t.plies,
            "seconds": self.seconds,
        });
        let mut text = serde_json::to_string_pretty(&value).expect("JSON values always print");
        text.push('\n');
        text
    }

    /// Reads a part from its JSON text (`path` names it in errors).
    pub fn from_json(text: &str, path: &Path) -> Result<Part, ReportError> {
        let bad = |why: &str| ReportError::Format(path.to_path_buf(), why.to_string());
        let v: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        if v["format"] != FORMAT {
            return Err(bad(&format!("no \"format\": \"{FORMAT}\"")));
        }
        let string = |k: &str| {
            v[k].as_str()
                .map(String::from)
                .ok_or_else(|| bad(&format!("\"{k}\" is not a string")))
        };
        let num = |x: &Value, k: &str| x.as_u64().ok_or_else(|| bad(&format!("bad \"{k}\"")));
        let triple = |k: &str| -> Result<Wdl, ReportError> {
            let a = v[k].as_array().filter(|a| a.len() == 3);
            let a = a.ok_or_else(|| bad(&format!("\"{k}\" is not [wins, draws, losses]")))?;
            Ok(Wdl {
                wins: num(&a[0], k)?,
                draws: num(&a[1], k)?,
                losses: num(&a[2], k)?,
            })
        };
        // Parts written before the other games came are Bashni's.
        let variant = match v.get("variant") {
            None => Variant::Bashni,
            Some(name) => name.as_str().and_then(|n| n.parse().ok()).ok_or_else(|| {
                bad("\"variant\" is not bashni, turkish, russian, brazilian or lasca")
            })?,
        };
        let shard: Shard = string("shard")?
            .parse()
            .map_err(|e: crate::shard::ShardError| bad(&e.to_string()))?;
        let names = v["names"].as_array().filter(|a| a.len() == 2);
        let names = names.ok_or_else(|| bad("\"names\" is not two names"))?;
        let name = |i: usize| {
            names[i]
                .as_str()
                .map(String::from)
                .ok_or_else(|| bad("names"))
        };
        let mut tally = Tally::default();
        tally.wdl = triple("wdl")?;
        tally.wdl_white = triple("wdl_first_as_white")?;
        tally.plies = num(&v["plies"], "plies")?;
        let penta = v["pentanomial"].as_array().filter(|a| a.len() == 5);
        let penta = penta.ok_or_else(|| bad("\"pentanomial\" is not five counts"))?;
        for (i, c) in penta.iter().enumerate() {
            tally.penta.counts[i] = num(c, "pentanomial")?;
        }
        let terms = v["terminations"].as_object();
        for (tag, c) in terms.ok_or_else(|| bad("\"terminations\" is not an object"))? {
            tally
                .terminations
                .insert(tag.clone(), num(c, "terminations")?);
        }
        let faults = v["faults"].as_array();
        for f in faults.ok_or_else(|| bad("\"faults\" is not a list"))? {
            let (Some(e), Some(t)) = (f["engine"].as_str(), f["termination"].as_str()) else {
                return Err(bad("a fault without engine and termination"));
            };
            let key = (e.to_string(), t.to_string());
            tally.faults.insert(key, num(&f["count"], "faults")?);
        }
        if num(&v["played"], "played")? != tally.games() {
            return Err(bad("\"played\" differs from the counts"));
        }
        Ok(Part {
            identity: MatchIdentity {
                id: string("match_id")?,
                description: string("match")?,
            },
            variant,
            shard,
            names: [name(0)?, name(1)?],
            games: num(&v["games"], "games")?,
            tally,
            seconds: v["seconds"].as_f64().unwrap_or(0.0),
        })
    }
}

/// Adds `b`'s counts to `a`'s.
fn add_tally(a: &mut Tally, b: &Tally) {
    let add = |x: &mut Wdl, y: &Wdl| {
        x.wins += y.wins;
        x.draws += y.draws;
        x.losses += y.losses;
    };
    add(&mut a.wdl, &b.wdl);
    add(&mut a.wdl_white, &b.wdl_white);
    let Pentanomial { counts } = &b.penta;
    for (x, y) in a.penta.counts.iter_mut().zip(counts) {
        *x += y;
    }
    for (k, v) in &b.terminations {
        *a.terminations.entry(k.clone()).or_default() += v;
    }
    for (k, v) in &b.faults {
        *a.faults.entry(k.clone()).or_default() += v;
    }
    a.plies += b.plies;
}

/// Merges the parts of one match into one part (shard 1/1): every part of the same match, each
/// shard once, none missing, each complete.
pub fn merge(parts: &[(PathBuf, Part)]) -> Result<Part, ReportError> {
    let (first_path, first) = parts.first().expect("clap requires at least one part");
    let n = first.shard.count();
    let mut seen: BTreeMap<u64, &PathBuf> = BTreeMap::new();
    let mut merged = Part {
        shard: Shard::WHOLE,
        games: 0,
        tally: Tally::default(),
        seconds: 0.0,
        ..first.clone()
    };
    for (path, p) in parts {
        if p.variant != first.variant {
            let (a, b) = (first_path.clone(), path.clone());
            return Err(ReportError::DifferentGames(a, first.variant, b, p.variant));
        }
        if p.identity.id != first.identity.id || p.shard.count() != n {
            return Err(ReportError::DifferentMatch(
                first_path.clone(),
                path.clone(),
            ));
        }
        if let Some(other) = seen.insert(p.shard.index(), path) {
            return Err(ReportError::Duplicate(p.shard, other.clone(), path.clone()));
        }
        if p.tally.games() != p.games {
            return Err(ReportError::Incomplete(
                path.clone(),
                p.tally.games(),
                p.games,
            ));
        }
        add_tally(&mut merged.tally, &p.tally);
        merged.games += p.games;
        merged.seconds += p.seconds;
    }
    let missing: Vec<u64> = (1..=n).filter(|i| !seen.contains_key(i)).collect();
    if !missing.is_empty() {
        return Err(ReportError::Missing(missing, n));
    }
    Ok(merged)
}

/// Arguments of `bashni match-report`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:
  bashni match-report part-*.json
  bashni match-report part-*.json --sprt elo0=0 elo1=5 --result whole.json")]
pub struct MatchReportArgs {
    /// The parts' result files (`bashni match --shard i/n --result FILE`), in any order.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    /// The SPRT test to apply to the merged counts: elo0=<e0> elo1=<e1> [alpha=0.05] [beta=0.05].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Also write the merged result as JSON (as one part, 1/1).
    #[arg(long)]
    pub result: Option<PathBuf>,
}

fn read_parts(paths: &[PathBuf]) -> Result<Vec<(PathBuf, Part)>, ReportError> {
    let mut parts = Vec::new();
    for path in paths {
        let text = crate::files::read_text(path, MAX_RESULT_BYTES)
            .map_err(|e| ReportError::Io(path.clone(), std::io::Error::other(e.to_string())))?;
        parts.push((path.clone(), Part::from_json(&text, path)?));
    }
    Ok(parts)
}

/// A result file is a few KB: a larger one is not ours, and is not read into memory whole.
const MAX_RESULT_BYTES: u64 = 1 << 20;

/// Writes a result file, replaced whole or not at all ([`crate::files::replace`]).
pub fn write_result(path: &Path, part: &Part) -> std::io::Result<()> {
    crate::files::replace(path, part.to_json().as_bytes())
}

/// `bashni match-report`: merges the parts and prints the whole match's report; exit code 0, or
/// 2 when the parts cannot be merged.
pub fn run_match_report(args: MatchReportArgs) -> i32 {
    let merged = read_parts(&args.parts).and_then(|parts| {
        let sprt = args.sprt.as_deref().map(parse_sprt).transpose();
        let sprt = sprt.map_err(|e| ReportError::Sprt(e.to_string()))?;
        Ok((merge(&parts)?, sprt, parts.len()))
    });
    let (merged, sprt, count) = match merged {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let game = match merged.variant {
        Variant::Bashni => String::new(),
        v => format!(" in {v}"),
    };
    println!(
        "Merged {count} parts of match {}{game} ({} games)",
        merged.identity.id, merged.games
    );
    print_report(&merged.names, &merged.tally, sprt, merged.seconds);
    if let Some(path) = &args.result
        && let Err(e) = write_result(path, &merged)
    {
        eprintln!("error: cannot write {}: {e}", path.display());
        return 1;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(shard: &str, wdl: [u64; 3], penta: [u64; 5]) -> Part {
        let mut tally = Tally::default();
        tally.wdl = Wdl {
            wins: wdl[0],
            draws: wdl[1],
            losses: wdl[2],
        };
        tally.plies = 100;
        tally.penta.counts = penta;
        tally
            .terminations
            .insert("no legal move".into(), wdl[0] + wdl[2]);
        Part {
            identity: MatchIdentity::new("a vs b, 8 games".into()),
            variant: Variant::Bashni,
            shard: shard.parse().unwrap(),
            names: ["a".into(), "b".into()],
            games: wdl.iter().sum(),
            tally,
            seconds: 1.5,
        }
    }

    fn paths(parts: Vec<Part>) -> Vec<(PathBuf, Part)> {
        let name = |p: &Part| PathBuf::from(format!("part{}.json", p.shard.index()));
        parts.into_iter().map(|p| (name(&p), p)).collect()
    }

    #[test]
    fn json_round_trip() {
        let mut p = part("2/4", [3, 1, 0], [0, 0, 1, 0, 1]);
        p.tally.faults.insert(("b".into(), "crash".into()), 1);
        p.variant = Variant::Russian;
        let back = Part::from_json(&p.to_json(), Path::new("x")).unwrap();
        assert_eq!(back.to_json(), p.to_json());
        assert_eq!(back.tally.faults.len(), 1);
        assert_eq!(back.variant, Variant::Russian);
        // A part written before the field existed is Bashni's.
        let old = p.to_json().replace("\"variant\": \"russian\",", "");
        let back = Part::from_json(&old, Path::new("x")).unwrap();
        assert_eq!(back.variant, Variant::Bashni);
        let bad = p.to_json().replace("\"russian\"", "\"chess\"");
        assert!(Part::from_json(&bad, Path::new("x")).is_err());
    }

    #[test]
    fn parts_merge_into_sums() {
        let parts = paths(vec![
            part("1/2", [2, 0, 2], [0, 1, 0, 1, 0]),
            part("2/2", [3, 1, 0], [0, 0, 0, 1, 1]),
        ]);
        let m = merge(&parts).unwrap();
        assert_eq!(
            m.tally.wdl,
            Wdl {
                wins: 5,
                draws: 1,
                losses: 2
            }
        );
        assert_eq!(m.tally.penta.counts, [0, 1, 0, 2, 1]);
        assert_eq!(m.tally.terminations["no legal move"], 7);
        assert_eq!((m.games, m.tally.plies, m.seconds), (8, 200, 3.0));
    }

    #[test]
    fn bad_sets_are_refused() {
        let one = part("1/2", [2, 0, 2], [0, 1, 0, 1, 0]);
        let err = merge(&paths(vec![one.clone()])).unwrap_err();
        assert!(
            matches!(err, ReportError::Missing(ref m, 2) if m == &[2]),
            "{err}"
        );
        let twice = vec![
            (PathBuf::from("a"), one.clone()),
            (PathBuf::from("b"), one.clone()),
        ];
        assert!(matches!(merge(&twice), Err(ReportError::Duplicate(..))));
        let mut other = part("2/2", [1, 0, 0], [0; 5]);
        other.identity = MatchIdentity::new("a vs c".into());
        let mixed = paths(vec![one.clone(), other]);
        assert!(matches!(
            merge(&mixed),
            Err(ReportError::DifferentMatch(..))
        ));
        let mut turkish = part("2/2", [1, 0, 0], [0; 5]);
        turkish.variant = Variant::Turkish;
        let err = merge(&paths(vec![one.clone(), turkish])).unwrap_err();
        assert!(matches!(err, ReportError::DifferentGames(..)), "{err}");
        assert!(err.to_string().ends_with("(bashni and turkish)"), "{err}");
        let mut short = part("2/2", [1, 0, 0], [0; 5]);
        short.games = 4;
        let err = merge(&paths(vec![one, short])).unwrap_err();
        assert!(matches!(err, ReportError::Incomplete(_, 1, 4)), "{err}");
    }

    #[test]
    fn damaged_files_are_refused() {
        let p = Path::new("x.json");
        for text in [
            "",
            "{}",
            "[1]",
            "{\"format\": \"bashni-match-result/1\"}",
            "not json",
        ] {
            assert!(
                matches!(Part::from_json(text, p), Err(ReportError::Format(..))),
                "{text}"
            );
        }
        let good = part("1/1", [1, 0, 0], [0; 5]).to_json();
        let tampered = good.replace("\"played\": 1", "\"played\": 7");
        assert!(Part::from_json(&tampered, p).is_err());
    }
}
