//! `bashni analyse`: readable analysis of a position from the command line: the board, one
//! line per completed depth (score for the side to move, in men or as a win/loss in its own
//! moves, nodes, speed, PV) and the best move; with `--pdn`, the review of a game
//! (`analyse/review.rs`). The command line is [`AnalyseArgs`].

mod args;
mod review;

pub use args::{AnalyseArgs, DEFAULT_DEPTH};

use crate::display::{capitalised, color_name, counted, diagram};
use crate::games::{Game, Record, RecordError};
use crate::play::save::{GameNumber, load_game};
use crate::search::{Bound, SearchControl, SearchInfo, SearchLimits, SearchResult};
use std::fmt::Display;
use std::io::BufRead;
use std::time::Instant;

/// The game to analyse: the position and the moves played from it, in game `G`.
fn build_game<G: Game>(args: &AnalyseArgs) -> Result<Record<G>, String> {
    let text = args.position.join(" ");
    // No POSITION at all is the start; an empty one (`analyse ''`) is a mistake.
    if !args.position.is_empty() && text.trim().is_empty() {
        return Err("empty POSITION: give startpos or a FEN (or nothing for the start)".into());
    }
    // A file: its PDN game --game N, the first by default (or the FEN it holds), then
    // --moves; the review (`--pdn`) reads the same game.
    if args.position.len() == 1 && std::path::Path::new(&text).is_file() {
        let which = GameNumber(args.game_number());
        let mut game = load_game::<G>(&text, which).map_err(|e| e.to_string())?;
        for (i, m) in args.moves.iter().enumerate() {
            game.play_text(m)
                .map_err(|e| format!("move {} of --moves: {e}", i + 1))?;
        }
        return Ok(game);
    }
    if let Some(n) = args.game {
        return Err(format!(
            "--game {n} picks a game of a PDN file: give the file as POSITION, or with --pdn"
        ));
    }
    let fen = if args.position.is_empty() || text.trim().eq_ignore_ascii_case("startpos") {
        G::START_FEN
    } else {
        &text
    };
    Record::from_fen_and_moves(fen, &args.moves).map_err(|e| match e {
        RecordError::BadFen(e) => format!("bad FEN '{fen}': {e}"),
        RecordError::BadMove(i, e) => format!("move {i} of --moves: {e}"),
    })
}

fn limits<M>(args: &AnalyseArgs) -> SearchLimits<M> {
    let depth = match (args.depth, args.movetime, args.infinite) {
        (None, None, false) => Some(DEFAULT_DEPTH),
        (d, _, _) => d,
    };
    SearchLimits {
        depth,
        movetime: args.movetime,
        infinite: args.infinite,
        multipv: args.multipv as usize,
        ..Default::default()
    }
}

/// Says whose view the scores take and in what units, above the depth lines.
fn view(side: &str) -> String {
    format!(
        "Scores are for {side}, the side to move (as UCI gives them): men (+1.25), or a win \
         or loss in N moves of {side}'s."
    )
}

/// Width of the score column: `loss in 30 moves` fits.
const SCORE_WIDTH: usize = 16;

/// Column headings of the depth lines.
fn heading(multipv: bool) -> String {
    let line = if multipv { " line" } else { "" };
    format!(
        "depth{line}  {:>SCORE_WIDTH$}  {:>12}  {:>9}  {:>7}  pv",
        "score", "nodes", "nps", "time"
    )
}

/// One readable line: `label` in the depth column (the depth, or `final`).
fn depth_line<M: Display>(label: &str, info: &SearchInfo<M>, multipv: bool) -> String {
    let line = if multipv {
        format!(" {:>4}", info.multipv)
    } else {
        String::new()
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{label:>5}{line}  {:>SCORE_WIDTH$}  {:>12}  {:>9}  {:>6.2}s  {}",
        info.score.human(),
        info.nodes,
        info.nps,
        info.time_ms as f64 / 1000.0,
        pv.join(" ")
    )
}

/// Which search reports become lines, and how they are labelled: each depth once per
/// line, in order. A report for a depth already shown is the search's last word when it
/// stopped (a move from the unfinished next depth that beat the last completed one, or
/// the main thread's line where a helper showed the depth first): it is labelled `final`,
/// not shown as a second line of the same depth.
#[derive(Default)]
struct Rows {
    /// Deepest depth shown for each line (by multipv index).
    shown: std::collections::BTreeMap<usize, u32>,
}

