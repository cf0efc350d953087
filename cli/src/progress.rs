//! A progress bar on standard error for long runs: drawn only when standard
//! error is a terminal, the input's size is known and at least
//! [`min_bytes`], and `-q` was not given. Everywhere else it does nothing.

use std::cell::Cell;
use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Inputs smaller than this get no bar: they are done before one helps.
/// `U8X_PROGRESS_MIN` (a test hook) lowers it.
fn min_bytes() -> u64 {
    std::env::var("U8X_PROGRESS_MIN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256 << 20)
}

/// The bar, and bytes done but not yet shown: the bar costs a lock and a
/// clock read per update, which at 64 KiB a step was a third of a check's
/// time, so it is updated every [`STEP`] bytes.
pub struct Progress(ProgressBar, Cell<u64>);

const STEP: u64 = 16 << 20;

impl Progress {
    /// A bar for an input of `size` bytes (if known) named `name`.
    pub fn new(size: Option<u64>, name: &str, quiet: bool) -> Progress {
        let shown = !quiet && std::io::stderr().is_terminal();
        match size.filter(|&s| shown && s >= min_bytes()) {
            None => Progress(ProgressBar::hidden(), Cell::new(0)),
            Some(size) => {
                let bar = ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template(
                    "{msg} [{bar:30}] {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
                )
                .expect("the template is valid")
                .progress_chars("=> ");
                bar.set_style(style);
                bar.set_message(name.to_string());
                Progress(bar, Cell::new(0))
            }
        }
    }

    /// No bar: for inputs of unknown size.
    pub fn none() -> Progress {
        Progress(ProgressBar::hidden(), Cell::new(0))
    }

    /// Counts `bytes` more as done.
    pub fn advance(&self, bytes: u64) {
        let pending = self.1.get() + bytes;
        if pending < STEP {
            self.1.set(pending);
        } else {
            self.1.set(0);
            self.0.inc(pending);
        }
    }

    /// Runs `f` (which prints) with the bar out of its way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.0.suspend(f)
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
