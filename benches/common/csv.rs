//! `--csv PATH`: one row per (operation, input, alignment, implementation)
//! with its GB/s, and on every row the columns that say which run it came
//! from, so that files from several runs and machines can be read together
//! (`benches/summary.py` turns them into BENCHMARKS.md's tables and chart).
//!
//! Shared by `compare` and `forms`: the same header, so `benches/record.sh`
//! concatenates their files into one.

use std::io::Write;

/// The columns, in order. `role`: `u8x` (a u8x variant), `peer` (same
/// output as u8x: a candidate for "best peer"), `own` (u8x itself doing
/// something else, the base of a self-ratio) or `reference` (different
/// output, timed for information).
const HEADER: &str = "bench,operation,input,bytes,align,implementation,role,gbps,\
cpu,cpu_family_model,u8x_tier,simdutf91_kernel,simdutf77_kernel,date,commit,rounds,round_ms";

/// What identifies a run: the same on every row it writes.
pub struct RunInfo {
    pub bench: &'static str,
    pub u8x_tier: String,
    pub simdutf91_kernel: String,
    pub simdutf77_kernel: String,
    pub rounds: usize,
    pub round_ms: f64,
}

pub struct CsvOut {
    file: std::io::BufWriter<std::fs::File>,
    /// The run columns, already quoted and joined.
    run: String,
    bench: &'static str,
}

impl CsvOut {
    /// Creates (or truncates) `path` and writes the header.
    pub fn create(path: &str, info: &RunInfo) -> CsvOut {
        let file = std::fs::File::create(path)
            .unwrap_or_else(|e| panic!("--csv {path}: cannot create it ({e})"));
        let mut file = std::io::BufWriter::new(file);
        writeln!(file, "{HEADER}").expect("write the CSV header");
        let run = [
            field(&cpu_model()),
            field(&cpu_family_model()),
            field(&info.u8x_tier),
            field(&info.simdutf91_kernel),
            field(&info.simdutf77_kernel),
            field(&today()),
            field(&git_commit()),
            info.rounds.to_string(),
            format!("{}", info.round_ms),
        ]
        .join(",");
        CsvOut {
            file,
            run,
            bench: info.bench,
        }
    }

    /// One measurement. `bytes`: the input's size in bytes of UTF-8.
    #[allow(clippy::too_many_arguments)]
    pub fn row(
        &mut self,
        operation: &str,
        input: &str,
        bytes: usize,
        align: &str,
        implementation: &str,
        role: &str,
        gbps: f64,
    ) {
        let line = [
            field(self.bench),
            field(operation),
            field(input),
            bytes.to_string(),
            field(align),
            field(implementation),
            field(role),
            format!("{gbps:.4}"),
            self.run.clone(),
        ]
        .join(",");
        writeln!(self.file, "{line}").expect("write a CSV row");
    }
}

impl Drop for CsvOut {
    fn drop(&mut self) {
        self.file.flush().expect("flush the CSV file");
    }
}

/// RFC 4180 quoting where a field needs it.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn cpuinfo_field(name: &str) -> Option<String> {
    std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|s| {
        s.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    })
}

/// The CPU's name as /proc/cpuinfo gives it (`model name`, or `Model` on Arm).
pub fn cpu_model() -> String {
    cpuinfo_field("model name")
        .or_else(|| cpuinfo_field("Model"))
        .unwrap_or_else(|| "unknown (no /proc/cpuinfo)".into())
}

/// "AuthenticAMD family 25 model 1": a VM often names its CPU only "AMD
/// EPYC", and the family and model are what tell Zen 3 from Zen 5.
pub fn cpu_family_model() -> String {
    match (
        cpuinfo_field("vendor_id"),
        cpuinfo_field("cpu family"),
        cpuinfo_field("model"),
    ) {
        (Some(v), Some(f), Some(m)) => format!("{v} family {f} model {m}"),
        _ => "unknown".into(),
    }
}

/// `U8X_COMMIT` if set (a run from an exported tree), else `git rev-parse`
/// of the checkout the bench was built from, with `-dirty` for uncommitted
/// changes; "unknown" without git.
pub fn git_commit() -> String {
    if let Ok(c) = std::env::var("U8X_COMMIT") {
        return c;
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
    };
    let Some(head) = git(&["rev-parse", "--short=7", "HEAD"]) else {
        return "unknown".into();
    };
    let head = String::from_utf8_lossy(&head.stdout).trim().to_string();
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|o| !o.stdout.is_empty());
    if dirty {
        format!("{head}-dirty")
    } else {
        head
    }
}

/// Today's date (UTC) from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's days-to-civil.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}
