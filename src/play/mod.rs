//! `bashni play`: a person plays the engine in a terminal (or through pipes), in any of the
//! games (`--variant`).
//!
//! The session loop lives here: it reads one line at a time, plays the person's moves and
//! the engine's replies, and ends games by the rules, or on time (`flag`: a flag falls the
//! moment a clock runs out, while the person thinks too). Typed input is parsed in [`input`],
//! the commands run in `commands`, the engine thinks in `think`, games are saved and loaded
//! in `save`, and the board is drawn by [`crate::display::board`]. All of it is generic over
//! the game ([`Game`]); [`run`] picks the game's type once, and what play says differently
//! per game is in `game_text`.

mod args;
mod clock;
mod commands;
mod flag;
use crate::game_text;
pub mod input;
pub mod level;
mod players;
mod puzzles;
mod resolve;
pub mod save;
mod switch;
mod think;

use crate::display::{BoardStyle, board, capitalised, color_name, tower_list};
use crate::games::kit::color::Color;
use crate::games::{Game, Record, Variant};
use crate::protocol::command::quote;
use crate::record::game_record::PlayedMove;
use crate::record::result::Termination;
use crate::search::Engine;
pub use args::{ColorChoice, PlayArgs};
use clock::Clocks;
use input::{Input, Sq};
use level::Level;
use players::{Played, Player, Tally};
use resolve::{Resolved, move_list, origin, resolve};
use save::Ending;
use std::io::{IsTerminal, Write};
use think::{Ask, Event, Inbox, MAX_INPUT_BYTES, think};

/// How input and output are connected.
#[derive(Clone, Copy, Debug)]
struct Io {
    /// Draw in colour: output is a terminal and `NO_COLOR` is not set.
    color: bool,
    /// Draw the progress line while the engine thinks: output is a terminal.
    spinner: bool,
    /// A person at a terminal types: show prompts, offer to save on the way out.
    interactive: bool,
}

impl Io {
    fn detect() -> Io {
        let out = std::io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Io {
            color: out && !no_color,
            spinner: out,
            interactive: std::io::stdin().is_terminal(),
        }
    }
}

/// Whether the loop goes on after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Leave,
    /// `load` of a PDN file of another game: the session goes on in that game.
    Switch(Variant, String),
}

/// `White` or `Black`.
fn side_name(c: Color) -> String {
    capitalised(color_name(c))
}

/// The engine's name in messages and PDN tags.
const ENGINE: &str = "bashni";

/// A game of `G` in progress and everything around it.
struct Session<G: Game> {
    engine: Engine,
    inbox: Inbox,
    io: Io,
    /// Where `new` starts.
    start: G,
    game: Record<G>,
    /// One entry per move of `game` (the engine's with its score and depth), with who
    /// played it (`swap` changes sides in the middle of a game).
    moves: Vec<Played<G::Move>>,
    /// Groups of moves taken back by `undo`, the last taken back last: `redo` plays them
    /// again; any other move forgets them.
    redo: Vec<Vec<Played<G::Move>>>,
    human: Color,
    level: Level,
    clocks: Clocks,
    /// Black at the bottom (the person plays Black, or turned the board).
    flip: bool,
    /// `--flip`: after `load`, the board is turned from the person's side.
    turned: bool,
    /// Moves listed for the person to choose by number (an ambiguous capture).
    choices: Vec<G::Move>,
    ending: Option<Ending>,
    tally: Tally,
    /// Moves were played since the last save.
    unsaved: bool,
}

/// Runs `bashni play`; returns the exit code (2 for bad arguments, 1 when the hash table
/// cannot be had or `--egdb` does not read).
pub fn run(args: PlayArgs) -> i32 {
    if args.puzzles {
        return crate::for_variant!(args.variant, G => puzzles::run::<G>(&args));
    }
    crate::for_variant!(args.variant, G => run_game::<G>(args))
}

/// Runs `bashni play` in game `G`.
fn run_game<G: Game>(args: PlayArgs) -> i32 {
    let start = match G::from_fen(args.fen.as_deref().unwrap_or(G::START_FEN)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad --fen: {e}");
            return 2;
        }
    };
    let human = match args.color {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random if rand::random::<bool>() => Color::White,
        ColorChoice::Random => Color::Black,
    };
    let mut engine = match args.engine.engine_with(&args.egdb, G::VARIANT) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    engine.set_strength(args.level.strength());
    if let Some(seed) = args.seed {
        engine.seed_choices(seed);
    }
    let io = Io::detect();
    let carry = switch::Carry {
        engine,
        inbox: Inbox::from_stdin(io.interactive),
        io,
        human,
        level: args.level,
        time: clock::from_args(args.tc, args.movetime),
        // The person's side at the bottom, as on the page; --flip turns it around.
        flip: args.flip != (human == Color::Black),
        turned: args.flip,
        tally: Tally::default(),
    };
    switch::run_games(carry, start)
}

