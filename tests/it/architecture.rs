//! Layers depend downward only. This test reads every source file and fails when a
//! module imports a layer above it, or when pingora leaks out of `server/` and `app.rs`
//! (and the metrics it serves): `proxy/` in particular is pingora-free.

use std::path::Path;

/// (module, modules it must not import).
const FORBIDDEN: &[(&str, &[&str])] = &[
    // Held by every layer, so it imports none.
    (
        "secret",
        &[
            "text",
            "engine",
            "methods",
            "restore",
            "session",
            "anonymizer",
            "api",
            "server",
            "app",
            "config",
            "telemetry",
            "eval",
            "proxy",
        ],
    ),
    (
        "text",
        &[
            "engine",
            "methods",
            "restore",
            "session",
            "anonymizer",
            "api",
            "server",
            "app",
            "config",
            "telemetry",
            "eval",
            "proxy",
        ],
    ),
    (
        "engine",
        &[
            "methods",
            "restore",
            "session",
            "anonymizer",
            "api",
            "server",
            "app",
            "config",
            "telemetry",
            "proxy",
        ],
    ),
    (
        "methods",
        &[
            "engine",
            "anonymizer",
            "api",
            "server",
            "app",
            "config",
            "telemetry",
            "proxy",
        ],
    ),
    (
        "restore",
        &[
            "engine",
            "anonymizer",
            "api",
            "server",
            "app",
            "config",
            "telemetry",
            "proxy",
        ],
    ),
    (
        "session",
        &[
            "engine",
            "anonymizer",
            "api",
            "server",
            "app",
            "config",
            "telemetry",
            "proxy",
        ],
    ),
    (
        "anonymizer",
        &["api", "server", "app", "config", "telemetry", "proxy"],
    ),
    ("api", &["server", "app", "telemetry", "proxy"]),
    ("proxy", &["server", "app", "config", "telemetry"]),
    (
        "telemetry",
        &[
            "engine",
            "methods",
            "restore",
            "session",
            "anonymizer",
            "api",
            "server",
            "app",
        ],
    ),
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

fn module_of(src: &Path, file: &str) -> String {
    let rel = Path::new(file).strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("component");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_owned()
}

#[test]
fn layers_only_import_downward_and_pingora_stays_in_the_server() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 10);
    let mut violations = Vec::new();
    for (file, text) in &files {
        let module = module_of(&src, file);
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        if let Some((_, banned)) = FORBIDDEN.iter().find(|(m, _)| *m == module) {
            for b in *banned {
                for pattern in [
                    format!("crate::{b}::"),
                    format!("crate::{b};"),
                    format!("crate::{b}}}"),
                ] {
                    if code.contains(&pattern) {
                        violations.push(format!("{file} imports {b}"));
                    }
                }
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
