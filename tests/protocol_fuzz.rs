//! Fuzz-style robustness test: at least 10,000 random and mutated
//! command lines in batches; after each batch the process must be alive and
//! answer `isready` with `readyok`, and every output line must be one of the
//! shapes the protocol allows.

mod common;

use std::time::{Duration, Instant};

use common::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const LINES: usize = 12_000;
const BATCH: usize = 400;

/// Valid lines the mutations start from. No `quit` (it would end the test),
/// no long searches (`go` lines carry small limits; a random mutation that
/// makes one unbounded is stopped by the next command that needs the engine,
/// or by the final `stop`), no large hash sizes.
const SEEDS: &[&str] = &[
    "ucci",
    "uci",
    "isready",
    "stop",
    "ponderhit",
    "ponderhit draw",
    "ucinewgame",
    "position startpos",
    "position startpos moves h2e2 h9g7 h0g2 i9h9",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2",
    "position fen 3k5/9/9/9/9/9/5n3/9/4r4/3rK4 w",
    "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
    "startpos moves c3c4",
    "fen 3k5/4a4/9/9/9/9/9/4B4/4A4/4KA3 w",
    "banmoves h2e2 b2e2",
    "banmoves",
    "go depth 1",
    "go depth 2",
    "go nodes 500",
    "go movetime 5",
    "go time 50 increment 0",
    "go time 40 movestogo 5 opptime 40 oppmovestogo 5",
    "go draw depth 1",
    "go ponder time 30",
    "go wtime 30 btime 30 winc 0 binc 0",
    "go mate 1",
    "go depth 0",
    "go searchmoves h2e2 depth 1",
    "probe startpos moves h2e2",
    "setoption hashsize 2",
    "setoption name Hash value 1",
    "setoption threads 1",
    "setoption name Threads value 2",
    "setoption usemillisec true",
    "setoption batch false",
    "setoption debug true",
    "setoption ponder false",
    "setoption usehash true",
    "setoption usebook false",
    "setoption bookfiles x.obk",
    "setoption idle none",
    "setoption promotion false",
    "setoption pruning large",
    "setoption knowledge medium",
    "setoption randomness none",
    "setoption style normal",
    "setoption newgame",
    "setoption rules chinese",
    "setoption contempt 5",
    "setoption name MultiPV value 2",
    "setoption name Move Overhead value 5",
    "setoption name Clear Hash",
    "setoption resign true",
    "debug on",
];

const WORDS: &[&str] = &[
    "go",
    "depth",
    "infinite",
    "time",
    "movetime",
    "nodes",
    "moves",
    "fen",
    "startpos",
    "position",
    "setoption",
    "name",
    "value",
    "ponder",
    "draw",
    "banmoves",
    "h2e2",
    "a0a1",
    "e9e8",
    "i9i8",
    "zz",
    "-1",
    "0",
    "1",
    "7",
    "99999999999999999999",
    "1e9",
    "true",
    "off",
    "hashsize",
    "threads",
    "\u{fffd}",
    "\u{0}",
    "é",
    "楚汉",
];

fn mutate(rng: &mut StdRng, seed: &str) -> String {
    let mut words: Vec<String> = seed.split_whitespace().map(String::from).collect();
    match rng.gen_range(0..10) {
        0 => {
            // Truncate.
            let n = rng.gen_range(0..=words.len());
            words.truncate(n);
        }
        1 if !words.is_empty() => {
            // Drop a word.
            let i = rng.gen_range(0..words.len());
            words.remove(i);
        }
        2 => {
            // Insert a vocabulary word.
            let i = rng.gen_range(0..=words.len());
            words.insert(i, WORDS[rng.gen_range(0..WORDS.len())].to_string());
        }
        3 if !words.is_empty() => {
            // Replace a word.
            let i = rng.gen_range(0..words.len());
            words[i] = WORDS[rng.gen_range(0..WORDS.len())].to_string();
        }
        4 if words.len() > 1 => {
            let (i, j) = (rng.gen_range(0..words.len()), rng.gen_range(0..words.len()));
            words.swap(i, j);
        }
        5 => {
            // Case flips.
            for w in &mut words {
                if rng.gen_bool(0.5) {
                    *w = w.to_uppercase();
                }
            }
        }
        6 if !words.is_empty() => {
            // Flip characters inside a word.
            let i = rng.gen_range(0..words.len());
            let mut chars: Vec<char> = words[i].chars().collect();
            if !chars.is_empty() {
                let k = rng.gen_range(0..chars.len());
                chars[k] = char::from(rng.gen_range(0x21u8..0x7f));
            }
            words[i] = chars.into_iter().collect();
        }
        _ => {}
    }
    // Random whitespace between words, sometimes CR at the end.
    let seps = [" ", "  ", "\t", " \t "];
    let mut line = String::new();
    if rng.gen_bool(0.1) {
        line.push_str("   ");
    }
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            line.push_str(seps[rng.gen_range(0..seps.len())]);
        }
        line.push_str(w);
    }
    if rng.gen_bool(0.2) {
        line.push('\r');
    }
    line
}

fn random_bytes(rng: &mut StdRng) -> Vec<u8> {
    let n = rng.gen_range(0..200);
    (0..n).map(|_| rng.gen::<u8>()).filter(|&b| b != b'\n').collect()
}

fn is_allowed_output(l: &str) -> bool {
    let first = l.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "id" | "option" | "ucciok" | "uciok" | "readyok" | "info" | "bestmove" | "nobestmove" | "pophash" | "bye"
    )
}

#[test]
fn fuzz_lines_keep_the_engine_serving() {
    let mut rng = StdRng::seed_from_u64(0x4348_5548);
    let mut e = Engine::start();
    e.send("ucci");
    e.expect_line("ucciok", SECS5);
    let start = Instant::now();
    let mut sent = 0;
    let mut batches = 0;
    while sent < LINES {
        let mut chunk: Vec<u8> = Vec::new();
        for _ in 0..BATCH {
            let kind = rng.gen_range(0..100);
            if kind < 10 {
                chunk.extend(random_bytes(&mut rng));
            } else if kind < 12 {
                // A long line.
                let w = WORDS[rng.gen_range(0..WORDS.len())];
                chunk.extend(format!("{w} ").repeat(rng.gen_range(100..3000)).bytes());
            } else if kind < 15 {
                // Empty or blank.
                chunk.extend(b"  \t");
            } else {
                let seed = SEEDS[rng.gen_range(0..SEEDS.len())];
                let line = if rng.gen_bool(0.7) { mutate(&mut rng, seed) } else { seed.to_string() };
                // Neither the seeds nor the words contain `quit`.
                chunk.extend(line.bytes());
            }
            chunk.push(b'\n');
            sent += 1;
        }
        e.send_bytes(&chunk);
        // The engine must stay alive and answer isready after each batch.
        e.send("isready");
        let (lines, _) = e.expect_until(Duration::from_secs(30), "readyok after a batch", |l| l == "readyok");
        for l in &lines {
            assert!(is_allowed_output(l), "unexpected output line {l:?}");
        }
        assert!(e.is_alive());
        batches += 1;
    }
    e.send("stop");
    e.send("isready");
    e.expect_line("readyok", SECS20);
    assert!(e.is_alive());
    // Random `uci` lines may have switched the dialect: switch back for `bye`.
    e.send("ucci");
    e.expect_line("ucciok", SECS5);
    e.send("quit");
    e.expect_until(SECS20, "bye", |l| l == "bye");
    assert!(e.wait_exit(SECS5).success());
    eprintln!("{sent} lines in {batches} batches, {:?}", start.elapsed());
    assert!(sent >= 10_000);
}
