//! Builds and runs the C and C++ test programs in `c-tests/` against the C
//! libraries as `make` builds and installs them (`tests/clib`).
//!
//! Every `c-tests/*.c` is compiled with `-std=c99 -Wall -Wextra -Wpedantic
//! -Werror` (and `c-tests/*.cpp` with `-std=c++11` and the same warnings),
//! then linked and run: against `libu8x.a`, against `libu8x.so` (found
//! through an rpath), and, when the compiler has them, with AddressSanitizer
//! and UndefinedBehaviorSanitizer against `libu8x.a`. Those runs use the tier
//! `U8X_TIER` in the harness's environment picks (the best one if unset).
//! The `libu8x.a` build then runs once more per tier this CPU has, with
//! `U8X_TIER` set to it, and, when valgrind is installed, under valgrind
//! (memcheck) for each of those tiers that valgrind can run (in the full
//! suite, `U8X_FULL=1`; the quick check runs the best of them), where the
//! programs sample their largest loops (`check_light()` in
//! `c-tests/check.h`: edges plus a stride; memory errors follow lengths,
//! positions and capacities, which the sample keeps). Each run is one
//! CTest-style line; a final `N passed, M failed` line sums up.
//! `c-tests/expected.h`, the Python-computed expectations, is re-derived with
//! `python3` when it is installed.

use std::env;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use u8x::Tier;

mod clib;
mod common;

const C_FLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];
const CXX_FLAGS: &[&str] = &["-std=c++11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];
const SANITIZE: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];
/// Sanitized objects: line numbers in reports, and -O0, which compiles
/// three times faster than -O1 with sanitizers and runs fast enough here.
const SANITIZED_EXTRA: &[&str] = &["-O0", "-g"];
/// What a Rust staticlib needs from the system when linked into a C program.
/// What a program linked with `libu8x.a` needs besides it: nothing but the
/// libc every C link brings (the library is no_std; `pkg/u8x.pc.in`'s empty
/// `Libs.private` says the same).
const STATIC_SYSTEM_LIBS: &[&str] = &[];
/// How long one program may run: 120 s natively; under an emulator
/// (`U8X_EMULATED`, set by `.ci/run` for its qemu runs), where the
/// restartable calls' comparison with glibc took 54-120 s on a loaded
/// machine, 600 s.
fn run_timeout() -> Duration {
    if std::env::var_os("U8X_EMULATED").is_some_and(|v| !v.is_empty()) {
        Duration::from_secs(600)
    } else {
        Duration::from_secs(120)
    }
}
const UBSAN_OPTIONS: &str = "print_stacktrace=1:halt_on_error=1";
/// Any memcheck error fails the run; leaks are not errors (the test
/// programs exit without freeing everything).
const VALGRIND: &[&str] = &["-q", "--error-exitcode=1", "--leak-check=no"];
/// The tiers valgrind can run: its CPU emulation (3.19 and later) has SSE4.2
/// and AVX2 but not AVX-512, which it hides from the program, so
/// `U8X_TIER=avx512` would be refused under it.
const VALGRIND_TIERS: &[Tier] = &[Tier::Scalar, Tier::Sse42, Tier::Avx2];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Static,
    Shared,
    Sanitized,
}

impl Variant {
    fn label(self) -> &'static str {
        match self {
            Variant::Static => "static",
            Variant::Shared => "shared",
            Variant::Sanitized => "asan+ubsan",
        }
    }
}

/// One way to run a program: how it is linked, the tier it is told to use
/// (`U8X_TIER`, and `U8X_EXPECT_TIER` for c-tests/tier.c to check that the
/// tier really ran), and whether under valgrind (always the static build).
#[derive(Clone, Copy)]
struct Run {
    variant: Variant,
    tier: Option<Tier>,
    valgrind: bool,
}

impl Run {
    fn label(&self) -> String {
        let how = if self.valgrind {
            "valgrind"
        } else {
            self.variant.label()
        };
        match self.tier {
            Some(t) => format!("{how} {}", t.name()),
            None => how.to_string(),
        }
    }
}

/// One CTest line.
struct Outcome {
    /// The index of its [`Run`] in [`Setup::runs`]: lines are listed by run.
    run: usize,
    name: String,
    passed: bool,
    secs: f64,
    /// Compiler or program output, printed when the test failed.
    log: String,
}

struct Setup {
    root: PathBuf,
    tests_dir: PathBuf,
    include_dir: PathBuf,
    lib_dir: PathBuf,
    static_lib: PathBuf,
    out_dir: PathBuf,
    cc: cc::Tool,
    cxx: cc::Tool,
    /// `ASAN_OPTIONS` for sanitized runs; `None` if sanitizers are unavailable.
    asan_options: Option<String>,
    /// How each program runs, in the order the lines are listed.
    runs: Vec<Run>,
}

