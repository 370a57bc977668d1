//! Drives the real `chuhan` binary over pipes for the protocol tests, and
//! gives every test its scratch directory.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use chuhan::position::Position;

/// A running engine process and its output lines.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Every line read so far (for failure messages).
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn chuhan");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines: rx, transcript: Vec::new() }
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next output line, if one arrives within `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((t, l)) => {
                self.transcript.push(l.clone());
                Some((t, l))
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns every line read (the
    /// matching one last) and the arrival time of the match. Panics after `timeout`.
    pub fn expect_until(
        &mut self,
        timeout: Duration,
        what: &str,
        pred: impl Fn(&str) -> bool,
    ) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some((t, l)) => {
                    let hit = pred(&l);
                    got.push(l);
                    if hit {
                        return (got, t);
                    }
                }
                None => panic!("timed out waiting for {what}; transcript tail: {:?}", self.tail()),
            }
        }
    }

    /// Reads lines until the exact line `want`.
    pub fn expect_line(&mut self, want: &str, timeout: Duration) -> Vec<String> {
        self.expect_until(timeout, want, |l| l == want).0
    }

    /// Reads until the final line of a search (`bestmove ...` / `nobestmove`).
    pub fn expect_bestmove(&mut self, timeout: Duration) -> (Vec<String>, Instant) {
        self.expect_until(timeout, "bestmove", |l| l.starts_with("bestmove") || l == "nobestmove")
    }

    /// Asserts that no line arrives within `d`.
    pub fn expect_silence(&mut self, d: Duration) {
        if let Some((_, l)) = self.next_line(d) {
            panic!("unexpected output {l:?}; tail {:?}", self.tail());
        }
    }

    /// `isready` -> `readyok`, returning the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.expect_line("readyok", Duration::from_secs(10));
        lines.pop();
        lines
    }

    /// Reads output for `d` and asserts that no search ended in that time.
    pub fn expect_no_bestmove(&mut self, d: Duration) {
        let deadline = Instant::now() + d;
        while let Some((_, l)) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            assert!(
                !l.starts_with("bestmove") && l != "nobestmove",
                "search ended early: {l:?}; tail {:?}",
                self.tail()
            );
        }
    }

    pub fn tail(&self) -> Vec<String> {
        self.transcript.iter().rev().take(12).rev().cloned().collect()
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("engine did not exit within {timeout:?}; tail {:?}", self.tail());
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The move of a `bestmove m ...` line (None for `nobestmove` / `(none)`).
pub fn best_of(line: &str) -> Option<String> {
    let mut it = line.split_whitespace();
    match (it.next(), it.next()) {
        (Some("bestmove"), Some(m)) if m != "(none)" => Some(m.to_string()),
        _ => None,
    }
}

/// The `ponder` move of a bestmove line.
pub fn ponder_of(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().position(|w| *w == "ponder").and_then(|i| words.get(i + 1)).map(|s| s.to_string())
}

/// The position after `moves` from `fen` (None: start position).
pub fn position_after(fen: Option<&str>, moves: &[&str]) -> Position {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).expect("fen"),
        None => Position::startpos(),
    };
    for m in moves {
        let mv = pos.parse_move(m).expect("legal move in test script");
        pos.make_move(mv);
    }
    pos
}

/// Asserts that `mv` is legal in `pos`, and every `pv` in `info` lines is a
/// legal line from `pos`.
pub fn assert_legal_output(pos: &Position, lines: &[String]) {
    for l in lines {
        let words: Vec<&str> = l.split_whitespace().collect();
        if words.first() == Some(&"info") {
            if let Some(i) = words.iter().position(|w| *w == "pv") {
                let mut p = pos.clone();
                for m in &words[i + 1..] {
                    let mv = p.parse_move(m).unwrap_or_else(|e| panic!("illegal pv move {m} in {l:?}: {e}"));
                    p.make_move(mv);
                }
            }
        }
        if let Some(m) = best_of(l) {
            let mv = pos.parse_move(&m).unwrap_or_else(|e| panic!("illegal bestmove in {l:?}: {e}"));
            if let Some(p) = ponder_of(l) {
                let mut after = pos.clone();
                after.make_move(mv);
                after.parse_move(&p).unwrap_or_else(|e| panic!("illegal ponder move in {l:?}: {e}"));
            }
        }
    }
}

pub const SECS5: Duration = Duration::from_secs(5);
pub const SECS20: Duration = Duration::from_secs(20);

/// A scratch directory for one test, named `chuhan-<tag>-...` in the temp
/// dir and removed when it goes out of scope (also when the test fails).
pub fn scratch_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("chuhan-{tag}-")).tempdir().expect("temp dir")
}
