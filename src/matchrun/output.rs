//! What a match shows and writes: the running score ([`Tally`]), the live progress line, a
//! line per finished game, the PDN file and the final report.

use super::MatchArgs;
use super::runner::Finished;
use super::stats::{
    GameResult as StatsResult, Pentanomial, SPRT_MIN_PAIRS, Sprt, SprtDecision, Wdl,
    elo_with_error, elo_with_error_pentanomial, los,
};
use crate::games::kit::color::Color;
use crate::record::game_record::{Event, to_pdn_in};
use crate::record::pdn_write::{today, write_game};
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// The score so far, from the first engine's view.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Wins, draws, losses of the first engine.
    pub wdl: Wdl,
    /// Wins, draws, losses of the first engine when it played White.
    pub wdl_white: Wdl,
    /// Completed game pairs by the first engine's points in them.
    pub penta: Pentanomial,
    /// Games by termination tag.
    pub terminations: BTreeMap<String, u64>,
    /// Faults (illegal move, crash, stall, time forfeit) by engine name and tag.
    pub faults: BTreeMap<(String, String), u64>,
    /// Plies played by the engines (openings not counted).
    pub plies: u64,
    /// Results of the first engine in pairs not yet complete.
    pending: HashMap<u64, Vec<StatsResult>>,
}

impl Tally {
    /// Counts a finished game.
    pub fn add(&mut self, f: &Finished) {
        let r = &f.record;
        let first = if f.first_is_white {
            Color::White
        } else {
            Color::Black
        };
        let result = match r.result.half_points(first) {
            2 => StatsResult::Win,
            1 => StatsResult::Draw,
            _ => StatsResult::Loss,
        };
        self.wdl.add(result);
        if f.first_is_white {
            self.wdl_white.add(result);
        }
        self.plies += r.moves.len() as u64;
        *self
            .terminations
            .entry(r.termination.tag_in(f.variant))
            .or_default() += 1;
        if r.termination.is_fault() {
            let loser = loser_index(f);
            *self
                .faults
                .entry((r.names[loser].clone(), r.termination.tag().to_string()))
                .or_default() += 1;
        }
        let seen = self.pending.entry(f.pair).or_default();
        seen.push(result);
        if seen.len() as u32 == f.pair_size {
            if let [a, b] = seen[..] {
                self.penta.add_pair(a, b);
            }
            self.pending.remove(&f.pair);
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wdl.games()
    }

    /// The first engine's points.
    pub fn points(&self) -> f64 {
        self.wdl.wins as f64 + self.wdl.draws as f64 / 2.0
    }

    /// The SPRT log-likelihood ratio (from game pairs) and what it decides: nothing before
    /// [`SPRT_MIN_PAIRS`] pairs, where the normal approximation's variance is no estimate
    /// (a single 2-0 pair has almost none, and would "accept" at once).
    pub fn llr(&self, sprt: &Sprt) -> (f64, SprtDecision) {
        let llr = sprt.llr_pentanomial(&self.penta);
        if self.penta.pairs() < SPRT_MIN_PAIRS {
            return (llr, SprtDecision::Continue);
        }
        (llr, sprt.decide(llr))
    }

    /// Whether SPRT (when given) has accepted a hypothesis.
    pub fn decided(&self, sprt: Option<Sprt>) -> bool {
        sprt.is_some_and(|s| self.llr(&s).1 != SprtDecision::Continue)
    }

    /// `+x.x +/- y.y`, when the score is neither 0 nor 100 % (the Elo would be infinite).
    pub fn elo_short(&self) -> Option<String> {
        let w = &self.wdl;
        if w.wins + w.draws == 0 || w.losses + w.draws == 0 {
            return None;
        }
        let (elo, err) = elo_with_error(w);
        // `+ 0.0` turns -0.0 into 0.0.
        Some(format!("{:+.1} +/- {err:.1}", elo + 0.0))
    }

    /// `Elo +x.x +/- y.y` (per game; per pair too once there are pairs), LOS, draw ratio.
    pub fn elo_text(&self) -> Option<String> {
        if self.games() == 0 {
            return None;
        }
        let elo = self
            .elo_short()
            .unwrap_or_else(|| "n/a (a score of 0 or 100 %)".into());
        let mut text = format!("Elo: {elo}");
        let p = &self.penta.counts;
        if self.penta.pairs() > 0 && p[0] + p[4] < self.penta.pairs() {
            let (pelo, perr) = elo_with_error_pentanomial(&self.penta);
            text += &format!(" (pairs: {:+.1} +/- {perr:.1})", pelo + 0.0);
        }
        text += &format!(
            ", LOS: {:.1} %, DrawRatio: {:.1} %",
            100.0 * los(&self.wdl),
            100.0 * self.wdl.draw_ratio()
        );
        Some(text)
    }
}

fn loser_index(f: &Finished) -> usize {
    if f.record.result.half_points(Color::White) == 0 {
        0
    } else {
        1
    }
}

/// "White's engine crashed" and the like, for a game that ended by a fault.
pub fn fault_text(f: &Finished) -> String {
    let r = &f.record;
    let loser = loser_index(f);
    format!(
        "{} ({}) {}",
        r.names[loser],
        ["White", "Black"][loser],
        r.termination
    )
}

/// Shows the match as it goes and writes the PDN.
pub struct Reporter {
    /// The match's first line, until it is shown (when the engines have started).
    header: Option<String>,
    names: [String; 2],
    games: u64,
    sprt: Option<Sprt>,
    quiet: bool,
    live: bool,
    shown: bool,
    last_draw: Option<Instant>,
    started: Instant,
    pdn: Option<PdnFile>,
    event: String,
    site: String,
    date: String,
}

/// The match's PDN file: a file that is there is opened when the match starts (so that an
/// unwritable one stops it before its first game); a new one is made only when the first
/// game is written, so that a match that never plays a game leaves no file behind, however
/// it ends (an error, a signal, the process killed).
struct PdnFile {
    path: std::path::PathBuf,
    file: Option<File>,
}

impl PdnFile {
    /// The PDN file at `path`, checked: opened to append if it is there, else made and
    /// removed again at once (only a file this call made: `create_new`), to know now that it
    /// can be made.
    fn check(path: &std::path::Path) -> Result<PdnFile, String> {
        let error = |e: std::io::Error| format!("cannot open PDN file {}: {e}", path.display());
        let append = || {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
        };
        let file = if path.exists() {
            Some(append().map_err(error)?)
        } else {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(_) => {
                    let _ = std::fs::remove_file(path);
                    None
                }
                // A link to a file not there yet: written through, as before.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    Some(append().map_err(error)?)
                }
                Err(e) => return Err(error(e)),
            }
        };
        Ok(PdnFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one game's text, whole or not at all; makes the file first if it is not there.
    fn write(&mut self, text: &str) -> Result<(), String> {
        let path = self.path.display();
        if self.file.is_none() {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)
                .map_err(|e| format!("cannot open PDN file {path}: {e}"))?;
            self.file = Some(file);
        }
        let file = self.file.as_mut().expect("opened above");
        crate::files::append(file, text.as_bytes())
            .map_err(|e| format!("cannot write PDN file {path}: {e}"))
    }
}