/// The target triple this test was compiled for (build.rs passes it on).
fn target_triple() -> String {
    clib::target_triple().to_string()
}

fn compiler(cpp: bool) -> cc::Tool {
    let target = target_triple();
    cc::Build::new()
        .cpp(cpp)
        .target(&target)
        .host(&target)
        .opt_level(1)
        .debug(false)
        // -Wall -Wextra (ours are added too). Not `warnings(false)`: that
        // adds -w, which silences every warning, -Werror or not.
        .warnings(true)
        .extra_warnings(true)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .emit_rerun_if_env_changed(false)
        .get_compiler()
}

fn setup() -> Setup {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let include_dir = root.join("include");
    assert!(
        include_dir.join("u8x.h").is_file(),
        "{} is missing: `cargo build` generates it",
        include_dir.join("u8x.h").display()
    );
    let lib_dir = clib::lib_dir();
    let static_lib = clib::static_lib();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c-tests")
        .join(std::process::id().to_string());
    fs::create_dir_all(&out_dir).unwrap_or_else(|e| panic!("{}: {e}", out_dir.display()));
    let mut setup = Setup {
        tests_dir: root.join("c-tests"),
        root,
        include_dir,
        lib_dir,
        static_lib,
        out_dir,
        cc: compiler(false),
        cxx: compiler(true),
        asan_options: None,
        runs: Vec::new(),
    };
    setup.asan_options = probe_sanitizers(&setup);
    setup.runs = runs(setup.asan_options.is_some(), valgrind_works());
    setup
}

/// The runs of every program: static, shared, sanitized; static on each
/// tier this CPU has; valgrind on each of those it can run.
fn runs(sanitizers: bool, valgrind: bool) -> Vec<Run> {
    let plain = |variant| Run {
        variant,
        tier: None,
        valgrind: false,
    };
    let mut runs = vec![plain(Variant::Static), plain(Variant::Shared)];
    if sanitizers {
        runs.push(plain(Variant::Sanitized));
    }
    let tiers: Vec<Tier> = Tier::ALL.into_iter().filter(|t| t.is_available()).collect();
    for &tier in &tiers {
        runs.push(Run {
            tier: Some(tier),
            ..plain(Variant::Static)
        });
    }
    if valgrind {
        // Every tier valgrind can run in the full suite; in the quick check
        // the best of them (a third of the time: valgrind's runs were 520
        // of the harness's 680 CPU seconds on three tiers).
        let under: Vec<Tier> = tiers
            .iter()
            .copied()
            .filter(|t| VALGRIND_TIERS.contains(t))
            .collect();
        let skip = if common::full() {
            0
        } else {
            under.len().saturating_sub(1)
        };
        for &tier in &under[skip..] {
            runs.push(Run {
                tier: Some(tier),
                valgrind: true,
                ..plain(Variant::Static)
            });
        }
    }
    if let Some(t) = env::var_os("U8X_TIER") {
        println!(
            "c-tests: U8X_TIER={} from the environment applies to the static, shared and sanitized runs",
            t.to_string_lossy()
        );
    }
    runs
}

/// Whether `valgrind` is installed and runs; prints why not otherwise.
fn valgrind_works() -> bool {
    if clib::cross() {
        // The machine's valgrind has no tool for the target's programs
        // (which run under qemu-user).
        println!(
            "skipped: no valgrind runs for {} programs built on {}",
            clib::target_triple(),
            env!("U8X_BUILD_HOST")
        );
        return false;
    }
    let works = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        println!("skipped: valgrind is not installed, no valgrind runs (.ci/run installs it)");
    }
    works
}

/// Runs `cmd`, returning whether it succeeded and its output (stderr first).
fn run_tool(mut cmd: Command) -> (bool, String) {
    let shown = std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    match cmd.output() {
        Ok(out) => {
            let mut log = format!("$ {shown}\n");
            log.push_str(&String::from_utf8_lossy(&out.stderr));
            log.push_str(&String::from_utf8_lossy(&out.stdout));
            (out.status.success(), log)
        }
        Err(e) => (false, format!("$ {shown}\ncannot run: {e}\n")),
    }
}

