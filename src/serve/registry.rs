//! The open games: created on request up to `--max-games` (each with its engine process),
//! found by id, and ended by the reaper when no page has watched them for
//! [`UNWATCHED_LIMIT`] (a new game: [`FIRST_WATCH_LIMIT`]) or when a clock runs out.

use super::clocks::Retired;
use super::engine_worker::{Backend, EngineHandle, EngineSetup};
use super::error::{ApiError, ErrorKind, quote};
use super::json::{self, Value};
use super::session::{Caps, Session, lock};
use super::settings::{NewGame, parse_new_game};
use crate::display::counted;
use crate::games::Variant;
use crate::platform::Instant;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A game whose page has had no open event stream this long is ended and its engine quit.
pub const UNWATCHED_LIMIT: Duration = Duration::from_secs(5);

/// A new game no page has watched yet is ended after this long: longer than
/// [`UNWATCHED_LIMIT`], since a page opens its stream only once its request to create the
/// game is answered, and a busy machine may take seconds between the two. It holds a slot
/// of `--max-games` meanwhile, as any game does.
pub const FIRST_WATCH_LIMIT: Duration = Duration::from_secs(60);

/// Most closed games whose clocks are kept for a game opened in their place.
pub const RETIRED_KEPT: usize = 256;

/// How long a closed game's clocks are kept.
pub const RETIRED_FOR: Duration = Duration::from_secs(24 * 3600);

/// How often the reaper looks at every game.
pub const REAP_EVERY: Duration = Duration::from_millis(250);

/// Most games at once, unless `bashni serve --max-games` says otherwise.
pub const DEFAULT_MAX_GAMES: u64 = 8;
/// Longest engine move or hint, seconds, unless `--max-think` says otherwise.
pub const DEFAULT_MAX_THINK_S: u64 = 30;
/// Longest analysis of one position, seconds, unless `--max-analysis` says otherwise.
pub const DEFAULT_MAX_ANALYSIS_S: u64 = 600;

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most games (engine processes) at once.
    pub max_games: usize,
    /// Longest engine move or hint, and longest analysis.
    pub caps: Caps,
}

fn not_found(id: &str) -> ApiError {
    ApiError::new(
        ErrorKind::NotFound,
        format!(
            "no game '{}' (it ended, was closed, or never existed)",
            quote(id)
        ),
    )
}

/// A shared game.
pub type SharedSession = Arc<Mutex<Session>>;

/// All open games.
pub struct Registry {
    games: Mutex<HashMap<String, SharedSession>>,
    /// Games open or being opened (a slot is taken before the engine starts).
    slots: AtomicUsize,
    /// Where the games' engines run.
    backend: Arc<dyn Backend>,
    /// Games opened since the start.
    opened: AtomicUsize,
    /// The clocks of closed clock games, by id, for the game a reloaded page opens in their
    /// place (`resume`).
    retired: Mutex<HashMap<String, Retired>>,
    /// The limits.
    pub limits: Limits,
    /// The endgame databases every engine of their games is given (`--egdb`).
    egdb: Option<EngineTables>,
}

/// The endgame databases' folder (`--egdb`, absolute) and the games it has tables for: only
/// their engines are given it (an engine maps every table and reads it through once for its
/// checksum when it opens the folder).
#[derive(Clone, Debug)]
pub struct EngineTables {
    /// The folder.
    pub dir: PathBuf,
    /// The games with tables (of Russian, Brazilian and Turkish draughts).
    pub games: Vec<Variant>,
}

