//! One self-play game for training data, a pure function of its settings and its index.

use super::format::{GameResult, format_game_end, format_sample};
use crate::games::kit::color::Color;
use crate::games::{Game, Outcome, Record};
use crate::record::openings::{Opening, is_balanced, random_playout_from};
use crate::search::egdb::TB_BOUND_CP;
use crate::search::{Engine, Score, SearchControl, SearchLimits};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;

/// How each game is played: the same for every game of a run (`M`: the game's move type).
#[derive(Clone, Debug)]
pub struct GameSettings<M = crate::games::bashni::Move> {
    /// The run's seed; each game's own seed is derived from it and the game's index.
    pub seed: u64,
    /// Openings to start from (one drawn per game), random plies added; empty: the initial
    /// position.
    pub book: std::sync::Arc<Vec<Opening>>,
    /// Random plies after the book opening before the engine plays.
    pub opening_plies: u32,
    /// Depth of the search that keeps only balanced openings.
    pub filter_depth: u32,
    /// Largest score (centi-men) of a kept opening.
    pub max_opening_score: i32,
    /// Engine plies after the opening that are played but not recorded.
    pub skip_plies: u32,
    /// The search of every move.
    pub limits: SearchLimits<M>,
    /// A game this long (in plies) is stopped and scored a draw.
    pub max_plies: u32,
    /// Chance, in percent, that an engine ply is replaced by a random legal move (the searched
    /// position is still written): games that leave self-play's well-trodden paths, so that a
    /// network also sees the lopsided positions a weak opponent reaches.
    pub random_move_percent: u32,
}

impl<M> GameSettings<M> {
    /// The most positions one game writes: at most one per engine ply, none in the first
    /// `skip_plies`, and a game is stopped after `max_plies` (see [`play_game`]). `datagen
    /// --resume` removes no longer tail than this.
    pub fn max_samples(&self) -> u64 {
        u64::from(self.max_plies.saturating_sub(self.skip_plies))
    }
}

/// A finished game: its data lines (the last one ends the game) and how many positions.
#[derive(Debug)]
pub struct GameRecord {
    /// Sample lines and the closing `# game` line, in order.
    pub lines: Vec<String>,
    /// Number of sample lines.
    pub positions: usize,
}

/// Tries per game to draw a balanced opening before giving up on balance.
const OPENING_TRIES: usize = 200;

/// Salt of the random-move stream's seed.
const RANDOM_MOVE_SALT: u64 = 0x5241_4e44_4f4d_4d56;

/// A 64-bit mix (SplitMix64's finaliser): neighbouring game indices get unrelated seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Game `index`'s opening: a book opening and random plies, both drawn from the game's own
/// seed, redrawn until balanced.
fn opening<G: Game>(
    settings: &GameSettings<G::Move>,
    index: u64,
    engine: &mut Engine,
) -> Record<G> {
    let mut rng = StdRng::seed_from_u64(mix(settings.seed ^ mix(index)));
    let mut last = None;
    for _ in 0..OPENING_TRIES {
        let start = match settings.book.len() {
            0 => Record::new(G::startpos()),
            n => settings.book[rng.random_range(0..n)].game::<G>(),
        };
        if let Some((game, _)) = random_playout_from(&mut rng, start, settings.opening_plies) {
            if is_balanced(
                engine,
                &game,
                settings.filter_depth,
                settings.max_opening_score,
            ) {
                return game;
            }
            last = Some(game);
        }
    }
    last.unwrap_or_else(|| Record::new(G::startpos()))
}

/// A score from the side to move's view as centi-men from White's.
fn white_view(cp: i32, side: Color) -> i32 {
    if side == Color::White { cp } else { -cp }
}

/// The result a search's score proves for the game, `side` to move: a win or loss the search
/// saw to the end, or one the endgame databases know (`datagen --egdb`); `None` for a score
/// in centi-men.
fn proven(score: Score, side: Color) -> Option<GameResult> {
    let side_wins = match score {
        Score::WinIn(_) => true,
        Score::LossIn(_) => false,
        Score::Cp(cp) if cp.abs() > TB_BOUND_CP => cp > 0,
        Score::Cp(_) => return None,
    };
    Some(if side_wins == (side == Color::White) {
        GameResult::WhiteWin
    } else {
        GameResult::BlackWin
    })
}

