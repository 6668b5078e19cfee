//! Reading `src/` for the architecture checks: every file, its module path, the paths its
//! imports name, and the graph of which file imports which.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A source file: its path below `src/` and its module path.
pub(super) struct File {
    pub(super) rel: String,
    pub(super) module: Vec<String>,
    pub(super) text: String,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

pub(super) fn load() -> Vec<File> {
    let src = Path::new(ROOT).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let rel = p
                .strip_prefix(&src)
                .expect("below src")
                .to_string_lossy()
                .replace('\\', "/");
            if rel == "main.rs" {
                return None;
            }
            let mut module: Vec<String> = rel
                .trim_end_matches(".rs")
                .split('/')
                .map(str::to_string)
                .collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            let text = fs::read_to_string(&p).expect("read file");
            Some(File { rel, module, text })
        })
        .collect()
}

/// The file's lines without test modules, comments and the insides of string literals.
fn code_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim() == "#[cfg(test)]" {
            // Skip the item that follows: up to the closing brace at its indentation.
            let next = lines.get(i + 1).copied().unwrap_or("");
            let indent = next.len() - next.trim_start().len();
            let close = format!("{}}}", &next[..indent]);
            if next.trim_end().ends_with('{') {
                i += 2;
                while i < lines.len() && lines[i].trim_end() != close {
                    i += 1;
                }
            }
            i += 1;
            continue;
        }
        out.push(strip(line));
        i += 1;
    }
    out
}

/// A line without its `//` comment and with string literals emptied.
pub(super) fn strip(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_str = false;
                    out.push('"');
                }
                _ => {}
            }
        } else if c == '"' {
            in_str = true;
            out.push('"');
        } else if c == '/' && chars.peek() == Some(&'/') {
            break;
        } else if c == '\'' {
            // A char literal such as '"' or '{': keep the quote, skip what it holds.
            let rest: String = chars.clone().take(3).collect();
            if let Some(escaped) = rest.strip_prefix('\\') {
                if let Some(end) = escaped.find('\'') {
                    for _ in 0..end + 2 {
                        chars.next();
                    }
                }
            } else if rest.chars().nth(1) == Some('\'') {
                chars.next();
                chars.next();
            }
            out.push('\'');
        } else {
            out.push(c);
        }
    }
    out
}

/// Expands a use tree such as `a::{b::c, d::{self, e}}` into its paths.
pub(super) fn expand(tree: &str) -> Vec<String> {
    // Renames (`x as y`) go first: only the path matters.
    let mut words: Vec<String> = Vec::new();
    let mut rename = false;
    for w in tree.split_whitespace() {
        if w == "as" {
            rename = true;
        } else if rename {
            rename = false;
            words.push(
                w.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
                    .to_string(),
            );
        } else {
            words.push(w.to_string());
        }
    }
    let tree = words.concat();
    let Some(open) = tree.find('{') else {
        return vec![tree.trim_end_matches("::").to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            expand(p).into_iter().map(move |s| {
                if s == "self" {
                    prefix.trim_end_matches("::").to_string()
                } else {
                    format!("{prefix}{s}")
                }
            })
        })
        .collect()
}

/// Every module path a file names: its `use` declarations (whole, over several lines) and
/// the `crate::` paths in its code.
fn named_paths(file: &File) -> Vec<Vec<String>> {
    let lines = code_lines(&file.text);
    let mut paths = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let body = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| t.strip_prefix(p));
        if let Some(body) = body {
            let mut decl = body.to_string();
            while !decl.contains(';') && i + 1 < lines.len() {
                i += 1;
                decl.push_str(&lines[i]);
            }
            let decl = decl.split(';').next().unwrap_or("").to_string();
            for p in expand(&decl) {
                paths.push(absolute(&file.module, &p));
            }
        } else {
            let mut rest = lines[i].as_str();
            while let Some(at) = rest.find("crate::") {
                let before = rest[..at].chars().last();
                let tail = &rest[at..];
                let end = tail
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(tail.len());
                if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                    paths.push(absolute(&file.module, &tail[..end]));
                }
                rest = &tail[end.max(7)..];
            }
        }
        i += 1;
    }
    paths.into_iter().filter(|p| !p.is_empty()).collect()
}

/// A path as segments from the crate root (`crate`, `super` and `self` resolved); empty for
/// a path into another crate.
pub(super) fn absolute(module: &[String], path: &str) -> Vec<String> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let Some(&first) = segs.first() else {
        return Vec::new();
    };
    let mut base: Vec<String> = match first {
        "crate" => Vec::new(),
        "self" | "super" => module.to_vec(),
        _ => return Vec::new(),
    };
    let mut rest = &segs[..];
    if first == "crate" || first == "self" {
        rest = &segs[1..];
    }
    while let Some(&"super") = rest.first() {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().map(|s| s.to_string()));
    base
}

/// The file of the longest prefix of `path` that is a module with a file of its own.
fn resolve<'a>(path: &[String], modules: &'a BTreeMap<Vec<String>, String>) -> Option<&'a String> {
    (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]))
}

pub(super) fn graph(files: &[File]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|f| (f.module.clone(), f.rel.clone()))
        .collect();
    files
        .iter()
        .map(|f| {
            let targets = named_paths(f)
                .iter()
                .filter_map(|p| resolve(p, &modules))
                .filter(|t| **t != f.rel)
                .cloned()
                .collect();
            (f.rel.clone(), targets)
        })
        .collect()
}

/// Strongly connected components (Tarjan).
pub(super) fn components(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}
