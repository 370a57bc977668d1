//! `chuhan book`: build the binary book, list book moves, write the opening suite.

use std::process::ExitCode;

use chuhan::book::{self, OpeningBook};
use chuhan::position::Position;

use super::{read_text, write_file, BookCommand};

pub fn run_book(action: BookCommand) -> ExitCode {
    let result = match action {
        BookCommand::Build { input, output, verify_depth, verify_limit } => {
            book_build(&input, &output, verify_depth, verify_limit)
        }
        BookCommand::Probe { fen, moves, book } => book_probe(&fen, &moves, book.as_deref()),
        BookCommand::Suite { input, output, depth, limit } => book_suite(&input, &output, depth, limit),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Reads and parses a book text source (`book/openings.txt` format).
fn read_book_lines(input: &std::path::Path) -> Result<Vec<book::text::OpeningLine>, ExitCode> {
    let text = read_text(input)?;
    book::text::parse_lines(&text).map_err(|e| {
        eprintln!("error: {}: {e}", input.display());
        ExitCode::from(2)
    })
}

fn book_build(
    input: &std::path::Path,
    output: &std::path::Path,
    verify_depth: Option<u32>,
    verify_limit: i32,
) -> Result<(), ExitCode> {
    let lines = read_book_lines(input)?;
    let (book, stats) = book::text::build_from_lines(&lines);
    if book.len() > book::MAX_RECORDS as usize {
        eprintln!("error: {} records, more than a book may hold ({})", book.len(), book::MAX_RECORDS);
        return Err(ExitCode::from(2));
    }
    write_file(output, &book.to_bytes())?;
    if let Some(depth) = verify_depth {
        let mut scorer = book::verify::Scorer::new(depth, 16);
        let bad = book::verify::verify_lines(&lines, &mut scorer, verify_limit, |done, total| {
            if done % 50 == 0 || done == total {
                eprintln!("verified {done}/{total} lines");
            }
        });
        for u in &bad {
            println!(
                "line {}: {} {}: last position scores {:+} for Red at depth {depth} (limit {verify_limit})",
                u.line, u.ecco, u.name, u.score_red
            );
        }
        println!("{} of {} lines beyond {verify_limit} at depth {depth}", bad.len(), lines.len());
    }
    println!(
        "{} lines, {} plies, {} positions, {} records -> {}",
        stats.lines,
        stats.plies,
        stats.positions,
        stats.records,
        output.display()
    );
    Ok(())
}

fn book_probe(fen: &str, moves: &[String], path: Option<&std::path::Path>) -> Result<(), ExitCode> {
    let book = match path {
        Some(p) => OpeningBook::load(p),
        None => OpeningBook::embedded(),
    }
    .map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })?;
    let mut pos = Position::from_fen(fen).map_err(|e| {
        eprintln!("error: invalid FEN: {e}");
        ExitCode::from(2)
    })?;
    for text in moves.iter().filter(|t| !t.is_empty()) {
        let m = pos.parse_move(text).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::from(2)
        })?;
        pos.make_move(m);
    }
    for (m, w) in book.moves(&pos) {
        println!("{m} {w}");
    }
    Ok(())
}

fn book_suite(
    input: &std::path::Path,
    output: &std::path::Path,
    depth: Option<u32>,
    limit: i32,
) -> Result<(), ExitCode> {
    let lines = read_book_lines(input)?;
    let cands = book::suite::candidates(&lines);
    let total = cands.len();
    let (cands, filter) = match depth {
        Some(d) => {
            let mut scorer = book::verify::Scorer::new(d, 16);
            let mut done = 0;
            let kept = book::suite::select(
                cands,
                |p| {
                    done += 1;
                    if done % 100 == 0 {
                        eprintln!("scored {done}/{total}");
                    }
                    Some(scorer.score(p))
                },
                limit,
            );
            let note = format!(
                "Scored by Chuhan's search at depth {d} (side to move's view); kept {} of {total} candidates \
                 with |score| <= {limit}.",
                kept.len()
            );
            (kept, note)
        }
        None => (
            cands,
            format!(
                "UNSCORED candidates: the |score| <= {limit} balance filter (chuhan book suite --depth D)\n\
                 has not been applied."
            ),
        ),
    };
    let header = format!(
        "Chuhan opening suite: {} distinct positions {}-{} plies into the lines of {}.\n\
         Format: <FEN> ; <ECCO> <name> [; score <s>]. Mirror images appear once.\n\
         Order: round-robin over the ECCO classes (A0, A1, ..., E4), so any prefix spans the openings.\n{filter}",
        cands.len(),
        book::suite::MIN_PLY,
        book::suite::MAX_PLY,
        input.display(),
    );
    let cands = book::suite::interleave(cands);
    write_file(output, book::suite::render(&cands, &header).as_bytes())?;
    println!("{} positions -> {}", cands.len(), output.display());
    Ok(())
}
