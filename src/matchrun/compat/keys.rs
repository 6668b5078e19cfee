//! The `key=value` words of `-engine`, `-each`, `-openings` and `-pgnout` in bashni's
//! spelling.

use super::{CompatError, Translation};

impl Translation {
    /// `-engine` and `-each`: their `key=value` words in bashni's spelling.
    pub(super) fn engine(&mut self, flag: &str, values: &[&str]) -> Result<usize, CompatError> {
        if values.is_empty() {
            return Err(CompatError::MissingValue(flag.into(), "key=value words"));
        }
        let each = flag == "-each";
        let mut tokens = Vec::new();
        for v in values {
            tokens.extend(self.engine_token(v, each)?);
        }
        // `-each timemargin=..` alone leaves nothing for `--each`.
        if !tokens.is_empty() || !each {
            self.push(&[&format!("-{flag}")]);
            self.push_all(tokens);
        }
        Ok(values.len())
    }

    /// One engine word in bashni's spelling (none, one or several words).
    fn engine_token(&mut self, token: &str, each: bool) -> Result<Vec<String>, CompatError> {
        let unsupported = |why| Err(CompatError::Unsupported(token.to_string(), why));
        let Some((key, value)) = token.split_once('=') else {
            return match token {
                "ponder" => unsupported("engines do not ponder in a match"),
                "trust" => unsupported("the referee judges every game by the rules"),
                "whitepov" => unsupported("engines report scores from the side to move"),
                _ => Ok(vec![token.to_string()]),
            };
        };
        let same = || Ok(vec![token.to_string()]);
        match key {
            "st" => Ok(vec![format!("movetime={}", seconds_to_ms(token, value)?)]),
            "plies" => Ok(vec![format!("depth={value}")]),
            "args" => Ok(value
                .split_whitespace()
                .map(|a| format!("arg={a}"))
                .collect()),
            "tc" if value == "inf" => Ok(Vec::new()),
            "tc" if value.starts_with("hg") => {
                unsupported("hourglass clocks are not played; use moves/time+increment")
            }
            "timemargin" if each => {
                self.push(&["--timemargin", value]);
                Ok(Vec::new())
            }
            "timemargin" => unsupported(
                "the time margin is the same for both engines: give it in -each or --timemargin",
            ),
            "restart" if value == "off" || value == "auto" => Ok(Vec::new()),
            "restart" => unsupported("engines are restarted only after a crash, with -recover"),
            "conf" => unsupported("there is no engines.json; give cmd=.. name=.."),
            "book" | "bookdepth" => {
                unsupported("there are no engine books; give -openings file=..")
            }
            "initstr" => unsupported("nothing is sent to an engine before its protocol"),
            "stderr" => unsupported("an engine's standard error is the match's"),
            "tscale" => unsupported("clocks are not scaled"),
            _ => same(),
        }
    }

    /// `-openings file=F [format=epd|pgn] [order=..] [plies=N] [start=N] [policy=..]`.
    pub(super) fn openings(&mut self, values: &[&str]) -> Result<usize, CompatError> {
        const FLAG: &str = "-openings";
        let mut file = None;
        let mut rest: Vec<String> = Vec::new();
        for v in values {
            let Some((key, value)) = v.split_once('=') else {
                return Err(CompatError::BadValue(
                    FLAG.into(),
                    v.to_string(),
                    "key=value words, like file=openings.txt (bashni: --openings FILE)",
                ));
            };
            let bad = |want| CompatError::BadValue(FLAG.into(), v.to_string(), want);
            match (key, value) {
                ("file", f) => file = Some(f),
                ("format", "epd") => rest.extend(["--openings-format".into(), "lines".into()]),
                ("format", "pgn" | "pdn") => {
                    rest.extend(["--openings-format".into(), "pdn".into()])
                }
                ("format", _) => return Err(bad("format=epd (a FEN or moves a line) or pgn")),
                ("order", "sequential" | "random") => {
                    rest.extend(["--openings-order".into(), value.into()])
                }
                ("order", _) => return Err(bad("order=sequential or order=random")),
                ("plies", n) => rest.extend(["--openings-plies".into(), n.into()]),
                ("start", n) => rest.extend(["--openings-start".into(), n.into()]),
                // Two engines: each opening is one game pair whatever the policy.
                ("policy", "default" | "encounter" | "round") => {}
                ("policy", _) => return Err(bad("policy=default, encounter or round")),
                _ => return Err(bad("file=, format=, order=, plies=, start= or policy=")),
            }
        }
        let file = file.ok_or_else(|| CompatError::MissingValue(FLAG.into(), "file=FILE"))?;
        self.push(&["--openings", file]);
        self.push_all(rest);
        Ok(values.len())
    }

