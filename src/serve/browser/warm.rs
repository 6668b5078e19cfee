//! The work of the page's first requests, done once before they come. On the static site
//! the page's first script (web/boot.js) starts this back end while the page still loads its
//! own modules, so the module has time to spare before the first request; a browser compiles
//! a module's functions when they are first called, so what the first `info`, the first game
//! and the first analysis would have waited for is done here instead: the answer to `info`
//! made once (the opening tables read), and a short search of every game's start on an
//! engine of its own (its network parsed, the search's code compiled).

use super::super::api::Core;
use crate::games::{Game, Variant};
use crate::search::{Engine, SearchControl, SearchLimits};

/// The depth of each game's warming search: a few hundred nodes, every part of a search.
const DEPTH: u32 = 3;

/// Runs the first requests' work once (its results are dropped: nothing of a game changes).
pub fn warm(core: &Core) {
    let _ = super::super::info_json(&core.registry.limits, core.page_variant, None);
    for &v in Variant::ALL.iter() {
        crate::for_variant!(v, G => search_start::<G>());
    }
}

fn search_start<G: Game>() {
    let mut engine = Engine::new();
    // The smallest table: a warming search needs none, and the page's engines have theirs.
    if engine.set_hash_mb(1).is_err() {
        return;
    }
    engine.search_on_calling_thread(true);
    let limits = SearchLimits {
        depth: Some(DEPTH),
        ..Default::default()
    };
    engine.search(
        &G::startpos(),
        &[],
        &limits,
        &SearchControl::new(false),
        &mut |_| {},
    );
}
