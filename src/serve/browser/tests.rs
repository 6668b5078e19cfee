//! The browser's back end driven as the page's worker drives it, here on a native thread: the
//! messages of a page in, the answers and events out, and messages that arrive during a
//! search (at the host's turns). Every search is limited by depth or nodes, or stopped by a
//! message; none waits on the clock for its verdict.

use super::*;
use crate::games::Variant;
use crate::search::Engine;
use serde_json::json;
use std::rc::Rc;
use std::sync::Mutex;

/// The page of a test: its queue of messages, what the host posted, and messages that
/// arrive one at each turn the host gives it.
#[derive(Clone, Default)]
struct TestPage {
    inbox: Rc<RefCell<VecDeque<String>>>,
    posted: Rc<RefCell<Vec<Value>>>,
    during: Rc<RefCell<VecDeque<String>>>,
    turns: Rc<Cell<usize>>,
}

impl Page for TestPage {
    fn next(&mut self) -> Option<String> {
        self.inbox.borrow_mut().pop_front()
    }
    fn post(&mut self, message: &str) {
        let v = serde_json::from_str(message).expect("the host posts JSON");
        self.posted.borrow_mut().push(v);
    }
    fn turn(&mut self, _waiting: bool) {
        self.turns.set(self.turns.get() + 1);
        if let Some(m) = self.during.borrow_mut().pop_front() {
            self.inbox.borrow_mut().push_back(m);
        }
    }
    fn can_turn(&self) -> bool {
        true
    }
}

use crate::serve::json::Value;

impl TestPage {
    /// Sends request `id` and runs the host until nothing is left.
    fn ask(&self, id: u64, method: &str, path: &str, body: Value) {
        self.send(id, method, path, body);
        run();
    }

    fn send(&self, id: u64, method: &str, path: &str, body: Value) {
        let m = json!({"id": id, "method": method, "path": path, "body": body.to_string()});
        self.inbox.borrow_mut().push_back(m.to_string());
    }

    /// A message that arrives at a later turn of a search.
    fn later(&self, id: u64, method: &str, path: &str, body: Value) {
        let m = json!({"id": id, "method": method, "path": path, "body": body.to_string()});
        self.during.borrow_mut().push_back(m.to_string());
    }

    /// The answer to request `id`: its status and body (or text).
    fn answer(&self, id: u64) -> (u64, Value) {
        let posted = self.posted.borrow();
        let a = posted
            .iter()
            .find(|m| m["id"] == json!(id))
            .unwrap_or_else(|| panic!("no answer to {id}: {posted:#?}"));
        let body = if a.get("text").is_some() {
            a["text"].clone()
        } else {
            a["body"].clone()
        };
        (a["status"].as_u64().unwrap(), body)
    }

    /// The events of stream `id` named `name`, in order.
    fn events(&self, id: u64, name: &str) -> Vec<Value> {
        self.posted
            .borrow()
            .iter()
            .filter(|m| m["stream"] == json!(id) && m["event"] == json!(name))
            .map(|m| m["data"].clone())
            .collect()
    }

    /// Where message `pred` was posted.
    fn position(&self, pred: impl Fn(&Value) -> bool) -> Option<usize> {
        self.posted.borrow().iter().position(pred)
    }

    /// Runs an analysis of game `id` with no limit (request `on`) until request `off`, which
    /// arrives at a turn of its search after the messages already sent for later.
    fn analyse_until(&self, id: &str, on: u64, off: u64) {
        let path = format!("/api/games/{id}/analysis");
        self.later(off, "POST", &path, json!({"on": false}));
        self.ask(on, "POST", &path, json!({"on": true}));
    }

    /// Opens a game with `body` (request 1) and its events (request 2); its id.
    fn open(&self, body: Value) -> String {
        self.ask(1, "POST", "/api/games", body);
        let (status, state) = self.answer(1);
        assert_eq!(status, 201, "{state}");
        let id = state["id"].as_str().unwrap().to_string();
        self.ask(2, "GET", &format!("/api/games/{id}/events"), json!({}));
        assert_eq!(self.answer(2), (200, Value::Null));
        assert_eq!(
            self.events(2, "state").len(),
            1,
            "the stream starts with the state"
        );
        id
    }
}

