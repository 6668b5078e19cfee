//! cutechess-cli's and fastchess's spellings of `bashni match`'s flags (`-engine cmd=..`,
//! `-each tc=..`, `-games`, `-rounds`, `-openings file=..`, `-pgnout`, `-sprt`, ...), turned
//! into bashni's own (`--engine`, `--each`, `--games`, `--openings`, `--pdn`, ...) before clap
//! reads the command line, so that a match script written for them runs unchanged against
//! bashni engines. What bashni cannot honour is refused with a one-line [`CompatError`] that
//! names the difference; an unknown single-dash flag is named with bashni's spelling when
//! there is one. bashni's own `--` flags pass through untouched.
//!
//! Two counts differ between the tools and are read as follows: `-games G -rounds R` plays
//! G x R games (as both); `-games G` alone plays G games (as cutechess-cli; fastchess, whose
//! `-rounds` defaults to 2, plays 2G); `-rounds R` alone plays R game pairs, 2R games (as
//! fastchess, whose `-games` defaults to 2, and bashni's `--rounds`; cutechess-cli plays R).

mod keys;

use super::args::MatchArgs;
use std::ffi::OsString;
use std::fmt;

/// What cannot be turned into bashni's flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompatError {
    /// A flag without the value(s) it needs (the flag, what it needs).
    MissingValue(String, &'static str),
    /// A value that is not what the flag takes (the flag, the value, what it takes).
    BadValue(String, String, &'static str),
    /// A cutechess-cli or fastchess flag, key or value bashni cannot honour (it, why).
    Unsupported(String, &'static str),
    /// A single-dash flag that bashni spells otherwise (it, bashni's spelling).
    Respell(String, String),
    /// A single-dash flag that neither bashni nor the translation knows.
    Unknown(String),
}

impl fmt::Display for CompatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompatError::MissingValue(flag, what) => write!(f, "{flag} needs {what}"),
            CompatError::BadValue(flag, value, want) => {
                write!(f, "{flag} {value}: expected {want}")
            }
            CompatError::Unsupported(what, why) => {
                write!(f, "{what} is not supported by bashni match: {why}")
            }
            CompatError::Respell(given, ours) => {
                write!(f, "unknown flag {given}: bashni match spells it {ours}")
            }
            CompatError::Unknown(given) => write!(
                f,
                "unknown flag {given}: see bashni match --help (it takes cutechess-cli's and \
                 fastchess's -engine, -each, -games, -rounds, -concurrency, -openings, -pgnout, \
                 -sprt, -draw, -resign, -maxmoves, -recover, -repeat, -srand, -event, -site)"
            ),
        }
    }
}

impl std::error::Error for CompatError {}

/// The whole command line (`bashni match ...` and any other), with a match's cutechess-cli
/// and fastchess spellings turned into bashni's.
pub fn command_line(args: Vec<OsString>) -> Result<Vec<OsString>, CompatError> {
    if args.get(1).is_none_or(|a| a != "match") {
        return Ok(args);
    }
    let mut out: Vec<OsString> = args[..2].to_vec();
    out.extend(translate(&args[2..])?);
    Ok(out)
}

/// The flags after `bashni match`, translated.
pub fn translate(args: &[OsString]) -> Result<Vec<OsString>, CompatError> {
    let mut t = Translation::default();
    let mut i = 0;
    while i < args.len() {
        let Some(word) = args[i].to_str().filter(|w| is_single_dash_flag(w)) else {
            if args[i] == "--" {
                t.out.extend_from_slice(&args[i..]);
                break;
            }
            t.out.push(args[i].clone());
            i += 1;
            continue;
        };
        let values: Vec<&str> = args[i + 1..]
            .iter()
            .map_while(|a| a.to_str().filter(|v| is_value(v)))
            .collect();
        let used = t.flag(word, &values)?;
        i += 1 + used;
    }
    t.finish()?;
    Ok(t.out)
}

/// `-engine`, `-pgnout` and the like: one dash and a letter (`-h`, clap's own, excepted).
fn is_single_dash_flag(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('-')
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && word != "-h"
}

