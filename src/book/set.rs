//! The books an engine probes, in order: what the `bookfiles` / `BookFile`
//! option names (`;`-separated paths; `embedded` names the book compiled
//! into the binary; empty means the embedded book alone).

use std::path::Path;

use super::{BookMove, OpeningBook, ProbeOptions};
use crate::moves::Move;
use crate::position::Position;

/// The `bookfiles` entry that names the book compiled into the binary.
pub(crate) const EMBEDDED_BOOK_NAME: &str = "embedded";

/// Opening books probed in order; the first with a candidate answers.
#[derive(Default)]
pub(crate) struct BookSet {
    books: Vec<(String, OpeningBook)>,
}

impl BookSet {
    /// Loads the books of a `bookfiles` value. A file that cannot be read or
    /// is not a valid book is left out with an error line naming it
    /// (`error: book file '<path>' not used: <why>`); the others still load.
    pub(crate) fn load(value: &str) -> (BookSet, Vec<String>) {
        let mut names: Vec<&str> = value.split(';').map(str::trim).filter(|n| !n.is_empty()).collect();
        if names.is_empty() {
            names.push(EMBEDDED_BOOK_NAME);
        }
        let mut books = Vec::new();
        let mut errors = Vec::new();
        for name in names {
            let loaded = if name.eq_ignore_ascii_case(EMBEDDED_BOOK_NAME) {
                OpeningBook::embedded()
            } else {
                OpeningBook::load(Path::new(name))
            };
            match loaded {
                Ok(book) => books.push((name.to_string(), book)),
                Err(e) => errors.push(format!("error: book file '{}' not used: {e}", path_text(name))),
            }
        }
        (BookSet { books }, errors)
    }

    /// Whether no book is loaded.
    pub(crate) fn is_empty(&self) -> bool {
        self.books.is_empty()
    }

    /// The first book move found, probing the books in order (see [`OpeningBook::probe`]).
    pub(crate) fn probe(
        &self,
        pos: &Position,
        options: ProbeOptions,
        exclude: &dyn Fn(Move) -> bool,
    ) -> Option<BookMove> {
        self.books.iter().find_map(|(_, b)| b.probe(pos, options, exclude))
    }

    /// One line saying which books are in force.
    pub(crate) fn summary(&self) -> String {
        if self.books.is_empty() {
            return "bookfiles: no book loaded; moves are searched".to_string();
        }
        let list: Vec<String> =
            self.books.iter().map(|(n, b)| format!("{} ({} records)", path_text(n), b.len())).collect();
        format!("bookfiles: probing {}", list.join(", then "))
    }
}

/// A book path as printed: whole (paths are long), control characters shown as `?`.
fn path_text(name: &str) -> String {
    name.chars().take(1024).map(|c| if c.is_control() { '?' } else { c }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_good_ones_in_order() {
        let (books, errors) = BookSet::load("");
        assert_eq!(errors.len(), 0);
        assert_eq!(books.books.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), [EMBEDDED_BOOK_NAME]);
        let (books, errors) = BookSet::load(" /nonexistent/a.book ; Embedded ;;/nonexistent/b.book");
        assert_eq!(books.books.len(), 1);
        assert_eq!(errors.len(), 2);
        assert!(errors[0].starts_with("error: book file '/nonexistent/a.book' not used: "), "{errors:?}");
        assert!(errors[1].contains("'/nonexistent/b.book'"), "{errors:?}");
        let (books, errors) = BookSet::load("/nonexistent/a.book");
        assert!(books.is_empty() && errors.len() == 1);
        assert_eq!(books.summary(), "bookfiles: no book loaded; moves are searched");
    }
}
