//! The match scheduler: worker threads, each with its own pair of engine processes, take game
//! pairs (one opening, colours swapped) in order; the calling thread collects the results,
//! keeps the score, writes the PDN and stops everything when SPRT decides or an engine fails
//! without `--recover`. A match is of one game `G` (every engine set to it when it starts).

use super::config::{EngineSpec, Limit};
use super::referee::Referee;
use crate::client::engine::EngineProcess;
use crate::client::spec::Proto;
use crate::games::kit::color::Color;
use crate::games::{Game, Variant};
use crate::record::game_record::GameRecord;
use crate::record::openings::{Opening, RandomOpenings};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

/// Where the openings of the game pairs of game `G` come from.
pub enum OpeningSource<G: Game> {
    /// Every game from the initial position.
    Initial,
    /// A list, used in order and from the start again when it runs out.
    List(Vec<Opening>),
    /// Drawn at random, one per pair.
    Random(Box<RandomOpenings<G>>),
}

/// Everything a match of game `G` needs.
pub struct MatchPlan<G: Game> {
    /// The first and the second engine (results are given from the first's view).
    pub engines: [EngineSpec; 2],
    /// The protocol each speaks (`proto=`).
    pub protos: [Proto; 2],
    /// Their limits.
    pub limits: [Limit; 2],
    /// Games of the whole match (pairs of two; an odd count ends with a single game).
    pub games: u64,
    /// The game pairs this run plays: all of them, or one shard's contiguous part.
    pub pairs: std::ops::Range<u64>,
    /// Games played at once.
    pub concurrency: usize,
    /// The openings.
    pub openings: OpeningSource<G>,
    /// The referee's settings.
    pub referee: Referee,
    /// Restart a crashed or stalled engine and go on (otherwise the match stops).
    pub recover: bool,
}

/// A game the scheduler hands back.
#[derive(Debug)]
pub struct Finished {
    /// Game pair index (0-based).
    pub pair: u64,
    /// Game number (1-based).
    pub number: u64,
    /// Games in this pair (1 for the last game of an odd count, else 2).
    pub pair_size: u32,
    /// Whether the first engine played White.
    pub first_is_white: bool,
    /// The game played (every game of a match is the same).
    pub variant: Variant,
    /// The game.
    pub record: GameRecord,
}

/// What a worker reports.
#[derive(Debug)]
pub enum Event {
    /// A worker's two engines have started (and play the game): the match is under way.
    Ready,
    /// A game ended.
    Game(Box<Finished>),
    /// The match cannot go on (an engine cannot be started, the openings ran out).
    Fatal(String),
}

struct Job {
    pair: u64,
    opening: Opening,
    size: u32,
}

struct Scheduler<G: Game> {
    next_pair: u64,
    pairs: u64,
    games: u64,
    openings: OpeningSource<G>,
    /// Random openings drawn so far: a shard draws (and skips) those of the pairs before its
    /// own, so that pair `p` gets the same opening as in the whole match.
    drawn: u64,
}

impl<G: Game> Scheduler<G> {
    fn take(&mut self) -> Result<Option<Job>, String> {
        if self.next_pair >= self.pairs {
            return Ok(None);
        }
        let pair = self.next_pair;
        let opening = match &mut self.openings {
            OpeningSource::Initial => Opening::initial(),
            OpeningSource::List(list) => list[(pair % list.len() as u64) as usize].clone(),
            OpeningSource::Random(r) => loop {
                let o = r.next_opening().ok_or_else(|| {
                    format!("no more balanced random openings after {} (use more plies or a larger --max-score)", self.drawn)
                })?;
                self.drawn += 1;
                if self.drawn > pair {
                    break o;
                }
            },
        };
        self.next_pair += 1;
        let size = (self.games - pair * 2).min(2) as u32;
        Ok(Some(Job {
            pair,
            opening,
            size,
        }))
    }
}

struct Shared<G: Game> {
    scheduler: Mutex<Scheduler<G>>,
    stop: AtomicBool,
    engines: [EngineSpec; 2],
    protos: [Proto; 2],
    limits: [Limit; 2],
    referee: Referee,
}

/// A running match: the results arrive on [`RunningMatch::events`] until every worker is done.
pub struct RunningMatch<G: Game> {
    shared: Arc<Shared<G>>,
    /// Games and failures as they happen.
    pub events: Receiver<Event>,
    workers: Vec<std::thread::JoinHandle<()>>,
}

