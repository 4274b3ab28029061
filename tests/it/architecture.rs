//! Layers depend downward only. This test reads every source file and fails when a
//! module imports a layer beside or above it, when modules import each other in a
//! cycle, or when pingora leaks out of `server/` and `app.rs` (and the metrics it
//! serves): `proxy/` in particular is pingora-free.

use std::path::Path;

/// The top-level modules in layers, from the bottom up. A module imports only modules
/// of lower layers: never one beside it, never one above. Every module is listed.
const LAYERS: &[&[&str]] = &[
    // Held by every layer; `telemetry` only counts and describes.
    &["secret", "text", "telemetry", "validate"],
    // Detection, replacement methods, restoring, session stores: none knows another.
    &["engine", "methods", "restore", "session"],
    // One request's anonymization, from the four below.
    &["anonymizer"],
    // Per-call policy: JSON fields into the anonymizer's options.
    &["policy"],
    &["api"],
    // Pingora-free proxy logic, testable without sockets.
    &["proxy"],
    &["config", "eval"],
    &["server"],
    &["app"],
];

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("read file");
            out.push((path.display().to_string(), text));
        }
    }
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// `text` without its line comments and its unit tests (a trailing `mod tests`).
fn code(text: &str) -> String {
    let text = text
        .find("#[cfg(test)]\nmod tests {")
        .map_or(text, |at| &text[..at]);
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn layers_only_import_downward_and_pingora_stays_in_the_server() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 10);
    let mut violations = Vec::new();
    for (file, text) in &files {
        // The crate root (`lib.rs`, `main.rs`) declares the layers; it is in none.
        let Some(module) = module_path(&src, file).into_iter().next() else {
            continue;
        };
        let Some(layer) = layer_of(&module) else {
            violations.push(format!("{module} is in no layer of LAYERS"));
            continue;
        };
        let code = code(text);
        for other in LAYERS.iter().flat_map(|l| l.iter()) {
            let used = [
                format!("crate::{other}::"),
                format!("crate::{other};"),
                format!("crate::{other}}}"),
                format!("crate::{other},"),
            ]
            .iter()
            .any(|p| code.contains(p.as_str()));
            if used && *other != module && layer_of(other).is_some_and(|l| l >= layer) {
                violations.push(format!("{file} imports {other}, not below {module}"));
            }
        }
        let may_use_pingora = matches!(module.as_str(), "server" | "app" | "telemetry");
        if !may_use_pingora && code.contains("pingora") {
            violations.push(format!("{file} uses pingora"));
        }
    }
    assert!(
        violations.is_empty(),
        "layering violations:\n{}",
        violations.join("\n")
    );
}

/// A source file's module path (`engine/refine/mod.rs` is `["engine", "refine"]`).
fn module_path(src: &Path, file: &str) -> Vec<String> {
    let rel = Path::new(file).strip_prefix(src).expect("under src");
    let mut path: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if path.last().is_some_and(|l| l == "mod")
        || matches!(path.as_slice(), [one] if one == "lib" || one == "main")
    {
        path.pop();
    }
    path
}

/// `a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_owned()];
    };
    let close = tree.rfind('}').filter(|&c| c > open).unwrap_or(tree.len());
    let (prefix, body) = (&tree[..open], &tree[open + 1..close]);
    let (mut parts, mut depth, mut from) = (Vec::new(), 0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[from..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(p).into_iter().map(move |e| format!("{prefix}{e}")))
        .collect()
}

/// The module files `file` (at `module`) imports: `crate::` and `super::` paths, in `use`
/// trees and inline, resolved to the longest module path that is a file.
fn imports(
    module: &[String],
    code: &str,
    modules: &std::collections::BTreeSet<Vec<String>>,
) -> std::collections::BTreeSet<Vec<String>> {
    let mut paths: Vec<String> = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        let Some(tree) = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
        else {
            continue;
        };
        // A tree over several lines: the rest of the text up to its `;`.
        let from = tree.as_ptr() as usize - code.as_ptr() as usize;
        if let Some(end) = code[from..].find(';') {
            paths.extend(expand(&code[from..from + end]));
        }
    }
    for (at, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        let rest = &code[at..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        paths.push(rest[..end].to_owned());
    }
    let mut out = std::collections::BTreeSet::new();
    for path in paths {
        let mut segments = path
            .split("::")
            .map(|s| s.split(" as ").next().unwrap_or(s).trim());
        let mut at: Vec<String> = match segments.next() {
            Some("crate") => Vec::new(),
            Some("super") => module[..module.len().saturating_sub(1)].to_vec(),
            Some("self") => module.to_vec(),
            _ => continue,
        };
        let mut best = at.clone();
        for segment in segments {
            if segment == "super" {
                at.pop();
                best = at.clone();
                continue;
            }
            at.push(segment.to_owned());
            if modules.contains(&at) {
                best = at.clone();
            } else {
                break;
            }
        }
        out.insert(best);
    }
    out
}

/// Modules side by side import each other one way only: for every import between two
/// files that share no line of descent, the two children of their closest common module
/// that hold them must not also import the other way. Tests are left out (they may use
/// anything).
#[test]
fn sibling_modules_import_each_other_one_way_only() {
    use std::collections::{BTreeMap, BTreeSet};
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let paths: Vec<Vec<String>> = files.iter().map(|(f, _)| module_path(&src, f)).collect();
    let modules: BTreeSet<Vec<String>> = paths.iter().cloned().collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for ((_, text), module) in files.iter().zip(&paths) {
        if module.last().is_some_and(|m| m.ends_with("tests")) {
            continue;
        }
        for target in imports(module, &code(text), &modules) {
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common >= module.len() || common >= target.len() {
                continue; // an ancestor or a descendant
            }
            edges
                .entry(module[..=common].to_vec())
                .or_default()
                .insert(target[..=common].to_vec());
        }
    }
    let mut cycles = Vec::new();
    for (from, tos) in &edges {
        for to in tos {
            if edges.get(to).is_some_and(|back| back.contains(from)) && from < to {
                cycles.push(format!("{} <-> {}", from.join("/"), to.join("/")));
            }
        }
    }
    // Longer cycles: a module that reaches itself.
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&Vec<String>> = edges[start].iter().collect();
        while let Some(at) = todo.pop() {
            if at == start {
                cycles.push(format!("{} reaches itself", start.join("/")));
                break;
            }
            if seen.insert(at) {
                todo.extend(edges.get(at).into_iter().flatten());
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
    assert!(
        edges.contains_key(&vec!["proxy".to_owned(), "exchange".to_owned()]),
        "the import graph was read"
    );
}
