//! Helpers shared by the unit tests (compiled for tests only).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::fen::BENCH_FENS;
use crate::moves::MoveList;
use crate::position::Position;

/// Seeded random games from every bench position, for tests: `walks` games
/// of up to `plies` moves each per position; `visit` sees each position
/// before its move, with its legal moves (the move played is chosen among
/// them).
pub(crate) fn random_walks(seed: u64, walks: usize, plies: usize, mut visit: impl FnMut(&Position, &MoveList)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for fen in BENCH_FENS {
        for _ in 0..walks {
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for _ in 0..plies {
                let moves = pos.legal_moves();
                visit(&pos, &moves);
                let Some(&m) = moves.choose(&mut rng) else { break };
                pos.make_move(m);
            }
        }
    }
}

/// A scratch directory for one unit test, named `chuhan-<tag>-...` in the
/// temp dir and removed when it goes out of scope (also when the test fails);
/// the integration tests have the same helper in `tests/common` (they cannot
/// reach this test-only module).
pub(crate) fn scratch_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("chuhan-{tag}-")).tempdir().expect("temp dir")
}
