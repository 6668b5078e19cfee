//! The match settings: engine specifications (`key=value` tokens), search limits and time
//! controls, each parsed with a typed error that says what is wrong.

use super::stats::Sprt;
pub use crate::client::spec::{EngineSpec, Limit, Proto};
pub use crate::record::time_control::{TimeControl, TimeControlError};
use std::fmt;
use std::path::PathBuf;

/// What is wrong with a match setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// An engine token that is not `key=value`.
    NotKeyValue(String),
    /// An engine key that is not known.
    UnknownKey(String),
    /// A `proto=` that is not `uci` or `hub`.
    BadProto(String),
    /// An engine without `cmd=`.
    MissingCmd(usize),
    /// `--engine` given other than twice.
    EngineCount(usize),
    /// A number that does not parse (what, text).
    BadNumber(&'static str, String),
    /// A time control that does not parse.
    BadTimeControl(TimeControlError),
    /// No limit at all for an engine (its name).
    NoLimit(String),
    /// Both a clock and a move time for an engine (its name).
    ClockAndMovetime(String),
    /// An `--sprt` token that is not known or not a number.
    BadSprt(String),
    /// `--sprt` without `elo0` and `elo1`, or with bad bounds.
    IncompleteSprt(String),
    /// A value out of its range (what, why).
    OutOfRange(&'static str, String),
    /// A bad `--shard` or batch environment.
    Shard(crate::shard::ShardError),
    /// `--shard` without a fixed length and seed, or with `--sprt`.
    ShardNeeds,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::NotKeyValue(t) => {
                write!(
                    f,
                    "engine setting '{t}' is not key=value (like cmd=./bashni or option.Hash=64)"
                )
            }
            ConfigError::UnknownKey(k) => write!(
                f,
                "unknown engine key '{k}': expected cmd, name, arg, dir, proto, option.<Name>, tc, movetime, depth or nodes"
            ),
            ConfigError::BadProto(v) => {
                write!(
                    f,
                    "engine setting proto={v}: expected proto=uci or proto=hub"
                )
            }
            ConfigError::MissingCmd(i) => write!(f, "engine {i} has no cmd=<path>"),
            ConfigError::EngineCount(n) => {
                write!(f, "a match needs exactly two --engine, got {n}")
            }
            ConfigError::BadNumber(what, t) => write!(f, "{what}: '{t}' is not a valid number"),
            ConfigError::BadTimeControl(e) => write!(f, "{e}"),
            ConfigError::NoLimit(n) => write!(
                f,
                "engine '{n}' has no limit: give --tc, --movetime, --depth or --nodes (or tc=... on the engine)"
            ),
            ConfigError::ClockAndMovetime(n) => {
                write!(
                    f,
                    "engine '{n}': a clock (tc) and a move time exclude each other"
                )
            }
            ConfigError::BadSprt(t) => write!(
                f,
                "--sprt: '{t}' is not one of elo0=<e> elo1=<e> alpha=<a> beta=<b> with a number"
            ),
            ConfigError::IncompleteSprt(why) => write!(f, "--sprt: {why}"),
            ConfigError::OutOfRange(what, why) => write!(f, "{what}: {why}"),
            ConfigError::Shard(e) => write!(f, "{e}"),
            ConfigError::ShardNeeds => write!(
                f,
                "--shard plays part of a fixed match: give --games or --rounds and --seed (the \
                 same in every part), and no --sprt (merge the parts with bashni match-report \
                 --sprt instead)"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl From<TimeControlError> for ConfigError {
    fn from(e: TimeControlError) -> ConfigError {
        ConfigError::BadTimeControl(e)
    }
}

/// Checks that an engine's limit can be played (`name` names the engine in errors).
pub fn check_limit(limit: &Limit, name: &str) -> Result<(), ConfigError> {
    if limit.is_empty() {
        return Err(ConfigError::NoLimit(name.to_string()));
    }
    if limit.clock.is_some() && limit.movetime.is_some() {
        return Err(ConfigError::ClockAndMovetime(name.to_string()));
    }
    Ok(())
}

/// Builds an engine spec from `--each` tokens then its own `--engine` tokens (own tokens
/// win: they replace name, cmd, dir, options of the same name and the limit; `arg`s add up).
/// `index` (1-based) names the engine in errors.
pub fn parse_engine(
    index: usize,
    each: &[String],
    own: &[String],
) -> Result<EngineSpec, ConfigError> {
    let mut spec = EngineSpec::default();
    let mut each_limit = Limit::default();
    for t in each {
        apply_token(&mut spec, &mut each_limit, t)?;
    }
    let mut own_limit = Limit::default();
    for t in own {
        apply_token(&mut spec, &mut own_limit, t)?;
    }
    spec.limit = if own_limit.is_empty() {
        each_limit
    } else {
        own_limit
    };
    if spec.cmd.as_os_str().is_empty() {
        return Err(ConfigError::MissingCmd(index));
    }
    if spec.name.is_empty() {
        spec.name = spec
            .cmd
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("engine{index}"));
    }
    Ok(spec)
}

fn apply_token(spec: &mut EngineSpec, limit: &mut Limit, token: &str) -> Result<(), ConfigError> {
    let (key, value) = token
        .split_once('=')
        .ok_or_else(|| ConfigError::NotKeyValue(token.to_string()))?;
    match key {
        "cmd" => spec.cmd = PathBuf::from(value),
        "name" => spec.name = value.to_string(),
        "arg" => spec.args.push(value.to_string()),
        "dir" => spec.dir = Some(PathBuf::from(value)),
        // Read by `parse_proto`; checked here so that a bad value stops the match early.
        "proto" => {
            value
                .parse::<Proto>()
                .map_err(|_| ConfigError::BadProto(value.to_string()))?;
        }
        "tc" => limit.clock = Some(TimeControl::parse(value)?),
        "movetime" => limit.movetime = Some(parse_number("movetime", value)?),
        "depth" => limit.depth = Some(parse_number("depth", value)?),
        "nodes" => limit.nodes = Some(parse_number("nodes", value)?),
        _ => match key.strip_prefix("option.") {
            Some(name) if !name.is_empty() => {
                spec.options.retain(|(n, _)| n != name);
                spec.options.push((name.to_string(), value.to_string()));
            }
            _ => return Err(ConfigError::UnknownKey(key.to_string())),
        },
    }
    Ok(())
}

/// The protocol an engine speaks: its own `proto=` token, else the `--each` one, else ours.
pub fn parse_proto(each: &[String], own: &[String]) -> Result<Proto, ConfigError> {
    let given = own
        .iter()
        .chain(each)
        .find_map(|t| t.strip_prefix("proto="));
    given.map_or(Ok(Proto::Uci), |v| {
        v.parse().map_err(|_| ConfigError::BadProto(v.to_string()))
    })
}

/// Parses a number, naming `what` in the error.
pub fn parse_number<T: std::str::FromStr>(
    what: &'static str,
    text: &str,
) -> Result<T, ConfigError> {
    text.trim()
        .parse()
        .map_err(|_| ConfigError::BadNumber(what, text.to_string()))
}

/// Parses `--sprt elo0=<e0> elo1=<e1> [alpha=<a>] [beta=<b>]` (alpha and beta default to
/// 0.05).
pub fn parse_sprt(tokens: &[String]) -> Result<Sprt, ConfigError> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for t in tokens {
        let bad = || ConfigError::BadSprt(t.clone());
        let (k, v) = t.split_once('=').ok_or_else(bad)?;
        let x: f64 = v.trim().parse().map_err(|_| bad())?;
        if !x.is_finite() {
            return Err(bad());
        }
        match k {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = x,
            "beta" => beta = x,
            _ => return Err(bad()),
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err(ConfigError::IncompleteSprt(
            "elo0=<e> and elo1=<e> are required".into(),
        ));
    };
    if elo1 <= elo0 {
        return Err(ConfigError::IncompleteSprt(format!(
            "elo1 ({elo1}) must exceed elo0 ({elo0})"
        )));
    }
    for (n, p) in [("alpha", alpha), ("beta", beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(ConfigError::IncompleteSprt(format!(
                "{n} must lie in (0, 0.5), got {p}"
            )));
        }
    }
    Ok(Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn protocols() {
        let each = toks("proto=hub");
        assert_eq!(parse_proto(&[], &toks("cmd=a")), Ok(Proto::Uci));
        assert_eq!(parse_proto(&each, &toks("cmd=a")), Ok(Proto::Hub));
        assert_eq!(parse_proto(&each, &toks("cmd=a proto=uci")), Ok(Proto::Uci));
        assert_eq!(
            parse_proto(&[], &toks("proto=dxp")),
            Err(ConfigError::BadProto("dxp".into()))
        );
        assert!(parse_engine(1, &[], &toks("cmd=a proto=hub")).is_ok());
        assert!(parse_engine(1, &[], &toks("cmd=a proto=x")).is_err());
    }

    #[test]
    fn engines() {
        let each = toks("tc=1+0.01 option.Hash=8");
        let e = parse_engine(
            1,
            &each,
            &toks("cmd=/x/bashni arg=-v arg=uci option.Hash=32"),
        )
        .unwrap();
        assert_eq!(e.name, "bashni");
        assert_eq!(e.args, ["-v", "uci"]);
        assert_eq!(e.options, [("Hash".to_string(), "32".to_string())]);
        assert!(e.limit.clock.is_some());
        let e = parse_engine(2, &each, &toks("cmd=b name=B depth=3")).unwrap();
        assert_eq!(
            (e.name.as_str(), e.limit.clock, e.limit.depth),
            ("B", None, Some(3))
        );
        assert_eq!(
            parse_engine(1, &[], &toks("name=x")),
            Err(ConfigError::MissingCmd(1))
        );
        assert_eq!(
            parse_engine(1, &[], &toks("cmd")),
            Err(ConfigError::NotKeyValue("cmd".into()))
        );
        assert_eq!(
            parse_engine(1, &[], &toks("cmd=a foo=1")),
            Err(ConfigError::UnknownKey("foo".into()))
        );
        assert!(matches!(
            parse_engine(1, &[], &toks("cmd=a depth=x")),
            Err(ConfigError::BadNumber(..))
        ));
    }

    #[test]
    fn sprt() {
        let s = parse_sprt(&toks("elo0=0 elo1=5")).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        assert!(parse_sprt(&toks("elo0=0")).is_err());
        assert!(parse_sprt(&toks("elo0=5 elo1=0")).is_err());
        assert!(parse_sprt(&toks("elo0=0 elo1=5 alpha=0.7")).is_err());
        assert!(parse_sprt(&toks("elo0=0 elo1=5 gamma=1")).is_err());
    }
}
