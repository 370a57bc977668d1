//! Chinese move notation (中文纵线记谱) for game records, docs/rules.md section 5:
//! piece name, file of origin, verb 进 (forward) / 退 (back) / 平 (sideways),
//! then the destination file (sideways moves and the diagonal movers: advisor,
//! elephant, horse) or the number of ranks moved (general, chariot, cannon,
//! soldier moving straight). Red numbers files 一..九 from its own right (file
//! `i` = 一); Black numbers files 1..9 from its own right (file `a` = 1).
//!
//! Two pieces of one kind on one file are told apart by 前/后 (front/rear,
//! seen from the mover), three soldiers by 前/中/后, four or five by 一..五
//! counted from the front (CXA 2011 record conventions). When soldiers stand
//! two or more on each of several files, the file number replaces the piece
//! name after the position word (前七进一), as the CXA appendix does.
//!
//! This module only formats a legal move of a given position; it does not
//! parse Chinese notation.

use crate::board::{Color, PieceKind, Square};
use crate::moves::Move;
use crate::position::Position;

const RED_NUMERALS: [&str; 10] = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const BLACK_NUMERALS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/// The file number (1..=9) of `file` (0 = `a`) from `color`'s own right.
fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

fn numeral(color: Color, n: u8) -> &'static str {
    let n = n.min(9) as usize;
    match color {
        Color::Red => RED_NUMERALS[n],
        Color::Black => BLACK_NUMERALS[n],
    }
}

/// How far forward `sq` is from `color`'s side (0..=9).
fn advance(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

/// Chinese notation of `mv` in `pos`, or `None` when no piece of the side to
/// move stands on the origin (the move must come from this position).
pub fn chinese(pos: &Position, mv: Move) -> Option<String> {
    let (from, to) = (mv.from(), mv.to());
    if !from.is_on_board() || !to.is_on_board() {
        return None;
    }
    let piece = pos.piece_at(from)?;
    let color = piece.color();
    if color != pos.side_to_move() {
        return None;
    }
    let kind = piece.kind();
    let name = piece.chinese();

    // Same-kind pieces of the mover on the origin file, front first.
    let board = pos.board();
    let mut on_file: Vec<Square> = board.squares_of(color, kind).filter(|s| s.file() == from.file()).collect();
    on_file.sort_by_key(|&s| std::cmp::Reverse(advance(color, s)));
    let index = on_file.iter().position(|&s| s == from).unwrap_or(0);

    let mut text = String::with_capacity(16);
    if on_file.len() <= 1 {
        text.push_str(name);
        text.push_str(numeral(color, file_number(color, from.file())));
    } else {
        let word = match (on_file.len(), index) {
            (2, 0) => "前",
            (2, _) => "后",
            (3, 0) => "前",
            (3, 1) => "中",
            (3, _) => "后",
            (_, i) => RED_NUMERALS[(i + 1).min(9)],
        };
        text.push_str(word);
        let crowded_files = if kind == PieceKind::Soldier {
            let mut counts = [0u8; 9];
            for s in board.squares_of(color, kind) {
                counts[s.file() as usize] += 1;
            }
            counts.iter().filter(|&&c| c >= 2).count()
        } else {
            1
        };
        if crowded_files >= 2 {
            text.push_str(numeral(color, file_number(color, from.file())));
        } else {
            text.push_str(name);
        }
    }

    let (a0, a1) = (advance(color, from), advance(color, to));
    let verb = if a1 > a0 {
        "进"
    } else if a1 < a0 {
        "退"
    } else {
        "平"
    };
    text.push_str(verb);
    let diagonal = matches!(kind, PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse);
    let n = if verb == "平" || diagonal { file_number(color, to.file()) } else { a0.abs_diff(a1) };
    text.push_str(numeral(color, n));
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cn(fen: Option<&str>, moves: &[&str], last: &str) -> String {
        let mut pos = match fen {
            Some(f) => Position::from_fen(f).unwrap(),
            None => Position::startpos(),
        };
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let mv = pos.parse_move(last).unwrap();
        chinese(&pos, mv).unwrap()
    }

    #[test]
    fn opening_moves() {
        assert_eq!(cn(None, &[], "h2e2"), "炮二平五");
        assert_eq!(cn(None, &["h2e2"], "h9g7"), "马8进7");
        assert_eq!(cn(None, &[], "h0g2"), "马二进三");
        assert_eq!(cn(None, &[], "b0c2"), "马八进七");
        assert_eq!(cn(None, &[], "g3g4"), "兵三进一");
        assert_eq!(cn(None, &["h2e2"], "c6c5"), "卒3进1");
        assert_eq!(cn(None, &[], "i0i1"), "车一进一");
        assert_eq!(cn(None, &["i0i1"], "a9a8"), "车1进1");
        assert_eq!(cn(None, &[], "f0e1"), "仕四进五");
        assert_eq!(cn(None, &[], "g0e2"), "相三进五");
        assert_eq!(cn(None, &[], "e0e1"), "帅五进一");
        assert_eq!(cn(None, &["h2e2"], "b7e7"), "炮2平5");
        assert_eq!(cn(None, &["h2e2", "h9g7"], "e2e6"), "炮五进四");
        assert_eq!(cn(None, &["h2e2", "b7e7"], "e2e6"), "炮五进四");
    }

    #[test]
    fn retreats_and_black_moves() {
        // 车一进一 then 车一退一.
        assert_eq!(cn(None, &["i0i1", "a9a8"], "i1i0"), "车一退一");
        assert_eq!(cn(None, &["i0i1", "a9a8", "i1i2"], "a8a9"), "车1退1");
        assert_eq!(cn(None, &["h0g2", "h9g7"], "g2h0"), "马三退二");
        assert_eq!(cn(None, &[], "h2h9"), "炮二进七");
        assert_eq!(cn(None, &["h2e2", "d9e8"], "b2b9"), "炮八进七");
    }

    #[test]
    fn doubled_pieces() {
        // Two Red chariots on file e (五): front and rear.
        let fen = "3k5/9/9/9/4R4/9/9/4R4/9/5K3 w - - 0 1";
        assert_eq!(cn(Some(fen), &[], "e5e6"), "前车进一");
        assert_eq!(cn(Some(fen), &[], "e2c2"), "后车平七");
        // Two Black horses on file c (3): the front one is nearer Red.
        let fen = "5k3/9/2n6/9/2n6/9/9/9/9/3K5 b - - 0 1";
        assert_eq!(cn(Some(fen), &[], "c5b3"), "前马进2");
        assert_eq!(cn(Some(fen), &[], "c7d9"), "后马退4");
        // Three Red soldiers on file e: 前/中/后.
        let fen = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(cn(Some(fen), &[], "e7e8"), "前兵进一");
        assert_eq!(cn(Some(fen), &[], "e6d6"), "中兵平六");
        assert_eq!(cn(Some(fen), &[], "e5f5"), "后兵平四");
        // Soldiers doubled on two files: the file number replaces the name.
        let fen = "3k5/9/2P1P4/2P1P4/9/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(cn(Some(fen), &[], "c7c8"), "前七进一");
        assert_eq!(cn(Some(fen), &[], "e6f6"), "后五平四");
    }

    #[test]
    fn not_a_move_of_the_side_to_move() {
        let pos = Position::startpos();
        assert_eq!(chinese(&pos, Move::from_iccs("h7e7").unwrap()), None);
        assert_eq!(chinese(&pos, Move::from_iccs("e5e6").unwrap()), None);
    }
}
