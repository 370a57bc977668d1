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
//! WXF notation ([`wxf`]) is the same system with Latin letters (`K A E H R C
//! P`), Arabic file numbers, `+` forward, `-` back and `=` sideways (`C2=5` =
//! 炮二平五; the WXF's own sheet writes `.` for sideways, which the reader
//! accepts too). Tandem pieces put `+` (front) or `-` (rear) in place of the
//! origin file (`R++1` = 前车进一); three pawns on a file: front `P+`, middle
//! by its file as usual, rear `P-`; four or five: `++` and `--` for the
//! outermost, `P+`/`P-` next to them, the middle one by file; pawns tandem on
//! two or more files: the file number replaces the letter (`3+=4`, `33=4`).
//!
//! [`parse_any`] reads a move written in ICCS, Chinese (simplified or
//! traditional characters, Chinese or Arabic or full-width numerals) or WXF,
//! detecting the notation per move: it formats every legal move and keeps the
//! one whose text matches.

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

/// The same-kind pieces of the mover on the origin file of `from`, front
/// first, and the index of `from` among them.
fn tandem(pos: &Position, color: Color, kind: PieceKind, from: Square) -> (usize, usize) {
    let mut on_file: Vec<Square> = pos.board().squares_of(color, kind).filter(|s| s.file() == from.file()).collect();
    on_file.sort_by_key(|&s| std::cmp::Reverse(advance(color, s)));
    (on_file.len(), on_file.iter().position(|&s| s == from).unwrap_or(0))
}

/// WXF letter of a piece kind.
fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

/// WXF notation of `mv` in `pos` (`C2=5`, `H8+7`, `R++1`), or `None` when no
/// piece of the side to move stands on the origin.
pub(crate) fn wxf(pos: &Position, mv: Move) -> Option<String> {
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
    let letter = wxf_letter(kind);
    let file = (b'0' + file_number(color, from.file())) as char;
    let (count, index) = tandem(pos, color, kind, from);
    let crowded_files = if kind == PieceKind::Soldier {
        let mut counts = [0u8; 9];
        for s in pos.board().squares_of(color, kind) {
            counts[s.file() as usize] += 1;
        }
        counts.iter().filter(|&&c| c >= 2).count()
    } else {
        1
    };
    let mut text = String::with_capacity(4);
    if count <= 1 {
        text.push(letter);
        text.push(file);
    } else if crowded_files >= 2 {
        // The file replaces the letter; then front, rear, or the file again for a middle pawn.
        text.push(file);
        text.push(if index == 0 {
            '+'
        } else if index + 1 == count {
            '-'
        } else {
            file
        });
    } else {
        let mark = match (count, index) {
            (2, 0) | (3, 0) => "P+",
            (2, _) | (3, 2) => "P-",
            (3, _) => "",
            (_, 0) => "++",
            (_, 1) => "P+",
            (n, i) if i + 1 == n => "--",
            (n, i) if i + 2 == n => "P-",
            _ => "",
        };
        if mark.is_empty() {
            text.push(letter);
            text.push(file);
        } else {
            // Non-pawn tandems (always two) use the piece's own letter.
            let mut chars = mark.chars();
            let first = chars.next().unwrap_or(letter);
            text.push(if first == 'P' { letter } else { first });
            text.extend(chars);
        }
    }
    let (a0, a1) = (advance(color, from), advance(color, to));
    let op = if a1 > a0 {
        '+'
    } else if a1 < a0 {
        '-'
    } else {
        '='
    };
    text.push(op);
    let diagonal = matches!(kind, PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse);
    let n = if op == '=' || diagonal { file_number(color, to.file()) } else { a0.abs_diff(a1) };
    text.push((b'0' + n) as char);
    Some(text)
}

/// A move text reduced to one spelling: Chinese characters, numerals and
/// the WXF operators mapped onto ASCII, so that traditional characters,
/// full-width or Arabic numerals and `.`/`=` compare equal.
fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.trim().trim_end_matches(['!', '?', '#']).chars() {
        let m = match c {
            '帅' | '帥' | '将' | '將' | 'K' | 'k' => 'K',
            '仕' | '士' | 'A' | 'a' => 'A',
            '相' | '象' | 'E' | 'e' | 'B' | 'b' => 'E',
            '马' | '馬' | '傌' | 'H' | 'h' | 'N' | 'n' => 'H',
            '车' | '車' | '俥' | 'R' | 'r' => 'R',
            '炮' | '砲' | '包' | 'C' | 'c' => 'C',
            '兵' | '卒' | 'P' | 'p' => 'P',
            '进' | '進' => '+',
            '退' => '-',
            '平' | '.' | '=' => '=',
            '前' => 'F',
            '后' | '後' => 'L',
            '中' => 'M',
            '一' | '１' => '1',
            '二' | '２' => '2',
            '三' | '３' => '3',
            '四' | '４' => '4',
            '五' | '５' => '5',
            '六' | '６' => '6',
            '七' | '７' => '7',
            '八' | '８' => '8',
            '九' | '９' => '9',
            c if c.is_whitespace() => continue,
            c => c,
        };
        out.push(m);
    }
    out
}

