//! The commands of `bashni play` (everything typed that is not a move).

use super::clock::{Clocks, DEFAULT_MOVETIME_MS};
use super::input::{Command, TimeSetting};
use super::resolve::{move_list, sort_moves};
use super::save::Ending;
use super::save::{self, Record};
use super::{ENGINE, Flow, Played, Player, Session, side_name};
use crate::display::{counted, plies};
use crate::game_text;
use crate::games::kit::color::Color;
use crate::games::{Game, Record as GameOf, Variant};
use crate::record::draw_offer as offer;
use crate::record::game_record::PlayedMove;
use crate::record::result::{GameResult, Termination};
use crate::search::{SearchInfo, SearchLimits, Strength};

/// Lines of `analyse`.
const ANALYSE_LINES: usize = 3;
/// Moves of each `analyse` line shown.
const ANALYSE_PV: usize = 10;

/// The help's first lines, with the game's example moves: a quiet move (c3-d4, written
/// three ways), a capture (c3:e5:g7) and its ends (c3 g7).
fn help_moves(quiet: &str, capture: &str) -> String {
    let spaced = quiet.replace('-', " ");
    let joined = quiet.replace('-', "");
    let from = &quiet[..2];
    let ends = format!("{} {}", &capture[..2], &capture[capture.len() - 2..]);
    format!(
        "Moves: {quiet}, {spaced} or {joined}; captures {capture}, or just the first and last \
         square ({ends})\n  when that names one capture (otherwise the choices are listed: type \
         a number).\n  A square alone ({from}) lists the moves of the piece there."
    )
}