/// Runs a test program with a time limit, under valgrind if asked; its
/// output goes to files so that a chatty program cannot block on a full pipe.
fn run_program(exe: &Path, envs: &[(&str, &str)], valgrind: bool) -> (bool, String) {
    let stdout_path = exe.with_extension("stdout");
    let stderr_path = exe.with_extension("stderr");
    let (Ok(stdout), Ok(stderr)) = (
        fs::File::create(&stdout_path),
        fs::File::create(&stderr_path),
    ) else {
        return (
            false,
            format!("cannot create output files next to {}", exe.display()),
        );
    };
    let mut cmd = if valgrind {
        let mut cmd = Command::new("valgrind");
        cmd.args(VALGRIND).arg(exe);
        cmd
    } else {
        Command::new(exe)
    };
    cmd.stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .current_dir(exe.parent().unwrap());
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => return (false, format!("cannot run {}: {e}", exe.display())),
    };
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > run_timeout() => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let mut log = fs::read_to_string(&stdout_path).unwrap_or_default();
    log.push_str(&fs::read_to_string(&stderr_path).unwrap_or_default());
    match status {
        Some(s) if s.success() => (true, log),
        Some(s) => (false, format!("{log}\n{} exited with {s}\n", exe.display())),
        None => (
            false,
            format!(
                "{log}\n{} timed out after {:?}\n",
                exe.display(),
                run_timeout()
            ),
        ),
    }
}

/// Compiles and runs a trivial program with the sanitizers. Returns the
/// `ASAN_OPTIONS` to use, or `None` (with the reason printed) if they do not
/// work here.
fn probe_sanitizers(s: &Setup) -> Option<String> {
    let dir = s.out_dir.join("probe");
    fs::create_dir_all(&dir).ok()?;
    let src = dir.join("probe.c");
    let exe = dir.join("probe");
    fs::write(
        &src,
        "#include <stdio.h>\nint main(void) { puts(\"sanitizers work\"); return 0; }\n",
    )
    .ok()?;
    let mut cmd = s.cc.to_command();
    cmd.args(SANITIZE).arg(&src).arg("-o").arg(&exe);
    let (ok, log) = run_tool(cmd);
    if !ok {
        println!(
            "skipped: sanitizers unavailable (the compiler cannot build with {}):",
            SANITIZE.join(" ")
        );
        println!("{}", log.lines().take(5).collect::<Vec<_>>().join("\n"));
        return None;
    }
    // LeakSanitizer needs ptrace, which some containers forbid.
    for options in ["detect_leaks=1", "detect_leaks=0"] {
        let asan = format!("{options}:abort_on_error=0:halt_on_error=1");
        let (ok, _) = run_program(
            &exe,
            &[("ASAN_OPTIONS", &asan), ("UBSAN_OPTIONS", UBSAN_OPTIONS)],
            false,
        );
        if ok {
            if options == "detect_leaks=0" {
                println!(
                    "note: LeakSanitizer does not work here; running ASan without leak detection"
                );
            }
            return Some(asan);
        }
    }
    println!("skipped: sanitizers unavailable (a sanitized program builds but does not run here)");
    None
}

/// Compiles one source file to an object, with or without sanitizers.
fn compile(s: &Setup, src: &Path, obj: &Path, sanitized: bool) -> (bool, String) {
    let cpp = src.extension() == Some(OsStr::new("cpp"));
    let mut cmd = if cpp {
        s.cxx.to_command()
    } else {
        s.cc.to_command()
    };
    cmd.args(if cpp { CXX_FLAGS } else { C_FLAGS })
        .arg("-I")
        .arg(&s.include_dir)
        .arg("-I")
        .arg(&s.tests_dir)
        .arg(format!(
            "-DU8X_EXPECTED_VERSION=\"{}\"",
            env!("CARGO_PKG_VERSION")
        ));
    if sanitized {
        cmd.args(SANITIZE).args(SANITIZED_EXTRA);
    }
    cmd.arg("-c").arg(src).arg("-o").arg(obj);
    run_tool(cmd)
}

fn link(s: &Setup, obj: &Path, exe: &Path, cpp: bool, variant: Variant) -> (bool, String) {
    let mut cmd = if cpp {
        s.cxx.to_command()
    } else {
        s.cc.to_command()
    };
    if variant == Variant::Sanitized {
        cmd.args(SANITIZE);
    }
    // (drop the unused parts of the staticlib: a faster link)
    let gc_sections = if cfg!(target_vendor = "apple") {
        "-Wl,-dead_strip"
    } else {
        "-Wl,--gc-sections"
    };
    cmd.arg(obj).arg("-o").arg(exe).arg(gc_sections);
    match variant {
        Variant::Static | Variant::Sanitized => {
            cmd.arg(&s.static_lib).args(STATIC_SYSTEM_LIBS);
        }
        Variant::Shared => {
            // DT_RPATH, not DT_RUNPATH: cargo puts target/<profile> on
            // LD_LIBRARY_PATH, and a RUNPATH would let an older libu8x.so
            // left there by `cargo build` shadow the one just built.
            cmd.arg("-L")
                .arg(&s.lib_dir)
                .arg("-lu8x")
                .arg(format!("-Wl,-rpath,{}", s.lib_dir.display()))
                .arg("-Wl,--disable-new-dtags");
        }
    }
    run_tool(cmd)
}

