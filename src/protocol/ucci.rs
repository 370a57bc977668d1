//! UCCI 3.0 spelling: parsing GUI lines into [`Command`]s and formatting the
//! engine's UCCI-only replies (the `ucci` handshake, scores as plain integers).
//!
//! Pure text translation: no state, no search, no output. Keywords match in
//! any case and on any whitespace (docs/protocol.md, robustness contract); FEN letters
//! keep their case because it carries the colour.

use super::{
    clip, move_list, parse_go, parse_position_spec, parse_setoption, tokenize, Command, Dialect, ProtocolError,
};

/// Parses one UCCI line.
///
/// Besides UCCI 3.0 it accepts `ucinewgame` and a bare `startpos ...` /
/// `fen ...` line as `position` (some GUIs send them), and `uci` to switch
/// dialect.
pub(crate) fn parse(line: &str) -> Result<Command, ProtocolError> {
    let tokens = tokenize(line);
    let Some(first) = tokens.first() else { return Ok(Command::Empty) };
    let word = first.text.to_ascii_lowercase();
    let no_args = |cmd: &'static str, command: Command| match tokens.get(1) {
        Some(extra) => Err(ProtocolError::Unexpected { command: cmd, found: clip(extra.text) }),
        None => Ok(command),
    };
    match word.as_str() {
        "ucci" => no_args("ucci", Command::Ucci),
        "uci" => no_args("uci", Command::Uci),
        "isready" => no_args("isready", Command::IsReady),
        "setoption" => parse_setoption(line, &tokens).map(Command::SetOption),
        "ucinewgame" => no_args("ucinewgame", Command::NewGame),
        "position" => parse_position_spec(&tokens[1..], "position", false).map(Command::Position),
        "startpos" | "fen" => parse_position_spec(&tokens, "position", false).map(Command::Position),
        "banmoves" => move_list(&tokens[1..]).map(Command::BanMoves),
        "go" => parse_go(&tokens, Dialect::Ucci).map(Command::Go),
        "ponderhit" => match tokens.get(1) {
            None => Ok(Command::PonderHit { draw: false }),
            Some(t) if t.is("draw") && tokens.len() == 2 => Ok(Command::PonderHit { draw: true }),
            Some(t) => Err(ProtocolError::Unexpected { command: "ponderhit", found: clip(t.text) }),
        },
        "stop" => no_args("stop", Command::Stop),
        "probe" => parse_position_spec(&tokens[1..], "probe", false).map(Command::Probe),
        "quit" => no_args("quit", Command::Quit),
        "d" => no_args("d", Command::Display),
        "eval" => no_args("eval", Command::Eval),
        "flip" => no_args("flip", Command::Flip),
        "bench" => Ok(Command::Bench(tokens[1..].iter().map(|t| t.text.to_string()).collect())),
        "compiler" => no_args("compiler", Command::Compiler),
        _ => Err(ProtocolError::UnknownCommand(clip(line))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::{Setup, START_FEN};
    use crate::moves::Move;
    use crate::protocol::{GoClock, GoParams, PositionSpec, StartPosition};

    fn mv(s: &str) -> Move {
        Move::from_iccs(s).unwrap()
    }

    fn go(line: &str) -> GoParams {
        match parse(line) {
            Ok(Command::Go(p)) => p,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn opt(line: &str) -> String {
        match parse(line) {
            Ok(Command::SetOption(o)) => o.to_string(),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("ucci"), Ok(Command::Ucci));
        assert_eq!(parse("UCCI\r"), Ok(Command::Ucci));
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("  isready  "), Ok(Command::IsReady));
        assert_eq!(parse("stop"), Ok(Command::Stop));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse("ucinewgame"), Ok(Command::NewGame));
        assert_eq!(parse(""), Ok(Command::Empty));
        assert_eq!(parse(" \t\r\n"), Ok(Command::Empty));
        assert_eq!(parse("ponderhit"), Ok(Command::PonderHit { draw: false }));
        assert_eq!(parse("PonderHit Draw"), Ok(Command::PonderHit { draw: true }));
        assert!(matches!(parse("ponderhit now"), Err(ProtocolError::Unexpected { .. })));
        assert!(matches!(parse("isready now"), Err(ProtocolError::Unexpected { .. })));
        assert!(matches!(parse("hello world"), Err(ProtocolError::UnknownCommand(_))));
        assert!(matches!(parse("\u{0}\u{1}garbage"), Err(ProtocolError::UnknownCommand(_))));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos"),
            Ok(Command::Position(PositionSpec { start: StartPosition::Start, moves: vec![], unreadable: vec![] }))
        );
        assert_eq!(
            parse("position startpos moves h2e2 h9g7"),
            Ok(Command::Position(PositionSpec {
                start: StartPosition::Start,
                moves: vec![mv("h2e2"), mv("h9g7")],
                unreadable: vec![]
            }))
        );
        let fen = format!("position fen {START_FEN} moves h2e2");
        let Ok(Command::Position(spec)) = parse(&fen) else { panic!() };
        assert_eq!(spec.start, StartPosition::Fen(Box::new(Setup::parse(START_FEN).unwrap())));
        assert_eq!(spec.moves, vec![mv("h2e2")]);
        // Short FEN, mixed-case keywords, extra whitespace.
        let Ok(Command::Position(spec)) =
            parse("POSITION   Fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR  w   MOVES  H2E2")
        else {
            panic!()
        };
        assert_eq!(spec.moves, vec![mv("h2e2")]);
        // Empty move list after `moves`.
        assert!(
            matches!(parse("position startpos moves"), Ok(Command::Position(PositionSpec { moves, .. })) if moves.is_empty())
        );
        // Bare lines.
        assert!(matches!(parse("startpos moves h2e2"), Ok(Command::Position(_))));
        assert!(matches!(parse(&format!("fen {START_FEN}")), Ok(Command::Position(_))));
        // Errors.
        assert!(matches!(parse("position"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("position fen"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("position fen moves h2e2"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("position fen 9/9/9 w"), Err(ProtocolError::Fen(_))));
        assert!(matches!(parse("position startpos h2e2"), Err(ProtocolError::Unexpected { .. })));
        assert!(matches!(parse("position somewhere"), Err(ProtocolError::Unexpected { .. })));
        assert!(matches!(
            parse("position startpos moves h2e2 h9z7 b0c2"),
            Err(ProtocolError::MoveSyntax { index: 2, .. })
        ));
    }

    #[test]
    fn banmoves_and_probe() {
        assert_eq!(parse("banmoves h2e2 b2e2"), Ok(Command::BanMoves(vec![mv("h2e2"), mv("b2e2")])));
        assert_eq!(parse("banmoves"), Ok(Command::BanMoves(vec![])));
        assert!(matches!(parse("banmoves h2e2 xx"), Err(ProtocolError::MoveSyntax { index: 2, .. })));
        assert_eq!(
            parse("probe startpos moves h2e2"),
            Ok(Command::Probe(PositionSpec {
                start: StartPosition::Start,
                moves: vec![mv("h2e2")],
                unreadable: vec![]
            }))
        );
        assert!(matches!(parse("probe"), Err(ProtocolError::Missing { .. })));
    }

    #[test]
    fn go_forms() {
        let bare = go("go");
        assert!(bare.infinite && !bare.ponder);
        let p = go("go ponder");
        assert!(p.ponder && p.infinite);
        assert!(go("go draw depth 5").draw_offered);
        assert_eq!(go("go depth 12").depth, Some(12));
        let inf = go("go depth infinite");
        assert!(inf.infinite && inf.depth.is_none());
        assert!(go("go infinite").infinite);
        assert_eq!(go("go nodes 100000").nodes, Some(100_000));
        assert_eq!(go("go movetime 100").movetime, Some(100));
        assert_eq!(
            go("go  time 60000 movestogo 30").clock,
            Some(GoClock::Relative {
                time: 60_000,
                movestogo: Some(30),
                increment: 0,
                opp_time: None,
                opp_movestogo: None,
                opp_increment: 0
            })
        );
        assert_eq!(
            go("go ponder time 60000 increment 2000 opptime 50000 oppincrement 2000").clock,
            Some(GoClock::Relative {
                time: 60_000,
                movestogo: None,
                increment: 2000,
                opp_time: Some(50_000),
                opp_movestogo: None,
                opp_increment: 2000
            })
        );
        let tm = go("go time 1000 movestogo 10 opptime 900 oppmovestogo 9");
        assert!(matches!(tm.clock, Some(GoClock::Relative { opp_movestogo: Some(9), .. })));
        assert!(!tm.infinite);
        // UCI clocks are accepted under UCCI too (some GUIs mix), but not both at once.
        assert!(matches!(go("go wtime 1000 btime 1000").clock, Some(GoClock::ByColor { .. })));
        assert_eq!(parse("go time 1000 wtime 1000"), Err(ProtocolError::MixedClocks));
        assert!(matches!(parse("go depth"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("go depth x"), Err(ProtocolError::BadNumber { .. })));
        assert!(matches!(parse("go time"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("go increment 100"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("go movestogo 10"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("go fast"), Err(ProtocolError::Unexpected { .. })));
        assert!(matches!(parse("go mate 3"), Err(ProtocolError::Unexpected { .. })));
        assert!(matches!(parse("go nodes 99999999999999999999999"), Err(ProtocolError::BadNumber { .. })));
    }

    #[test]
    fn setoption_every_ucci_option() {
        assert_eq!(opt("setoption usemillisec false"), "usemillisec=false");
        assert_eq!(opt("setoption batch on"), "batch=true");
        assert_eq!(opt("setoption debug true"), "debug=true");
        assert_eq!(opt("setoption ponder off"), "ponder=false");
        assert_eq!(opt("setoption usehash true"), "usehash=true");
        assert_eq!(opt("setoption usebook false"), "usebook=false");
        assert_eq!(opt("setoption useegtb false"), "useegtb=false");
        assert_eq!(opt("setoption bookfiles C:\\books\\a book.obk;b.obk"), "bookfiles=C:\\books\\a book.obk;b.obk");
        assert_eq!(opt("setoption egtbpaths /tb"), "egtbpaths=/tb");
        assert_eq!(opt("setoption hashsize 64"), "hashsize=64");
        assert_eq!(opt("setoption threads 2"), "threads=2");
        assert_eq!(opt("setoption idle medium"), "idle=medium");
        assert_eq!(opt("setoption promotion false"), "promotion=false");
        assert_eq!(opt("setoption pruning small"), "pruning=small");
        assert_eq!(opt("setoption knowledge none"), "knowledge=none");
        assert_eq!(opt("setoption randomness huge"), "randomness=huge");
        assert_eq!(opt("setoption style Risky"), "style=risky");
        assert_eq!(opt("setoption newgame"), "newgame=press");
        assert_eq!(opt("setoption rules chinese"), "rules=chinese");
        assert_eq!(opt("setoption rules ASIAN"), "rules=asian");
        assert_eq!(opt("setoption contempt -20"), "contempt=-20");
        assert_eq!(opt("setoption resign false"), "resign=false");
        assert_eq!(opt("setoption resignscore 2000"), "resignscore=2000");
        // The UCI form and UCI names are accepted too.
        assert_eq!(opt("setoption name Hash value 32"), "hashsize=32");
        assert_eq!(opt("setoption Move Overhead 30"), "moveoverhead=30");
    }

    #[test]
    fn setoption_errors() {
        assert!(matches!(parse("setoption"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("setoption colour red"), Err(ProtocolError::UnknownOption(_))));
        assert!(matches!(parse("setoption hashsize big"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption hashsize"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption hashsize 0"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption threads 100000"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption ponder maybe"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption idle extreme"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption rules western"), Err(ProtocolError::BadValue { .. })));
    }

    #[test]
    fn handshake_lists_every_ucci_option() {
        let lines = crate::protocol::format::handshake(Dialect::Ucci);
        assert!(lines[0].starts_with("id name Chuhan"));
        assert_eq!(lines.last().map(String::as_str), Some("ucciok"));
        for name in [
            "usemillisec",
            "batch",
            "debug",
            "ponder",
            "usehash",
            "usebook",
            "bookfiles",
            "hashsize",
            "threads",
            "idle",
            "promotion",
            "pruning",
            "knowledge",
            "randomness",
            "style",
            "newgame",
            "rules",
            "contempt",
        ] {
            let prefix = format!("option {name} type ");
            assert_eq!(lines.iter().filter(|l| l.starts_with(&prefix)).count(), 1, "{name}");
        }
        assert!(lines.contains(&"option usemillisec type check default true".to_string()));
    }
}