impl Reporter {
    /// A reporter for a match between `names` of `games` games that shows `header` once the
    /// engines have started; opens the PDN file.
    pub fn new(
        header: String,
        names: [String; 2],
        games: u64,
        sprt: Option<Sprt>,
        args: &MatchArgs,
    ) -> Result<Reporter, String> {
        let pdn = args.pdn.as_deref().map(PdnFile::check).transpose()?;
        Ok(Reporter {
            header: Some(header),
            names,
            games,
            sprt,
            quiet: args.quiet,
            live: std::io::stderr().is_terminal(),
            shown: false,
            last_draw: None,
            started: Instant::now(),
            pdn,
            event: args.event.clone(),
            site: args.site.clone(),
            date: today(),
        })
    }

    /// Records a finished game: the PDN, a line, the progress line.
    pub fn game(&mut self, f: &Finished, tally: &Tally) -> Result<(), String> {
        if let Some(pdn) = &mut self.pdn {
            let event = Event {
                name: self.event.clone(),
                site: self.site.clone(),
                date: self.date.clone(),
                round: f.pair + 1,
            };
            let game = to_pdn_in(&f.record, &event, f.variant);
            // Each game whole or not at all: a failed write leaves no cut game behind.
            pdn.write(&write_game(&game))?;
        }
        if !self.quiet {
            self.clear();
            let r = &f.record;
            let why = if r.termination.is_fault() {
                fault_text(f)
            } else {
                r.termination.tag_in(f.variant)
            };
            println!(
                "Finished game {} ({} vs {}): {} {{{why}}}",
                f.number,
                r.names[0],
                r.names[1],
                r.result.pdn()
            );
        }
        if !self.quiet {
            // The line was cleared for the game's line: draw it again now.
            self.last_draw = None;
        }
        self.progress(tally);
        Ok(())
    }

    /// The engines have started: shows the match's first line (once).
    pub fn engines_ready(&mut self) {
        if let Some(line) = self.header.take() {
            println!("{line}");
        }
    }

