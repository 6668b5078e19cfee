//! The clocks of a session as the person sees them, and flags that fall: a side loses on
//! time the moment its clock runs out, whether it is the person waiting to type a move or
//! the engine thinking (its search is stopped then, and the move it had not played yet
//! does not count).

use super::clock::Flag;
use super::save::Ending;
use super::{Session, side_name};
use crate::games::Game;
use crate::games::kit::color::Color;
use crate::record::result::{GameResult, Termination};

impl<G: Game> Session<G> {
    /// The clocks as they stand now (the running one counted down to this moment), or the
    /// engine's time per move: what `time` and the board both show.
    pub(super) fn clock_text(&self) -> String {
        self.clocks
            .now()
            .describe(self.name(Color::White), self.name(Color::Black))
    }

    /// The running clock's time is up (the person did not move in time): the game ends.
    pub(super) fn flag_fell(&mut self) {
        let Some(side) = self.clocks.running() else {
            return;
        };
        if let Some(flag) = self.clocks.flag_fallen() {
            self.lose_on_time(side, flag);
        }
    }

    /// `side` loses on time.
    pub(super) fn lose_on_time(&mut self, side: Color, flag: Flag) {
        self.finish(
            Ending {
                result: GameResult::win_for(side.opponent()),
                termination: flag.termination(),
            },
            true,
        );
    }

    /// Why `undo` is refused: a flag has fallen. A game lost on time stays lost, as on a
    /// game server (no take-back once the game is over), since the time spent cannot be
    /// given back; after the other endings `undo` takes back moves as during the game.
    pub(super) fn undo_refused(&self) -> Option<String> {
        let e = self.ending.as_ref()?;
        let Termination::TimeForfeit(..) = e.termination else {
            return None;
        };
        let loser = match e.result {
            GameResult::WhiteWins => Color::Black,
            _ => Color::White,
        };
        Some(format!(
            "undo: the game was lost on time ({}'s flag fell); type new or load to play on",
            side_name(loser)
        ))
    }
}