/// The move `text` denotes in `pos`, in ICCS (`h2e2`, also `H2-E2`), Chinese
/// (`炮二平五`, `馬8進7`) or WXF (`C2=5`, `C2.5`); `None` when it names no legal
/// move (or, in a malformed record, more than one).
pub(crate) fn parse_any(pos: &Position, text: &str) -> Option<Move> {
    let t = text.trim();
    let iccs: String = t.chars().filter(|&c| c != '-').collect::<String>().to_ascii_lowercase();
    if iccs.len() == 4 && iccs.is_ascii() {
        if let Ok(m) = pos.parse_move(&iccs) {
            return Some(m);
        }
    }
    let want = normalize(t);
    if want.is_empty() {
        return None;
    }
    let mut found = None;
    for &m in pos.legal_moves().iter() {
        let matches = chinese(pos, m).is_some_and(|c| normalize(&c) == want)
            || wxf(pos, m).is_some_and(|w| normalize(&w) == want);
        if matches {
            if found.is_some_and(|f| f != m) {
                return None;
            }
            found = Some(m);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position after `moves` from `fen` (or the start), and `last` parsed there.
    fn before(fen: Option<&str>, moves: &[&str], last: &str) -> (Position, Move) {
        let mut pos = match fen {
            Some(f) => Position::from_fen(f).unwrap(),
            None => Position::startpos(),
        };
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let mv = pos.parse_move(last).unwrap();
        (pos, mv)
    }

    fn cn(fen: Option<&str>, moves: &[&str], last: &str) -> String {
        let (pos, mv) = before(fen, moves, last);
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

    fn wx(fen: Option<&str>, moves: &[&str], last: &str) -> String {
        let (pos, mv) = before(fen, moves, last);
        let text = wxf(&pos, mv).unwrap();
        // Every written form reads back as the same move.
        assert_eq!(parse_any(&pos, &text), Some(mv), "{text}");
        assert_eq!(parse_any(&pos, &chinese(&pos, mv).unwrap()), Some(mv));
        text
    }

    #[test]
    fn wxf_moves() {
        assert_eq!(wx(None, &[], "h2e2"), "C2=5");
        assert_eq!(wx(None, &["h2e2"], "h9g7"), "H8+7");
        assert_eq!(wx(None, &[], "g0e2"), "E3+5");
        assert_eq!(wx(None, &[], "f0e1"), "A4+5");
        assert_eq!(wx(None, &[], "e0e1"), "K5+1");
        assert_eq!(wx(None, &["i0i1", "a9a8"], "i1i0"), "R1-1");
        assert_eq!(wx(None, &["h2e2"], "c6c5"), "P3+1");
        let fen = "3k5/9/9/9/4R4/9/9/4R4/9/5K3 w - - 0 1";
        assert_eq!(wx(Some(fen), &[], "e5e6"), "R++1");
        assert_eq!(wx(Some(fen), &[], "e2c2"), "R-=7");
        let fen = "5k3/9/2n6/9/2n6/9/9/9/9/3K5 b - - 0 1";
        assert_eq!(wx(Some(fen), &[], "c7d9"), "H--4");
        // Three pawns on a file: front, middle by file, rear.
        let fen = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(wx(Some(fen), &[], "e7e8"), "P++1");
        assert_eq!(wx(Some(fen), &[], "e6d6"), "P5=6");
        assert_eq!(wx(Some(fen), &[], "e5f5"), "P-=4");
        // Five pawns on a file.
        let fen = "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(wx(Some(fen), &[], "c9d9"), "++=6");
        assert_eq!(wx(Some(fen), &[], "c8d8"), "P+=6");
        assert_eq!(wx(Some(fen), &[], "c7d7"), "P7=6");
        assert_eq!(wx(Some(fen), &[], "c6d6"), "P-=6");
        assert_eq!(wx(Some(fen), &[], "c5d5"), "--=6");
        // Pawns doubled on two files: the file replaces the letter.
        let fen = "3k5/9/2P1P4/2P1P4/9/9/9/9/9/5K3 w - - 0 1";
        assert_eq!(wx(Some(fen), &[], "c7c8"), "7++1");
        assert_eq!(wx(Some(fen), &[], "e6f6"), "5-=4");
    }

    #[test]
    fn parse_any_reads_every_spelling() {
        let pos = Position::startpos();
        let h2e2 = pos.parse_move("h2e2").unwrap();
        for text in ["h2e2", "H2-E2", "炮二平五", "砲二平五", "炮2平5", "炮２平５", "C2=5", "C2.5", "c2.5", "C2=5!"]
        {
            assert_eq!(parse_any(&pos, text), Some(h2e2), "{text}");
        }
        let mut pos = Position::startpos();
        pos.make_move(h2e2);
        let h9g7 = pos.parse_move("h9g7").unwrap();
        for text in ["马8进7", "馬8進7", "马８进７", "H8+7", "N8+7"] {
            assert_eq!(parse_any(&pos, text), Some(h9g7), "{text}");
        }
        // Not moves, or not legal here.
        for text in ["", "炮二平四x", "马2进3进", "C5=4", "h2h9x", "炮五进四", "zz"] {
            assert_eq!(parse_any(&pos, text), None, "{text}");
        }
    }

    #[test]
    fn every_legal_move_round_trips_in_random_games() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                for &m in moves.iter() {
                    let c = chinese(&pos, m).unwrap();
                    let w = wxf(&pos, m).unwrap();
                    assert_eq!(parse_any(&pos, &c), Some(m), "{c} in {}", pos.to_fen());
                    assert_eq!(parse_any(&pos, &w), Some(m), "{w} in {}", pos.to_fen());
                }
                let Some(&m) = moves.choose(&mut rng) else { break };
                pos.make_move(m);
            }
        }
    }
}
