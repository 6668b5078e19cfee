//! What a parsed `go` means in the current game: whether only `stop` ends it, and the
//! search limits it gives (`searchmoves` resolved, a clock given for one side only lent to
//! the other). Parsing itself is in [`super::command`].

use super::command::{GameInputError, GoArgs};
use crate::games::kit::color::Color;
use crate::games::{Game, Record};
use crate::search::SearchLimits;

impl GoArgs {
    /// Whether the search runs until `stop`: `infinite`, or no depth, node, mate, time or
    /// clock limit at all (a bare `go`).
    pub fn until_stop(&self) -> bool {
        let l = &self.limits;
        l.infinite
            || (l.depth.is_none()
                && l.nodes.is_none()
                && l.mate.is_none()
                && l.movetime.is_none()
                && l.wtime.is_none()
                && l.btime.is_none())
    }

    /// Whether only `stop` is sure to end the search: one that runs [until
    /// `stop`](Self::until_stop), or a `go mate` with no depth, node, time or clock limit
    /// (it ends by itself only if it proves a short enough win). End of input stops it.
    pub fn needs_stop(&self) -> bool {
        let l = &self.limits;
        self.until_stop()
            || (l.depth.is_none()
                && l.nodes.is_none()
                && l.movetime.is_none()
                && l.wtime.is_none()
                && l.btime.is_none())
    }

    /// The search's limits in the position of `game` (`searchmoves` resolved there) with
    /// `multipv` lines; an unlimited `go` searches until `stop`.
    pub fn to_limits<G: Game>(
        &self,
        game: &Record<G>,
        multipv: usize,
    ) -> Result<SearchLimits<G::Move>, GameInputError<G>> {
        let l = &self.limits;
        let mut limits = SearchLimits {
            depth: l.depth,
            nodes: l.nodes,
            movetime: l.movetime,
            wtime: l.wtime,
            btime: l.btime,
            winc: l.winc,
            binc: l.binc,
            movestogo: l.movestogo,
            infinite: self.until_stop(),
            searchmoves: self.search_moves(game)?,
            multipv,
            mate: l.mate,
        };
        if let Some(side) = self.borrowed_clock(game) {
            let l = &mut limits;
            let (time, inc) = match side {
                Color::White => (l.wtime, l.winc),
                Color::Black => (l.btime, l.binc),
            };
            (l.wtime, l.btime, l.winc, l.binc) = (time, time, inc, inc);
        }
        Ok(limits)
    }

    /// The side whose clock stands in for the side to move's, when `go` gave a clock
    /// (`wtime`/`btime`) for the other side only: a search with a clock must end by itself,
    /// so the given clock (and its increment) is used for both sides.
    pub fn borrowed_clock<G: Game>(&self, game: &Record<G>) -> Option<Color> {
        let l = &self.limits;
        if l.infinite || l.movetime.is_some() {
            return None;
        }
        match (game.position().side_to_move(), l.wtime, l.btime) {
            (Color::Black, Some(_), None) => Some(Color::White),
            (Color::White, None, Some(_)) => Some(Color::Black),
            _ => None,
        }
    }

    /// Resolves `searchmoves` against the position of `game`.
    fn search_moves<G: Game>(&self, game: &Record<G>) -> Result<Vec<G::Move>, GameInputError<G>> {
        self.searchmoves
            .iter()
            .map(|t| (game.position().parse_move(t)).map_err(GameInputError::BadSearchMove))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::game::Game;
    use crate::games::bashni::notation::START_FEN;
    use crate::games::turkish;
    use crate::protocol::command::tests::go;

    #[test]
    fn a_clock_for_the_other_side_only_is_used_for_both() {
        let black = Game::from_fen_and_moves(START_FEN, &["c3-d4"]).unwrap();
        let white = Game::from_fen_and_moves(START_FEN, &[] as &[&str]).unwrap();
        let g = go("go wtime 1000 winc 10");
        assert_eq!(g.borrowed_clock(&black), Some(Color::White));
        let l = g.to_limits(&black, 1).unwrap();
        assert_eq!(
            (l.btime, l.binc, l.wtime),
            (Some(1000), Some(10), Some(1000))
        );
        assert!(!l.infinite);
        assert_eq!(g.borrowed_clock(&white), None);
        assert_eq!(g.to_limits(&white, 1).unwrap().btime, None);
        let l = go("go btime 500").to_limits(&white, 1).unwrap();
        assert_eq!((l.wtime, l.winc), (Some(500), None));
        // A clock for both, `movetime` or `infinite`: nothing is borrowed.
        for line in [
            "go wtime 9 btime 8",
            "go wtime 9 movetime 5",
            "go wtime 9 infinite",
        ] {
            assert_eq!(go(line).borrowed_clock(&black), None, "{line}");
        }
    }

    #[test]
    fn searchmoves_are_read_in_the_game_searched() {
        let turkish = Record::new(turkish::Position::startpos());
        let g = go("go depth 3 searchmoves d3-d4 a3-a4");
        let l = g.to_limits(&turkish, 2).unwrap();
        assert_eq!(l.searchmoves.len(), 2);
        assert_eq!(l.searchmoves[0].to_string(), "d3-d4");
        assert_eq!((l.depth, l.multipv), (Some(3), 2));
        let e = go("go searchmoves c3-d4")
            .to_limits(&turkish, 1)
            .unwrap_err();
        assert!(e.to_string().starts_with("go: searchmoves: "), "{e}");
    }
}