/// Gives a slot back when a game could not be opened.
struct Slot<'a>(&'a AtomicUsize, bool);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        if !self.1 {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl Registry {
    /// No games yet; each game's engine runs on `backend`, and that of each of `egdb`'s
    /// games is given its folder.
    pub fn new(limits: Limits, egdb: Option<EngineTables>, backend: Arc<dyn Backend>) -> Registry {
        Registry {
            games: Mutex::new(HashMap::new()),
            slots: AtomicUsize::new(0),
            backend,
            opened: AtomicUsize::new(0),
            retired: Mutex::new(HashMap::new()),
            limits,
            egdb,
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, SharedSession>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A slot for a new game. When every slot is taken, the game abandoned longest (every
    /// page that watched it gone, and none back within [`UNWATCHED_LIMIT`] yet) is closed for
    /// it: a page no longer closes its game when it goes away (a reload, or another tab of
    /// the same game, takes it up again), and a game nobody shows must not keep a new one out.
    fn take_slot(&self) -> Result<Slot<'_>, ApiError> {
        let max = self.limits.max_games;
        let take = || {
            self.slots
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n < max).then_some(n + 1)
                })
                .is_ok()
        };
        let taken = take() || (self.close_abandoned() && take());
        if !taken {
            return Err(ApiError::new(
                ErrorKind::Busy,
                format!(
                    "the server is busy: {} open (its --max-games); \
                         close a tab or try again in a few seconds",
                    counted(max as u64, "game is", "games are")
                ),
            ));
        }
        Ok(Slot(&self.slots, false))
    }

    /// Closes the game abandoned longest, if any is; true if one was.
    fn close_abandoned(&self) -> bool {
        let now = Instant::now();
        let games: Vec<(String, SharedSession)> = self
            .map()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let oldest = games
            .into_iter()
            .filter_map(|(id, s)| lock(&s).subscribers.abandoned_for(now).map(|d| (d, id)))
            .max();
        oldest.is_some_and(|(_, id)| self.remove(&id).is_ok())
    }

