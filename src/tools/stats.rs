//! Match statistics: Elo difference with a 95% interval from a W-D-L table,
//! likelihood of superiority (LOS), draw ratio, pentanomial statistics for
//! paired games (each opening played with both colours), and the SPRT
//! log-likelihood ratio in the logistic-Elo GSPRT approximation used by
//! fastchess (and, up to its BayesElo option, by cutechess).
//!
//! Pure arithmetic on counts: this module knows nothing about engines or games.

/// The two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Expected score of a player `elo` points stronger (logistic model).
fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference for an expected score in (0, 1); ±infinity at the ends.
fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The error function (Numerical Recipes' Chebyshev fit of erfc, relative
/// error below 1.2e-7 everywhere).
fn erf(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// Wins, draws and losses of one player (or one side of a pairing).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub(crate) wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// An Elo estimate with its 95% interval half-width.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct EloEstimate {
    /// Elo difference (player minus opponent).
    pub(crate) elo: f64,
    /// Half-width of the 95% interval in Elo (symmetrised as cutechess does).
    pub(crate) error: f64,
}

impl Wdl {
    /// Total games.
    pub(crate) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored (win 1, draw 1/2).
    pub(crate) fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Score fraction in [0, 1] (0.5 with no games).
    pub(crate) fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            self.points() / n as f64
        }
    }

    /// Draws / games (0 with no games).
    pub(crate) fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }

    /// Per-game variance of the score (trinomial model).
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        let (w, d, l) = (self.wins as f64 / n, self.draws as f64 / n, self.losses as f64 / n);
        w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)
    }

    /// Elo difference with the 95% interval, as cutechess computes it: the
    /// interval of the mean score (normal approximation) mapped through the
    /// logistic curve, half the width of its Elo image. `None` with no games.
    pub(crate) fn elo(&self) -> Option<EloEstimate> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        Some(interval(self.score(), self.variance(), n as f64))
    }

    /// Likelihood of superiority in [0, 1]: 0.5 + 0.5 erf((W - L) / sqrt(2 (W + L))).
    pub(crate) fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 + 0.5 * erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt())
    }

    /// SPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), trinomial
    /// GSPRT: N (s1 - s0) (2 s - s0 - s1) / (2 var). 0 while the variance is 0.
    pub(crate) fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        llr(self.score(), self.variance(), self.games() as f64, elo0, elo1)
    }
}

fn interval(score: f64, variance: f64, n: f64) -> EloEstimate {
    let dev = (variance / n).sqrt();
    let lo = score_to_elo(score - Z95 * dev);
    let hi = score_to_elo(score + Z95 * dev);
    let error = if hi.is_finite() && lo.is_finite() { (hi - lo) / 2.0 } else { f64::INFINITY };
    EloEstimate { elo: score_to_elo(score), error }
}

fn llr(score: f64, variance: f64, n: f64, elo0: f64, elo1: f64) -> f64 {
    if n == 0.0 || variance <= 0.0 {
        return 0.0;
    }
    let (s0, s1) = (elo_to_score(elo0), elo_to_score(elo1));
    (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance / n)
}

/// Outcomes of game pairs (same opening, colours swapped), from one player's
/// side, indexed by the pair's points: 0 (LL), 1/2 (LD), 1 (WL or DD),
/// 3/2 (WD), 2 (WW).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Records a pair from its two game scores (each 0, 0.5 or 1).
    pub(crate) fn add_pair(&mut self, first: f64, second: f64) {
        let idx = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[idx] += 1;
    }

    /// Number of pairs.
    pub(crate) fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    fn mean_var(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean: f64 = self.0.iter().zip(scores).map(|(&c, s)| c as f64 / n * s).sum();
        let var: f64 = self.0.iter().zip(scores).map(|(&c, s)| c as f64 / n * (s - mean).powi(2)).sum();
        (mean, var)
    }

    /// Elo difference with the 95% interval from pair scores.
    pub(crate) fn elo(&self) -> Option<EloEstimate> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let (mean, var) = self.mean_var();
        Some(interval(mean, var, n as f64))
    }

    /// Pentanomial GSPRT LLR (fastchess): pairs (s1 - s0)(2 s - s0 - s1) / (2 var).
    pub(crate) fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let (mean, var) = self.mean_var();
        llr(mean, var, self.pairs() as f64, elo0, elo1)
    }
}