/// Plays game `index` of game `G` with `engine` (whose table is cleared first, so the game
/// does not depend on what the engine searched before).
pub fn play_game<G: Game>(
    settings: &GameSettings<G::Move>,
    index: u64,
    engine: &mut Engine,
) -> GameRecord {
    let mut game = opening::<G>(settings, index, engine);
    // Its own stream, so that the openings stay those of runs without random moves.
    let mut random_moves =
        StdRng::seed_from_u64(mix(mix(settings.seed ^ RANDOM_MOVE_SALT) ^ index));
    let start_ply = game.moves().len() as u32;
    engine.new_game();
    let mut seen = HashSet::new();
    // (FEN, White-view score) of each kept position; the result is known only at the end.
    let mut kept: Vec<(String, i32)> = Vec::new();
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome {
                Outcome::NoLegalMove(Color::White) | Outcome::KingAgainstMan(Color::White) => {
                    GameResult::WhiteWin
                }
                Outcome::NoLegalMove(Color::Black) | Outcome::KingAgainstMan(Color::Black) => {
                    GameResult::BlackWin
                }
                Outcome::Repetition | Outcome::ClockRule => GameResult::Draw,
            };
        }
        let ply = game.moves().len() as u32;
        if ply - start_ply >= settings.max_plies {
            break GameResult::Draw;
        }
        let pos = game.position().clone();
        let found = engine.search(
            &pos,
            game.history(),
            &settings.limits,
            &SearchControl::new(false),
            &mut |_| {},
        );
        let Some(best) = found.best else {
            // Cannot happen: the game is not over, so there is a legal move.
            break GameResult::Draw;
        };
        if let Some(result) = proven(found.score, pos.side_to_move()) {
            break result;
        }
        if let Score::Cp(cp) = found.score {
            let quiet = !pos.can_capture();
            if quiet && ply - start_ply >= settings.skip_plies && seen.insert(pos.hash()) {
                // The data keeps the evaluation's internal units (the trainer's).
                let internal = Score::Cp(cp).to_internal(G::MAN);
                kept.push((pos.to_fen(), white_view(internal, pos.side_to_move())));
            }
        }
        if settings.random_move_percent > random_moves.random_range(0..100) {
            let legal = pos.legal_moves();
            game.play(legal[random_moves.random_range(0..legal.len())]);
        } else {
            game.play(best);
        }
    };
    let positions = kept.len();
    let mut lines: Vec<String> = kept
        .into_iter()
        .map(|(fen, score)| format_sample(&fen, score, result))
        .collect();
    lines.push(format_game_end(
        index,
        result,
        game.moves().len(),
        G::VARIANT,
    ));
    GameRecord { lines, positions }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::format::parse_sample;

    fn settings<G: Game>() -> GameSettings<G::Move> {
        GameSettings {
            seed: 5,
            book: std::sync::Arc::new(crate::record::openings::book::<G>()),
            opening_plies: 2,
            filter_depth: 2,
            max_opening_score: 80,
            skip_plies: 0,
            limits: SearchLimits {
                depth: Some(2),
                ..Default::default()
            },
            max_plies: 300,
            random_move_percent: 0,
        }
    }

    /// Wins the search saw to the end and wins the databases know end a game, each for the
    /// side it names; a score in centi-men, however large, does not.
    #[test]
    fn a_proven_score_ends_the_game_with_its_winner() {
        use crate::search::egdb::TB_WIN_CP;
        let (w, b) = (Color::White, Color::Black);
        assert_eq!(proven(Score::WinIn(3), w), Some(GameResult::WhiteWin));
        assert_eq!(proven(Score::WinIn(3), b), Some(GameResult::BlackWin));
        assert_eq!(proven(Score::LossIn(2), w), Some(GameResult::BlackWin));
        assert_eq!(proven(Score::LossIn(2), b), Some(GameResult::WhiteWin));
        let tb_win = Score::Cp(TB_WIN_CP - 40);
        assert_eq!(proven(tb_win, w), Some(GameResult::WhiteWin));
        assert_eq!(proven(tb_win, b), Some(GameResult::BlackWin));
        assert_eq!(
            proven(Score::Cp(-(TB_WIN_CP - 40)), w),
            Some(GameResult::BlackWin)
        );
        for cp in [0, 250, -900, TB_BOUND_CP, -TB_BOUND_CP] {
            assert_eq!(proven(Score::Cp(cp), w), None, "{cp}");
        }
    }

    fn a_game_is_a_function_of_its_index<G: Game>() {
        let s = settings::<G>();
        let mut e1 = Engine::new();
        let mut e2 = Engine::new();
        let a = play_game::<G>(&s, 3, &mut e1);
        // A different game in between must not change game 3.
        let _ = play_game::<G>(&s, 4, &mut e2);
        let b = play_game::<G>(&s, 3, &mut e2);
        assert_eq!(a.lines, b.lines);
        assert!(a.positions > 0);
        assert_eq!(a.lines.len(), a.positions + 1);
        for line in &a.lines[..a.positions] {
            let sample = parse_sample::<G>(line).unwrap().unwrap();
            assert!(!sample.position.can_capture(), "not quiet: {line}");
            assert_eq!(
                G::from_fen(&sample.position.to_fen()).unwrap().hash(),
                sample.position.hash()
            );
        }
    }

    #[test]
    fn a_bashni_game_is_a_function_of_its_index() {
        a_game_is_a_function_of_its_index::<crate::games::bashni::Position>();
    }

    #[test]
    fn a_turkish_game_is_a_function_of_its_index() {
        a_game_is_a_function_of_its_index::<crate::games::turkish::Position>();
    }

    #[test]
    fn a_russian_game_is_a_function_of_its_index() {
        a_game_is_a_function_of_its_index::<crate::games::russian::Position>();
    }

    /// Random moves change the game, yet it stays a function of its index and starts from
    /// the same opening as without them.
    #[test]
    fn random_moves_keep_a_game_a_function_of_its_index() {
        type G = crate::games::bashni::Position;
        let plain = settings::<G>();
        let random = GameSettings {
            random_move_percent: 50,
            ..plain.clone()
        };
        let mut e = Engine::new();
        let a = play_game::<G>(&random, 3, &mut e);
        let b = play_game::<G>(&random, 3, &mut e);
        let c = play_game::<G>(&plain, 3, &mut e);
        assert_eq!(a.lines, b.lines);
        assert_ne!(a.lines, c.lines);
        // A game stopped by its length writes no more than max_samples positions.
        let short = GameSettings {
            max_plies: 9,
            skip_plies: 2,
            ..random.clone()
        };
        let d = play_game::<G>(&short, 3, &mut e);
        assert_eq!(short.max_samples(), 7);
        assert!(d.positions as u64 <= short.max_samples(), "{}", d.positions);
        // The random moves have their own stream: the openings are those of a plain run.
        let opening = opening::<G>(&plain, 3, &mut e);
        assert_eq!(
            opening.moves(),
            super::opening::<G>(&random, 3, &mut e).moves()
        );
    }
}
