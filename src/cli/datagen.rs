//! `chuhan datagen`: self-play training data (see `chuhan::tune::datagen`),
//! with a progress line on stderr and SIGINT/SIGTERM ending the run after
//! writing the games already finished.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chuhan::tools::opening::default_suite;
use chuhan::tune::datagen::{self, Config, Progress};

/// Raised by SIGINT or SIGTERM.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(sig: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
    // A second signal ends the process the default way.
    // SAFETY: signal() is async-signal-safe.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
    }
}

fn install_handlers() {
    // SAFETY: the handler only stores to an atomic and resets the disposition.
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
}

pub(crate) fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

pub fn run_datagen(cfg: Config, output: &Path) -> ExitCode {
    let suite = match default_suite() {
        Ok(s) if !s.is_empty() => s,
        Ok(_) => {
            eprintln!("error: the embedded opening suite is empty");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let file = match std::fs::File::create(output) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: cannot create {}: {e}", output.display());
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::new(file);
    install_handlers();
    let tty = std::io::stderr().is_terminal();
    let mut last_line = Instant::now() - Duration::from_secs(60);
    let show = |p: &Progress| {
        let eta = p.eta().map_or_else(|| "?".to_string(), format_duration);
        format!(
            "datagen: {}/{} games, {} positions, {:.0} positions/s, {} elapsed, ETA {eta}",
            p.games_done,
            p.games,
            p.positions,
            p.positions_per_second(),
            format_duration(p.elapsed)
        )
    };
    let result = datagen::run(&cfg, &suite, &mut out, &STOP, |p| {
        let every = if tty { Duration::from_millis(500) } else { Duration::from_secs(10) };
        if last_line.elapsed() >= every || p.games_done == p.games {
            last_line = Instant::now();
            let mut err = std::io::stderr().lock();
            if tty {
                let _ = write!(err, "\r\x1b[2K{}", show(p));
            } else {
                let _ = writeln!(err, "{}", show(p));
            }
            let _ = err.flush();
        }
    });
    if tty {
        eprintln!();
    }
    match result {
        Ok(s) => {
            eprintln!(
                "datagen: {} games ({} red wins, {} draws, {} black wins), {} positions in {} ({:.0} positions/s){}, written to {}",
                s.games,
                s.red_wins,
                s.draws,
                s.black_wins,
                s.positions,
                format_duration(s.elapsed),
                s.positions as f64 / s.elapsed.as_secs_f64().max(1e-9),
                if s.interrupted { "; interrupted, finished games kept" } else { "" },
                output.display()
            );
            if s.interrupted {
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", output.display());
            ExitCode::from(2)
        }
    }
}
