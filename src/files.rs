//! Reading the files a user names (books, book sources, opening suites, PGN,
//! bench position lists) without ever blocking or running out of memory.
//!
//! A path given to the engine can be anything: `/dev/zero`, a FIFO nobody
//! writes to, a directory, a terminal, a multi-gigabyte file. [`read_limited`]
//! reads only regular files, opens them with `O_NONBLOCK` (so a path swapped
//! for a FIFO between the check and the open cannot hang the caller either),
//! checks the opened handle again, and reads at most a caller-given number of
//! bytes, which each format derives from its own size limits (for example a
//! book's maximum record count). Every failure is a [`FileError`] whose
//! message names the path and the reason.

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::Path;

/// Default limit for text inputs (book sources, opening suites, PGN, EPD):
/// 64 MiB, far above any real file of these kinds.
pub(crate) const TEXT_LIMIT: u64 = 64 << 20;

/// Why a file was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// The operating system refused (missing file, permissions, ...).
    Io { path: String, message: String },
    /// The path is not a regular file (`kind` says what it is).
    NotRegular { path: String, kind: &'static str },
    /// The file holds more than the format allows.
    TooLarge { path: String, limit: u64 },
    /// A text file that is not UTF-8.
    NotUtf8 { path: String, offset: usize },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            FileError::NotRegular { path, kind } => write!(f, "{path} is not a regular file (it is {kind})"),
            FileError::TooLarge { path, limit } => write!(f, "{path} is larger than {limit} bytes, the limit for it"),
            FileError::NotUtf8 { path, offset } => write!(f, "{path} is not UTF-8 text (bad byte at offset {offset})"),
        }
    }
}

impl std::error::Error for FileError {}

/// What kind of file `meta` describes, for messages.
fn kind_of(meta: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    }
}

fn io_error(path: &Path, e: std::io::Error) -> FileError {
    FileError::Io { path: path.display().to_string(), message: e.to_string() }
}

fn check(path: &Path, meta: &Metadata, limit: u64) -> Result<(), FileError> {
    if !meta.is_file() {
        return Err(FileError::NotRegular { path: path.display().to_string(), kind: kind_of(meta) });
    }
    if meta.len() > limit {
        return Err(FileError::TooLarge { path: path.display().to_string(), limit });
    }
    Ok(())
}

/// Opens `path` for reading if it is a regular file of at most `limit` bytes
/// (never blocks: the type is checked before the open, the open is
/// non-blocking, and the opened handle is checked again).
pub(crate) fn open_regular(path: &Path, limit: u64) -> Result<File, FileError> {
    use std::os::unix::fs::OpenOptionsExt;
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
    check(path, &meta, limit)?;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| io_error(path, e))?;
    let meta = file.metadata().map_err(|e| io_error(path, e))?;
    check(path, &meta, limit)?;
    Ok(file)
}

/// Reads the whole of the regular file `path`, at most `limit` bytes (a file
/// that grows past the limit while it is read is refused too).
pub(crate) fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open_regular(path, limit)?;
    let hint = file.metadata().map(|m| m.len()).unwrap_or(0).min(limit);
    let mut bytes = Vec::with_capacity(hint as usize);
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| io_error(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge { path: path.display().to_string(), limit });
    }
    Ok(bytes)
}

/// [`read_limited`] for UTF-8 text.
pub(crate) fn read_text_limited(path: &Path, limit: u64) -> Result<String, FileError> {
    let bytes = read_limited(path, limit)?;
    String::from_utf8(bytes)
        .map_err(|e| FileError::NotUtf8 { path: path.display().to_string(), offset: e.utf8_error().valid_up_to() })
}

/// [`read_text_limited`] with [`TEXT_LIMIT`].
pub fn read_text(path: &Path) -> Result<String, FileError> {
    read_text_limited(path, TEXT_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::scratch_dir;
    use std::time::{Duration, Instant};

    #[test]
    fn reads_a_regular_file() {
        let scratch = scratch_dir("files-regular");
        let dir = scratch.path();
        let f = dir.join("a.txt");
        std::fs::write(&f, "hello\n").unwrap();
        assert_eq!(read_text(&f).unwrap(), "hello\n");
        assert_eq!(read_limited(&f, 6).unwrap(), b"hello\n");
    }

    #[test]
    fn refuses_a_file_over_the_limit() {
        let scratch = scratch_dir("files-large");
        let dir = scratch.path();
        let f = dir.join("a.txt");
        std::fs::write(&f, "hello\n").unwrap();
        let e = read_limited(&f, 5).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { limit: 5, .. }), "{e:?}");
        assert!(e.to_string().contains("larger than 5 bytes"), "{e}");
    }

    #[test]
    fn refuses_dev_zero_at_once() {
        let start = Instant::now();
        let e = read_limited(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(e, FileError::NotRegular { path: "/dev/zero".into(), kind: "a character device" });
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn refuses_a_directory() {
        let scratch = scratch_dir("files-dir");
        let dir = scratch.path();
        let e = read_text(dir).unwrap_err();
        assert!(matches!(e, FileError::NotRegular { kind: "a directory", .. }), "{e:?}");
    }

    #[test]
    fn refuses_a_fifo_without_blocking() {
        let scratch = scratch_dir("files-fifo");
        let dir = scratch.path();
        let fifo = dir.join("pipe");
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let start = Instant::now();
        let e = read_text(&fifo).unwrap_err();
        assert!(matches!(e, FileError::NotRegular { kind: "a FIFO", .. }), "{e:?}");
        let e = open_regular(&fifo, 10).unwrap_err();
        assert!(matches!(e, FileError::NotRegular { .. }), "{e:?}");
        assert!(start.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn missing_file_and_bad_utf8() {
        let e = read_text(Path::new("/nonexistent/chuhan.txt")).unwrap_err();
        assert!(matches!(e, FileError::Io { .. }), "{e:?}");
        assert!(e.to_string().starts_with("cannot read /nonexistent/chuhan.txt: "), "{e}");
        let scratch = scratch_dir("files-utf8");
        let dir = scratch.path();
        let f = dir.join("a.txt");
        std::fs::write(&f, b"ab\xffcd").unwrap();
        assert_eq!(read_text(&f).unwrap_err(), FileError::NotUtf8 { path: f.display().to_string(), offset: 2 });
    }
}
