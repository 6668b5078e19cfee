//! Every relative link and image of the user docs (README.md, engine-protocol.md, docs/)
//! leads somewhere: the file exists in the repository, and an anchor (`page.md#section`,
//! `#section`) names a heading of that page, as GitHub makes anchors of headings. And every
//! repository path a doc names in code (`src/search/skill.rs`) exists.

use crate::common::docs;
use std::path::{Component, Path, PathBuf};

/// GitHub's anchor of a heading: lower case, punctuation dropped (but `-` and `_`), each
/// space a `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The lines of `text` outside fenced code blocks, with their 1-based numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// The anchors of a Markdown page's headings (a repeated heading gets `-1`, `-2`, ...).
fn anchors(text: &str) -> Vec<String> {
    let (mut bases, mut out): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for (_, line) in prose(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let base = slug(heading.trim_start_matches('#'));
        let repeats = bases.iter().filter(|b| **b == base).count();
        out.push(match repeats {
            0 => base.clone(),
            n => format!("{base}-{n}"),
        });
        bases.push(base);
    }
    out
}

/// The targets of the inline links and images of a line: `[text](target)`.
fn targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].to_string());
        rest = &after[end..];
    }
    out
}

/// `path` relative to `dir`, with `..` resolved; None when it leaves the repository.
fn resolve(dir: &Path, path: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in dir.join(path).components() {
        match part {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

/// What is wrong with the link `target` of the doc `doc`, if anything.
fn check(doc: &str, target: &str) -> Option<String> {
    if target.starts_with("http://") || target.starts_with("https://") {
        return None;
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let dir = Path::new(doc).parent().unwrap();
    let file = if path.is_empty() {
        PathBuf::from(doc)
    } else {
        match resolve(dir, path) {
            Some(file) => file,
            None => return Some("it leaves the repository".to_string()),
        }
    };
    let full = docs::root().join(&file);
    if !full.exists() {
        return Some(format!("{} does not exist", file.display()));
    }
    if anchor.is_empty() {
        return None;
    }
    let text = std::fs::read_to_string(&full).ok()?;
    if anchors(&text).iter().any(|a| a == anchor) {
        None
    } else {
        Some(format!("{} has no heading #{anchor}", file.display()))
    }
}

#[test]
fn every_link_resolves() {
    let mut wrong = Vec::new();
    let mut links = 0;
    for doc in docs::files() {
        for (n, line) in prose(&docs::read(&doc)) {
            for target in targets(line) {
                links += 1;
                if let Some(why) = check(&doc, &target) {
                    wrong.push(format!("{doc}:{n}: ({target}): {why}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "broken links:\n{}", wrong.join("\n"));
    assert!(links > 100, "only {links} links found");
}

/// The repository paths named in the code spans of a line (`src/...`, `tests/...`, ...),
/// leaving out patterns such as `src/games/<game>/`.
fn named_paths(line: &str) -> Vec<String> {
    const TOP: [&str; 9] = [
        "src/",
        "tests/",
        "bench/",
        "deploy/",
        "nets/",
        "openings/",
        "web/",
        "docs/",
        ".ci/",
    ];
    line.split('`')
        .skip(1)
        .step_by(2)
        .flat_map(|span| span.split([' ', ',', '(', ')']))
        .filter(|w| TOP.iter().any(|t| w.starts_with(t)) && !w.contains(['<', '*', '$']))
        .map(|w| w.trim_end_matches(['.', ':', ';']).to_string())
        .collect()
}

#[test]
fn every_file_a_doc_names_exists() {
    let mut missing = Vec::new();
    for doc in docs::files() {
        for (n, line) in prose(&docs::read(&doc)) {
            for path in named_paths(line) {
                if !docs::root().join(&path).exists() {
                    missing.push(format!("{doc}:{n}: {path}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "paths that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn anchors_are_githubs() {
    assert_eq!(slug(" `go [<limit> ...]`"), "go-limit-");
    assert_eq!(
        slug(" 8. Scores: the value of a man"),
        "8-scores-the-value-of-a-man"
    );
    assert_eq!(slug(" The protocol's latency"), "the-protocols-latency");
    assert_eq!(
        anchors("# A\n## B\n```\n# not a heading\n```\n## B\n"),
        ["a", "b", "b-1"]
    );
    assert_eq!(
        targets("see [x](a.md#b) and ![y](c.png)"),
        ["a.md#b", "c.png"]
    );
    assert_eq!(
        check("docs/play.md", "nowhere.md"),
        Some("docs/nowhere.md does not exist".into())
    );
    assert_eq!(
        named_paths("in `src/a.rs` and `(tests/b/, x)` not `src/<g>/`"),
        ["src/a.rs", "tests/b/"]
    );
}
