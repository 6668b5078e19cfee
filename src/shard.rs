//! Splitting a fixed amount of work (datagen games, match game pairs) into `n` contiguous parts
//! so that batch jobs can each play one part and the parts, put together in order, are exactly
//! the whole run. `--shard i/n` names a part by hand; `--shard auto` takes it from the batch
//! engine's environment: a Slurm job array (`SLURM_ARRAY_TASK_ID` with the array's bounds) or a
//! Kubernetes Indexed Job (`JOB_COMPLETION_INDEX` with `--shards N`).

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

/// Part `index` (1-based) of `count` equal parts of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole run as one part.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Part `index` (1-based) of `count`, if `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (1..=count)
            .contains(&index)
            .then_some(Shard { index, count })
    }

    /// Which part (1-based).
    pub fn index(self) -> u64 {
        self.index
    }

    /// Of how many parts.
    pub fn count(self) -> u64 {
        self.count
    }

    /// The items of a run of `total` that this part holds: a contiguous range, so that the
    /// parts in order cover the run exactly once.
    pub fn range(self, total: u64) -> Range<u64> {
        let bound = |i: u64| (total as u128 * i as u128 / self.count as u128) as u64;
        bound(self.index - 1)..bound(self.index)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What is wrong with a `--shard` value or the batch environment behind `--shard auto`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// Not `i/n` with `1 <= i <= n`, nor `auto` (the text, cut).
    Syntax(String),
    /// `--shard auto` found no batch array in the environment.
    NoBatchArray,
    /// `JOB_COMPLETION_INDEX` is set but `--shards N` is not.
    NeedShards,
    /// A batch variable that is not a number or out of its array's bounds (name, value).
    BadVariable(&'static str, String),
    /// `--shards N` disagrees with the Slurm array's size (N, array size).
    CountMismatch(u64, u64),
}

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardError::Syntax(s) => write!(
                f,
                "'{s}' is not a shard: expected i/n with 1 <= i <= n (like 2/8) or auto"
            ),
            ShardError::NoBatchArray => write!(
                f,
                "--shard auto: no batch array found: expected SLURM_ARRAY_TASK_ID (a Slurm job \
                 array, sbatch --array) or JOB_COMPLETION_INDEX with --shards N (a Kubernetes \
                 Indexed Job)"
            ),
            ShardError::NeedShards => write!(
                f,
                "--shard auto: JOB_COMPLETION_INDEX is set but not --shards N (the Job's \
                 completions)"
            ),
            ShardError::BadVariable(name, value) => {
                write!(
                    f,
                    "--shard auto: {name}='{value}' is not a valid index here"
                )
            }
            ShardError::CountMismatch(n, size) => write!(
                f,
                "--shard auto: --shards {n} but the Slurm array has {size} tasks"
            ),
        }
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let err = || ShardError::Syntax(s.chars().take(40).collect());
        let (i, n) = s.split_once('/').ok_or_else(err)?;
        let index: u64 = i.trim().parse().map_err(|_| err())?;
        let count: u64 = n.trim().parse().map_err(|_| err())?;
        Shard::new(index, count).ok_or_else(err)
    }
}

/// A `--shard` argument: a part named by hand, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    /// `i/n`.
    Fixed(Shard),
    /// `auto`: from the batch engine's environment.
    Auto,
}

impl Default for ShardArg {
    fn default() -> ShardArg {
        ShardArg::Fixed(Shard::WHOLE)
    }
}

impl FromStr for ShardArg {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<ShardArg, ShardError> {
        if s.trim().eq_ignore_ascii_case("auto") {
            Ok(ShardArg::Auto)
        } else {
            s.parse().map(ShardArg::Fixed)
        }
    }
}

impl fmt::Display for ShardArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShardArg::Fixed(s) => write!(f, "{s}"),
            ShardArg::Auto => f.write_str("auto"),
        }
    }
}

impl ShardArg {
    /// The part to play: the one named, or for `auto` the one the process environment
    /// describes (`shards`: `--shards N`, needed for Kubernetes, checked against Slurm's).
    pub fn resolve(self, shards: Option<u64>) -> Result<Shard, ShardError> {
        self.resolve_with(shards, |name| std::env::var(name).ok())
    }