    fn retired(&self) -> std::sync::MutexGuard<'_, HashMap<String, Retired>> {
        self.retired.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Keeps a closed game's clocks (the oldest are dropped past [`RETIRED_KEPT`] or
    /// [`RETIRED_FOR`]): a game opened with `"resume": id` goes on with them. The browser's
    /// back end gives it the clocks its storage kept over a reload.
    pub fn keep_retired(&self, id: &str, r: Retired) {
        let mut kept = self.retired();
        let now = r.at;
        kept.retain(|_, old| now.saturating_duration_since(old.at) < RETIRED_FOR);
        while kept.len() >= RETIRED_KEPT {
            let oldest = kept
                .iter()
                .min_by_key(|(_, o)| o.at)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => kept.remove(&k),
                None => break,
            };
        }
        kept.insert(id.to_string(), r);
    }

    /// The clocks of game `resume` (a body's `"resume"`): the game is closed first if it
    /// is still open, its event streams told that game `new_id` takes its place.
    fn take_retired(
        &self,
        body: &Value,
        new_id: &str,
    ) -> Result<Option<(String, Retired)>, ApiError> {
        let Some(v) = body.get("resume") else {
            return Ok(None);
        };
        let id = v
            .as_str()
            .ok_or_else(|| ApiError::new(ErrorKind::BadRequest, "'resume' must be a game's id"))?;
        let _ = self.close_game(id, Some(new_id));
        Ok(self.retired().remove(id).map(|r| (id.to_string(), r)))
    }

    /// Opens a game from a `POST /api/games` body; returns its session and the variations
    /// of its PDN (the page keeps them; the session holds one line). The slot is taken
    /// first: reading the start (a PDN's, its lines replayed) is work of the game, so no more
    /// than `--max-games` requests do it at once, and a full server refuses before it. A
    /// body's `"resume": "<id>"` names the game this one replaces (a reloaded page's): its
    /// clocks go on.
    pub fn create(&self, body: &Value) -> Result<(SharedSession, Vec<Vec<String>>), ApiError> {
        let slot = self.take_slot()?;
        let new = parse_new_game(body, self.limits.caps.max_think_ms)?;
        let id = format!("{:016x}", crate::platform::fresh_seed());
        let resumed = self.take_retired(body, &id)?;
        let opened = self.open(slot, new, resumed.as_ref().map(|(_, r)| r), id);
        if let (Err(_), Some((id, r))) = (&opened, resumed) {
            // Not opened (no engine): the clocks wait for the next try.
            self.keep_retired(&id, r);
        }
        opened
    }

    /// Opens the game `new` in `slot`, going on with the clocks `resumed` when given.
    fn open(
        &self,
        mut slot: Slot<'_>,
        mut new: NewGame,
        resumed: Option<&Retired>,
        id: String,
    ) -> Result<(SharedSession, Vec<Vec<String>>), ApiError> {
        let variations = std::mem::take(&mut new.variations);
        let variant = new.game.variant();
        let setup = EngineSetup {
            variant,
            egdb: self
                .egdb
                .as_ref()
                .filter(|t| t.games.contains(&variant))
                .map(|t| t.dir.clone()),
        };
        let (handle, inbox) = EngineHandle::new();
        let now = Instant::now();
        let session = Arc::new(Mutex::new(Session::new(
            id.clone(),
            new,
            self.limits.caps,
            handle,
            now,
        )));
        self.backend
            .start_engine(inbox.start(setup, Arc::downgrade(&session)))
            .map_err(|e| ApiError::new(ErrorKind::Internal, e))?;
        if let Some(r) = resumed {
            lock(&session).resume(r, Instant::now());
        }
        self.map().insert(id, session.clone());
        self.opened.fetch_add(1, Ordering::SeqCst);
        slot.1 = true;
        Ok((session, variations))
    }

    /// The game `id`.
    pub fn get(&self, id: &str) -> Result<SharedSession, ApiError> {
        self.map().get(id).cloned().ok_or_else(|| not_found(id))
    }

    /// Whether game `id` is open.
    pub fn contains(&self, id: &str) -> bool {
        self.map().contains_key(id)
    }

    /// Ends game `id` now: its engine quits and its event streams end with `gone`, however
    /// many requests or streams still hold it.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        self.close_game(id, None)
    }

    /// Ends game `id` now, as [`Registry::remove`], its event streams told which game took
    /// its place (`replaced_by`), if one did.
    fn close_game(&self, id: &str, replaced_by: Option<&str>) -> Result<(), ApiError> {
        let removed = self.map().remove(id);
        match removed {
            Some(s) => {
                self.slots.fetch_sub(1, Ordering::SeqCst);
                let retired = {
                    let mut s = lock(&s);
                    s.close(replaced_by);
                    s.retire(Instant::now())
                };
                if let Some(r) = retired {
                    self.keep_retired(id, r);
                }
                Ok(())
            }
            None => Err(not_found(id)),
        }
    }

    /// Ends every game (the server is stopping).
    pub fn close_all(&self) {
        let ids: Vec<String> = self.map().keys().cloned().collect();
        for id in ids {
            let _ = self.remove(&id);
        }
    }

    /// The open games by id, as they are now: the map's lock is let go before any game's
    /// is taken (a game's lock is never waited for while the map's is held).
    fn games(&self) -> Vec<(String, SharedSession)> {
        self.map()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Every open game's id and version (which grows with every change of the game).
    pub fn versions(&self) -> Vec<(String, u64)> {
        let games = self.games().into_iter();
        games.map(|(id, s)| (id, lock(&s).version())).collect()
    }

    /// The clocks every open clock game would leave if it were closed now (see
    /// [`Registry::keep_retired`]), by id: what the browser keeps in its storage.
    pub fn clocks_now(&self, now: Instant) -> Vec<(String, Retired)> {
        let games = self.games().into_iter();
        games
            .filter_map(|(id, s)| Some((id, lock(&s).retire(now)?)))
            .collect()
    }

    /// Engines running now.
    pub fn engines(&self) -> usize {
        self.backend.engines()
    }

    /// One pass of the reaper: clocks that ran out end their games; games nobody has
    /// watched for [`UNWATCHED_LIMIT`] are closed, and new games no page has opened for
    /// [`FIRST_WATCH_LIMIT`].
    pub fn reap(&self, now: Instant) {
        let games: Vec<(String, SharedSession)> = self
            .map()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (id, s) in games {
            let (unwatched, limit) = {
                let mut s = lock(&s);
                s.check_flag(now);
                let limit = if s.subscribers.ever_watched() {
                    UNWATCHED_LIMIT
                } else {
                    FIRST_WATCH_LIMIT
                };
                (s.subscribers.unwatched_for(now), limit)
            };
            if unwatched.is_some_and(|d| d >= limit) {
                let _ = self.remove(&id);
            }
        }
    }

    /// Counts for `GET /api/status`.
    pub fn status(&self) -> Value {
        json::object([
            ("games", Value::from(self.map().len())),
            ("max_games", Value::from(self.limits.max_games)),
            ("engines", Value::from(self.backend.engines())),
            ("opened", Value::from(self.opened.load(Ordering::SeqCst))),
        ])
    }
}
