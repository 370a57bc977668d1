//! PGN for xiangqi games: writing the referee's game records (moves in ICCS,
//! Chinese or WXF notation ([`PgnNotation`]), engine evals and move times in
//! comments) and reading opening lines (tag `FEN`, moves in any of the three
//! notations, detected per move) from PGN files.
//!
//! Written tags: `Event`, `Site`, `Date`, `Round`, `White` (Red), `Black`,
//! `Result`, `Variant "xiangqi"`, `FEN` + `SetUp` when the game did not start
//! from the standard position, `TimeControl` (or `WhiteTimeControl` /
//! `BlackTimeControl` when the engines differ), `Termination`, `PlyCount`,
//! `Format` (`ICCS`, `Chinese` or `WXF`, as XQWizard writes it).
//! Move comments: `{炮二平五 +0.12/10 0.052s}` (Chinese notation unless the
//! moves are written in it, score in
//! pawns (centipawns / 100) from the mover's side, or `+M3`/`-M3`; depth;
//! time), `{马8进7 book}` for opening moves. The final comment says why the
//! game ended.
//!
//! This module does no file I/O.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::moves::Move;
use crate::position::Position;

use super::engine::EngineScore;
use super::game::GameRecord;

/// The UTC date as `YYYY.MM.DD`.
pub(crate) fn today() -> String {
    let days = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() / 86_400).unwrap_or(0) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day) (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn score_text(s: EngineScore) -> String {
    match s {
        EngineScore::Cp(c) => format!("{}{:.2}", if c >= 0 { "+" } else { "-" }, c.unsigned_abs() as f64 / 100.0),
        EngineScore::Mate(n) => format!("{}M{}", if n >= 0 { "+" } else { "-" }, n.unsigned_abs()),
    }
}

/// The movetext notation of written PGN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(crate) enum PgnNotation {
    /// ICCS coordinates, `h2e2` (the default; what engines and tools read).
    #[default]
    Iccs,
    /// Chinese, `炮二平五` / `马8进7`.
    Chinese,
    /// WXF, `C2=5` / `H8+7`.
    Wxf,
}

impl PgnNotation {
    /// Parses `iccs`, `chinese` or `wxf` (case-insensitive).
    pub(crate) fn parse(text: &str) -> Option<PgnNotation> {
        match text.to_ascii_lowercase().as_str() {
            "iccs" => Some(PgnNotation::Iccs),
            "chinese" | "cn" => Some(PgnNotation::Chinese),
            "wxf" => Some(PgnNotation::Wxf),
            _ => None,
        }
    }

    /// The `Format` tag value.
    pub(crate) fn tag(self) -> &'static str {
        match self {
            PgnNotation::Iccs => "ICCS",
            PgnNotation::Chinese => "Chinese",
            PgnNotation::Wxf => "WXF",
        }
    }
}