    /// [`ShardArg::resolve`] with the environment given as a function (for tests).
    pub fn resolve_with(
        self,
        shards: Option<u64>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Shard, ShardError> {
        match self {
            ShardArg::Fixed(s) => Ok(s),
            ShardArg::Auto => from_environment(shards, env),
        }
    }
}

/// Reads a batch variable as a number.
fn number(
    env: &impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<u64>, ShardError> {
    match env(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| ShardError::BadVariable(name, v.chars().take(40).collect())),
    }
}

fn from_environment(
    shards: Option<u64>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Shard, ShardError> {
    // Slurm: task ids run from MIN to MAX in steps of STEP (sbatch --array=MIN-MAX:STEP); a
    // list such as --array=1,5,9 has no step, so the tasks are numbered by their place.
    if let Some(id) = number(&env, "SLURM_ARRAY_TASK_ID")? {
        let min = number(&env, "SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = number(&env, "SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let size = match number(&env, "SLURM_ARRAY_TASK_COUNT")? {
            Some(c) => c,
            None => {
                let max = number(&env, "SLURM_ARRAY_TASK_MAX")?.ok_or(ShardError::BadVariable(
                    "SLURM_ARRAY_TASK_MAX",
                    String::new(),
                ))?;
                (max.saturating_sub(min)) / step + 1
            }
        };
        if id < min || (id - min) % step != 0 {
            return Err(ShardError::BadVariable(
                "SLURM_ARRAY_TASK_ID",
                id.to_string(),
            ));
        }
        if let Some(n) = shards
            && n != size
        {
            return Err(ShardError::CountMismatch(n, size));
        }
        return Shard::new((id - min) / step + 1, size).ok_or(ShardError::BadVariable(
            "SLURM_ARRAY_TASK_ID",
            id.to_string(),
        ));
    }
    if let Some(index) = number(&env, "JOB_COMPLETION_INDEX")? {
        let n = shards.ok_or(ShardError::NeedShards)?;
        return Shard::new(index + 1, n).ok_or(ShardError::BadVariable(
            "JOB_COMPLETION_INDEX",
            index.to_string(),
        ));
    }
    Err(ShardError::NoBatchArray)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shards_cover_the_run_once() {
        for total in [0u64, 1, 7, 100, 1001] {
            for n in 1..=9u64 {
                let mut covered = Vec::new();
                for i in 1..=n {
                    let s: Shard = format!("{i}/{n}").parse().unwrap();
                    covered.extend(s.range(total));
                }
                assert_eq!(covered, (0..total).collect::<Vec<_>>(), "{total}, {n}");
            }
        }
    }

    #[test]
    fn bad_shards_are_refused() {
        for bad in ["0/3", "4/3", "x/2", "1", "1/0", "-1/2", "", "autox"] {
            let e = bad.parse::<ShardArg>().unwrap_err();
            assert!(e.to_string().contains("is not a shard"), "{bad}");
        }
        assert_eq!("auto".parse::<ShardArg>(), Ok(ShardArg::Auto));
        assert_eq!(
            "2/8".parse::<ShardArg>(),
            Ok(ShardArg::Fixed(Shard::new(2, 8).unwrap()))
        );
    }

    #[test]
    fn slurm_arrays() {
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        let s = ShardArg::Auto.resolve_with(None, env(&vars)).unwrap();
        assert_eq!(s, Shard::new(4, 4).unwrap());
        assert_eq!(
            ShardArg::Auto.resolve_with(Some(5), env(&vars)),
            Err(ShardError::CountMismatch(5, 4))
        );
        // --array=1-7:2 is tasks 1, 3, 5, 7; task 5 is the third of four.
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "7"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ];
        let s = ShardArg::Auto.resolve_with(Some(4), env(&vars)).unwrap();
        assert_eq!(s, Shard::new(3, 4).unwrap());
        let bad = [("SLURM_ARRAY_TASK_ID", "x")];
        assert!(matches!(
            ShardArg::Auto.resolve_with(None, env(&bad)),
            Err(ShardError::BadVariable("SLURM_ARRAY_TASK_ID", _))
        ));
    }

    #[test]
    fn kubernetes_indexed_jobs() {
        let vars = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(
            ShardArg::Auto.resolve_with(Some(3), env(&vars)),
            Ok(Shard::new(1, 3).unwrap())
        );
        assert_eq!(
            ShardArg::Auto.resolve_with(None, env(&vars)),
            Err(ShardError::NeedShards)
        );
        let vars = [("JOB_COMPLETION_INDEX", "3")];
        assert!(ShardArg::Auto.resolve_with(Some(3), env(&vars)).is_err());
    }

    #[test]
    fn auto_without_an_array_is_an_error() {
        let e = ShardArg::Auto.resolve_with(None, env(&[])).unwrap_err();
        assert_eq!(e, ShardError::NoBatchArray);
        assert!(e.to_string().contains("SLURM_ARRAY_TASK_ID"));
        let fixed = ShardArg::Fixed(Shard::new(2, 3).unwrap());
        assert_eq!(
            fixed.resolve_with(None, env(&[])),
            Ok(Shard::new(2, 3).unwrap())
        );
    }
}