impl Rows {
    /// The line for `info`, if it is shown.
    fn row<M: Display>(&mut self, info: &SearchInfo<M>, multipv: bool) -> Option<String> {
        if info.bound != Bound::Exact || info.currmove.is_some() {
            return None;
        }
        let deepest = self.shown.entry(info.multipv).or_default();
        if info.depth > *deepest {
            *deepest = info.depth;
            Some(depth_line(&info.depth.to_string(), info, multipv))
        } else {
            Some(depth_line("final", info, multipv))
        }
    }
}

/// The closing line.
fn summary<M: Display>(result: &SearchResult<M>, side: &str, secs: f64) -> String {
    match &result.best {
        None => format!("No legal move: {side}, to move, has lost."),
        Some(best) => {
            let reply = result
                .ponder
                .as_ref()
                .map(|p| format!(", expected reply {p}"))
                .unwrap_or_default();
            format!(
                "Best move: {best}{reply} (score {} for {side} at depth {}, {} in {secs:.2} s)",
                result.score.human(),
                result.depth,
                counted(result.nodes, "node", "nodes")
            )
        }
    }
}

/// Stops `control` when standard input yields a line or ends.
fn stop_on_enter(control: std::sync::Arc<SearchControl>) {
    let watch = move || {
        let mut line = String::new();
        let _ = std::io::stdin().lock().read_line(&mut line);
        control.stop();
    };
    let _ = std::thread::Builder::new()
        .name("bashni-enter".into())
        .spawn(watch);
}

/// Runs the analysis; returns the exit code (2 for a bad position or move).
pub fn run(args: AnalyseArgs) -> i32 {
    if let Some(pdn) = &args.pdn {
        return review::run(&args, pdn);
    }
    // Each game gets its own monomorphised analysis.
    crate::for_variant!(args.variant, G => analyse::<G>(&args))
}