/// Everything for one source file: its CTest lines, one per run.
fn test_program(s: &Setup, src: &Path) -> Vec<Outcome> {
    let stem = src.file_stem().unwrap().to_string_lossy().into_owned();
    let cpp = src.extension() == Some(OsStr::new("cpp"));
    let mut outcomes = Vec::new();
    // one object for the static and shared runs, one for the sanitized run
    let mut objects: [Option<(bool, String)>; 2] = [None, None];
    // one executable per variant, linked by its first run
    let mut exes: [Option<(bool, String)>; 3] = [None, None, None];
    for (index, run) in s.runs.iter().enumerate() {
        let variant = run.variant;
        let start = Instant::now();
        let sanitized = variant == Variant::Sanitized;
        let obj = s
            .out_dir
            .join(format!("{stem}{}.o", if sanitized { "-san" } else { "" }));
        let slot = &mut objects[sanitized as usize];
        // (an object's compile time counts in the first line that uses it)
        let (compiled, compile_log) = slot.get_or_insert_with(|| compile(s, src, &obj, sanitized));
        let mut log = String::new();
        let mut passed = *compiled;
        if !*compiled {
            log.push_str(compile_log);
        } else {
            let exe = s
                .out_dir
                .join(format!("{stem}-{}", variant.label().replace('+', "-")));
            let (linked, link_log) =
                exes[variant as usize].get_or_insert_with(|| link(s, &obj, &exe, cpp, variant));
            if !*linked {
                passed = false;
                log.push_str(link_log);
            } else {
                let asan = s.asan_options.clone().unwrap_or_default();
                let mut envs = vec![];
                if sanitized {
                    envs.extend([("ASAN_OPTIONS", &*asan), ("UBSAN_OPTIONS", UBSAN_OPTIONS)]);
                }
                if let Some(tier) = run.tier {
                    envs.extend([("U8X_TIER", tier.name()), ("U8X_EXPECT_TIER", tier.name())]);
                }
                let (ran, run_log) = run_program(&exe, &envs, run.valgrind);
                passed = ran;
                log.push_str(&run_log);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        outcomes.push(Outcome {
            run: index,
            name: format!("{stem} [{}]", run.label()),
            passed,
            secs,
            log,
        });
    }
    outcomes
}

/// Re-derives c-tests/expected.h with python3, if installed.
fn python_oracle(s: &Setup) -> Option<Outcome> {
    let start = Instant::now();
    if Command::new("python3")
        .arg("--version")
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        println!("skipped: python3 unavailable, c-tests/expected.h not re-derived");
        return None;
    }
    let mut cmd = Command::new("python3");
    cmd.arg(s.tests_dir.join("gen_expected.py"))
        .arg("--check")
        .arg(s.tests_dir.join("expected.h"))
        .current_dir(&s.root);
    let (passed, log) = run_tool(cmd);
    Some(Outcome {
        run: usize::MAX,
        name: "expected.h [python3 oracle]".to_string(),
        passed,
        secs: start.elapsed().as_secs_f64(),
        log,
    })
}

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(OsStr::to_str), Some("c" | "cpp")))
        .collect();
    found.sort();
    found
}

/// Says which tiers the per-tier and valgrind runs covered, and how long the
/// valgrind runs took, in every `cargo test` run: written straight to the
/// stderr handle, which libtest does not capture.
fn tiers_summary(s: &Setup, outcomes: &[Outcome]) {
    let tiers = |valgrind: bool| {
        let names: Vec<&str> = s
            .runs
            .iter()
            .filter(|r| r.valgrind == valgrind)
            .filter_map(|r| r.tier.map(Tier::name))
            .collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(" ")
        }
    };
    // Summed from 0.0: `Sum` for floats starts at -0.0, printed "-0".
    let valgrind_secs = outcomes
        .iter()
        .filter(|o| s.runs.get(o.run).is_some_and(|r| r.valgrind))
        .fold(0.0, |total, o| total + o.secs);
    let line = format!(
        "c-tests: tiers run: {}; under valgrind: {} ({valgrind_secs:.0} s in all)\n",
        tiers(false),
        tiers(true)
    );
    std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes()).unwrap();
}

