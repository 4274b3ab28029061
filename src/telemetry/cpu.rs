//! Where a measurement ran: the CPU model and the instruction-set extensions that decide
//! how fast int8 inference is (VNNI makes int8 matrix products several times cheaper
//! than AVX2 alone). Benchmarks and `anonymizer eval` print it beside every speed figure,
//! because the same build differs several-fold between machines of one kind. Also what
//! a benchmark's code cost on a CPU, which a busy machine does not inflate.

/// One line, e.g. `cpu: AMD EPYC (2 threads) | avx2 avx512f avx512_vnni`.
pub fn describe() -> String {
    let threads = std::thread::available_parallelism().map_or(0, usize::from);
    let features = features();
    format!(
        "cpu: {} ({threads} threads) | {}",
        model_name().unwrap_or_else(|| std::env::consts::ARCH.to_owned()),
        if features.is_empty() {
            "no SIMD extension that matters".to_owned()
        } else {
            features.join(" ")
        }
    )
}

/// The extensions that matter for our inference path, detected at run time.
pub fn features() -> Vec<&'static str> {
    let mut found = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        let checks: [(&str, bool); 5] = [
            ("avx2", std::arch::is_x86_feature_detected!("avx2")),
            ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
            (
                "avx512_vnni",
                std::arch::is_x86_feature_detected!("avx512vnni"),
            ),
            ("avx_vnni", leaf7(1).is_some_and(|r| r.eax & (1 << 4) != 0)),
            ("amx_int8", leaf7(0).is_some_and(|r| r.edx & (1 << 25) != 0)),
        ];
        found.extend(checks.iter().filter(|(_, on)| *on).map(|(name, _)| *name));
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            found.push("neon");
        }
        if std::arch::is_aarch64_feature_detected!("dotprod") {
            found.push("dotprod");
        }
    }
    found
}

/// `model name` from `/proc/cpuinfo` (Linux); `None` elsewhere.
fn model_name() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    info.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_owned())
}

/// CPUID leaf 7, `subleaf` 0 or 1, for the feature bits the standard library cannot
/// detect on our minimum Rust version (`None` when the CPU has no such subleaf). Read
/// from CPUID itself, not `/proc/cpuinfo`: that is what ONNX Runtime reads, and what a
/// CPU emulator such as valgrind (which `benches/avx2/run.sh` uses to run the AVX2-only
/// kernels) answers for.
#[cfg(target_arch = "x86_64")]
fn leaf7(subleaf: u32) -> Option<std::arch::x86_64::CpuidResult> {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    (__cpuid(0).eax >= 7 && __cpuid_count(7, 0).eax >= subleaf).then(|| __cpuid_count(7, subleaf))
}

/// Mean on-CPU time of `f` over `runs` calls (after one warm-up call), in microseconds;
/// `None` where Linux's `schedstat` is not there.
pub fn on_cpu_micros(runs: u32, mut f: impl FnMut()) -> Option<f64> {
    f();
    let start = thread_cpu_ns()?;
    for _ in 0..runs {
        f();
    }
    Some((thread_cpu_ns()? - start) as f64 / f64::from(runs) / 1000.0)
}

/// Nanoseconds this thread has run on a CPU: wall-clock samples on a shared machine
/// include waits for a core; this does not.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_description_names_the_cpu_and_lists_only_known_extensions() {
        let line = super::describe();
        assert!(line.starts_with("cpu: "), "{line}");
        let known = [
            "avx2",
            "avx512f",
            "avx512_vnni",
            "avx_vnni",
            "amx_int8",
            "neon",
            "dotprod",
        ];
        for f in super::features() {
            assert!(known.contains(&f), "{f}");
        }
    }
}
