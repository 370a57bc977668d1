//! `chuhan datagen` and `chuhan tune` from the command line: a tiny run whose
//! file parses back (legal positions, legal best moves, one result per
//! game), the same file for 1 and 2 threads, SIGINT keeping complete
//! records, and the tuner writing a weights.rs, refusing a FIFO and a
//! truncated file with an error instead of hanging.

mod common;

use common::scratch_dir;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chuhan::tune::record::Record;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chuhan"))
}

fn datagen(out: &PathBuf, threads: u32, seed: u64) -> String {
    let st = bin()
        .args(["datagen", "--games", "4", "--nodes", "300", "--max-plies", "40", "--seed"])
        .arg(seed.to_string())
        .args(["--threads", &threads.to_string(), "-o"])
        .arg(out)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let err = String::from_utf8_lossy(&st.stderr);
    assert!(err.contains("positions/s") && err.contains("ETA"), "progress line: {err}");
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn datagen_writes_parsable_deterministic_records() {
    let dir = scratch_dir("tune-cli");
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    let one = datagen(&a, 1, 3);
    let two = datagen(&b, 2, 3);
    assert_eq!(one, two, "the file depends on the seed, not on the threads");
    let mut results = std::collections::HashMap::new();
    let mut n = 0;
    for line in one.lines() {
        let (r, pos) = Record::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(pos.legal_moves().contains(&r.best), "{line}");
        assert_eq!(*results.entry(r.game).or_insert(r.result), r.result, "one result per game: {line}");
        n += 1;
    }
    assert!(n >= 4 && results.len() == 4, "{n} records, {} games", results.len());

    // The tuner reads it and writes a weights.rs that still names everything.
    let w = dir.path().join("weights.rs");
    let st = bin()
        .arg("tune")
        .arg(&a)
        .args(["--epochs", "2", "--batch", "64", "--threads", "2", "-o"])
        .arg(&w)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&st.stderr);
    assert!(st.status.success(), "{err}");
    assert!(err.contains("epoch 2/2") && err.contains("K = "), "{err}");
    let text = std::fs::read_to_string(&w).unwrap();
    for name in ["pub const MATERIAL:", "pub const PST_SOLDIER:", "pub const KING_ATTACK:", "pub const SEE_VALUE:"] {
        assert!(text.contains(name), "{name}");
    }
}

#[test]
fn tune_refuses_bad_inputs_without_hanging() {
    let dir = scratch_dir("tune-cli");
    let bad = |path: &PathBuf, what: &str| {
        let start = Instant::now();
        let st = bin().arg("tune").arg(path).args(["-o"]).arg(dir.path().join("never.rs")).output().unwrap();
        assert_eq!(st.status.code(), Some(2), "{what}");
        assert!(start.elapsed() < Duration::from_secs(20), "{what}");
        String::from_utf8_lossy(&st.stderr).to_string()
    };
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    if made {
        assert!(bad(&fifo, "fifo").contains("not a regular file"));
    }
    let line = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;18;h2e2;0.5;-;0\n";
    let cut = dir.path().join("cut.txt");
    std::fs::write(&cut, &line.repeat(3)[..2 * line.len() + 30]).unwrap();
    assert!(bad(&cut, "cut").contains("line 3 is truncated"));
    let garbage = dir.path().join("garbage.txt");
    std::fs::write(&garbage, format!("{line}not a record\n")).unwrap();
    assert!(bad(&garbage, "garbage").contains("line 2"));
    assert!(bad(&dir.path().join("missing.txt"), "missing").contains("cannot open"));
}

#[cfg(unix)]
#[test]
fn sigint_keeps_complete_records() {
    let dir = scratch_dir("tune-cli");
    let out = dir.path().join("int.txt");
    let mut child = bin()
        .args(["datagen", "--games", "100000", "--nodes", "500", "--threads", "2", "-o"])
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for some games to be written.
    let start = Instant::now();
    while std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0) == 0 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let st = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(st.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'));
    assert!(text.lines().count() > 0);
    for line in text.lines() {
        Record::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
}