impl<G: Game> Session<G> {
    /// The greeting: the game, the sides, the level and time, how to type a move.
    fn greet(&self) {
        let game = match G::VARIANT {
            Variant::Bashni => String::new(),
            v => format!(" ({})", game_text::game_name(v)),
        };
        println!(
            "bashni play{game}: you are {}, {ENGINE} plays {}.",
            side_name(self.human),
            side_name(self.human.opponent()),
        );
        println!(
            "{}; {}.",
            capitalised(&self.level.describe(G::VARIANT)),
            self.clock_text()
        );
        let (quiet, _) = game_text::example_moves(G::VARIANT);
        let spaced = quiet.replace('-', " ");
        println!("Type a move like {quiet} (or {spaced}), or help for the commands.");
    }

    /// The session loop: the exit code, or the game and PDN file `load` switches to. A
    /// session switched to from another game begins by loading `load`.
    fn play(&mut self, load: Option<String>) -> Result<i32, (Variant, String)> {
        let first = match load {
            Some(file) => self.load(&file),
            None => {
                self.greet();
                self.begin_turn()
            }
        };
        match first {
            Flow::Leave => return Ok(self.leave()),
            Flow::Switch(v, file) => return Err((v, file)),
            Flow::Continue => {}
        }
        loop {
            self.prompt();
            // The person's flag falls while they think, not only when they move.
            let deadline = self.ending.is_none().then(|| self.clocks.deadline());
            let Some(event) = self.inbox.next_before(deadline.flatten()) else {
                if self.io.interactive {
                    println!();
                }
                self.flag_fell();
                continue;
            };
            let flow = match event {
                Event::Line(line) => {
                    if !self.io.interactive {
                        println!("> {}", quote(&line));
                    }
                    self.handle(&line)
                }
                Event::Overlong(start, bytes) => {
                    if !self.io.interactive {
                        println!("> {}...", quote(&start));
                    }
                    println!(
                        "a line of {bytes} bytes is too long (at most {MAX_INPUT_BYTES}): ignored"
                    );
                    Flow::Continue
                }
                Event::Eof | Event::Interrupt => {
                    if self.io.interactive {
                        println!();
                    }
                    Flow::Leave
                }
                Event::Info(_) | Event::Done => Flow::Continue,
            };
            match flow {
                Flow::Leave => return Ok(self.leave()),
                Flow::Switch(v, file) => return Err((v, file)),
                Flow::Continue => {}
            }
        }
    }

    fn prompt(&self) {
        if self.io.interactive {
            let who = if self.ending.is_some() {
                "game over".to_string()
            } else {
                format!("{} (you)", side_name(self.human))
            };
            print!("{who}> ");
            let _ = std::io::stdout().flush();
        }
    }

    /// One line of input.
    fn handle(&mut self, line: &str) -> Flow {
        let choices = std::mem::take(&mut self.choices);
        match input::parse::<G>(line) {
            Err(e) => println!("{e}"),
            Ok(Input::Empty) => {}
            Ok(Input::Choice(n)) => match choices.get(n.wrapping_sub(1)) {
                Some(&m) if self.may_move() => return self.human_move(m),
                Some(_) => {}
                None if choices.is_empty() => {
                    println!("{n}: there is no list to choose from; type a move or help")
                }
                None => {
                    println!("choose 1 to {}", choices.len());
                    self.choices = choices;
                }
            },
            Ok(Input::Square(sq)) => {
                let mut own: Vec<G::Move> = self
                    .game
                    .position()
                    .legal_moves()
                    .iter()
                    .filter(|m| origin::<G>(m) == sq)
                    .copied()
                    .collect();
                resolve::sort_moves(&mut own);
                if own.is_empty() {
                    println!("no legal move starts on {sq}");
                } else {
                    println!("moves of {sq}: {}", move_list(&own));
                }
            }
            Ok(Input::Path(path)) => return self.typed_move(line.trim(), &path),
            Ok(Input::Command(c)) => return self.command(c),
        }
        Flow::Continue
    }