/// One game as PGN text with the moves in `notation`.
pub(crate) fn game_to_pgn_in(rec: &GameRecord, event: &str, round: &str, date: &str, notation: PgnNotation) -> String {
    let mut out = String::with_capacity(2048);
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", event);
    tag("Site", "?");
    tag("Date", date);
    tag("Round", round);
    tag("White", &rec.red_name);
    tag("Black", &rec.black_name);
    tag("Result", rec.result.pgn());
    tag("Variant", "xiangqi");
    if let Some(fen) = &rec.fen {
        tag("FEN", fen);
        tag("SetUp", "1");
    }
    if rec.tc_tags[0] == rec.tc_tags[1] {
        tag("TimeControl", &rec.tc_tags[0]);
    } else {
        tag("WhiteTimeControl", &rec.tc_tags[0]);
        tag("BlackTimeControl", &rec.tc_tags[1]);
    }
    if let Some(name) = &rec.opening {
        tag("Opening", name);
    }
    tag("Termination", rec.termination.text());
    tag("PlyCount", &rec.moves.len().to_string());
    tag("Format", notation.tag());
    out.push('\n');

    // The positions, for WXF (the records hold ICCS and Chinese already).
    let mut pos = match &rec.fen {
        Some(f) => Position::from_fen(f).ok(),
        None => Some(Position::startpos()),
    };

    // Move numbers from the root FEN.
    let (mut number, mut black_to_move) = match &rec.fen {
        Some(f) => {
            let mut fields = f.split_whitespace().skip(1);
            let black = matches!(fields.next(), Some("b") | Some("B"));
            let n = fields.nth(3).and_then(|t| t.parse::<u32>().ok()).unwrap_or(1).max(1);
            (n, black)
        }
        None => (1, false),
    };
    let mut tokens: Vec<String> = Vec::with_capacity(rec.moves.len() * 3);
    for (i, m) in rec.moves.iter().enumerate() {
        if !black_to_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        let (text, mut comment) = match notation {
            PgnNotation::Iccs => (m.mv.to_string(), m.chinese.clone()),
            PgnNotation::Chinese => (m.chinese.clone(), String::new()),
            PgnNotation::Wxf => {
                let w = pos.as_ref().and_then(|p| super::notation::wxf(p, m.mv));
                (w.unwrap_or_else(|| m.mv.to_string()), m.chinese.clone())
            }
        };
        // A record whose Chinese text is missing falls back to ICCS.
        let text = if text.is_empty() { m.mv.to_string() } else { text };
        if let Some(p) = pos.as_mut() {
            if p.parse_move(&m.mv.to_string()).is_ok() {
                p.make_move(m.mv);
            } else {
                pos = None;
            }
        }
        if m.book {
            comment.push_str(" book");
        } else {
            if let Some(s) = m.score {
                comment.push(' ');
                comment.push_str(&score_text(s));
                if let Some(d) = m.depth {
                    comment.push_str(&format!("/{d}"));
                }
            }
            comment.push_str(&format!(" {:.3}s", m.time_ms as f64 / 1000.0));
        }
        // A move and its comment stay on one line.
        tokens.push(format!("{text} {{{}}}", comment.trim()));
        if black_to_move {
            number += 1;
        }
        black_to_move = !black_to_move;
    }
    if !rec.detail.is_empty() {
        tokens.push(format!("{{{}}}", rec.detail.replace('}', ")")));
    }
    tokens.push(rec.result.pgn().to_string());
    // Wrap at 80 columns.
    let mut line_len = 0;
    for t in tokens {
        let w = t.chars().count();
        if line_len > 0 && line_len + 1 + w > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&t);
        line_len += w;
    }
    out.push_str("\n\n");
    out
}

/// A game read from PGN: its `FEN` tag and its move tokens (unchecked text).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PgnGame {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub result: Option<String>,
}

/// Reads all games of a PGN text. Comments (`{}`, `;`), variations (`()`),
/// NAGs, move numbers and results are skipped; other movetext tokens are kept
/// as moves (the caller checks them).
pub fn parse_games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let mut brace = false;
    let mut paren = 0usize;
    for line in text.lines() {
        let trimmed = line.trim();
        if !brace && paren == 0 && trimmed.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            if let Some((key, rest)) = trimmed[1..].split_once(' ') {
                let value = rest.trim().trim_end_matches(']').trim().trim_matches('"');
                if key.eq_ignore_ascii_case("FEN") {
                    game.fen = Some(value.to_string());
                }
            }
            continue;
        }
        let mut token = String::new();
        let flush = |token: &mut String, game: &mut PgnGame| {
            if !token.is_empty() {
                let raw = std::mem::take(token);
                // A move number (`12.`, `7...`) is digits then dots; WXF moves
                // may start with a digit too (`3+=4`, `33.4`), so a lone digit
                // left after the dots means the token was a move.
                let digits = raw.trim_start_matches(|c: char| c.is_ascii_digit());
                let t = if digits.starts_with('.') { digits.trim_start_matches('.') } else { raw.as_str() };
                let t = if t.len() == 1 && t.as_bytes()[0].is_ascii_digit() { raw.as_str() } else { t };
                if matches!(raw.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    game.result = Some(raw);
                } else if !t.is_empty() && !t.starts_with('$') {
                    game.moves.push(t.to_string());
                }
            }
        };
        for c in line.chars() {
            if brace {
                if c == '}' {
                    brace = false;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, &mut game);
                    brace = true;
                }
                '(' => {
                    flush(&mut token, &mut game);
                    paren += 1;
                }
                ')' => {
                    token.clear();
                    paren = paren.saturating_sub(1);
                }
                ';' if paren == 0 => break,
                c if c.is_whitespace() => {
                    if paren == 0 {
                        flush(&mut token, &mut game);
                    }
                    token.clear();
                }
                c => {
                    if paren == 0 {
                        token.push(c);
                        in_moves = true;
                    }
                }
            }
        }
        if paren == 0 {
            flush(&mut token, &mut game);
        }
    }
    if in_moves || game.fen.is_some() {
        games.push(game);
    }
    games
}

