//! Records how the binary was built, for `chuhan compiler`: the compiler's
//! version (`rustc -V` of the compiler cargo uses), the target triple, the
//! cargo profile and its LTO setting, the RUSTFLAGS (target CPU) and the git
//! commit. Nothing here changes the generated code.

use std::path::Path;
use std::process::Command;

fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The `lto` value of `[profile.NAME]` in Cargo.toml (a plain reading of the
/// TOML lines, enough for this manifest), overridden by the environment.
fn lto_of(profile: &str) -> String {
    let env = format!("CARGO_PROFILE_{}_LTO", profile.to_ascii_uppercase().replace('-', "_"));
    if let Ok(v) = std::env::var(env) {
        return v;
    }
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap_or_default();
    let mut in_section = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line == format!("[profile.{profile}]");
        } else if in_section {
            if let Some(v) = line.strip_prefix("lto").map(str::trim).and_then(|r| r.strip_prefix('=')) {
                return v.trim().trim_matches('"').to_string();
            }
        }
    }
    "false".to_string()
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-env-changed=RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");

    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = output(Command::new(&rustc).arg("-V")).unwrap_or_else(|| "rustc (version unknown)".to_string());
    println!("cargo:rustc-env=CHUHAN_RUSTC_VERSION={version}");
    println!("cargo:rustc-env=CHUHAN_TARGET={}", std::env::var("TARGET").unwrap_or_default());

    // The profile: the directory cargo builds into (target/<dir>/build/...),
    // "debug" being the `dev` profile.
    let out_dir = std::env::var("OUT_DIR").unwrap_or_default();
    let dir = Path::new(&out_dir)
        .ancestors()
        .find(|p| p.parent().and_then(Path::file_name).is_some_and(|n| n == "build"))
        .and_then(|build_child| build_child.parent()?.parent()?.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("unknown")
        .to_string();
    let profile = if dir == "debug" { "dev".to_string() } else { dir };
    println!("cargo:rustc-env=CHUHAN_PROFILE={profile}");
    println!("cargo:rustc-env=CHUHAN_OPT_LEVEL={}", std::env::var("OPT_LEVEL").unwrap_or_default());
    println!("cargo:rustc-env=CHUHAN_LTO={}", lto_of(&profile));
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default().replace('\u{1f}', " ");
    println!("cargo:rustc-env=CHUHAN_RUSTFLAGS={}", flags.trim());

    // The commit, when built from a git checkout; rebuilt when HEAD moves.
    let commit = output(Command::new("git").args(["rev-parse", "--short=12", "HEAD"]));
    println!("cargo:rustc-env=CHUHAN_GIT_COMMIT={}", commit.as_deref().unwrap_or(""));
    if commit.is_some() {
        let head = output(Command::new("git").args(["rev-parse", "--git-path", "HEAD"]));
        let branch = output(Command::new("git").args(["symbolic-ref", "-q", "HEAD"]));
        let refs = branch.and_then(|b| output(Command::new("git").args(["rev-parse", "--git-path", &b])));
        let packed = output(Command::new("git").args(["rev-parse", "--git-path", "packed-refs"]));
        for p in [head, refs, packed].into_iter().flatten() {
            if Path::new(&p).exists() {
                println!("cargo:rerun-if-changed={p}");
            }
        }
    }
}
