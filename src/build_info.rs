//! How this binary was built: `chuhan compiler` and the protocol's `compiler`
//! command print [`compiler_text`]. The facts come from `build.rs` (compiler
//! version, target, profile, RUSTFLAGS, git commit) and from `cfg!` (the CPU
//! features the code was compiled for).

/// Crate version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// `rustc -V` of the compiler that built the crate.
pub const RUSTC_VERSION: &str = env!("CHUHAN_RUSTC_VERSION");
/// Target triple.
pub const TARGET: &str = env!("CHUHAN_TARGET");
/// Cargo profile (`dev`, `release`, ...).
pub const PROFILE: &str = env!("CHUHAN_PROFILE");
/// Optimisation level of the profile.
pub const OPT_LEVEL: &str = env!("CHUHAN_OPT_LEVEL");
/// The profile's `lto` setting.
pub const LTO: &str = env!("CHUHAN_LTO");
/// RUSTFLAGS of the build (space-separated; `-C target-cpu=...` for `make ARCH=...`).
pub const RUSTFLAGS: &str = env!("CHUHAN_RUSTFLAGS");
/// Git commit (12 hex digits), empty outside a git checkout.
pub const GIT_COMMIT: &str = env!("CHUHAN_GIT_COMMIT");

/// The CPU features that matter for speed and whether the code was compiled
/// to use them.
pub fn cpu_features() -> Vec<(&'static str, bool)> {
    vec![
        ("sse2", cfg!(target_feature = "sse2")),
        ("ssse3", cfg!(target_feature = "ssse3")),
        ("sse4.1", cfg!(target_feature = "sse4.1")),
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("lzcnt", cfg!(target_feature = "lzcnt")),
        ("bmi1", cfg!(target_feature = "bmi1")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx", cfg!(target_feature = "avx")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("fma", cfg!(target_feature = "fma")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("neon", cfg!(target_feature = "neon")),
    ]
}

/// The target CPU named in RUSTFLAGS (`-C target-cpu=X`), if any.
pub fn target_cpu() -> Option<&'static str> {
    RUSTFLAGS.split_whitespace().find_map(|w| w.strip_prefix("target-cpu=").or_else(|| w.strip_prefix("-Ctarget-cpu=")))
}

/// The text of `compiler`: one fact per line.
pub fn compiler_text() -> String {
    let commit = if GIT_COMMIT.is_empty() { String::new() } else { format!(" (commit {GIT_COMMIT})") };
    let enabled: Vec<&str> = cpu_features().into_iter().filter(|&(_, on)| on).map(|(n, _)| n).collect();
    let enabled = if enabled.is_empty() { "none".to_string() } else { enabled.join(" ") };
    let flags = if RUSTFLAGS.is_empty() { "(none)" } else { RUSTFLAGS };
    format!(
        "Chuhan {VERSION}{commit}\n\
         Compiled by: {RUSTC_VERSION}\n\
         Target: {TARGET}, target-cpu {}\n\
         CPU features: {enabled}\n\
         Profile: {PROFILE} (opt-level {OPT_LEVEL}, lto {LTO}, debug assertions {})\n\
         RUSTFLAGS: {flags}",
        target_cpu().unwrap_or("default"),
        if cfg!(debug_assertions) { "on" } else { "off" },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_text_names_the_build() {
        let text = compiler_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6, "{text}");
        assert!(lines[0].starts_with(&format!("Chuhan {}", env!("CARGO_PKG_VERSION"))), "{text}");
        assert!(lines[1].starts_with("Compiled by: rustc 1."), "{text}");
        assert!(lines[2].starts_with(&format!("Target: {TARGET}")) && !TARGET.is_empty(), "{text}");
        // What cfg! says is what the compiler was told: sse2 is in every x86-64 baseline.
        if cfg!(target_arch = "x86_64") {
            assert!(lines[3].contains("sse2"), "{text}");
        }
        assert_eq!(lines[3].contains("avx2"), cfg!(target_feature = "avx2"), "{text}");
        let profile = if cfg!(debug_assertions) { "debug assertions on" } else { "debug assertions off" };
        assert!(lines[4].contains(profile), "{text}");
        // `cargo test --release` builds with the release profile, whose lto is set.
        if PROFILE == "release" {
            assert!(lines[4].contains("lto true"), "{text}");
        }
    }
}