    /// Whether the match got under way (its engines started): a match that never did
    /// reports only why.
    pub fn under_way(&self) -> bool {
        self.header.is_none()
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }

    /// Redraws the progress line (on a terminal, at most ten times a second).
    pub fn progress(&mut self, tally: &Tally) {
        if !self.live
            || !self.under_way()
            || self
                .last_draw
                .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last_draw = Some(Instant::now());
        let n = tally.games();
        let total = if self.games >= u64::MAX / 8 {
            "?".to_string()
        } else {
            self.games.to_string()
        };
        let mut line = format!(
            "{}/{total} games  +{} ={} -{}  {:.1}%",
            n,
            tally.wdl.wins,
            tally.wdl.draws,
            tally.wdl.losses,
            if n == 0 {
                50.0
            } else {
                100.0 * tally.points() / n as f64
            }
        );
        if let Some(e) = tally.elo_short() {
            line += &format!("  Elo {e}");
        }
        if let Some(s) = self.sprt {
            let (llr, _) = tally.llr(&s);
            line += &format!(
                "  LLR {llr:.2} [{:.2}, {:.2}]",
                s.lower_bound(),
                s.upper_bound()
            );
        }
        let secs = self.started.elapsed().as_secs_f64();
        line += &format!("  {:.1} games/s", n as f64 / secs.max(1e-9));
        eprint!("\r\x1b[2K{line}");
        let _ = std::io::stderr().flush();
        self.shown = true;
    }

    /// Seconds since the match started.
    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Prints the final report to standard output.
    pub fn finish(&mut self, tally: &Tally) {
        self.clear();
        let secs = self.started.elapsed().as_secs_f64();
        print_report(&self.names, tally, self.sprt, secs);
    }
}

/// Prints the final report of a match between `names` to standard output: what a whole match
/// prints at its end, and what `bashni match-report` prints for merged parts (`seconds`: the
/// time the games took).
pub fn print_report(names: &[String; 2], tally: &Tally, sprt: Option<Sprt>, seconds: f64) {
    let n = tally.games();
    let Wdl {
        wins: w,
        draws: d,
        losses: l,
    } = tally.wdl;
    let pct = if n == 0 {
        50.0
    } else {
        100.0 * tally.points() / n as f64
    };
    println!("Results of {} vs {} ({} games):", names[0], names[1], n);
    println!(
        "Games: {n}, Wins: {w}, Losses: {l}, Draws: {d}, Points: {:.1} ({pct:.2} %)",
        tally.points()
    );
    let Wdl {
        wins: ww,
        draws: wd,
        losses: wl,
    } = tally.wdl_white;
    let [bw, bd, bl] = [w - ww, d - wd, l - wl];
    println!(
        "{} as White: +{ww} ={wd} -{wl}; as Black: +{bw} ={bd} -{bl}",
        names[0]
    );
    if let Some(e) = tally.elo_text() {
        println!("{e}");
    }
    let p = tally.penta.counts;
    println!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    );
    print_sprt(sprt, tally);
    let terms = tally.terminations.iter().map(|(t, c)| format!("{t} {c}"));
    println!("Terminations: {}", list_or_none(terms));
    let faults = tally
        .faults
        .iter()
        .map(|((e, t), c)| format!("{e} {t} {c}"));
    println!("Faults: {}", list_or_none(faults));
    let secs = seconds;
    println!(
        "Time: {secs:.1} s, {:.1} games/s, {:.1} plies a game",
        n as f64 / secs.max(1e-9),
        tally.plies as f64 / n.max(1) as f64
    );
}

/// The SPRT line of the final report, when the match runs one.
fn print_sprt(sprt: Option<Sprt>, tally: &Tally) {
    let Some(s) = sprt else { return };
    let (llr, decision) = tally.llr(&s);
    let verdict = match decision {
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::Continue => "no decision",
    };
    println!(
        "SPRT: elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} [{:.2}, {:.2}] {verdict}",
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        s.lower_bound(),
        s.upper_bound()
    );
}

/// `items` joined by commas, or `none`.
fn list_or_none(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sprt_decides_nothing_before_its_minimum_of_pairs() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut t = Tally::default();
        t.penta.add_pair(StatsResult::Win, StatsResult::Win);
        // One 2-0 pair has almost no variance: its LLR is past the bound, but it decides nothing.
        let (llr, decision) = t.llr(&sprt);
        assert!(llr > sprt.upper_bound());
        assert_eq!(decision, SprtDecision::Continue);
        for _ in 1..SPRT_MIN_PAIRS {
            t.penta.add_pair(StatsResult::Win, StatsResult::Win);
        }
        assert_eq!(t.llr(&sprt).1, SprtDecision::AcceptH1);
    }
}