    /// Whether the person may move now; says why not.
    fn may_move(&self) -> bool {
        if let Some(e) = &self.ending {
            let next = if self.undo_refused().is_some() {
                "new, load or quit"
            } else {
                "new, undo, load or quit"
            };
            println!(
                "the game is over ({}); type {next}",
                e.termination.tag_in(G::VARIANT)
            );
            return false;
        }
        true
    }

    fn typed_move(&mut self, text: &str, path: &[Sq]) -> Flow {
        if !self.may_move() {
            return Flow::Continue;
        }
        match resolve(self.game.position(), path) {
            Resolved::Move(m) => return self.human_move(m),
            Resolved::Ambiguous(cands) => {
                println!("{text} could be:");
                for (i, m) in cands.iter().enumerate() {
                    println!("  {}. {m}", i + 1);
                }
                println!("type the number of the move you mean");
                self.choices = cands;
            }
            Resolved::Illegal { reason, options } => {
                let whose = if options.iter().all(|m| origin::<G>(m) == path[0]) {
                    format!("moves of {}", path[0])
                } else {
                    "legal moves".to_string()
                };
                println!(
                    "illegal move {text}: {reason}; {whose}: {}",
                    move_list(&options)
                );
            }
        }
        Flow::Continue
    }

    /// Plays the person's move, then the engine's reply.
    fn human_move(&mut self, m: G::Move) -> Flow {
        let used = match self.clocks.end_turn(self.human) {
            Ok(used) => used,
            Err(flag) => {
                self.lose_on_time(self.human, flag);
                return Flow::Continue;
            }
        };
        self.record(m, None, used, Player::You);
        println!("you play {m}");
        if self.check_end(true) {
            return Flow::Continue;
        }
        self.engine_move()
    }

    /// Plays a new move (forgetting what `redo` could have played).
    fn record(
        &mut self,
        m: G::Move,
        info: Option<&crate::search::SearchInfo<G::Move>>,
        time: std::time::Duration,
        by: Player,
    ) {
        self.redo.clear();
        self.replay(Played {
            mv: m,
            record: PlayedMove {
                text: m.to_string(),
                info: save::last_info(info),
                time,
            },
            by,
        });
    }

    /// Plays a move with its record.
    fn replay(&mut self, p: Played<G::Move>) {
        self.game.play(p.mv);
        self.moves.push(p);
        self.unsaved = true;
    }

    /// The engine moves if it is its turn in a game that goes on, then the person's turn
    /// begins with the board.
    fn begin_turn(&mut self) -> Flow {
        if self.ending.is_none() && self.game.position().side_to_move() != self.human {
            return self.engine_move();
        }
        // (An `undo` or `redo` goes on with the person's turn under way.)
        if self.ending.is_none() {
            self.clocks.resume(self.human);
        }
        self.show_board();
        Flow::Continue
    }

    fn engine_move(&mut self) -> Flow {
        let side = self.human.opponent();
        self.clocks.start(side);
        let limits = self.clocks.limits(side);
        let Some(t) = self.search(&limits) else {
            println!("stopped");
            return Flow::Leave;
        };
        let Some(m) = t.result.best else {
            // Only reached if the game was already over; the rules say so.
            self.check_end(true);
            return Flow::Continue;
        };
        let used = match self.clocks.end_turn(side) {
            Ok(used) => used,
            Err(flag) => {
                // Its time ran out before it moved: the move does not count.
                self.lose_on_time(side, flag);
                return Flow::Continue;
            }
        };
        // The line of the move played: below full strength it may not be the best one.
        let info = t.line_of(m).cloned();
        self.record(m, info.as_ref(), used, Player::Engine(self.level));
        let view = info
            .map(|i| {
                format!(
                    " (depth {}, score {} for {ENGINE})",
                    i.depth,
                    i.score.human()
                )
            })
            .unwrap_or_default();
        println!("{ENGINE} plays {m}{view}, {:.2} s", used.as_secs_f64());
        if !self.check_end(true) {
            self.begin_turn();
        }
        Flow::Continue
    }

