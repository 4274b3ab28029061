//! The server's allocator settings, which the server gives itself.
//!
//! Rust's own allocations go to jemalloc (`main.rs` declares it): the rules tiers and a
//! log body's parsing allocate many small vectors a text, which glibc's malloc and free,
//! with their arena locks, served at a sixth of a log route's time. Its settings are
//! [`JEMALLOC`], compiled in; `_RJEM_MALLOC_CONF` in the environment is applied
//! after them.
//!
//! ONNX Runtime's C++ code allocates with glibc. glibc reads its tunables from the
//! environment once, before `main`, so a server started without them (the binary run
//! directly, a unit file, an image of one's own) re-executes itself once with
//! [`TUNABLES`] in `GLIBC_TUNABLES`: the same process id, arguments and environment
//! otherwise. Where the operator set any glibc allocator variable, nothing is changed.

use std::ffi::OsString;

/// jemalloc's settings, compiled into the binary (`main.rs` hands them to jemalloc):
/// two arenas (as for glibc; jemalloc's default is four per core), no random offset
/// within a large allocation's first page (`cache_oblivious`, an extra page each), and
/// thread caches for sizes up to 4 KiB only (jemalloc's default caches up to 32 KiB in
/// each of the server's threads: event loop, blocking pool, rayon). All three left
/// 260–266 MB resident after the served benchmark's shapes a and b, jemalloc's defaults
/// 270–282, one or two of them 274–279 (glibc: 254–262), at no cost in speed measured
/// (`benches/served/README.md`).
pub const JEMALLOC: &str = "narenas:2,cache_oblivious:false,tcache_max:4096";

/// [`JEMALLOC`] as the C string jemalloc reads.
pub const JEMALLOC_C: [u8; JEMALLOC.len() + 1] = {
    let mut c = [0; JEMALLOC.len() + 1];
    let mut i = 0;
    while i < JEMALLOC.len() {
        c[i] = JEMALLOC.as_bytes()[i];
        i += 1;
    }
    c
};

/// Where the operator adds to [`JEMALLOC`]: jemalloc's `MALLOC_CONF`, named with the
/// prefix `tikv-jemalloc-sys` builds it with.
pub const JEMALLOC_VARIABLE: &str = "_RJEM_MALLOC_CONF";

/// Two arenas: glibc's per-thread arenas kept the memory of large buffered answers,
/// and RSS crept up under load (`benches/hardening/run.sh`). A fixed 1 MiB mmap
/// threshold: glibc otherwise raises it each time a large block is freed, and later
/// large buffers then stay resident in its heap; fixed, the served benchmark left
/// ~15 MB less resident, and a model request takes as many page faults and as much CPU
/// time (`benches/served/README.md`).
pub const TUNABLES: &str = "glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=1048576";

/// The variables through which glibc's allocator is configured: any one set means the
/// operator chose.
pub const VARIABLES: &[&str] = &[
    "GLIBC_TUNABLES",
    "MALLOC_ARENA_MAX",
    "MALLOC_ARENA_TEST",
    "MALLOC_MMAP_THRESHOLD_",
    "MALLOC_MMAP_MAX_",
    "MALLOC_TRIM_THRESHOLD_",
    "MALLOC_TOP_PAD_",
];

/// Which of [`VARIABLES`] are set (`lookup`), with their values.
fn set(lookup: impl Fn(&str) -> Option<OsString>) -> Vec<(&'static str, OsString)> {
    (VARIABLES.iter())
        .filter_map(|&name| Some((name, lookup(name)?)))
        .collect()
}

/// Whether the process should restart itself with [`TUNABLES`]: none of
/// [`VARIABLES`] is in its environment (`lookup`).
pub fn wanted(lookup: impl Fn(&str) -> Option<OsString>) -> bool {
    set(lookup).is_empty()
}

/// The allocators this process runs with: jemalloc's settings (the environment's
/// `_RJEM_MALLOC_CONF` applied after them), then glibc's variables, `NAME=value` each
/// (glibc's defaults when none). Logged at start.
pub fn described() -> String {
    let jemalloc = match std::env::var(JEMALLOC_VARIABLE) {
        Ok(more) => format!("{JEMALLOC},{more}"),
        Err(_) => JEMALLOC.to_owned(),
    };
    let set = set(|name| std::env::var_os(name));
    let glibc = if set.is_empty() {
        "defaults".to_owned()
    } else {
        (set.iter())
            .map(|(name, value)| format!("{name}={}", value.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!("jemalloc {jemalloc}; glibc {glibc}")
}

/// Re-executes this binary with [`TUNABLES`] when [`wanted`]; returns only when it was
/// not wanted, or with the error that stopped the re-execution (the server then runs
/// with glibc's defaults).
///
/// # Errors
/// The binary could not be executed again (e.g. `/proc` is not mounted).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn apply() -> Result<(), std::io::Error> {
    use std::os::unix::process::CommandExt;
    if !wanted(|name| std::env::var_os(name)) {
        return Ok(());
    }
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_default();
    // `exec` replaces this process: it returns only on failure.
    Err(std::process::Command::new("/proc/self/exe")
        .arg0(arg0)
        .args(args)
        .env("GLIBC_TUNABLES", TUNABLES)
        .exec())
}

/// Other platforms' allocators have no such settings.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn apply() -> Result<(), std::io::Error> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tunables_are_wanted_only_when_the_operator_set_no_allocator_variable() {
        assert!(wanted(|_| None));
        for name in VARIABLES {
            assert!(
                !wanted(|n: &str| (n == *name).then(|| OsString::from("4"))),
                "{name}"
            );
        }
        // Unrelated variables do not count.
        assert!(wanted(|n: &str| (n == "MALLOC_CHECK_X").then(OsString::new)));
    }
}