/// Replays a parsed game's move tokens from its root; the moves up to the
/// first token that is not a legal move (in ICCS, Chinese or WXF notation,
/// detected per move), and that token's index if any.
pub(crate) fn legal_prefix(game: &PgnGame) -> Option<(Vec<Move>, Option<usize>)> {
    let mut pos = match &game.fen {
        Some(f) => crate::position::Position::from_fen(f).ok()?,
        None => crate::position::Position::startpos(),
    };
    let mut moves = Vec::with_capacity(game.moves.len());
    for (i, t) in game.moves.iter().enumerate() {
        match super::notation::parse_any(&pos, t) {
            Some(m) => {
                pos.make_move(m);
                moves.push(m);
            }
            None => return Some((moves, Some(i))),
        }
    }
    Some((moves, None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::adjudicate::{GameResult, Termination};
    use crate::tools::game::MoveRecord;

    fn record() -> GameRecord {
        let mv = |t: &str| Move::from_iccs(t).unwrap();
        GameRecord {
            red: 0,
            black: 1,
            red_name: "A".into(),
            black_name: "B \"quoted\"".into(),
            fen: None,
            opening: Some("A00 中兵局".into()),
            moves: vec![
                MoveRecord {
                    mv: mv("h2e2"),
                    chinese: "炮二平五".into(),
                    score: None,
                    depth: None,
                    time_ms: 0,
                    book: true,
                },
                MoveRecord {
                    mv: mv("h9g7"),
                    chinese: "马8进7".into(),
                    score: Some(EngineScore::Cp(-12)),
                    depth: Some(7),
                    time_ms: 52,
                    book: false,
                },
                MoveRecord {
                    mv: mv("h0g2"),
                    chinese: "马二进三".into(),
                    score: Some(EngineScore::Mate(3)),
                    depth: None,
                    time_ms: 1500,
                    book: false,
                },
            ],
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit,
            detail: "Red (A) lost on time".into(),
            tc_tags: ["1+0.01".into(), "1+0.01".into()],
            faulty: vec![],
            engine_moves: 2,
            referee_us: 100,
            gap_us: 0,
            gap_max_us: 0,
            gap_moves: 0,
        }
    }

    #[test]
    fn writes_tags_and_comments() {
        let text = game_to_pgn_in(&record(), "test", "1", "2026.11.30", PgnNotation::Iccs);
        assert!(text.contains("[Variant \"xiangqi\"]\n"));
        assert!(text.contains("[Black \"B \\\"quoted\\\"\"]\n"));
        assert!(text.contains("[Result \"0-1\"]\n"));
        assert!(text.contains("[TimeControl \"1+0.01\"]\n"));
        assert!(text.contains("[Termination \"time forfeit\"]\n"));
        assert!(!text.contains("[FEN"));
        assert!(text.contains("[Opening \"A00 中兵局\"]\n"));
        assert!(
            text.contains("1. h2e2 {炮二平五 book} h9g7 {马8进7 -0.12/7 0.052s} 2. h0g2 {马二进三 +M3 1.500s}"),
            "{text}"
        );
        assert!(text.trim_end().ends_with("{Red (A) lost on time} 0-1"));
    }

    #[test]
    fn round_trips_through_the_reader() {
        let mut rec = record();
        rec.fen = Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 7".into());
        rec.moves.remove(0);
        let text = game_to_pgn_in(&rec, "test", "1", "2026.11.30", PgnNotation::Iccs);
        assert!(text.contains("7... h9g7"));
        assert!(text.contains("[SetUp \"1\"]"));
        let games =
            parse_games(&format!("{text}{}", game_to_pgn_in(&record(), "x", "2", "2026.11.30", PgnNotation::Iccs)));
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].fen, rec.fen);
        assert_eq!(games[0].moves, ["h9g7", "h0g2"]);
        assert_eq!(games[1].moves, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(games[1].result.as_deref(), Some("0-1"));
        let (moves, bad) = legal_prefix(&games[1]).unwrap();
        assert_eq!((moves.len(), bad), (3, None));
    }

    #[test]
    fn reader_skips_variations_nags_and_bad_tokens() {
        let text = "[Event \"x\"]\n\n1. h2e2 $1 (1. b2e2 h9g7) h9g7 ; rest of line\n2. zz9 *\n";
        let games = parse_games(text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, ["h2e2", "h9g7", "zz9"]);
        let (moves, bad) = legal_prefix(&games[0]).unwrap();
        assert_eq!((moves.len(), bad), (2, Some(2)));
    }

    /// A record of a seeded random game from `fen` (Chinese filled in as the referee does).
    fn random_record(seed: u64, fen: Option<&str>, plies: usize) -> GameRecord {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut pos = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).unwrap());
        let mut rec = record();
        rec.fen = fen.map(String::from);
        rec.moves.clear();
        for i in 0..plies {
            let moves = pos.legal_moves();
            let Some(&mv) = moves.choose(&mut rng) else { break };
            let chinese = crate::tools::notation::chinese(&pos, mv).unwrap();
            rec.moves.push(MoveRecord {
                mv,
                chinese,
                score: Some(EngineScore::Cp(i as i32 - 20)),
                depth: Some(3),
                time_ms: 7,
                book: i < 2,
            });
            pos.make_move(mv);
        }
        rec
    }

    #[test]
    fn every_notation_round_trips() {
        // Random games from the start and from positions with tandem pieces
        // (doubled chariots, three and five pawns on a file, pawns doubled on two files).
        let roots = [
            None,
            Some("3k5/9/9/9/4R4/9/9/4R4/9/5K3 w - - 0 1"),
            Some("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/5K3 w - - 0 1"),
            Some("3k5/9/2P1P4/2P1P4/4P4/9/9/9/9/5K3 w - - 0 1"),
            Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 7"),
        ];
        for notation in [PgnNotation::Iccs, PgnNotation::Chinese, PgnNotation::Wxf] {
            let mut text = String::new();
            let mut records = Vec::new();
            for (i, root) in roots.iter().enumerate() {
                for seed in 0..4 {
                    let rec = random_record(seed * 10 + i as u64, *root, 120);
                    text.push_str(&game_to_pgn_in(&rec, "rt", "1", "2026.12.01", notation));
                    records.push(rec);
                }
            }
            assert!(text.contains(&format!("[Format \"{}\"]", notation.tag())));
            let games = parse_games(&text);
            assert_eq!(games.len(), records.len(), "{notation:?}");
            for (g, rec) in games.iter().zip(&records) {
                assert_eq!(g.fen, rec.fen);
                assert_eq!(g.moves.len(), rec.moves.len(), "{notation:?}: {:?}", g.moves);
                let (moves, bad) = legal_prefix(g).unwrap();
                assert_eq!(bad, None, "{notation:?}: {:?}", bad.map(|i| &g.moves[i]));
                let want: Vec<Move> = rec.moves.iter().map(|m| m.mv).collect();
                assert_eq!(moves, want, "{notation:?}");
            }
        }
        // The three spellings of one game side by side.
        let rec = record();
        let cn = game_to_pgn_in(&rec, "x", "1", "2026.12.01", PgnNotation::Chinese);
        assert!(cn.contains("1. 炮二平五 {book} 马8进7 {-0.12/7 0.052s} 2. 马二进三 {+M3 1.500s}"), "{cn}");
        let wxf = game_to_pgn_in(&rec, "x", "1", "2026.12.01", PgnNotation::Wxf);
        assert!(wxf.contains("1. C2=5 {炮二平五 book} H8+7 {马8进7 -0.12/7 0.052s} 2. H2+3 {马二进三"), "{wxf}");
    }

    #[test]
    fn reader_takes_chinese_and_wxf_from_other_programs() {
        // Traditional characters, full-width numerals, WXF with `.`, move numbers glued on.
        let text = "[Game \"Chinese Chess\"]\n[Format \"Chinese\"]\n\n1.炮二平五 馬８進７ 2. 馬二進三 车9平8 *\n\n\
                    [Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2 *\n";
        let games = parse_games(text);
        assert_eq!(games.len(), 2);
        let iccs = |g: &PgnGame| -> Vec<String> {
            let (moves, bad) = legal_prefix(g).unwrap();
            assert_eq!(bad, None, "{:?}", g.moves);
            moves.iter().map(|m| m.to_string()).collect()
        };
        assert_eq!(iccs(&games[0]), ["h2e2", "h9g7", "h0g2", "i9h9"]);
        assert_eq!(iccs(&games[1]), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]);
        // Digits-first WXF moves survive the move-number stripping.
        let games = parse_games("1. 3+=4 33.4 12.4\n");
        assert_eq!(games[0].moves, ["3+=4", "33.4", "12.4"]);
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_787), (2026, 11, 30));
        assert_eq!(today().len(), 10);
    }
}
