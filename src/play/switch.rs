//! One `bashni play` session across games: `load` of a PDN of another game (its `GameType`
//! names it) ends the session of this game and starts one of that game, as the web page
//! does, with the same engine, standard input, level, time setting, board side and score.

use super::clock::Clocks;
use super::input::TimeSetting;
use super::level::Level;
use super::players::Tally;
use super::think::Inbox;
use super::{Io, Session};
use crate::games::kit::color::Color;
use crate::games::{Game, Record, Variant};
use crate::search::Engine;

/// What a session of one game hands to the next.
pub(super) struct Carry {
    pub engine: Engine,
    pub inbox: Inbox,
    pub io: Io,
    pub human: Color,
    pub level: Level,
    pub time: TimeSetting,
    pub flip: bool,
    pub turned: bool,
    pub tally: Tally,
}

/// How a session of one game ended: the program's exit code, or a switch to game
/// `Variant` whose PDN file is to be loaded.
pub(super) enum Ended {
    Exit(i32),
    Switch(Box<Carry>, Variant, String),
}

impl<G: Game> Session<G> {
    /// A session of game `G` from `start`, with what an earlier one (or the command line)
    /// gives it.
    pub(super) fn new(c: Carry, start: G) -> Session<G> {
        Session {
            engine: c.engine,
            inbox: c.inbox,
            io: c.io,
            game: Record::new(start.clone()),
            start,
            moves: Vec::new(),
            redo: Vec::new(),
            human: c.human,
            level: c.level,
            clocks: Clocks::new(c.time),
            flip: c.flip,
            turned: c.turned,
            choices: Vec::new(),
            ending: None,
            tally: c.tally,
            unsaved: false,
        }
    }

    fn into_carry(self) -> Carry {
        Carry {
            engine: self.engine,
            inbox: self.inbox,
            io: self.io,
            human: self.human,
            level: self.level,
            time: self.clocks.setting(),
            flip: self.flip,
            turned: self.turned,
            tally: self.tally,
        }
    }
}

/// Runs a session of game `G` from `start`; with `load`, it begins by loading that PDN file
/// (a switch from another game) instead of greeting.
fn run_one<G: Game>(c: Carry, start: G, load: Option<String>) -> Ended {
    let mut session = Session::new(c, start);
    match session.play(load) {
        Ok(code) => Ended::Exit(code),
        Err((v, file)) => Ended::Switch(Box::new(session.into_carry()), v, file),
    }
}

/// Runs `bashni play` from a session of game `G`, then of whatever games `load` switches to;
/// returns the exit code.
pub(super) fn run_games<G: Game>(c: Carry, start: G) -> i32 {
    let mut ended = run_one(c, start, None);
    loop {
        match ended {
            Ended::Exit(code) => return code,
            Ended::Switch(c, v, file) => {
                ended = crate::for_variant!(v, H => run_one::<H>(*c, H::startpos(), Some(file)));
            }
        }
    }
}
