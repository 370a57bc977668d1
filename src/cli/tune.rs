//! `chuhan tune`: Texel tuning of the evaluation weights from a datagen
//! file (see `chuhan::tune::texel`); writes the tuned `weights.rs`.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use chuhan::eval::params::{self, render_weights, WEIGHTS_SOURCE};
use chuhan::tune::texel::{self, Dataset, TuneConfig, Tuner};

use super::datagen::format_duration;

/// What `chuhan tune` was asked.
pub struct TuneArgs<'a> {
    pub file: &'a Path,
    pub output: &'a Path,
    pub threads: usize,
    pub limit: Option<usize>,
    pub noisy: bool,
    /// Share of the positions (the file's last games) kept out of the fit to measure over-fitting.
    pub holdout: f64,
    /// The constants to tune (empty: all).
    pub only: &'a [String],
    pub config: TuneConfig,
}

pub fn run_tune(a: TuneArgs<'_>) -> ExitCode {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(a.threads.max(1)).build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: cannot start {} threads: {e}", a.threads);
            return ExitCode::from(2);
        }
    };
    pool.install(|| tune(a))
}

fn tune(a: TuneArgs<'_>) -> ExitCode {
    if let Some(bad) = a.only.iter().find(|n| !params::is_constant(n)) {
        eprintln!("error: --only: {bad} is not a constant of weights.rs");
        return ExitCode::from(2);
    }
    let t0 = Instant::now();
    let loaded = match texel::load(a.file, a.limit, a.noisy) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {}: {e}", a.file.display());
            return ExitCode::from(2);
        }
    };
    if loaded.is_empty() {
        eprintln!("error: {}: no usable positions", a.file.display());
        return ExitCode::from(2);
    }
    let t_load = t0.elapsed();
    let t1 = Instant::now();
    // The file is in game order: the held-out share is the last games
    // (cut at a game boundary, so no game is on both sides).
    let mut cut = loaded.len() - (loaded.len() as f64 * a.holdout) as usize;
    while cut > 0 && cut < loaded.len() && loaded[cut].game == loaded[cut - 1].game {
        cut += 1;
    }
    let data = Dataset::build(&loaded[..cut]);
    let held = Dataset::build(&loaded[cut..]);
    drop(loaded);
    let t_build = t1.elapsed();
    if data.is_empty() {
        eprintln!("error: {}: no positions left to fit", a.file.display());
        return ExitCode::from(2);
    }
    eprintln!(
        "tune: {} positions loaded in {}, resolved to quiet leaves and traced in {} ({:.0}/s), {} held out, {} parameters",
        data.len() + held.len(),
        format_duration(t_load),
        format_duration(t_build),
        (data.len() + held.len()) as f64 / t_build.as_secs_f64().max(1e-9),
        held.len(),
        params::COUNT
    );
    let start = params::defaults();
    let mut tuner = Tuner::new(&data, &start);
    if !a.only.is_empty() {
        let only: Vec<&str> = a.only.iter().map(String::as_str).collect();
        tuner.restrict_to(&only);
        eprintln!("tune: only {}", only.join(", "));
    }
    let t2 = Instant::now();
    let k = a.config.k.unwrap_or_else(|| tuner.fit_k());
    tuner.set_k(k, a.config.lambda);
    let holdout = (!held.is_empty()).then_some(&held);
    let show_holdout = |e: Option<f64>| e.map_or_else(String::new, |e| format!(", held out {e:.6}"));
    eprintln!(
        "tune: K = {k:.6}{} in {}; error {:.6}{} at the compiled weights (lambda {})",
        if a.config.k.is_some() { " (given)" } else { " (fitted)" },
        format_duration(t2.elapsed()),
        tuner.error(),
        show_holdout(holdout.map(|h| tuner.error_on(h, a.config.lambda))),
        a.config.lambda
    );
    let epochs = a.config.epochs;
    let n = data.len();
    let final_error = tuner.run(&a.config, holdout, |r| {
        eprintln!(
            "tune: epoch {}/{epochs}: error {:.6}{}, {} ({:.2} s per 100k positions), {} elapsed",
            r.epoch,
            r.error,
            show_holdout(r.holdout),
            format_duration(r.epoch_time),
            r.epoch_time.as_secs_f64() * 100_000.0 / n as f64,
            format_duration(r.elapsed)
        );
    });
    if let Some(e) = tuner.best_epoch {
        eprintln!("tune: keeping the weights of epoch {e}, the lowest error on the held-out positions");
    }
    let tuned = tuner.rounded();
    let text = match render_weights(WEIGHTS_SOURCE, &tuned) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot write the weights: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = std::fs::write(a.output, text) {
        eprintln!("error: cannot write {}: {e}", a.output.display());
        return ExitCode::from(2);
    }
    let mut changes: Vec<(i32, usize)> =
        (0..params::COUNT).filter(|&i| tuned[i] != start[i]).map(|i| ((tuned[i] - start[i]).abs(), i)).collect();
    changes.sort_by(|x, y| y.cmp(x));
    let top: Vec<String> =
        changes.iter().take(8).map(|&(_, i)| format!("{} {} -> {}", params::name(i), start[i], tuned[i])).collect();
    eprintln!(
        "tune: final error {final_error:.6}; {} parameters changed (largest: {}); wrote {} in {} total",
        changes.len(),
        top.join(", "),
        a.output.display(),
        format_duration(t0.elapsed())
    );
    ExitCode::SUCCESS
}
