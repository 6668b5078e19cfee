//! The commands of `bashni play` (everything typed that is not a move).

use super::clock::{Clocks, DEFAULT_MOVETIME_MS};
use super::input::{Command, TimeSetting, move_list, sort_moves};
use super::save::{self, Record};
use super::{ENGINE, Flow, Session, side_name};
use crate::rules::color::Color;
use crate::rules::game::Game;
use crate::rules::movegen::legal_moves;
use crate::rules::notation::to_fen;
use crate::search::{SearchInfo, SearchLimits, Strength};

/// Lines of `analyse`.
const ANALYSE_LINES: usize = 3;
/// Moves of each `analyse` line shown.
const ANALYSE_PV: usize = 10;

const HELP: &str = "\
Moves: c3-d4, c3 d4 or c3d4; captures c3:e5:g7, or just the first and last square (c3 g7)
  when that names one capture (otherwise the choices are listed: type a number).
  A square alone (c3) lists the moves of the piece there.
Commands:
  moves            the legal moves
  hint             the move the engine would play for you
  analyse          the engine's best lines in this position
  undo             take back your last move and the engine's reply
  new              a new game (same side, same start position)
  swap             change sides with the engine
  level N          playing level 0 to 20 (20 = full strength)
  time [TC]        show the clocks; time 5:00+2 sets a clock, time movetime 500 a move time
  flip             turn the board around
  board            draw the board again
  fen              the position as FEN
  save FILE        save the game as PDN
  load FILE|FEN    load a PDN game (its last game) or a position; you take the side to move
  quit             leave (Ctrl-C and end of input leave too)
Below 20 the engine searches shallower and picks among its best moves, the better ones more
often; the README's ladder gives each level's Elo.";

impl Session {
    /// Runs a command.
    pub(super) fn command(&mut self, c: Command) -> Flow {
        match c {
            Command::Help => println!("{HELP}"),
            Command::Moves => self.list_moves(),
            Command::Hint => return self.hint(),
            Command::Analyse => return self.analyse(),
            Command::Undo => self.undo(),
            Command::New => return self.new_game(),
            Command::Swap => return self.swap(),
            Command::Level(l) => {
                self.level = l;
                self.engine.set_strength(l.strength());
                println!("{}", l.describe());
            }
            Command::Time(None) => println!("{}", self.time_text()),
            Command::Time(Some(setting)) => {
                self.clocks = Clocks::new(setting);
                println!("{}", self.time_text());
            }
            Command::Flip => {
                self.flip = !self.flip;
                self.show_board();
            }
            Command::Board => self.show_board(),
            Command::Fen => println!("{}", to_fen(self.game.position())),
            Command::Save(file) => self.save(&file),
            Command::Load(arg) => return self.load(&arg),
            Command::Quit => return Flow::Leave,
        }
        Flow::Continue
    }

    fn time_text(&self) -> String {
        self.clocks
            .describe(self.name(Color::White), self.name(Color::Black))
    }

    fn list_moves(&self) {
        let mut moves = legal_moves(self.game.position()).to_vec();
        sort_moves(&mut moves);
        let forced = if moves.iter().any(|m| m.is_capture()) {
            ", a capture is compulsory"
        } else {
            ""
        };
        println!("{} legal moves{forced}: {}", moves.len(), move_list(&moves));
    }

    /// Limits of a search for the person (`hint`, `analyse`): the engine's level, and its
    /// move time (without a clock) or the default move time (a clock is not charged).
    fn advice_limits(&self) -> SearchLimits {
        let movetime = match self.clocks.setting() {
            TimeSetting::MoveTime(mt) => mt,
            TimeSetting::Clock(_) => DEFAULT_MOVETIME_MS,
        };
        let mut limits = SearchLimits {
            movetime: Some(movetime),
            ..Default::default()
        };
        self.level.apply_depth(&mut limits);
        limits
    }

    /// Searches for the person; `None` when the game is over or Ctrl-C stopped it.
    fn advise(&mut self, multipv: usize) -> Result<Vec<SearchInfo>, Flow> {
        if self.ending.is_some() || legal_moves(self.game.position()).is_empty() {
            println!("the game is over: nothing to search");
            return Err(Flow::Continue);
        }
        let mut limits = self.advice_limits();
        limits.multipv = multipv;
        // Advice is the engine's best at its level's depth, not its random choice.
        self.engine.set_strength(Strength::FULL);
        let lines = self.search(&limits).map(|t| t.lines);
        self.engine.set_strength(self.level.strength());
        lines.ok_or(Flow::Leave)
    }

