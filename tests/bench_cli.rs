//! `chuhan bench` and `chuhan compiler` end to end: Stockfish's bench
//! arguments and summary lines, bad arguments, position files read safely.

mod common;

use common::scratch_dir;

use std::process::Command;
use std::time::{Duration, Instant};

fn chuhan(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan")).args(args).output().expect("spawn chuhan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `<nodes> nodes <nps> nps` last line, and the per-position lines' nodes.
fn parse_stdout(out: &str) -> (u64, Vec<u64>) {
    let lines: Vec<&str> = out.lines().collect();
    let last: Vec<&str> = lines.last().expect("output").split_whitespace().collect();
    assert_eq!(last.len(), 4, "{out}");
    assert_eq!((last[1], last[3]), ("nodes", "nps"), "{out}");
    assert!(last[2].parse::<u64>().is_ok(), "{out}");
    let per: Vec<u64> =
        lines[..lines.len() - 2].iter().map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap()).collect();
    assert!(lines[lines.len() - 2].starts_with("time "), "{out}");
    (last[0].parse().unwrap(), per)
}

/// Stockfish's three summary lines on stderr: (time, nodes, nps).
fn parse_stderr(err: &str) -> (u64, u64, u64) {
    let field = |prefix: &str| -> u64 {
        let line = err.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no '{prefix}' in {err}"));
        line[prefix.len()..].trim().parse().unwrap_or_else(|_| panic!("{line}"))
    };
    (field("Total time (ms) : "), field("Nodes searched  : "), field("Nodes/second    : "))
}

#[test]
fn default_bench_is_the_signature_run_with_stockfish_summary() {
    let (code, out, err) = chuhan(&["bench"]);
    assert_eq!(code, 0, "{err}");
    let (nodes, per) = parse_stdout(&out);
    assert_eq!(per.len(), chuhan::fen::BENCH_FENS.len());
    assert_eq!(per.iter().sum::<u64>(), nodes);
    let (_, err_nodes, _) = parse_stderr(&err);
    assert_eq!(err_nodes, nodes);
    // The spec behind a bare `bench` is the signature's: 16 MB, 1 thread, depth 11.
    let spec = chuhan::bench::BenchSpec::default();
    assert_eq!((spec.hash_mb, spec.threads, spec.limit), (16, 1, 11));
}

#[test]
fn explicit_arguments_in_stockfish_order() {
    let (code, out, err) = chuhan(&["bench", "16", "1", "5", "default", "depth"]);
    assert_eq!(code, 0, "{err}");
    let (nodes, per) = parse_stdout(&out);
    assert_eq!(nodes, chuhan::bench::run_bench(5).nodes, "the CLI and the library agree");
    assert_eq!(per.len(), chuhan::fen::BENCH_FENS.len());
    let (_, err_nodes, nps) = parse_stderr(&err);
    assert_eq!(err_nodes, nodes);
    assert!(nps > 0);
    // A larger table and depth 5 from the current (start) position only.
    let (code, out, err) = chuhan(&["bench", "32", "1", "5", "current"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.lines().next().unwrap().ends_with(chuhan::START_FEN), "{out}");
    // Node limits bound each position's search.
    let (code, out, err) = chuhan(&["bench", "16", "1", "3000", "default", "nodes"]);
    assert_eq!(code, 0, "{err}");
    let (_, per) = parse_stdout(&out);
    assert!(per.iter().all(|&n| (1..=3000 + 2048).contains(&n)), "{per:?}");
    // A movetime limit: 20 ms per position, well under a second for all.
    let start = Instant::now();
    let (code, out, err) = chuhan(&["bench", "16", "2", "20", "default", "movetime"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(parse_stdout(&out).1.len(), chuhan::fen::BENCH_FENS.len());
    let (ms, _, _) = parse_stderr(&err);
    assert!(ms >= 20 * chuhan::fen::BENCH_FENS.len() as u64 - 48, "{ms} ms");
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn position_files() {
    let dir = scratch_dir("bench-cli");
    let file = dir.path().join("two.epd");
    std::fs::write(
        &file,
        "# two positions\n\
         rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
         \n\
         4k4/9/9/9/9/9/9/9/9/3K1R3 w - - bm f0f9; id \"mate\";\n",
    )
    .unwrap();
    let (code, out, err) = chuhan(&["bench", "16", "1", "4", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[1].contains("4k4/9/9/9/9/9/9/9/9/3K1R3 w"), "{out}");
    // A FIFO, a device, a directory, a missing file, a bad line, an empty file.
    let fifo = dir.path().join("bench.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let bad = dir.path().join("bad.epd");
    std::fs::write(&bad, "rnbakabnr/9/1c5c1 w\n").unwrap();
    let empty = dir.path().join("empty.epd");
    std::fs::write(&empty, "# nothing\n").unwrap();
    let start = Instant::now();
    for (path, why) in [
        (fifo.to_str().unwrap(), "is not a regular file (it is a FIFO)"),
        ("/dev/zero", "is not a regular file (it is a character device)"),
        (dir.path().to_str().unwrap(), "is not a regular file (it is a directory)"),
        ("/nonexistent/bench.epd", "cannot read /nonexistent/bench.epd"),
        (bad.to_str().unwrap(), "bad position"),
        (empty.to_str().unwrap(), "holds no"),
    ] {
        let (code, out, err) = chuhan(&["bench", "16", "1", "4", path]);
        assert_eq!(code, 2, "{path}: {out} {err}");
        assert!(out.is_empty(), "{path}: {out}");
        assert!(err.starts_with("error: ") && err.contains(why), "{path}: {err}");
    }
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn bad_arguments_exit_2_with_a_reason() {
    for (args, why) in [
        (&["bench", "0"][..], "hash size"),
        (&["bench", "11x"], "hash size"),
        (&["bench", "16", "0"], "thread count"),
        (&["bench", "16", "1", "0"], "depth"),
        (&["bench", "16", "1", "99"], "depth"),
        (&["bench", "16", "1", "-1"], "depth"),
        (&["bench", "16", "1", "0", "default", "movetime"], "movetime"),
        (&["bench", "16", "1", "5", "default", "perft"], "limit type"),
    ] {
        let (code, out, err) = chuhan(args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(why) && err.contains("usage: chuhan bench"), "{args:?}: {err}");
    }
    let (code, _, err) = chuhan(&["bench", "16", "1", "5", "default", "depth", "extra"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn compiler_names_rustc_target_features_and_profile() {
    let (code, out, err) = chuhan(&["compiler"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim_end(), chuhan::build_info::compiler_text());
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("Chuhan "), "{out}");
    assert!(lines[1].starts_with("Compiled by: rustc "), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("Target: ") && l.contains(chuhan::build_info::TARGET)), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("CPU features: ")), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("Profile: ")), "{out}");
    // The commit, when the tests run in a git checkout.
    if let Ok(o) = Command::new("git").args(["rev-parse", "--short=12", "HEAD"]).output() {
        if o.status.success() {
            let head = String::from_utf8_lossy(&o.stdout).trim().to_string();
            assert!(lines[0].contains(&format!("(commit {head})")), "{out} vs {head}");
        }
    }
}
