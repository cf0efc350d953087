//! Memory of `-j N` on hostile input: text that is nothing but errors
//! makes `check --all` report every byte and `fix --policy escape` write
//! four bytes for each. Peaks are measured with `wait4` on the child and
//! held to the bounds the README states, in blocks of `-j`.

mod common;

use common::*;

/// The block size these runs use: small through the test hook where the
/// binary honours it (debug builds, as `cargo test` makes them), the
/// release binary's 4 MiB otherwise.
fn block() -> u64 {
    match cfg!(debug_assertions) {
        true => 512 << 10,
        false => 4 << 20,
    }
}

/// What the program itself takes besides its buffers (code, std, the
/// allocator's arenas): measured on `-j 1` runs, under 10 MiB.
const BASE_KIB: u64 = 10 << 10;

/// `check --all -j N` on 2 MiB of 0xFF (2 Mi reports) stays within N + 1
/// blocks and 2 N lists of at most 4096 reports (48 bytes each), above
/// what the program takes: each job used to hold every report of its
/// blocks, about 90 bytes each (the issue measured 2.8 GB for -j 4 on 32
/// MiB).
#[test]
fn check_all_on_threads_holds_a_bounded_number_of_reports() {
    let dir = TempDir::new("check-mem");
    let data = vec![0xFFu8; 2 << 20];
    let file = dir.file("ff.bin", &data);
    let size = block().to_string();
    let env = [("U8X_BLOCK_SIZE", size.as_str())];
    for jobs in [2u64, 4] {
        let j = jobs.to_string();
        let args = ["check", "--all", "-j", &j, file.to_str().unwrap()];
        let Some((code, kib)) = peak_kib(&args, &env) else {
            return;
        };
        assert_eq!(code, Some(1));
        let bound = BASE_KIB + ((jobs + 1) * block() + 2 * jobs * 4096 * 48) / 1024;
        assert!(kib <= bound, "-j {jobs}: {kib} KiB, bound {bound} KiB");
    }
}

/// `fix -j N` holds at most 3 N + 1 buffers of a block and an eighth (4.5
/// MiB): N blocks read, N repairs being written, 2 N waiting to be
/// written, and the block the main thread repairs itself when a repair
/// outgrows its buffer (`escape` writes 4 bytes per bad byte, `replace` 3),
/// as 0xFF does with every block. Each job used to hold repairs of up to 4
/// times its blocks (86 MB for escape -j 4 on the 16 MiB here).
#[test]
fn fix_on_threads_holds_a_bounded_number_of_blocks() {
    let dir = TempDir::new("fix-mem");
    let data = vec![0xFFu8; 16 << 20];
    let file = dir.file("ff.bin", &data);
    // The release binary's block size, which the hook can also set.
    let block: u64 = 4 << 20;
    let size = block.to_string();
    let env = [("U8X_BLOCK_SIZE", size.as_str())];
    let half = dir.file("ff8.bin", &data[..8 << 20]);
    for (policy, jobs, file) in [
        ("escape", 2u64, &file),
        ("escape", 4, &file),
        ("replace", 2, &half),
    ] {
        let j = jobs.to_string();
        let args = [
            "fix",
            "-q",
            "--policy",
            policy,
            "-j",
            &j,
            file.to_str().unwrap(),
        ];
        let Some((code, kib)) = peak_kib(&args, &env) else {
            return;
        };
        assert_eq!(code, Some(1));
        let bound = BASE_KIB + (3 * jobs + 1) * (block + block / 8) / 1024;
        assert!(
            kib <= bound,
            "{policy} -j {jobs}: {kib} KiB, bound {bound} KiB"
        );
    }
}