    fn hint(&mut self) -> Flow {
        match self.advise(1) {
            Err(flow) => flow,
            Ok(lines) => {
                if let Some(i) = lines.first()
                    && let Some(m) = i.pv.first()
                {
                    println!(
                        "hint: {m} (depth {}, score {} for {})",
                        i.depth,
                        i.score.human(),
                        side_name(self.game.position().side())
                    );
                }
                Flow::Continue
            }
        }
    }

    fn analyse(&mut self) -> Flow {
        match self.advise(ANALYSE_LINES) {
            Err(flow) => flow,
            Ok(lines) => {
                println!(
                    "{ENGINE}'s view, scores for {} (to move):",
                    side_name(self.game.position().side())
                );
                for i in &lines {
                    let pv = move_list(&i.pv[..i.pv.len().min(ANALYSE_PV)]);
                    println!(
                        "  {}. {:>8}  depth {:>2}  {pv}",
                        i.multipv,
                        i.score.human(),
                        i.depth
                    );
                }
                Flow::Continue
            }
        }
    }

    /// Takes back moves up to and including the person's last one.
    fn undo(&mut self) {
        let start_side = self.game.start().side();
        let mover = |i: usize| {
            if i.is_multiple_of(2) {
                start_side
            } else {
                start_side.opponent()
            }
        };
        let Some(keep) = (0..self.game.moves().len())
            .rev()
            .find(|&i| mover(i) == self.human)
        else {
            println!("nothing to take back");
            return;
        };
        let mut game = Game::new(self.game.start().clone());
        for m in &self.game.moves()[..keep] {
            game.play(*m);
        }
        let taken = move_list(&self.game.moves()[keep..]);
        self.game = game;
        self.moves.truncate(keep);
        self.uncount();
        self.unsaved = true;
        println!("took back {taken}");
        self.show_board();
        self.turn_start = std::time::Instant::now();
    }

    fn new_game(&mut self) -> Flow {
        self.game = Game::new(self.start.clone());
        self.moves.clear();
        self.ending = None;
        self.unsaved = false;
        self.clocks = Clocks::new(self.clocks.setting());
        self.engine.new_game();
        println!("new game: you are {}", side_name(self.human));
        self.begin_turn()
    }

    fn swap(&mut self) -> Flow {
        self.human = self.human.opponent();
        println!(
            "you are {} now, {ENGINE} plays {}",
            side_name(self.human),
            side_name(self.human.opponent())
        );
        self.begin_turn()
    }

    /// Writes the game as PDN to `file`.
    pub(super) fn save(&mut self, file: &str) {
        let mut names = [ENGINE.to_string(), ENGINE.to_string()];
        names[self.human.index()] = "you".to_string();
        names[self.human.opponent().index()] = format!("{ENGINE} level {}", self.level);
        let text = save::pdn_text(&Record {
            game: &self.game,
            moves: &self.moves,
            names,
            ending: self.ending.as_ref(),
        });
        if let Err(e) = save::may_write(file) {
            println!("{e}");
            return;
        }
        match std::fs::write(file, text) {
            Ok(()) => {
                self.unsaved = false;
                println!(
                    "saved the game ({} plies) to {file}",
                    self.game.moves().len()
                );
            }
            Err(e) => println!("cannot write {file}: {e}"),
        }
    }

    fn load(&mut self, arg: &str) -> Flow {
        let game = match save::load(arg) {
            Ok(g) => g,
            Err(e) => {
                println!("{e}");
                return Flow::Continue;
            }
        };
        self.uncount();
        self.moves = save::bare_moves(&game);
        self.human = game.position().side();
        self.game = game;
        self.unsaved = false;
        self.clocks = Clocks::new(self.clocks.setting());
        self.engine.new_game();
        println!(
            "loaded {} plies; you are {}, to move",
            self.moves.len(),
            side_name(self.human)
        );
        // A finished game is shown, not counted.
        if self.check_end(false) {
            return Flow::Continue;
        }
        self.begin_turn()
    }
}
