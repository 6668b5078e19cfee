//! The page's files, compiled into the binary: the server works offline and needs no build
//! step beyond `cargo build` (no npm, no CDN). Sources in `web/`: `index.html`, `style.css`
//! and the ES modules `app.js` (the page's controller), `api.js`, `board.js`, `tree.js`,
//! `moves.js`, `review.js`, `graph.js`, `learn.js`, `store.js`, `analysis.js`, `state.js`,
//! `drag.js`, `keys.js`, `threat.js`, `clock.js`, `dialog.js`, `sound.js`, `settings.js`,
//! `comments.js` (comments, glyphs and tags), `paste.js` (a PDN pasted as text),
//! `tablebase.js` (the endgame databases' panel), `score.js` (scores in words), `report.js`
//! (the review's report, read), `live.js` (the game followed live in every tab),
//! `swipe.js` (swipes that step through the moves), and the classic script `boot.js` (run
//! first: it starts the static site's back end early, and does nothing here); and the puzzle
//! mode, `puzzles.html` (at `/puzzles`) with its module `puzzles.js` and `glicko.js` (its
//! ratings).

/// One file of the page.
pub struct Asset {
    /// URL path.
    pub path: &'static str,
    /// Content-Type header.
    pub content_type: &'static str,
    /// The bytes.
    pub body: &'static [u8],
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The asset of `web/<file>` served at `<path>` as `<content type>`.
macro_rules! web_file {
    ($path:literal, $file:literal, $kind:expr) => {
        Asset {
            path: $path,
            content_type: $kind,
            body: include_bytes!(concat!("../../../web/", $file)),
        }
    };
}

/// Every file the page is made of.
pub const ASSETS: [Asset; 31] = [
    web_file!("/", "index.html", HTML),
    web_file!("/boot.js", "boot.js", JS),
    web_file!("/puzzles", "puzzles.html", HTML),
    web_file!("/puzzles.js", "puzzles.js", JS),
    web_file!("/glicko.js", "glicko.js", JS),
    web_file!("/app.js", "app.js", JS),
    web_file!("/api.js", "api.js", JS),
    web_file!("/board.js", "board.js", JS),
    web_file!("/tree.js", "tree.js", JS),
    web_file!("/moves.js", "moves.js", JS),
    web_file!("/review.js", "review.js", JS),
    web_file!("/store.js", "store.js", JS),
    web_file!("/analysis.js", "analysis.js", JS),
    web_file!("/state.js", "state.js", JS),
    web_file!("/comments.js", "comments.js", JS),
    web_file!("/paste.js", "paste.js", JS),
    web_file!("/graph.js", "graph.js", JS),
    web_file!("/learn.js", "learn.js", JS),
    web_file!("/drag.js", "drag.js", JS),
    web_file!("/keys.js", "keys.js", JS),
    web_file!("/threat.js", "threat.js", JS),
    web_file!("/clock.js", "clock.js", JS),
    web_file!("/dialog.js", "dialog.js", JS),
    web_file!("/sound.js", "sound.js", JS),
    web_file!("/settings.js", "settings.js", JS),
    web_file!("/tablebase.js", "tablebase.js", JS),
    web_file!("/score.js", "score.js", JS),
    web_file!("/report.js", "report.js", JS),
    web_file!("/live.js", "live.js", JS),
    web_file!("/swipe.js", "swipe.js", JS),
    web_file!("/style.css", "style.css", CSS),
];

/// The asset at URL path `path` (`/index.html` is `/`, and so is a game's address;
/// `/puzzles.html`, the puzzle mode's name on a static site, is `/puzzles`).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" || is_game_address(path) {
        "/"
    } else if path == "/puzzles.html" {
        "/puzzles"
    } else {
        path
    };
    ASSETS.iter().find(|a| a.path == path)
}

