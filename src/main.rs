//! Command line: `anonymizer [--config PATH]` serves; `anonymizer check-config
//! [--config PATH]` validates; `anonymizer eval ...` scores the engine on a corpus.

use std::process::ExitCode;

use anonymizer::app::allocator;
use anonymizer::config::{env, Settings, DEFAULT_PATH, DEFAULT_YAML};
use anonymizer::telemetry;

const USAGE: &str = "usage: anonymizer [run] [--config PATH]
       anonymizer check-config [--config PATH]
       anonymizer eval [--config PATH] --data FILE.jsonl [--labels MAP.json] [--threshold T] [--mask-only] [--errors N] [--detections OUT.jsonl]

The config file is PATH, else $ANONYMIZER_CONFIG, else ./conf/anonymizer.yaml,
else the built-in default.";

/// The server's allocator for Rust's own allocations (why, and its settings:
/// `app::allocator`); ONNX Runtime's C++ code allocates with glibc.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// `app::allocator::JEMALLOC` as jemalloc reads it at its first allocation: a C string
/// in the symbol it looks for, named with the prefix `tikv-jemalloc-sys` builds it with
/// (jemalloc's own definition is weak). The library forbids unsafe code; naming a
/// symbol is the binary's to do.
#[allow(unsafe_code)]
#[export_name = "_rjem_malloc_conf"]
static JEMALLOC_CONF: &[u8; allocator::JEMALLOC.len() + 1] = &allocator::JEMALLOC_C;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.first().map(String::as_str) {
        Some("run") => ("run", &args[1..]),
        Some("check-config") => ("check-config", &args[1..]),
        Some("eval") => ("eval", &args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => ("run", &args[..]),
    };
    if command == "run" {
        // Before anything else: on success the process starts over with the tunables.
        if let Err(e) = allocator::apply() {
            eprintln!("anonymizer: glibc's default allocator settings stay: cannot re-execute with GLIBC_TUNABLES: {e}");
        }
    }
    // eval takes the config options too: it scores the engine the service would run.
    let (rest, eval_args) = if command == "eval" {
        split_config_args(rest)
    } else {
        (rest.to_vec(), Vec::new())
    };
    let rest = &rest[..];
    let path = match config_path(rest) {
        Ok(path) => path,
        Err(message) => {
            eprintln!("anonymizer: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let (source, text) = match &path {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => (path.clone(), text),
            Err(e) => {
                eprintln!("anonymizer: cannot read config {path}: {e}");
                return ExitCode::from(2);
            }
        },
        None => match std::fs::read_to_string(DEFAULT_PATH) {
            Ok(text) => (DEFAULT_PATH.to_owned(), text),
            Err(_) => ("built-in default".to_owned(), DEFAULT_YAML.to_owned()),
        },
    };
    let settings = match Settings::from_yaml(&text, &env::process_lookup) {
        Ok(settings) => settings,
        Err(errors) => {
            eprintln!("anonymizer: invalid config {source}:");
            for error in errors {
                eprintln!("  {error}");
            }
            return ExitCode::from(2);
        }
    };
    if command == "check-config" {
        println!("config {source} is valid");
        return ExitCode::SUCCESS;
    }
    if command == "eval" {
        let result = anonymizer::app::build_engine(&settings)
            .map_err(|e| format!("engine: {e}"))
            .and_then(|engine| anonymizer::eval::run(&engine, &eval_args));
        return match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("anonymizer eval: {message}");
                ExitCode::from(2)
            }
        };
    }

    telemetry::log::init(
        &settings.log_level,
        settings.log_json,
        env::process_lookup("RUST_LOG"),
    );
    let mut app = match anonymizer::app::build(&settings) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("anonymizer: cannot start: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(key) = &app.generated_key {
        eprintln!(
            "WARNING: no API key is configured. Generated a random key for this run only; \
             it changes at every start. Configure auth.api_keys or ANONYMIZER_API_KEYS.\n\
             X-API-Key: {key}"
        );
    }
    if app.generated_secret {
        eprintln!(
            "WARNING: no master secret is configured (secrets.master_secret or ANONYMIZER_SECRET). \
             A random one is used: HASH and ENCRYPT tokens will not survive a restart or match \
             across replicas."
        );
    }
    tracing::info!(
        config = %source,
        listen = %settings.listen,
        metrics = %settings.metrics_listen,
        tiers = ?app.tiers,
        models = ?app.models,
        allocator = %allocator::described(),
        "anonymizer listening on http://{} (metrics on http://{}/metrics)",
        settings.listen,
        settings.metrics_listen
    );
    // The file read at start is reloaded on SIGHUP and when it changes (the built-in
    // default on SIGHUP only).
    let watched = (source != "built-in default").then(|| std::path::PathBuf::from(&source));
    if let Err(e) = app.watch_config(watched) {
        eprintln!("anonymizer: cannot watch the config for reloads: {e}");
        return ExitCode::from(2);
    }
    // Returns after a graceful shutdown (SIGTERM) with exit code 0.
    app.server.run_forever()
}

/// Splits `--config PATH` (and `--config=PATH`) from the other arguments.
fn split_config_args(args: &[String]) -> (Vec<String>, Vec<String>) {
    let (mut config, mut other) = (Vec::new(), Vec::new());
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--config" || arg == "-c" {
            config.push(arg.clone());
            config.extend(iter.next().cloned());
        } else if arg.starts_with("--config=") {
            config.push(arg.clone());
        } else {
            other.push(arg.clone());
        }
    }
    (config, other)
}

/// `--config PATH` from the arguments, else `ANONYMIZER_CONFIG`.
fn config_path(args: &[String]) -> Result<Option<String>, String> {
    let mut path = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--config" | "-c" => match iter.next() {
                Some(p) => path = Some(p.clone()),
                None => return Err("--config needs a path".into()),
            },
            other => {
                if let Some(p) = other.strip_prefix("--config=") {
                    path = Some(p.to_owned());
                } else {
                    return Err("unknown argument".into());
                }
            }
        }
    }
    Ok(path.or_else(|| env::process_lookup(env::CONFIG)))
}