#[test]
fn c_programs() {
    let s = setup();
    let srcs = sources(&s.tests_dir);
    assert!(
        srcs.iter()
            .filter(|p| p.extension() == Some(OsStr::new("c")))
            .count()
            >= 5,
        "expected the C test programs in {}",
        s.tests_dir.display()
    );
    println!(
        "c-tests: {} programs, cc {}, c++ {}, library in {}",
        srcs.len(),
        s.cc.path().display(),
        s.cxx.path().display(),
        s.lib_dir.display()
    );
    if s.asan_options.is_none() {
        // probe_sanitizers printed why
        println!("(each program runs against libu8x.a and libu8x.so only)");
    }

    // Compile, link and run in parallel, one source file per job.
    let results: Mutex<Vec<Option<Vec<Outcome>>>> =
        Mutex::new((0..srcs.len()).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    let workers = thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(1, srcs.len().max(1));
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(src) = srcs.get(i) else { break };
                let outcomes = test_program(&s, src);
                results.lock().unwrap()[i] = Some(outcomes);
            });
        }
    });
    let mut outcomes: Vec<Outcome> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .flatten()
        .flatten()
        .collect();
    // ordered by run, then by program, as CTest lists them
    outcomes.sort_by_key(|o| (o.run, o.name.clone()));
    outcomes.extend(python_oracle(&s));

    let total = outcomes.len();
    let width = total.to_string().len();
    let mut failed = Vec::new();
    for (i, o) in outcomes.iter().enumerate() {
        let verdict = if o.passed { "Passed" } else { "Failed" };
        let test = format!("Test #{}: {} ", i + 1, o.name);
        println!(
            "{:>width$}/{total} {test:.<56} {verdict:>7} {:6.2} sec",
            i + 1,
            o.secs
        );
        if !o.passed {
            failed.push(o);
        }
    }
    for o in &failed {
        println!("\n---- {} ----", o.name);
        // the first failures and the end (where a sanitizer reports)
        let lines: Vec<&str> = o.log.lines().collect();
        if lines.len() <= 150 {
            println!("{}", lines.join("\n"));
        } else {
            println!("{}", lines[..100].join("\n"));
            println!("({} lines not shown)", lines.len() - 140);
            println!("{}", lines[lines.len() - 40..].join("\n"));
        }
    }
    if failed.is_empty() {
        let _ = fs::remove_dir_all(&s.out_dir);
    } else {
        println!(
            "\nbuild products and outputs kept in {}",
            s.out_dir.display()
        );
    }
    println!("\n{} passed, {} failed", total - failed.len(), failed.len());
    tiers_summary(&s, &outcomes);
    assert!(
        failed.is_empty(),
        "{} of {total} C tests failed: {}",
        failed.len(),
        failed
            .iter()
            .map(|o| o.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
}

/// The functions `include/u8x.h` declares: the identifier before the `(`
/// of each declaration (a line starting in column 0, outside comments and
/// preprocessor lines).
fn header_functions(header: &str) -> Vec<String> {
    let mut names: Vec<String> = header
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|l| l.split_once('(').map(|(before, _)| before))
        .filter_map(|before| {
            before
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
        })
        .filter(|name| name.starts_with("u8x_"))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// `c-tests/args_guarded.c` runs the bad-argument matrix on every function
/// in its `functions` table (and fails if one is not exercised): the table
/// must list exactly the header's functions, so a new function cannot be
/// added without its bad-argument tests.
#[test]
fn args_guarded_covers_every_function() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = fs::read_to_string(root.join("include/u8x.h")).unwrap();
    let program = fs::read_to_string(root.join("c-tests/args_guarded.c")).unwrap();
    let declared = header_functions(&header);
    assert!(
        declared.len() >= 29 && declared.iter().any(|n| n == "u8x_wcstombs"),
        "the header parser found too few functions: {declared:?}"
    );
    let mut listed: Vec<String> = program
        .split("FN(")
        .skip(1)
        .filter_map(|rest| {
            rest.split_once(')')
                .map(|(name, _)| name.trim().to_string())
        })
        .filter(|name| name.starts_with("u8x_"))
        .collect();
    listed.sort();
    let missing: Vec<&String> = declared.iter().filter(|n| !listed.contains(n)).collect();
    let extra: Vec<&String> = listed.iter().filter(|n| !declared.contains(n)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "c-tests/args_guarded.c's `functions` table differs from include/u8x.h: \
         missing {missing:?}, not in the header {extra:?}"
    );
    let mut dedup = listed.clone();
    dedup.dedup();
    assert_eq!(dedup, listed, "a function is listed twice");
}