impl<G: Game> RunningMatch<G> {
    /// Starts `plan.concurrency` workers.
    pub fn start(plan: MatchPlan<G>) -> RunningMatch<G> {
        let shared = Arc::new(Shared {
            scheduler: Mutex::new(Scheduler {
                next_pair: plan.pairs.start,
                pairs: plan.pairs.end,
                games: plan.games,
                openings: plan.openings,
                drawn: 0,
            }),
            stop: AtomicBool::new(false),
            engines: plan.engines,
            protos: plan.protos,
            limits: plan.limits,
            referee: plan.referee,
        });
        let (tx, rx) = channel();
        let mut workers = Vec::new();
        for k in 0..plan.concurrency.max(1) {
            let (mine, my_tx) = (Arc::clone(&shared), tx.clone());
            let recover = plan.recover;
            let started = std::thread::Builder::new()
                .name(format!("match-worker-{k}"))
                .spawn(move || worker(&mine, &my_tx, recover));
            match started {
                Ok(w) => workers.push(w),
                // The machine holds no more threads: the match stops as on any fatal error,
                // the workers already started ending their games.
                Err(e) => {
                    shared.stop.store(true, Ordering::SeqCst);
                    let _ = tx.send(Event::Fatal(format!(
                        "cannot start match worker {}: {e}",
                        k + 1
                    )));
                    break;
                }
            }
        }
        RunningMatch {
            shared,
            events: rx,
            workers,
        }
    }

    /// Asks the workers to stop: games under way are abandoned (not reported).
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::SeqCst)
    }

    /// Waits for the workers (and their engines) to finish.
    pub fn join(self) {
        for w in self.workers {
            let _ = w.join();
        }
    }
}

/// An engine of a worker: its spec and the process while it runs.
struct Slot<'a> {
    spec: &'a EngineSpec,
    proto: Proto,
    process: Option<EngineProcess>,
}

impl Slot<'_> {
    /// The engine's process, started (and set to play `variant`) if it is not running.
    fn ensure(&mut self, variant: Variant) -> Result<&mut EngineProcess, String> {
        if self.process.is_none() {
            let process = EngineProcess::start_speaking(self.spec, variant, self.proto);
            self.process = Some(process.map_err(|e| e.to_string())?);
        }
        Ok(self.process.as_mut().expect("started"))
    }
}

fn worker<G: Game>(shared: &Shared<G>, tx: &Sender<Event>, recover: bool) {
    let mut slots = [
        Slot {
            spec: &shared.engines[0],
            proto: shared.protos[0],
            process: None,
        },
        Slot {
            spec: &shared.engines[1],
            proto: shared.protos[1],
            process: None,
        },
    ];
    let result = run_jobs(shared, tx, &mut slots, recover);
    if let Err(msg) = result {
        shared.stop.store(true, Ordering::SeqCst);
        let _ = tx.send(Event::Fatal(msg));
    }
    for slot in slots {
        if let Some(p) = slot.process {
            p.quit();
        }
    }
}

fn run_jobs<G: Game>(
    shared: &Shared<G>,
    tx: &Sender<Event>,
    slots: &mut [Slot; 2],
    recover: bool,
) -> Result<(), String> {
    for slot in slots.iter_mut() {
        slot.ensure(G::VARIANT)?;
    }
    if tx.send(Event::Ready).is_err() {
        return Ok(());
    }
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return Ok(());
        }
        let job = shared
            .scheduler
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()?;
        let Some(job) = job else { return Ok(()) };
        for g in 0..job.size {
            let first_is_white = g == 0;
            let (w, b) = if first_is_white { (0, 1) } else { (1, 0) };
            for slot in slots.iter_mut() {
                slot.ensure(G::VARIANT)?;
            }
            let [s0, s1] = &mut *slots;
            let (pw, pb) = if first_is_white { (s0, s1) } else { (s1, s0) };
            let (Some(white), Some(black)) = (pw.process.as_mut(), pb.process.as_mut()) else {
                unreachable!("engines started above")
            };
            let limits = [shared.limits[w], shared.limits[b]];
            let Some(record) =
                shared
                    .referee
                    .play::<G>([white, black], limits, &job.opening, &shared.stop)
            else {
                return Ok(());
            };
            if let Some(c) = record.broken {
                let slot = if (c == Color::White) == first_is_white {
                    0
                } else {
                    1
                };
                // Dropping the process kills it; it is started again for the next game.
                slots[slot].process = None;
                if !recover {
                    shared.stop.store(true, Ordering::SeqCst);
                }
            }
            let number = job.pair * 2 + g as u64 + 1;
            let finished = Finished {
                pair: job.pair,
                number,
                pair_size: job.size,
                first_is_white,
                variant: G::VARIANT,
                record,
            };
            if tx.send(Event::Game(Box::new(finished))).is_err() {
                return Ok(());
            }
        }
    }
}
