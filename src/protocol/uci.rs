//! UCI spelling (Pikafish-style xiangqi GUIs and match tools): parsing GUI
//! lines into [`Command`]s and the `uci` handshake.
//!
//! Pure text translation: no state, no search, no output. Accepts the
//! keyword-less `setoption <Name> <value>` form and a bare `startpos ...` /
//! `fen ...` line as `position`, which some xiangqi GUIs send; `banmoves` and
//! `probe` are accepted as extensions with their UCCI meaning.

use super::{
    clip, move_list, parse_go, parse_position_spec, parse_setoption, tokenize, Command, Dialect, ProtocolError,
};

/// Parses one UCI line.
pub(crate) fn parse(line: &str) -> Result<Command, ProtocolError> {
    let tokens = tokenize(line);
    let Some(first) = tokens.first() else { return Ok(Command::Empty) };
    let word = first.text.to_ascii_lowercase();
    let no_args = |cmd: &'static str, command: Command| match tokens.get(1) {
        Some(extra) => Err(ProtocolError::Unexpected { command: cmd, found: clip(extra.text) }),
        None => Ok(command),
    };
    match word.as_str() {
        "uci" => no_args("uci", Command::Uci),
        "ucci" => no_args("ucci", Command::Ucci),
        "isready" => no_args("isready", Command::IsReady),
        "debug" => match tokens.get(1) {
            None => Ok(Command::Debug(true)),
            Some(t) if t.is("on") && tokens.len() == 2 => Ok(Command::Debug(true)),
            Some(t) if t.is("off") && tokens.len() == 2 => Ok(Command::Debug(false)),
            Some(t) => Err(ProtocolError::Unexpected { command: "debug", found: clip(t.text) }),
        },
        "setoption" => parse_setoption(line, &tokens).map(Command::SetOption),
        "ucinewgame" => no_args("ucinewgame", Command::NewGame),
        "position" => parse_position_spec(&tokens[1..], "position", true).map(Command::Position),
        "startpos" | "fen" => parse_position_spec(&tokens, "position", true).map(Command::Position),
        "banmoves" => move_list(&tokens[1..]).map(Command::BanMoves),
        "go" => parse_go(&tokens, Dialect::Uci).map(Command::Go),
        "ponderhit" => no_args("ponderhit", Command::PonderHit { draw: false }),
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
    use crate::fen::START_FEN;
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
        assert_eq!(parse("uci"), Ok(Command::Uci));
        assert_eq!(parse("ucci"), Ok(Command::Ucci));
        assert_eq!(parse("isready\r\n"), Ok(Command::IsReady));
        assert_eq!(parse("ucinewgame"), Ok(Command::NewGame));
        assert_eq!(parse("ponderhit"), Ok(Command::PonderHit { draw: false }));
        assert!(matches!(parse("ponderhit draw"), Err(ProtocolError::Unexpected { .. })));
        assert_eq!(parse("stop"), Ok(Command::Stop));
        assert_eq!(parse("QUIT"), Ok(Command::Quit));
        assert_eq!(parse("debug on"), Ok(Command::Debug(true)));
        assert_eq!(parse("debug off"), Ok(Command::Debug(false)));
        assert!(matches!(parse("debug maybe"), Err(ProtocolError::Unexpected { .. })));
        assert_eq!(parse("   "), Ok(Command::Empty));
        assert!(matches!(parse("register later"), Err(ProtocolError::UnknownCommand(_))));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves h2e2"),
            Ok(Command::Position(PositionSpec {
                start: StartPosition::Start,
                moves: vec![mv("h2e2")],
                unreadable: vec![]
            }))
        );
        assert!(matches!(parse(&format!("position fen {START_FEN}")), Ok(Command::Position(_))));
        assert!(matches!(parse(&format!("fen {START_FEN} moves h2e2")), Ok(Command::Position(_))));
        assert!(matches!(parse("startpos"), Ok(Command::Position(_))));
        assert!(matches!(parse("position fen xyz"), Err(ProtocolError::Fen(_))));
        // UCI keeps the moves up to the first unreadable word (the session
        // plays them and drops the rest with a warning).
        assert_eq!(
            parse("position startpos moves h2e2 e2 h9g7"),
            Ok(Command::Position(PositionSpec {
                start: StartPosition::Start,
                moves: vec![mv("h2e2")],
                unreadable: vec!["e2".to_string(), "h9g7".to_string()]
            }))
        );
        assert!(matches!(
            crate::protocol::ucci::parse("position startpos moves h2e2 e2"),
            Err(ProtocolError::MoveSyntax { index: 2, .. })
        ));
    }

    #[test]
    fn go_forms() {
        assert_eq!(
            go("go wtime 60000 btime 55000 winc 1000 binc 1000 movestogo 20").clock,
            Some(GoClock::ByColor {
                wtime: Some(60_000),
                btime: Some(55_000),
                winc: 1000,
                binc: 1000,
                movestogo: Some(20)
            })
        );
        assert_eq!(go("go depth 7").depth, Some(7));
        assert_eq!(go("go nodes 5000").nodes, Some(5000));
        assert_eq!(go("go movetime 100").movetime, Some(100));
        assert!(go("go infinite").infinite);
        assert!(go("go").infinite);
        let p = go("go ponder wtime 1000 btime 1000");
        assert!(p.ponder && !p.infinite);
        assert_eq!(go("go mate 3").mate, Some(3));
        let s = go("go searchmoves h2e2 b2e2 depth 3");
        assert_eq!(s.searchmoves, vec![mv("h2e2"), mv("b2e2")]);
        assert_eq!(s.depth, Some(3));
        assert!(matches!(parse("go draw"), Err(ProtocolError::Unexpected { .. })));
        assert!(matches!(parse("go time 1000"), Err(ProtocolError::Unexpected { .. })));
        assert!(matches!(parse("go wtime"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("go btime soon"), Err(ProtocolError::BadNumber { .. })));
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(opt("setoption name Hash value 128"), "hashsize=128");
        assert_eq!(opt("setoption name threads value 2"), "threads=2");
        assert_eq!(opt("setoption name Ponder value true"), "ponder=true");
        assert_eq!(opt("setoption name MultiPV value 3"), "multipv=3");
        assert_eq!(opt("setoption name Move Overhead value 50"), "moveoverhead=50");
        assert_eq!(opt("setoption name Clear Hash"), "clearhash=press");
        assert_eq!(opt("setoption name Rules value chinese"), "rules=chinese");
        assert_eq!(opt("setoption name Contempt value 15"), "contempt=15");
        assert_eq!(opt("setoption name OwnBook value false"), "usebook=false");
        assert_eq!(opt("setoption name BookFile value /books/a b.book;c.book"), "bookfiles=/books/a b.book;c.book");
        // Keyword-less forms some xiangqi GUIs send.
        assert_eq!(opt("setoption Hash 64"), "hashsize=64");
        assert_eq!(opt("setoption Move Overhead 20"), "moveoverhead=20");
        assert_eq!(opt("setoption Clear Hash"), "clearhash=press");
        assert_eq!(opt("setoption Threads value 3"), "threads=3");
        // Errors.
        assert!(matches!(parse("setoption name"), Err(ProtocolError::Missing { .. })));
        assert!(matches!(parse("setoption name Hash"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption name Hash value"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption name Hash value -5"), Err(ProtocolError::BadValue { .. })));
        assert!(matches!(parse("setoption name UCI_Elo value 1500"), Err(ProtocolError::UnknownOption(_))));
        assert!(matches!(parse("setoption name MultiPV value 0"), Err(ProtocolError::BadValue { .. })));
    }
}