/// The analysis of a position of game `G`.
fn analyse<G: Game>(args: &AnalyseArgs) -> i32 {
    let game = match build_game::<G>(args) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut engine = match args.engine.engine_with(&args.egdb, G::VARIANT) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let pos = game.position();
    for line in diagram(pos) {
        println!("{line}");
    }
    println!();
    if let Some(line) = engine.egdb().and_then(|dbs| dbs.describe(pos)) {
        println!("{line}");
    }
    let limits = limits(args);
    let control = SearchControl::new(false);
    if args.infinite {
        println!("Searching until Enter is pressed (or input ends).");
        stop_on_enter(control.clone());
    }
    let multipv = args.multipv > 1;
    let side = capitalised(color_name(pos.side_to_move()));
    println!("{}", view(&side));
    println!("{}", heading(multipv));
    let start = Instant::now();
    let mut rows = Rows::default();
    let mut report = |info: &SearchInfo<G::Move>| {
        if let Some(row) = rows.row(info, multipv) {
            println!("{row}");
        }
    };
    let result = engine.search(pos, game.history(), &limits, &control, &mut report);
    for note in &result.notes {
        eprintln!("{note}");
    }
    println!("{}", summary(&result, &side, start.elapsed().as_secs_f64()));
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::position::Position;
    use crate::games::{Variant, russian, turkish};
    use crate::protocol::command::{MAX_GO_DEPTH, MAX_GO_TIME_MS};
    use crate::search::MAX_DEPTH;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Wrap {
        #[command(flatten)]
        args: AnalyseArgs,
    }

    fn parse(words: &[&str]) -> Result<AnalyseArgs, clap::Error> {
        let argv = std::iter::once("analyse").chain(words.iter().copied());
        Wrap::try_parse_from(argv).map(|w| w.args)
    }

    #[test]
    fn fen_in_words_and_moves() {
        let a = parse(&["8/8/8/6B1/1b1b4/6b1/8/W7", "w", "--moves", "a1:f6:h4:e1:a5"]).unwrap();
        let g = build_game::<Position>(&a).unwrap();
        assert_eq!(g.moves().len(), 1);
        assert_eq!(limits::<()>(&a).depth, Some(DEFAULT_DEPTH));
        let a = parse(&["--moves", "c3-c4"]).unwrap();
        assert!(
            build_game::<Position>(&a)
                .unwrap_err()
                .starts_with("move 1 of --moves: ")
        );
    }

    #[test]
    fn an_empty_position_is_an_error_not_the_start() {
        for words in [&[""][..], &["  "], &["", ""]] {
            let e = build_game::<Position>(&parse(words).unwrap()).unwrap_err();
            assert!(e.starts_with("empty POSITION"), "{e}");
        }
        let start = build_game::<Position>(&parse(&[]).unwrap()).unwrap();
        assert_eq!(start.position(), &Position::startpos());
        let named = build_game::<Position>(&parse(&["startpos"]).unwrap()).unwrap();
        assert_eq!(named.position(), &Position::startpos());
    }

    #[test]
    fn variants_read_their_own_notation() {
        let a = parse(&["--variant", "turkish", "--moves", "d3-d4", "e6-e5"]).unwrap();
        assert_eq!(a.variant, Variant::Turkish);
        let g = build_game::<turkish::Position>(&a).unwrap();
        assert_eq!(g.moves().len(), 2);
        // Turkish moves are not Bashni moves.
        assert!(build_game::<Position>(&a).is_err());
        let a = parse(&["--variant", "russian", "8/8/8/8/8/2b5/1b6/w7", "w"]).unwrap();
        assert!(build_game::<russian::Position>(&a).is_ok());
        assert!(parse(&["--variant", "chess"]).is_err());
    }

    fn info(depth: u32, multipv: usize, cp: i32, bound: Bound) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth + 4,
            multipv,
            score: crate::search::Score::Cp(cp),
            bound,
            nodes: 1000,
            nps: 10_000,
            hashfull: 0,
            time_ms: 100,
            pv: Vec::new(),
            tbhits: None,
            currmove: None,
        }
    }

    #[test]
    fn each_depth_is_shown_once_and_the_last_word_is_marked_final() {
        let mut rows = Rows::default();
        let mut label = |i: SearchInfo| {
            rows.row(&i, true)
                .map(|r| r.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        };
        assert_eq!(label(info(1, 1, 10, Bound::Exact)).as_deref(), Some("1 1"));
        assert_eq!(label(info(1, 2, 5, Bound::Exact)).as_deref(), Some("1 2"));
        assert_eq!(
            label(info(2, 1, 30, Bound::Lower)),
            None,
            "a bound is no line"
        );
        assert_eq!(label(info(2, 1, 20, Bound::Exact)).as_deref(), Some("2 1"));
        // Time is up during depth 3; the search settles on another move, still "depth 2".
        assert_eq!(
            label(info(2, 1, 25, Bound::Exact)).as_deref(),
            Some("final 1")
        );
        let line = depth_line("final", &info(2, 1, 25, Bound::Exact), false);
        assert!(line.starts_with("final             +0.25 "), "{line}");
    }

    #[test]
    fn limits_conflict() {
        assert!(parse(&["--depth", "3", "--movetime", "10"]).is_err());
        assert!(parse(&["--multipv", "0"]).is_err());
        // The protocol's ranges: `go depth` and `go movetime`.
        let deepest = MAX_GO_DEPTH.to_string();
        assert_eq!(
            parse(&["--depth", &deepest]).unwrap().depth,
            Some(MAX_DEPTH)
        );
        for (flag, v) in [
            ("--depth", (MAX_GO_DEPTH + 1).to_string()),
            ("--depth", "0".to_string()),
            ("--movetime", (MAX_GO_TIME_MS + 1).to_string()),
            ("--movetime", "99999999999".to_string()),
            ("--movetime", "0".to_string()),
        ] {
            assert!(parse(&[flag, &v]).is_err(), "{flag} {v}");
        }
        let longest = MAX_GO_TIME_MS.to_string();
        assert!(parse(&["--movetime", &longest]).is_ok());
        let a = parse(&["--infinite"]).unwrap();
        assert!(limits::<()>(&a).infinite && limits::<()>(&a).depth.is_none());
    }
}