/// Whether `path` is a game's own address, `/<its id>` (16 hexadecimal digits, as the
/// server makes them), which serves the page: the page then shows that game, following it
/// live in every tab that has it open.
pub fn is_game_address(path: &str) -> bool {
    path.strip_prefix('/').is_some_and(|id| {
        id.len() == 16
            && id
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Total bytes of the page (HTML, JavaScript and CSS).
pub fn page_bytes() -> usize {
    ASSETS.iter().map(|a| a.body.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The modules each module imports (`from './x.js'`), by URL path.
    fn imports(a: &Asset) -> Vec<String> {
        let text = std::str::from_utf8(a.body).unwrap();
        text.split("from './")
            .skip(1)
            .map(|part| format!("/{}", &part[..part.find('\'').unwrap()]))
            .collect()
    }

    /// A chain of modules that leads back to its first (`a -> b -> a`), if any.
    fn module_circle() -> Option<Vec<String>> {
        fn walk(at: &str, path: &mut Vec<String>, done: &mut Vec<String>) -> Option<Vec<String>> {
            if let Some(i) = path.iter().position(|p| p == at) {
                let mut circle = path[i..].to_vec();
                circle.push(at.to_string());
                return Some(circle);
            }
            if done.iter().any(|d| d == at) {
                return None;
            }
            let asset = find(at)?;
            path.push(at.to_string());
            for next in imports(asset) {
                if let Some(c) = walk(&next, path, done) {
                    return Some(c);
                }
            }
            path.pop();
            done.push(at.to_string());
            None
        }
        let mut done = Vec::new();
        ASSETS
            .iter()
            .filter(|a| a.path.ends_with(".js"))
            .find_map(|a| walk(a.path, &mut Vec::new(), &mut done))
    }

    #[test]
    fn page_is_whole_and_light() {
        assert!(find("/").is_some() && find("/index.html").is_some());
        assert!(find("/nothing").is_none());
        // A game's address serves the page; nothing else that looks like one does.
        assert_eq!(find("/0123456789abcdef").unwrap().path, "/");
        for not in [
            "/0123456789abcde",
            "/0123456789abcdef0",
            "/0123456789ABCDEF",
            "/g/0123456789abcdef",
        ] {
            assert!(find(not).is_none(), "{not}");
        }
        let html = std::str::from_utf8(find("/").unwrap().body).unwrap();
        assert!(html.contains("app.js") && html.contains("style.css"));
        let puzzles = std::str::from_utf8(find("/puzzles.html").unwrap().body).unwrap();
        assert!(puzzles.contains("puzzles.js") && puzzles.contains("style.css"));
        assert!(puzzles.contains("<script src=\"boot.js\"></script>"));
        assert_eq!(find("/puzzles").unwrap().path, "/puzzles");
        // Every module a module imports is served, and every module served is imported
        // (boot.js is the page's classic script, which imports nothing).
        assert!(html.contains("<script src=\"boot.js\"></script>"));
        let mut imported = vec![
            "/app.js".to_string(),
            "/puzzles.js".to_string(),
            "/boot.js".to_string(),
        ];
        for a in ASSETS.iter().filter(|a| a.path.ends_with(".js")) {
            for name in imports(a) {
                assert!(find(&name).is_some(), "{} imports {name}", a.path);
                imported.push(name);
            }
        }
        for a in ASSETS.iter().filter(|a| a.path.ends_with(".js")) {
            assert!(
                imported.iter().any(|i| i == a.path),
                "{} is never imported",
                a.path
            );
        }
        // The page names every module of its own for preloading (one round of fetches, not
        // one a level of imports), and nothing else (puzzles.js and glicko.js are the puzzle
        // page's).
        let preloaded: Vec<String> = html
            .split("<link rel=\"modulepreload\" href=\"")
            .skip(1)
            .map(|part| format!("/{}", &part[..part.find('"').unwrap()]))
            .collect();
        for a in ASSETS.iter().filter(|a| {
            a.path.ends_with(".js") && !["/boot.js", "/puzzles.js", "/glicko.js"].contains(&a.path)
        }) {
            assert!(
                preloaded.iter().any(|p| p == a.path),
                "index.html does not preload {}",
                a.path
            );
        }
        for p in &preloaded {
            assert!(
                find(p).is_some(),
                "index.html preloads {p}, which is not served"
            );
        }
        // No import circle among the modules (a module below another never imports it back).
        assert_eq!(module_circle(), None);
        // The goal for the whole page is under 300 KB.
        assert!(page_bytes() < 300 * 1024, "{} bytes", page_bytes());
    }
}
