//! The page's files, compiled into the binary: the server works offline and needs no build
//! step beyond `cargo build` (no npm, no CDN). Sources in `web/`: `index.html`, `style.css`
//! and the ES modules `app.js` (the page's controller), `api.js`, `board.js`, `tree.js`.

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
            body: include_bytes!(concat!("../../web/", $file)),
        }
    };
}

/// Every file the page is made of.
pub const ASSETS: [Asset; 6] = [
    web_file!("/", "index.html", HTML),
    web_file!("/app.js", "app.js", JS),
    web_file!("/api.js", "api.js", JS),
    web_file!("/board.js", "board.js", JS),
    web_file!("/tree.js", "tree.js", JS),
    web_file!("/style.css", "style.css", CSS),
];

/// The asset at URL path `path` (`/index.html` is `/`).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

/// Total bytes of the page (HTML, JavaScript and CSS).
pub fn page_bytes() -> usize {
    ASSETS.iter().map(|a| a.body.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_is_whole_and_light() {
        assert!(find("/").is_some() && find("/index.html").is_some());
        assert!(find("/nothing").is_none());
        let html = std::str::from_utf8(find("/").unwrap().body).unwrap();
        assert!(html.contains("app.js") && html.contains("style.css"));
        // Every module app.js imports is served.
        let app = std::str::from_utf8(find("/app.js").unwrap().body).unwrap();
        for module in ["api", "board", "tree"] {
            assert!(app.contains(&format!("'./{module}.js'")), "{module}");
            assert!(find(&format!("/{module}.js")).is_some(), "{module}");
        }
        // The goal for the whole page is under 300 KB.
        assert!(page_bytes() < 300 * 1024, "{} bytes", page_bytes());
    }
}
