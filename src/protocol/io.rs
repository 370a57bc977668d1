//! The session's input and output: a reader thread that turns the GUI's
//! bytes into bounded, lossily decoded lines, and one output lock through
//! which every line is written whole and flushed at once, so lines from the
//! session loop and the search thread never interleave.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// Longest input line accepted, in bytes; longer lines are discarded whole.
pub(crate) const MAX_LINE_BYTES: usize = 1 << 20;

/// What the reader thread delivers.
pub(crate) enum Input {
    /// One line, without its terminator, decoded lossily, and when it was read.
    Line(String, Instant),
    /// A line longer than [`MAX_LINE_BYTES`] (discarded): its length and its
    /// first word.
    TooLong(usize, String),
    /// End of input (or a read error).
    End,
}

/// Starts the reader thread. It ends by itself at end of input; if the
/// session ends first (quit), it is left blocked in `read` and dies with the
/// process.
pub(crate) fn spawn_reader<R: Read + Send + 'static>(input: R) -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    let _reader = thread::Builder::new().name("chuhan-reader".into()).spawn(move || {
        let mut reader = BufReader::with_capacity(64 * 1024, input);
        loop {
            let item = read_line(&mut reader);
            let end = matches!(item, Input::End);
            if tx.send(item).is_err() || end {
                break;
            }
        }
    });
    rx
}

/// Reads one line (ended by LF, CR or end of input) of at most
/// [`MAX_LINE_BYTES`] bytes, whatever the bytes.
fn read_line<R: BufRead>(reader: &mut R) -> Input {
    let mut line: Vec<u8> = Vec::new();
    let mut total = 0usize;
    loop {
        let (consumed, done) = match reader.fill_buf() {
            Ok([]) => {
                return if total == 0 {
                    Input::End
                } else if total > MAX_LINE_BYTES {
                    Input::TooLong(total, first_word(&line))
                } else {
                    Input::Line(String::from_utf8_lossy(&line).into_owned(), Instant::now())
                };
            }
            Ok(buf) => {
                // A line ends at LF or CR: CRLF then yields an empty line
                // (ignored), and old CR-only input still reads line by line.
                let (chunk, done) = match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                    Some(i) => (&buf[..i], i + 1),
                    None => (buf, 0),
                };
                if total + chunk.len() <= MAX_LINE_BYTES {
                    line.extend_from_slice(chunk);
                }
                total += chunk.len();
                if done > 0 {
                    (done, true)
                } else {
                    (chunk.len(), false)
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Input::End,
        };
        reader.consume(consumed);
        if done {
            return if total > MAX_LINE_BYTES {
                Input::TooLong(total, first_word(&line))
            } else {
                Input::Line(String::from_utf8_lossy(&line).into_owned(), Instant::now())
            };
        }
    }
}

fn first_word(line: &[u8]) -> String {
    let head = &line[..line.len().min(64)];
    String::from_utf8_lossy(head).split_whitespace().next().unwrap_or("").to_ascii_lowercase()
}

/// The output side shared by the session loop and the search thread.
pub(crate) struct Output {
    pub(crate) writer: Box<dyn Write + Send>,
    /// Whether a search is running and has not printed its final line yet.
    pub(crate) thinking: bool,
}

#[derive(Clone)]
pub(crate) struct Out(Arc<Mutex<Output>>);

impl Out {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Output> {
        // A panic while holding the lock cannot leave a half-written line
        // behind (lines are written whole), so a poisoned lock is still usable.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes one whole line and flushes it. Write errors (the GUI went away)
    /// are ignored: the session ends at end of input anyway.
    pub(crate) fn line(&self, text: &str) {
        let mut o = self.lock();
        write_line(&mut o.writer, text);
    }

    pub(crate) fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

pub(crate) fn write_line(w: &mut Box<dyn Write + Send>, text: &str) {
    let mut buf = String::with_capacity(text.len() + 1);
    buf.push_str(text);
    buf.push('\n');
    let _ = w.write_all(buf.as_bytes());
    let _ = w.flush();
}

impl Out {
    /// An output on `writer`, idle.
    pub(crate) fn new(writer: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(Output { writer, thinking: false })))
    }

    /// Writes several lines under one lock (nothing can come between them).
    pub(crate) fn lines(&self, lines: &[String]) {
        let mut o = self.lock();
        for l in lines {
            write_line(&mut o.writer, l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines_of(input: &[u8]) -> Vec<Input> {
        let mut r = BufReader::with_capacity(7, Cursor::new(input.to_vec()));
        let mut v = Vec::new();
        loop {
            let i = read_line(&mut r);
            let end = matches!(i, Input::End);
            v.push(i);
            if end {
                return v;
            }
        }
    }

    fn text(i: &Input) -> String {
        match i {
            Input::Line(s, _) => s.clone(),
            Input::TooLong(n, w) => format!("<too long {n} {w}>"),
            Input::End => "<end>".to_string(),
        }
    }

    #[test]
    fn reader_cuts_lines_and_decodes_lossily() {
        let got: Vec<String> = lines_of(b"ucci\r\nisready\n\n\xff\xfego\rstop\nlast").iter().map(text).collect();
        assert_eq!(got, ["ucci", "", "isready", "", "\u{fffd}\u{fffd}go", "stop", "last", "<end>"]);
        let mut long = b"Position ".to_vec();
        long.resize(MAX_LINE_BYTES + 10, b'x');
        long.extend_from_slice(b"\nisready\n");
        let got: Vec<String> = lines_of(&long).iter().map(text).collect();
        assert_eq!(
            got,
            [format!("<too long {} position>", MAX_LINE_BYTES + 10), "isready".to_string(), "<end>".to_string()]
        );
    }
}