    /// Searches the current position, with the progress line on a terminal, until the
    /// limits say or the running clock's flag falls; `None` when Ctrl-C stopped it.
    fn search(
        &mut self,
        limits: &crate::search::SearchLimits<G::Move>,
    ) -> Option<think::Thought<G::Move>> {
        let ask = Ask {
            limits,
            deadline: self.clocks.deadline(),
            spinner: self.io.spinner.then_some(ENGINE),
        };
        let t = think(&mut self.engine, &self.game, &ask, &mut self.inbox);
        // What went wrong inside the search (a thread that did not start, ...).
        for note in &t.result.notes {
            eprintln!("{note}");
        }
        (!t.interrupted).then_some(t)
    }

    /// Ends the game if the rules say it is over; `count` adds it to the score.
    fn check_end(&mut self, count: bool) -> bool {
        let Some(outcome) = self.game.outcome() else {
            return false;
        };
        let (result, termination) = Termination::of_outcome(outcome);
        self.finish(
            Ending {
                result,
                termination,
            },
            count,
        );
        true
    }

    /// Shows the final position, the reason and the score; `count` adds it to the score.
    fn finish(&mut self, ending: Ending, count: bool) {
        self.clocks.stop();
        self.show_board();
        let pos = self.game.position();
        let mover = side_name(pos.side_to_move());
        let why = match &ending.termination {
            Termination::NoLegalMove if pos.commanders(pos.side_to_move()) == 0 => {
                format!("{mover} has no {}s left", game_text::piece_word(G::VARIANT))
            }
            Termination::NoLegalMove => format!("{mover} has no legal move"),
            Termination::Repetition => "the same position for the third time".to_string(),
            Termination::ThirtyPly => game_text::clock_rule_reason(G::VARIANT),
            Termination::KingAgainstMan => "one king against one man".to_string(),
            Termination::TimeForfeit(..) => format!("{mover}'s time is up"),
            Termination::Resignation => "you resign".to_string(),
            Termination::DrawAgreement => "draw agreed".to_string(),
            other => other.to_string(),
        };
        let points = ending.result.half_points(self.human);
        let verdict = match points {
            2 => "you win",
            0 => "bashni wins",
            _ => "a draw",
        };
        println!("game over: {why}: {verdict}, {}", ending.result.pdn());
        if count {
            *self.tally.slot(points) += 1;
            println!(
                "score: you {}, {ENGINE} {}, draws {}",
                self.tally.won, self.tally.lost, self.tally.drawn
            );
        }
        self.ending = Some(ending);
    }

    /// Takes the last game's result off the score (it was undone or replaced).
    fn uncount(&mut self) {
        if let Some(e) = self.ending.take() {
            let slot = self.tally.slot(e.result.half_points(self.human));
            *slot = slot.saturating_sub(1);
        }
    }

    fn show_board(&self) {
        let last = self.game.moves().last();
        let style = BoardStyle {
            flipped: self.flip,
            color: self.io.color,
            marked: last.map(G::move_squares).unwrap_or_default(),
        };
        println!();
        for line in board(self.game.position(), &style) {
            println!("{line}");
        }
        if let Some(list) = tower_list(self.game.position()) {
            println!("{list}");
        }
        let pos = self.game.position();
        let to_move = if pos.side_to_move() == self.human {
            "you"
        } else {
            ENGINE
        };
        let last = match (last, self.moves.last()) {
            (Some(m), Some(p)) => format!("last move {m} ({}); ", p.by.short()),
            (Some(m), None) => format!("last move {m}; "),
            _ => String::new(),
        };
        println!(
            "{last}move {}, {} to move ({to_move})",
            pos.fullmove(),
            side_name(pos.side_to_move())
        );
        if self.clocks.is_clock() {
            println!("{}", self.clock_text());
        }
    }

    /// `you` or the engine, by colour.
    fn name(&self, c: Color) -> &'static str {
        self.player(c).short()
    }

    /// Who plays `c` now.
    fn player(&self, c: Color) -> Player {
        if c == self.human {
            Player::You
        } else {
            Player::Engine(self.level)
        }
    }

    /// Leaves: on a terminal with moves not saved, offers to save them first.
    fn leave(&mut self) -> i32 {
        if self.io.interactive && self.unsaved && !self.game.moves().is_empty() {
            print!("save the game before leaving? file name (Enter: leave without saving): ");
            let _ = std::io::stdout().flush();
            match self.inbox.next() {
                Event::Line(name) if !name.trim().is_empty() => self.save(name.trim()),
                Event::Line(_) => {}
                _ => println!(),
            }
        }
        println!("bye");
        0
    }
}