/// Runs `test` with a fresh host for a fresh page, on a thread with a search's stack (the
/// host searches on its own thread, as in the browser).
fn with_host(test: impl FnOnce(TestPage) + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(Engine::STACK_BYTES)
        .spawn(move || {
            let page = TestPage::default();
            start(Box::new(page.clone()));
            test(page);
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn the_engine_answers_a_move_in_the_page() {
    with_host(|page| {
        let id = page
            .open(json!({"variant": "russian", "human": "white", "level": 0, "movetime_ms": 50}));
        page.ask(
            3,
            "POST",
            &format!("/api/games/{id}/move"),
            json!({"move": "c3-d4"}),
        );
        assert_eq!(page.answer(3).0, 200);
        let states = page.events(2, "state");
        let last = states.last().unwrap();
        assert_eq!(last["moves"].as_array().unwrap().len(), 2, "{last}");
        assert_eq!(last["your_turn"], json!(true));
        assert_eq!(last["thinking"], Value::Null);
        // Its PDN, and a refusal that changes nothing.
        page.ask(4, "GET", &format!("/api/games/{id}/pdn"), json!({}));
        let (status, pdn) = page.answer(4);
        assert_eq!(status, 200);
        assert!(pdn.as_str().unwrap().contains("1. c3-d4"), "{pdn}");
        page.ask(
            5,
            "POST",
            &format!("/api/games/{id}/move"),
            json!({"move": "a1-h8"}),
        );
        assert_eq!(page.answer(5).0, 422);
        page.ask(6, "GET", &format!("/api/games/{id}"), json!({}));
        assert_eq!(page.answer(6).1["moves"], last["moves"]);
    });
}

#[test]
fn an_analysis_reaches_its_depth_and_requests_made_meanwhile_are_answered() {
    with_host(|page| {
        let id = page.open(json!({"human": "both"}));
        // A fixed depth: its last lines are at that depth, and done.
        let on = json!({"on": true, "ply": 0, "multipv": 2, "depth": 5});
        page.ask(3, "POST", &format!("/api/games/{id}/analysis"), on);
        let last = page.events(2, "analysis").pop().expect("analysis events");
        assert_eq!(last["done"], json!(true), "{last}");
        assert_eq!(last["lines"][0]["depth"], json!(5), "{last}");
        assert_eq!(last["lines"].as_array().unwrap().len(), 2);
        // An infinite one, which only the page's next request ends: the legal moves asked
        // meanwhile are answered during it (its lines go on after that answer).
        page.later(5, "GET", &format!("/api/games/{id}/legal?ply=0"), json!({}));
        for n in 6..16 {
            page.later(n, "GET", "/api/status", json!({}));
        }
        page.analyse_until(&id, 4, 16);
        assert_eq!(page.answer(5).0, 200);
        assert_eq!(page.answer(16).0, 200);
        let legal = page.position(|m| m["id"] == json!(5)).unwrap();
        let off = page.position(|m| m["id"] == json!(16)).unwrap();
        let lines_between =
            page.position(|m| m["event"] == json!("analysis") && m["data"]["done"] == json!(false));
        let later_lines = page.posted.borrow()[legal..off]
            .iter()
            .any(|m| m["event"] == json!("analysis"));
        assert!(
            lines_between.is_some() && later_lines,
            "the search went on after the answer"
        );
        assert!(page.turns.get() >= 12);
    });
}

#[test]
fn a_review_runs_even_inside_an_analysis_and_a_move_is_judged() {
    with_host(|page| {
        let id = page.open(json!({"human": "both", "moves": ["c3-d4", "f6-e5", "d4:f6"]}));
        page.later(
            4,
            "POST",
            &format!("/api/games/{id}/review"),
            json!({"nodes": 3000}),
        );
        page.analyse_until(&id, 3, 5);
        assert_eq!(page.answer(4).0, 202);
        let reviews = page.events(2, "review");
        let last = reviews.last().unwrap();
        assert_eq!(last["running"], json!(false), "{last}");
        page.ask(6, "GET", &format!("/api/games/{id}/review"), json!({}));
        let (status, report) = page.answer(6);
        assert_eq!(status, 200);
        assert_eq!(report["done"], json!(3), "{report}");
        assert_eq!(report["moves"].as_array().unwrap().len(), 3);
        // Learn from your mistakes: a move judged as the review judges it.
        let try_it = json!({"ply": 1, "move": "f6-g5", "nodes": 3000});
        page.ask(7, "POST", &format!("/api/games/{id}/review/try"), try_it);
        let (status, judged) = page.answer(7);
        assert_eq!(status, 200, "{judged}");
        assert!(judged["accepted"].is_boolean(), "{judged}");
    });
}

#[test]
fn a_reloaded_page_goes_on_with_the_clocks_its_storage_kept() {
    let kept: Arc<Mutex<Option<(String, Value)>>> = Arc::default();
    let out = kept.clone();
    // Two plies: each side's first move is free of the clock (`FREE_PLIES`), White's second
    // is timed.
    let game = || json!({"human": "both", "clock": {"base_ms": 60000, "inc_ms": 0}, "moves": ["c3-d4", "f6-g5"]});
    with_host(move |page| {
        let id = page.open(game());
        let keep = page
            .posted
            .borrow()
            .iter()
            .rev()
            .find_map(|m| m.get("keep").cloned())
            .expect("the clocks to keep");
        assert_eq!(keep[&id]["running"], json!("white"), "{keep}");
        *out.lock().unwrap() = Some((id, keep));
    });
    let (id, mut keep) = kept.lock().unwrap().take().unwrap();
    // The page was away 5 s: White's clock ran on meanwhile.
    let then = keep[&id]["unix_ms"].as_u64().unwrap() - 5000;
    keep[&id]["unix_ms"] = json!(then);
    with_host(move |page| {
        page.inbox
            .borrow_mut()
            .push_back(json!({ "restore": keep }).to_string());
        let mut body = game();
        body["resume"] = json!(id);
        page.ask(1, "POST", "/api/games", body);
        let (status, state) = page.answer(1);
        assert_eq!(status, 201);
        let white = state["time"]["white_ms"].as_i64().unwrap();
        assert!((50_000..=55_000).contains(&white), "{state}");
        assert_eq!(state["time"]["black_ms"], json!(60000));
    });
}

#[test]
fn bad_messages_are_refused_in_one_line_and_change_nothing() {
    with_host(|page| {
        page.inbox.borrow_mut().push_back("not json".into());
        page.inbox
            .borrow_mut()
            .push_back(json!({"id": 1, "path": "/api/info"}).to_string());
        run();
        assert_eq!(page.answer(1).0, 400);
        page.ask(2, "GET", "/api/nothing", json!({}));
        assert_eq!(page.answer(2).0, 404);
        let big = "x".repeat(crate::serve::api::MAX_BODY_BYTES + 1);
        page.ask(3, "POST", "/api/games", Value::from(big));
        assert_eq!(page.answer(3).0, 413);
        page.ask(4, "POST", "/api/games", json!({"variant": "chess"}));
        let (status, body) = page.answer(4);
        assert_eq!(status, 400);
        assert!(body["error"].as_str().unwrap().contains("chess"), "{body}");
        page.ask(5, "GET", "/api/status", json!({}));
        assert_eq!(page.answer(5).1["games"], json!(0));
        page.ask(6, "GET", "/api/info", json!({}));
        let info = page.answer(6).1;
        assert_eq!(
            info["variants"].as_array().unwrap().len(),
            Variant::ALL.len()
        );
    });
}

#[test]
fn a_closed_game_ends_its_stream_with_gone_and_frees_its_engine() {
    with_host(|page| {
        let id = page.open(json!({"human": "both"}));
        page.ask(3, "GET", "/api/status", json!({}));
        assert_eq!(page.answer(3).1["engines"], json!(1));
        page.ask(4, "DELETE", &format!("/api/games/{id}"), json!({}));
        assert_eq!(page.answer(4).0, 200);
        assert_eq!(page.events(2, "gone").len(), 1);
        page.ask(5, "GET", "/api/status", json!({}));
        assert_eq!(page.answer(5).1["engines"], json!(0));
    });
}

/// The reaper waits longer for a new game's first page than for a page that was there:
/// a page opens its stream only once the game is made, and a busy machine may take seconds
/// between the two. A watched game stays.
#[test]
fn a_new_game_waits_for_its_first_page_longer_than_a_watched_one() {
    use crate::serve::registry::{FIRST_WATCH_LIMIT, UNWATCHED_LIMIT};
    use std::time::Duration;
    with_host(|page| {
        let watched = page.open(json!({"human": "both"}));
        page.ask(3, "POST", "/api/games", json!({"human": "both"}));
        let (status, state) = page.answer(3);
        assert_eq!(status, 201, "{state}");
        let new = state["id"].as_str().unwrap().to_string();
        let registry = &core().unwrap().registry;
        let now = Instant::now();
        registry.reap(now + UNWATCHED_LIMIT + Duration::from_secs(1));
        assert!(registry.contains(&new), "closed before its first page came");
        registry.reap(now + FIRST_WATCH_LIMIT + Duration::from_secs(1));
        assert!(!registry.contains(&new), "kept with no page for ever");
        assert!(registry.contains(&watched), "a watched game was closed");
    });
}