/// A word that is a flag's value: anything but a flag (a negative number is a value).
fn is_value(word: &str) -> bool {
    !word.starts_with('-') || word[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

/// The command line being built, and the counts read so far.
#[derive(Default)]
struct Translation {
    out: Vec<OsString>,
    games: Option<u64>,
    rounds: Option<u64>,
}

/// Flags of cutechess-cli and fastchess that bashni refuses, with why.
const REFUSED: &[(&str, &str)] = &[
    (
        "-noswap",
        "every opening is played twice with colours swapped",
    ),
    (
        "-reverse",
        "the first engine plays White in the first game of each pair",
    ),
    (
        "-ratinginterval",
        "the score is on the progress line and in the final report",
    ),
    (
        "-outcomeinterval",
        "each game's result is printed when it ends",
    ),
    (
        "-scoreinterval",
        "the score is on the progress line and in the final report",
    ),
    (
        "-autosaveinterval",
        "there is no saved state; --result writes the counts at the end",
    ),
    (
        "-debug",
        "there is no log of the engines' lines; run an engine by hand to see them",
    ),
    ("-wait", "the next game starts at once"),
    (
        "-epdout",
        "only the PDN of the games is written (--pdn FILE)",
    ),
    ("-pgnin", "there is no tournament file"),
    ("-tournamentfile", "there is no tournament file"),
    (
        "-bookmode",
        "there are no Polyglot books; openings come from -openings file=..",
    ),
    ("-tb", "there are no tablebases for these games"),
    ("-tbpieces", "there are no tablebases for these games"),
    ("-tbignore50", "there are no tablebases for these games"),
    ("-tbadjudicate", "there are no tablebases for these games"),
    ("-seeds", "a match has two engines"),
    (
        "-output",
        "the output has one format (cutechess-cli's lines, with a Ptnml line)",
    ),
    ("-log", "there is no log file"),
    ("-config", "there is no saved configuration to resume"),
    ("-quick", "give -engine twice with -each"),
    ("-use-affinity", "engines are not pinned to cores"),
    ("-show-latency", "latency is not measured"),
    ("-testEnv", "there is no test-environment mode"),
    ("-crc32", "no checksum of the PDN is computed"),
    ("-engines", "there is no engines.json; give -engine cmd=.."),
    ("-version", "see bashni --version"),
];

/// Single-dash spellings (not cutechess-cli's or fastchess's) whose bashni spelling has
/// another name.
const RESPELL: &[(&str, &str)] = &[
    ("-pgn", "--pdn FILE (cutechess-cli: -pgnout FILE)"),
    ("-pdnout", "--pdn FILE (cutechess-cli: -pgnout FILE)"),
    ("-st", "--movetime MS (or st=SECONDS in -each)"),
    ("-book", "--openings FILE (or -openings file=FILE)"),
];

impl Translation {
    fn push(&mut self, words: &[&str]) {
        self.out.extend(words.iter().map(OsString::from));
    }

    fn push_all(&mut self, words: Vec<String>) {
        self.out.extend(words.into_iter().map(OsString::from));
    }

    /// Translates `flag` whose following value words are `values`; returns how many it used.
    fn flag(&mut self, flag: &str, values: &[&str]) -> Result<usize, CompatError> {
        match flag {
            "-engine" | "-each" => self.engine(flag, values),
            "-games" => {
                self.games = Some(one_number(flag, values)?);
                Ok(1)
            }
            "-rounds" => {
                self.rounds = Some(one_number(flag, values)?);
                Ok(1)
            }
            "-concurrency" => self.renamed(flag, "--concurrency", values),
            "-event" => self.renamed(flag, "--event", values),
            "-site" => self.renamed(flag, "--site", values),
            "-variant" => self.renamed(flag, "--variant", values),
            "-srand" => self.renamed(flag, "--seed", values),
            "-maxmoves" => {
                let moves = one_number(flag, values)?;
                let plies = moves.checked_mul(2).ok_or_else(|| {
                    CompatError::BadValue(flag.into(), values[0].into(), "a number of moves")
                })?;
                self.push(&["--max-plies", &plies.to_string()]);
                Ok(1)
            }
            "-draw" | "-resign" | "-sprt" => self.keys(flag, values),
            "-recover" => {
                self.push(&["--recover"]);
                Ok(0)
            }
            "-help" => {
                self.push(&["--help"]);
                Ok(0)
            }
            "-repeat" => repeat(values),
            "-force-concurrency" => Ok(0),
            "-tournament" => tournament(values),
            "-report" => report(values),
            "-openings" => self.openings(values),
            "-pgnout" => self.pgnout(values),
            _ => Err(unknown(flag)),
        }
    }

    /// A flag with one value that bashni spells `ours`.
    fn renamed(&mut self, flag: &str, ours: &str, values: &[&str]) -> Result<usize, CompatError> {
        let v = values
            .first()
            .ok_or_else(|| CompatError::MissingValue(flag.into(), "a value"))?;
        self.push(&[ours, v]);
        Ok(1)
    }

    /// `-draw`, `-resign`, `-sprt`: the same `key=value` words as bashni's `--draw`, ...
    /// (fastchess's `-sprt model=logistic` is ours; its other models are refused).
    fn keys(&mut self, flag: &str, values: &[&str]) -> Result<usize, CompatError> {
        if values.is_empty() {
            return Err(CompatError::MissingValue(flag.into(), "key=value words"));
        }
        self.push(&[&format!("-{flag}")]);
        for v in values {
            match v.strip_prefix("model=") {
                Some("logistic") if flag == "-sprt" => {}
                Some(_) if flag == "-sprt" => {
                    return Err(CompatError::Unsupported(
                        format!("-sprt {v}"),
                        "elo0 and elo1 are logistic Elo (model=logistic)",
                    ));
                }
                _ => self.push(&[v]),
            }
        }
        Ok(values.len())
    }

    /// The counts: `--games` or `--rounds` (see the module's doc).
    fn finish(&mut self) -> Result<(), CompatError> {
        match (self.games, self.rounds) {
            (None, None) => {}
            (Some(g), None) => self.push(&["--games", &g.to_string()]),
            (None, Some(r)) => self.push(&["--rounds", &r.to_string()]),
            (Some(g), Some(r)) => {
                let total = g.checked_mul(r).ok_or_else(|| {
                    CompatError::BadValue(
                        "-games x -rounds".into(),
                        format!("{g} x {r}"),
                        "fewer games",
                    )
                })?;
                self.push(&["--games", &total.to_string()]);
            }
        }
        Ok(())
    }
}

/// `-repeat [N]`: bashni always plays each opening twice.
fn repeat(values: &[&str]) -> Result<usize, CompatError> {
    match values.first() {
        Some(&"2") => Ok(1),
        Some(n) if n.parse::<u64>().is_ok() => Err(CompatError::Unsupported(
            format!("-repeat {n}"),
            "every opening is played twice, colours swapped (-repeat 2)",
        )),
        _ => Ok(0),
    }
}

/// `-tournament`: with two engines a round-robin and a gauntlet are the same match.
fn tournament(values: &[&str]) -> Result<usize, CompatError> {
    match values.first() {
        Some(&("round-robin" | "roundrobin" | "gauntlet")) => Ok(1),
        Some(t) => Err(CompatError::Unsupported(
            format!("-tournament {t}"),
            "a match is two engines (round-robin or gauntlet)",
        )),
        None => Err(CompatError::MissingValue("-tournament".into(), "a type")),
    }
}

/// fastchess's `-report penta=true`: the report always has the pentanomial line.
fn report(values: &[&str]) -> Result<usize, CompatError> {
    match values.first() {
        Some(&"penta=true") => Ok(1),
        Some(v) => Err(CompatError::Unsupported(
            format!("-report {v}"),
            "the report always has the Ptnml line",
        )),
        None => Err(CompatError::MissingValue("-report".into(), "penta=true")),
    }
}

/// The one whole number after `flag`.
fn one_number(flag: &str, values: &[&str]) -> Result<u64, CompatError> {
    let v = values
        .first()
        .ok_or_else(|| CompatError::MissingValue(flag.into(), "a number"))?;
    v.parse()
        .map_err(|_| CompatError::BadValue(flag.into(), v.to_string(), "a whole number"))
}

/// The error for a single-dash flag the translation does not take.
fn unknown(flag: &str) -> CompatError {
    if let Some((_, why)) = REFUSED.iter().find(|(f, _)| *f == flag) {
        return CompatError::Unsupported(flag.to_string(), why);
    }
    if let Some((_, ours)) = RESPELL.iter().find(|(f, _)| *f == flag) {
        return CompatError::Respell(flag.to_string(), ours.to_string());
    }
    match bashni_flag(&flag[1..]) {
        Some(ours) => CompatError::Respell(flag.to_string(), ours),
        None => CompatError::Unknown(flag.to_string()),
    }
}

/// bashni's `--name` flag with its value's name, as `--help` shows it, if there is one.
fn bashni_flag(name: &str) -> Option<String> {
    let cmd = <MatchArgs as clap::Args>::augment_args(clap::Command::new("match"));
    let arg = cmd.get_arguments().find(|a| a.get_long() == Some(name))?;
    let takes_value = arg.get_action().takes_values();
    let value = match arg.get_value_names() {
        Some(names) if takes_value => format!(" <{}>", names[0]),
        None if takes_value => format!(" <{}>", arg.get_id().as_str().to_uppercase()),
        _ => String::new(),
    };
    Some(format!("--{name}{value}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> Result<String, CompatError> {
        let args: Vec<OsString> = line.split_whitespace().map(OsString::from).collect();
        let out = translate(&args)?;
        Ok(out
            .iter()
            .map(|a| a.to_str().unwrap())
            .collect::<Vec<_>>()
            .join(" "))
    }

    fn err(line: &str) -> String {
        run(line).unwrap_err().to_string()
    }

    #[test]
    fn cutechess_spellings_become_ours() {
        assert_eq!(
            run(
                "-engine cmd=./a name=a -engine cmd=./b name=b -each nodes=1000 -games 2 \
                 -pgnout out.pdn"
            )
            .unwrap(),
            "--engine cmd=./a name=a --engine cmd=./b name=b --each nodes=1000 --pdn out.pdn \
             --games 2"
        );
        assert_eq!(
            run("-each proto=uci tc=40/60+0.6 st=0.25 plies=3 option.Hash=8 restart=off").unwrap(),
            "--each proto=uci tc=40/60+0.6 movetime=250 depth=3 option.Hash=8"
        );
        assert_eq!(
            run("-each tc=inf depth=2 timemargin=50").unwrap(),
            "--timemargin 50 --each depth=2"
        );
        assert_eq!(
            run("-engine cmd=x args=-v").unwrap(),
            "--engine cmd=x arg=-v"
        );
        assert_eq!(
            run("-concurrency 4 -recover -repeat -maxmoves 100 -srand 7 -tournament gauntlet")
                .unwrap(),
            "--concurrency 4 --recover --max-plies 200 --seed 7"
        );
        assert_eq!(
            run("-repeat 2 -variant turkish").unwrap(),
            "--variant turkish"
        );
        assert_eq!(
            run("-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic").unwrap(),
            "--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05"
        );
        assert_eq!(
            run("-draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=400").unwrap(),
            "--draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=400"
        );
        assert_eq!(
            run("-openings file=o.txt format=epd order=random plies=4 start=3 policy=round")
                .unwrap(),
            "--openings o.txt --openings-format lines --openings-order random \
             --openings-plies 4 --openings-start 3"
        );
        assert_eq!(run("-openings file=o.pgn").unwrap(), "--openings o.pgn");
        assert_eq!(run("-pgnout g.pgn fi").unwrap(), "--pdn g.pgn");
        assert_eq!(
            run("-pgnout file=g.pgn notation=san nodes=false").unwrap(),
            "--pdn g.pgn"
        );
    }

    #[test]
    fn counts_follow_both_tools_where_they_agree() {
        assert_eq!(run("-games 2 -rounds 50").unwrap(), "--games 100");
        assert_eq!(run("-rounds 50 -games 2").unwrap(), "--games 100");
        assert_eq!(run("-games 7").unwrap(), "--games 7");
        assert_eq!(run("-rounds 5").unwrap(), "--rounds 5");
        assert!(err("-games two").contains("expected a whole number"));
        assert!(err("-games").contains("-games needs a number"));
    }

    #[test]
    fn our_spellings_and_other_words_pass_untouched() {
        let line = "--engine cmd=x name=-odd --each depth=2 --games 4 -h -- -engine";
        assert_eq!(run(line).unwrap(), line);
        let args: Vec<OsString> = ["bashni", "analyse", "-engine"].map(OsString::from).into();
        assert_eq!(command_line(args.clone()).unwrap(), args);
    }

    #[test]
    fn what_cannot_be_honoured_is_refused_in_one_line() {
        for (line, needle) in [
            ("-noswap", "-noswap is not supported"),
            ("-ratinginterval 10", "progress line"),
            ("-repeat 3", "-repeat 3 is not supported"),
            ("-engine cmd=x timemargin=9", "in -each or --timemargin"),
            ("-each ponder", "ponder is not supported"),
            ("-each tc=hg5", "hourglass"),
            ("-each restart=on", "restart=on is not supported"),
            ("-sprt elo0=0 elo1=5 model=normalized", "logistic Elo"),
            ("-pgnout g.pgn min", "-pgnout min is not supported"),
            ("-pgnout file=g.pgn nodes=true", "score/depth and time"),
            ("-pgnout", "bashni: --pdn FILE"),
            ("-pgnout notation=san", "bashni: --pdn FILE"),
            ("-openings o.txt", "bashni: --openings FILE"),
            ("-openings format=epd", "-openings needs file=FILE"),
            ("-openings file=o format=bin", "format=epd"),
            ("-each st=0", "seconds a move"),
            ("-tournament knockout", "two engines"),
        ] {
            let e = err(line);
            assert!(e.contains(needle), "{line}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn unknown_flags_name_our_spelling() {
        assert_eq!(
            err("-pdn g.pdn"),
            "unknown flag -pdn: bashni match spells it --pdn <PDN>"
        );
        assert_eq!(
            err("-quiet"),
            "unknown flag -quiet: bashni match spells it --quiet"
        );
        assert!(err("-pgn g").contains("--pdn FILE"));
        assert!(err("-foo").starts_with("unknown flag -foo: see bashni match --help"));
        assert!(err("-e cmd=x").starts_with("unknown flag -e:"));
    }
}
