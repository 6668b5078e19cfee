//! Many independent jobs over a few engines (self-play games, puzzle mining): one thread per
//! engine, each taking the next job as soon as it is free (no thread waits for a slower one,
//! as with jobs dealt out in chunks), and the results handed on in the jobs' order, so that
//! what a run writes is the same whatever the number of threads.

use super::Engine;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;

/// Runs `work(index, engine)` for every index of `jobs`, one thread per engine (each search
/// on that thread), and calls `take(index, result)` in index order. `take` returning
/// `Ok(false)` ends the run, an error ends it and is returned; either way the jobs under way
/// are finished and their results dropped. Fewer threads than engines (the system refused
/// some) do the same jobs; none at all is an error.
pub fn run_in_order<R: Send>(
    jobs: Range<u64>,
    engines: Vec<Engine>,
    work: impl Fn(u64, &mut Engine) -> R + Sync,
    mut take: impl FnMut(u64, R) -> Result<bool, String>,
) -> Result<(), String> {
    let next = AtomicU64::new(jobs.start);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<(u64, R)>();
    std::thread::scope(|s| {
        let mut started = 0;
        let mut refused = None;
        for mut engine in engines {
            let tx = tx.clone();
            let (next, stop, work, end) = (&next, &stop, &work, jobs.end);
            // Each search runs on this job's thread: no thread started per search.
            engine.search_on_calling_thread(true);
            let thread = Engine::spawn_with_search_stack(s, move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= end {
                        break;
                    }
                    if tx.send((index, work(index, &mut engine))).is_err() {
                        break;
                    }
                }
            });
            match thread {
                Ok(_) => started += 1,
                Err(e) => refused = Some(e),
            }
        }
        drop(tx);
        if let (0, Some(e)) = (started, refused) {
            return Err(format!("cannot start a search thread: {e}"));
        }
        // Results that arrive before the ones they follow wait here.
        let mut waiting = BTreeMap::new();
        let mut expected = jobs.start;
        for (index, result) in rx {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&expected) {
                let go_on = take(expected, result);
                expected += 1;
                if go_on != Ok(true) {
                    stop.store(true, Ordering::Relaxed);
                    return go_on.map(|_| ());
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engines(n: usize) -> Vec<Engine> {
        (0..n).map(|_| Engine::new()).collect()
    }

    #[test]
    fn results_come_in_order_whatever_the_threads() {
        for threads in [1, 2, 3] {
            let mut seen = Vec::new();
            run_in_order(
                5..25,
                engines(threads),
                |i, _| {
                    // Jobs take unequal times and finish out of order: the order seen
                    // is the pool's doing.
                    std::thread::sleep(std::time::Duration::from_millis((25 - i) % 4));
                    i * 10
                },
                |i, r| {
                    seen.push((i, r));
                    Ok(true)
                },
            )
            .unwrap();
            let want: Vec<(u64, u64)> = (5..25).map(|i| (i, i * 10)).collect();
            assert_eq!(seen, want, "{threads} threads");
        }
    }

    #[test]
    fn take_ends_the_run_by_false_or_by_an_error() {
        let mut seen = 0;
        let r = run_in_order(
            0..100,
            engines(2),
            |i, _| i,
            |i, _| {
                seen += 1;
                Ok(i < 9)
            },
        );
        assert_eq!((r, seen), (Ok(()), 10));
        let r = run_in_order(
            0..100,
            engines(2),
            |i, _| i,
            |i, _| {
                if i == 3 {
                    Err("disk full".to_string())
                } else {
                    Ok(true)
                }
            },
        );
        assert_eq!(r, Err("disk full".to_string()));
    }
}