/// SPRT parameters: H0 elo0, H1 elo1, error rates alpha and beta.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub(crate) elo0: f64,
    pub(crate) elo1: f64,
    pub(crate) alpha: f64,
    pub(crate) beta: f64,
}

/// The state of an SPRT after some games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// LLR between the bounds: keep playing.
    Continue,
    /// LLR fell to the lower bound: H0 accepted (not an elo1 gain).
    AcceptH0,
    /// LLR reached the upper bound: H1 accepted.
    AcceptH1,
}

impl Sprt {
    /// Lower and upper LLR bounds: ln(beta / (1 - alpha)), ln((1 - beta) / alpha).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The verdict for an LLR.
    pub(crate) fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::AcceptH1
        } else if llr <= lo {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() < tol, "{a} vs {b}");
    }

    // Reference values computed by hand (Python, formulas in the doc comments).
    #[test]
    fn elo_and_interval_for_fixed_tables() {
        let t = Wdl { wins: 60, draws: 20, losses: 20 };
        let e = t.elo().unwrap();
        close(e.elo, 147.190_714, 1e-4);
        close(e.error, 66.013_381, 1e-4);
        let t = Wdl { wins: 30, draws: 40, losses: 30 };
        let e = t.elo().unwrap();
        close(e.elo, 0.0, 1e-9);
        close(e.error, 53.157_980, 1e-4);
        let t = Wdl { wins: 10, draws: 5, losses: 25 };
        close(t.elo().unwrap().elo, -136.969_072, 1e-4);
        close(t.elo().unwrap().error, 112.789_151, 1e-4);
        assert_eq!(Wdl::default().elo(), None);
    }

    #[test]
    fn los_and_draw_ratio() {
        close(Wdl { wins: 60, draws: 20, losses: 20 }.los(), 0.999_996_128, 1e-7);
        close(Wdl { wins: 12, draws: 0, losses: 8 }.los(), 0.814_453_315, 1e-6);
        close(Wdl { wins: 5, draws: 3, losses: 5 }.los(), 0.5, 1e-12);
        close(Wdl { wins: 5, draws: 3, losses: 2 }.draw_ratio(), 0.3, 1e-12);
    }

    #[test]
    fn erf_matches_known_values() {
        close(erf(0.0), 0.0, 1e-7);
        close(erf(0.5), 0.520_499_877_8, 2e-7);
        close(erf(1.0), 0.842_700_792_9, 2e-7);
        close(erf(-2.0), -0.995_322_265_0, 2e-7);
    }

    #[test]
    fn sprt_llr_and_bounds() {
        let s = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        let (lo, hi) = s.bounds();
        close(lo, -2.944_438_979, 1e-8);
        close(hi, 2.944_438_979, 1e-8);
        let t = Wdl { wins: 600, draws: 200, losses: 500 };
        close(t.llr(0.0, 5.0), 1.552_439_260, 1e-6);
        assert_eq!(s.verdict(t.llr(0.0, 5.0)), SprtVerdict::Continue);
        let t = Wdl { wins: 3000, draws: 1000, losses: 2500 };
        close(t.llr(0.0, 5.0), 7.762_196_301, 1e-6);
        assert_eq!(s.verdict(t.llr(0.0, 5.0)), SprtVerdict::AcceptH1);
        let t = Wdl { wins: 2500, draws: 1000, losses: 3000 };
        assert_eq!(s.verdict(t.llr(0.0, 5.0)), SprtVerdict::AcceptH0);
        assert_eq!(Wdl { wins: 3, draws: 0, losses: 0 }.llr(0.0, 5.0), 0.0);
    }

    #[test]
    fn pentanomial_stats() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 1.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(1.0, 0.0);
        p.add_pair(0.0, 0.5);
        assert_eq!(p.0, [0, 1, 2, 0, 1]);
        let p = Pentanomial([10, 40, 100, 50, 20]);
        let e = p.elo().unwrap();
        close(e.elo, 23.725_600, 1e-4);
        close(e.error, 22.342_798, 1e-4);
        close(p.llr(0.0, 5.0), 0.825_146_291, 1e-6);
    }
}
