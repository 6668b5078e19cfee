//! How many games a match plays at once (`--concurrency`): never more than the game pairs it
//! has to play (a worker plays one pair at a time, so more workers would only start engines
//! that never play), and never more than the machine can hold: a value beyond that is
//! refused with one line before anything starts, as each game at once is a thread, two
//! engine processes with a reader thread each, four open pipe ends and two engines' memory.

use super::config::ConfigError;
use crate::client::spec::EngineSpec;
use crate::protocol::options::available_mib;
use crate::search::Engine;

/// Memory an engine takes besides its hash table, MiB: bashni takes about 25 MiB with its
/// default 16 MiB table (its peak resident size after `go depth 6`, 2026-11-28), 9 MiB of it
/// besides the table; rounded up generously for other engines.
const ENGINE_BASE_MIB: u64 = 32;
/// Open files each game at once holds: two engines, each with a pipe to its input and one
/// from its output.
const FILES_PER_GAME: u64 = 4;
/// Open files left for everything else (the standard streams, the PDN, a result file).
const FILES_SPARE: u64 = 64;
/// Threads and processes each game at once adds: its worker, two engine processes and their
/// reader threads here, and a few threads in each engine.
const TASKS_PER_GAME: u64 = 12;

/// The games a match plays at once: `asked` (`--concurrency`), but no more than `pairs`,
/// the game pairs to play (at least one). `asked` beyond what the machine can hold is an
/// error that says how many it can.
pub fn games_at_once(
    asked: usize,
    engines: &[EngineSpec],
    pairs: u64,
) -> Result<usize, ConfigError> {
    if asked == 0 {
        return Err(ConfigError::OutOfRange(
            "--concurrency",
            "must be at least 1".into(),
        ));
    }
    if let Some((most, why)) = machine_limit(engines)
        && asked as u64 > most
    {
        return Err(ConfigError::OutOfRange(
            "--concurrency",
            format!(
                "{asked} games at once are more than this machine can hold (at most {most}: {why})"
            ),
        ));
    }
    Ok((asked as u64).min(pairs).max(1) as usize)
}

/// The most games at once the machine holds, and what bounds it (the tightest of memory,
/// open files and processes); `None` where the system says none of these (not Linux).
fn machine_limit(engines: &[EngineSpec]) -> Option<(u64, String)> {
    let game_mib: u64 = engines.iter().map(|e| hash_mib(e) + ENGINE_BASE_MIB).sum();
    let mut limits = Vec::new();
    if let Some(avail) = available_mib() {
        limits.push((
            avail / game_mib.max(1),
            format!("{avail} MiB of memory available, about {game_mib} MiB for a game's engines"),
        ));
    }
    if let Some(files) = process_limit("Max open files") {
        limits.push((
            files.saturating_sub(FILES_SPARE) / FILES_PER_GAME,
            format!("{files} open files allowed, {FILES_PER_GAME} a game"),
        ));
    }
    if let Some(tasks) = process_limit("Max processes").or_else(kernel_threads) {
        limits.push((
            tasks / TASKS_PER_GAME,
            format!("{tasks} processes and threads allowed, about {TASKS_PER_GAME} a game"),
        ));
    }
    limits
        .into_iter()
        .min_by_key(|(n, _)| *n)
        .map(|(n, why)| (n.max(1), why))
}

/// The `Hash` an engine is given (`option.Hash=MB`), else bashni's default.
fn hash_mib(e: &EngineSpec) -> u64 {
    e.options
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("hash"))
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(Engine::DEFAULT_HASH_MB as u64)
}

/// This process's soft limit named `name` in /proc/self/limits (`None`: unlimited, or not
/// Linux).
fn process_limit(name: &str) -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with(name))?;
    line[name.len()..].split_whitespace().next()?.parse().ok()
}

/// The system's limit on threads (Linux `threads-max`).
fn kernel_threads() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/sys/kernel/threads-max").ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(options: &[(&str, &str)]) -> EngineSpec {
        EngineSpec {
            name: "e".into(),
            cmd: "bashni".into(),
            args: Vec::new(),
            dir: None,
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            limit: Default::default(),
        }
    }

    #[test]
    fn concurrency_is_capped_at_the_pairs_and_refused_beyond_the_machine() {
        let engines = [engine(&[]), engine(&[("Hash", "64")])];
        assert_eq!(hash_mib(&engines[1]), 64);
        assert_eq!(games_at_once(8, &engines, 1).unwrap(), 1);
        assert_eq!(games_at_once(2, &engines, 100).unwrap(), 2);
        assert!(games_at_once(0, &engines, 100).is_err());
        if machine_limit(&engines).is_some() {
            let e = games_at_once(100_000_000, &engines, u64::MAX / 4).unwrap_err();
            let text = e.to_string();
            assert!(
                text.starts_with("--concurrency: 100000000 games at once"),
                "{text}"
            );
            assert_eq!(text.lines().count(), 1);
        }
    }
}