/// The commands, the same in every game (`{dead}` is the most towers, or pieces, each side
/// may have in a dead position).
const HELP: &str = "\
Commands:
  moves            the legal moves
  hint             the best move for you (the full-strength engine's, whatever the level)
  analyse          the engine's best lines in this position (full strength)
  undo             take back your last move and the engine's reply (not after a flag fell)
  redo             play again what undo took back
  resign           give the game up
  draw             offer a draw: accepted in a dead position (at most {dead} each) when
                   the engine's score is within 0.25 of even
  new              a new game (same side, same start position)
  swap             change sides with the engine
  level N          playing level 0 to 20 (20 = full strength)
  time [TC]        show the clocks; time 5:00+2 sets a clock, time movetime 500 a move time
  flip             turn the board around (your side starts at the bottom)
  board            draw the board again
  fen              the position as FEN
  save FILE        save the game as PDN
  load FILE|FEN    load a PDN game (its first game) or a position; you take the side to move
                   (a PDN of another game, by its GameType, switches to that game)
  quit             leave (Ctrl-C and end of input leave too)";

/// How the levels play.
const LEVELS: &str = "\
Below 20 the engine looks fewer plies ahead and picks among its best moves, the better ones
more often; docs/measurements.md gives each level's Elo.";

/// How the levels play in a game other than Bashni.
const LEVELS_ELSEWHERE: &str = "\
Below 20 the engine looks fewer plies ahead and picks among its best moves, the better ones
more often, the same way in every game; docs/measurements.md gives each level's Elo, measured
in Bashni.";

impl<G: Game> Session<G> {
    /// The help text of game `G`.
    fn help(&self) -> String {
        let (quiet, capture) = game_text::example_moves(G::VARIANT);
        let levels = match G::VARIANT {
            Variant::Bashni => LEVELS,
            _ => LEVELS_ELSEWHERE,
        };
        let dead = format!(
            "{} {}s",
            offer::DEAD_MAX_TOWERS,
            game_text::piece_word(G::VARIANT)
        );
        format!(
            "{}\n{}\n{}\n{levels}",
            help_moves(quiet, capture),
            HELP.replace("{dead}", &dead),
            game_text::legend(G::VARIANT)
        )
    }

    /// Runs a command.
    pub(super) fn command(&mut self, c: Command) -> Flow {
        match c {
            Command::Help => println!("{}", self.help()),
            Command::Moves => self.list_moves(),
            Command::Hint => return self.hint(),
            Command::Analyse => return self.analyse(),
            Command::Undo => self.undo(),
            Command::Redo => return self.redo(),
            Command::Resign => self.resign(),
            Command::Draw => return self.offer_draw(),
            Command::New => return self.new_game(),
            Command::Swap => return self.swap(),
            Command::Level(l) => {
                self.level = l;
                self.engine.set_strength(l.strength());
                println!("{}", l.describe(G::VARIANT));
            }
            Command::Time(None) => println!("{}", self.clock_text()),
            Command::Time(Some(setting)) => {
                // From this moment: both clocks full, the person's running from now.
                self.clocks.reset(setting);
                println!("{}", self.clock_text());
            }
            Command::Flip => {
                self.flip = !self.flip;
                self.show_board();
            }
            Command::Board => self.show_board(),
            Command::Fen => println!("{}", self.game.position().to_fen()),
            Command::Save(file) => self.save(&file),
            Command::Load(arg) => return self.load(&arg),
            Command::Quit => return Flow::Leave,
        }
        Flow::Continue
    }

    fn list_moves(&self) {
        let mut moves = self.game.position().legal_moves().to_vec();
        sort_moves(&mut moves);
        let forced = if moves.iter().any(G::is_capture) {
            ", a capture is compulsory"
        } else {
            ""
        };
        let n = counted(moves.len() as u64, "legal move", "legal moves");
        println!("{n}{forced}: {}", move_list(&moves));
    }

    /// Limits of a search for the person (`hint`, `analyse`, a draw offer): the engine's
    /// move time (without a clock) or the default move time (a clock is not charged), at
    /// full depth whatever the level: advice is not the opponent.
    fn advice_limits(&self) -> SearchLimits<G::Move> {
        let movetime = match self.clocks.setting() {
            TimeSetting::MoveTime(mt) => mt,
            TimeSetting::Clock(_) => DEFAULT_MOVETIME_MS,
        };
        SearchLimits {
            movetime: Some(movetime),
            ..Default::default()
        }
    }

    /// Searches for the person; `None` when the game is over or Ctrl-C stopped it.
    fn advise(&mut self, multipv: usize) -> Result<Vec<SearchInfo<G::Move>>, Flow> {
        if self.ending.is_some() || !self.game.position().has_legal_move() {
            println!("the game is over: nothing to search");
            return Err(Flow::Continue);
        }
        let mut limits = self.advice_limits();
        limits.multipv = multipv;
        // Advice is the full engine's best, not a weaker level's depth or random choice.
        self.engine.set_strength(Strength::FULL);
        let lines = self.search(&limits).map(|t| t.lines);
        self.engine.set_strength(self.level.strength());
        let lines = lines.ok_or(Flow::Leave)?;
        // The person's clock ran out while the engine advised: the flag falls, no advice.
        if self
            .clocks
            .deadline()
            .is_some_and(|d| d <= std::time::Instant::now())
        {
            return Err(Flow::Continue);
        }
        Ok(lines)
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
                        side_name(self.game.position().side_to_move())
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
                    side_name(self.game.position().side_to_move())
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

    /// Takes back moves up to and including the person's last one (not after a flag fell);
    /// the person's clock does not stop for it.
    fn undo(&mut self) {
        if let Some(why) = self.undo_refused() {
            println!("{why}");
            return;
        }
        let Some(keep) = self.moves.iter().rposition(|p| p.by == Player::You) else {
            println!("nothing to take back");
            return;
        };
        let taken = self.moves.split_off(keep);
        let mut game = GameOf::new(self.game.start().clone());
        for p in &self.moves {
            game.play(p.mv);
        }
        let texts: Vec<G::Move> = taken.iter().map(|p| p.mv).collect();
        self.redo.push(taken);
        self.game = game;
        self.uncount();
        self.unsaved = true;
        println!("took back {}", move_list(&texts));
        let to_move = self.game.position().side_to_move();
        self.clocks.resume(to_move);
        self.show_board();
    }

    /// Plays again the moves the last `undo` took back.
    fn redo(&mut self) -> Flow {
        if !self.may_move() {
            return Flow::Continue;
        }
        let Some(group) = self.redo.pop() else {
            println!("nothing to redo");
            return Flow::Continue;
        };
        let texts: Vec<G::Move> = group.iter().map(|p| p.mv).collect();
        for p in group {
            self.replay(p);
        }
        println!("played again {}", move_list(&texts));
        if self.check_end(true) {
            return Flow::Continue;
        }
        self.begin_turn()
    }

    /// The person gives the game up.
    fn resign(&mut self) {
        if !self.may_move() {
            return;
        }
        self.finish(
            Ending {
                result: GameResult::win_for(self.human.opponent()),
                termination: Termination::Resignation,
            },
            true,
        );
    }

    /// The person offers a draw: the engine accepts in a dead position when its
    /// full-strength score is near even (see `offer`).
    fn offer_draw(&mut self) -> Flow {
        if !self.may_move() {
            return Flow::Continue;
        }
        if let Err(why) = offer::is_dead(self.game.position(), game_text::piece_word(G::VARIANT)) {
            println!("{ENGINE} declines the draw: {why}");
            return Flow::Continue;
        }
        let lines = match self.advise(1) {
            Ok(lines) => lines,
            Err(flow) => return flow,
        };
        let Some(line) = lines.first() else {
            return Flow::Continue;
        };
        // The search scored the position for the side to move: the person.
        match offer::answer(offer::negated(line.score)) {
            Ok(()) => {
                println!("{ENGINE} accepts the draw");
                self.finish(
                    Ending {
                        result: GameResult::Draw,
                        termination: Termination::DrawAgreement,
                    },
                    true,
                );
            }
            Err(why) => println!("{ENGINE} declines the draw: {why}"),
        }
        Flow::Continue
    }

    fn new_game(&mut self) -> Flow {
        self.game = GameOf::new(self.start.clone());
        self.moves.clear();
        self.redo.clear();
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
        let moves: Vec<PlayedMove> = self.moves.iter().map(|p| p.record.clone()).collect();
        let text = save::pdn_text(&Record {
            game: &self.game,
            moves: &moves,
            names: [self.names_of(Color::White), self.names_of(Color::Black)],
            ending: self.ending.as_ref(),
        });
        if let Err(e) = save::may_write(file) {
            println!("{e}");
            return;
        }
        match crate::files::replace(std::path::Path::new(file), text.as_bytes()) {
            Ok(()) => {
                self.unsaved = false;
                println!(
                    "saved the game ({}) to {file}",
                    plies(self.game.moves().len() as u64)
                );
            }
            Err(e) => println!("cannot write {file}: {e}"),
        }
    }

    /// `load` of a PDN file of game `v`: the session goes on in that game, if the file loads
    /// there (else it says why, and this game stays as it was).
    fn switch_to(&mut self, v: Variant, file: &str) -> Flow {
        let loads = crate::for_variant!(v, H => save::load::<H>(file).map(|_| ()).map_err(|e| e.to_string()));
        if let Err(e) = loads {
            println!("{e}");
            return Flow::Continue;
        }
        println!(
            "switching to {}: {file} is a game of it (as bashni play --variant {v})",
            game_text::game_name(v)
        );
        self.uncount();
        Flow::Switch(v, file.to_string())
    }

    /// Who played `c` in this game, in order (`you, then bashni level 5` when sides were
    /// swapped on the way); who plays it now when it has not moved yet.
    fn names_of(&self, c: Color) -> String {
        let start = self.game.start().side_to_move();
        let mut names: Vec<String> = Vec::new();
        for (i, p) in self.moves.iter().enumerate() {
            let mover = if i % 2 == 0 { start } else { start.opponent() };
            let name = p.by.name();
            if mover == c && names.last() != Some(&name) {
                names.push(name);
            }
        }
        if names.is_empty() {
            names.push(self.player(c).name());
        }
        names.join(", then ")
    }

    pub(super) fn load(&mut self, arg: &str) -> Flow {
        let game = match save::load::<G>(arg) {
            Ok(g) => g,
            Err(save::LoadError::OtherGame(_, v)) => return self.switch_to(v, arg),
            Err(e) => {
                println!("{e}");
                return Flow::Continue;
            }
        };
        self.uncount();
        self.human = game.position().side_to_move();
        // The side the person plays now at the bottom (turned around with --flip).
        self.flip = self.turned != (self.human == Color::Black);
        // Who played a loaded game is not known: its moves go to who plays each side now.
        let start = game.start().side_to_move();
        self.moves = save::bare_moves(&game)
            .into_iter()
            .zip(game.moves())
            .enumerate()
            .map(|(i, (record, &mv))| {
                let mover = if i % 2 == 0 { start } else { start.opponent() };
                Played {
                    mv,
                    record,
                    by: self.player(mover),
                }
            })
            .collect();
        self.redo.clear();
        self.game = game;
        self.unsaved = false;
        self.clocks = Clocks::new(self.clocks.setting());
        self.engine.new_game();
        println!(
            "loaded {}; you are {}, to move",
            plies(self.moves.len() as u64),
            side_name(self.human)
        );
        // A finished game is shown, not counted.
        if self.check_end(false) {
            return Flow::Continue;
        }
        self.begin_turn()
    }
}