    /// cutechess-cli's `-pgnout FILE [min] [fi]` and fastchess's `-pgnout file=FILE ...`.
    pub(super) fn pgnout(&mut self, values: &[&str]) -> Result<usize, CompatError> {
        const FLAG: &str = "-pgnout";
        let missing = || {
            CompatError::MissingValue(
                FLAG.into(),
                "a file: -pgnout FILE or -pgnout file=FILE (bashni: --pdn FILE)",
            )
        };
        let first = values.first().ok_or_else(missing)?;
        let file = if first.contains('=') {
            pgnout_keys(values)?.ok_or_else(missing)?
        } else {
            for v in &values[1..] {
                match *v {
                    // Only finished games are written anyway.
                    "fi" => {}
                    "min" => {
                        return Err(CompatError::Unsupported(
                            "-pgnout min".into(),
                            "the PDN always has each move's score/depth and time",
                        ));
                    }
                    _ => {
                        return Err(CompatError::BadValue(
                            FLAG.into(),
                            v.to_string(),
                            "min or fi",
                        ));
                    }
                }
            }
            first
        };
        self.push(&["--pdn", file]);
        Ok(values.len())
    }
}

/// fastchess's `-pgnout file=FILE [notation=..] [nodes=false] ...`: the file.
fn pgnout_keys<'a>(values: &[&'a str]) -> Result<Option<&'a str>, CompatError> {
    const FLAG: &str = "-pgnout";
    let mut file = None;
    for v in values {
        let Some((key, value)) = v.split_once('=') else {
            return Err(CompatError::BadValue(
                FLAG.into(),
                v.to_string(),
                "key=value words",
            ));
        };
        match (key, value) {
            ("file", f) => file = Some(f),
            // Draughts has one notation; moves are written in it whatever is asked.
            ("notation", "san" | "lan" | "uci") => {}
            (
                "nodes" | "seldepth" | "nps" | "hashfull" | "tbhits" | "timeleft" | "latency"
                | "min",
                "false",
            ) => {}
            (
                "nodes" | "seldepth" | "nps" | "hashfull" | "tbhits" | "timeleft" | "latency"
                | "min" | "match_line",
                _,
            ) => {
                return Err(CompatError::Unsupported(
                    format!("-pgnout {v}"),
                    "each move's comment is its score/depth and time",
                ));
            }
            _ => {
                return Err(CompatError::BadValue(
                    FLAG.into(),
                    v.to_string(),
                    "file=FILE [notation=..] (bashni: --pdn FILE)",
                ));
            }
        }
    }
    Ok(file)
}

/// `st=` seconds as whole milliseconds (at least 1).
fn seconds_to_ms(token: &str, value: &str) -> Result<u64, CompatError> {
    let bad = || {
        CompatError::BadValue(
            "engine setting".into(),
            token.into(),
            "seconds a move, like st=0.5",
        )
    };
    let secs: f64 = value.parse().map_err(|_| bad())?;
    if !(secs.is_finite() && (0.0005..=1e7).contains(&secs)) {
        return Err(bad());
    }
    Ok((secs * 1000.0).round() as u64)
}
