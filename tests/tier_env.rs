//! `U8X_TIER` forces a tier from outside the program: a tier the CPU has is
//! honoured, any other name is refused and the best tier runs, and whatever
//! runs gives the same results. The tier is chosen once per process, so each
//! case runs this test binary again (only `child_report`) with the variable
//! set, and reads what the child reports.

mod common;

use std::ffi::CStr;
use std::process::Command;

use common::{long_input, mixed_input, random_units, Rng};
use u8x::{EncodePolicy, Engine, Policy, Tier, TierRequest, REPLACE};

/// Set in the child: run `child_report` for real.
const CHILD: &str = "U8X_TIER_TEST_CHILD";

/// FNV-1a over the `Debug` form of every result and output, through the
/// crate's free functions (which run `Engine::best`, the tier `U8X_TIER`
/// chose).
fn digest() -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |s: String| {
        for b in s.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut rng = Rng::new(0x71E5);
    let policies = [
        Policy::Strict,
        REPLACE,
        Policy::Escape,
        Policy::Latin1,
        Policy::Cp1252,
    ];
    let encode_policies = [
        EncodePolicy::Strict,
        EncodePolicy::Replace('?'),
        EncodePolicy::Escape,
    ];
    for i in 0..600 {
        let src = if i % 3 == 0 {
            long_input(&mut rng, 2000)
        } else {
            mixed_input(&mut rng, 300)
        };
        eat(format!("{:?}", u8x::validate_chunk(&src, i % 2 == 0)));
        eat(format!("{}", u8x::count_valid(&src)));
        for policy in policies {
            let mut out = vec![0u32; src.len() / 2 + 1];
            let p = u8x::decode_ucs4(&src, &mut out, policy, false);
            eat(format!("{p:?} {:?}", &out[..p.written]));
            eat(format!("{:?}", u8x::count(&src, policy, true)));
        }
        let units = random_units(&mut rng, 300, 40);
        for policy in encode_policies {
            let mut out = vec![0u8; units.len() * 3];
            let p = u8x::encode(&units, &mut out, policy);
            eat(format!("{p:?} {:?}", &out[..p.written]));
            eat(format!("{:?}", u8x::encoded_len(&units, policy)));
        }
    }
    h
}

/// Not a test of its own: in a child started by `forced_tiers`, prints what
/// the C and Rust interfaces say about the tier, and the results' digest.
#[test]
fn child_report() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let digest = digest();
    // SAFETY: u8x_tier_name returns a static, NUL-terminated string.
    let c_name = unsafe { CStr::from_ptr(u8x::ffi::u8x_tier_name()) }
        .to_str()
        .unwrap();
    let forced = u8x::ffi::u8x_tier_forced();
    assert_eq!(c_name, Engine::best().tier().name());
    assert_eq!(
        forced,
        match Engine::request() {
            TierRequest::Honoured => 1,
            TierRequest::NotSet => 0,
            TierRequest::Unavailable => -1,
            TierRequest::Unknown => -2,
            other => panic!("new request kind {other:?}"),
        }
    );
    println!("report: {c_name} {forced} {digest:016x}");
}

/// Runs `child_report` with `U8X_TIER` set to `value` (or unset): the tier
/// name, `u8x_tier_forced()` and the digest.
fn run_child(value: Option<&str>) -> (String, i32, String) {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["child_report", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1");
    match value {
        Some(v) => cmd.env("U8X_TIER", v),
        None => cmd.env_remove("U8X_TIER"),
    };
    let out = cmd.output().expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "U8X_TIER={value:?}: child failed\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        // (libtest prints "test child_report ... " on the same line)
        .find_map(|l| l.split_once("report: ").map(|(_, r)| r))
        .unwrap_or_else(|| panic!("U8X_TIER={value:?}: no report in\n{stdout}"));
    let [name, forced, digest] = line.split(' ').collect::<Vec<_>>()[..] else {
        panic!("bad report {line:?}");
    };
    (
        name.to_string(),
        forced.parse().unwrap(),
        digest.to_string(),
    )
}

#[test]
fn forced_tiers() {
    let best = Tier::ALL
        .into_iter()
        .rev()
        .find(|t| t.is_available())
        .unwrap()
        .name();
    // (U8X_TIER, expected tier, expected u8x_tier_forced())
    let mut cases: Vec<(Option<String>, &str, i32)> = vec![
        (None, best, 0),
        (Some(String::new()), best, 0),
        (Some("avx1024".into()), best, -2),
        (Some(" avx2".into()), best, -2),
        (Some("sse4.2".into()), best, -2),
        (Some("best".into()), best, -2),
    ];
    for tier in Tier::ALL {
        let (expect, forced) = if tier.is_available() {
            (tier.name(), 1)
        } else {
            eprintln!(
                "note: this CPU lacks the {} tier: U8X_TIER={0} must be refused",
                tier.name()
            );
            (best, -1)
        };
        cases.push((Some(tier.name().into()), expect, forced));
        cases.push((Some(tier.name().to_uppercase()), expect, forced));
    }
    let mut digests = Vec::new();
    for (value, expect, forced) in &cases {
        let (name, got_forced, digest) = run_child(value.as_deref());
        assert_eq!(
            (name.as_str(), got_forced),
            (*expect, *forced),
            "U8X_TIER={value:?}"
        );
        digests.push((value, name, digest));
    }
    for (value, name, digest) in &digests {
        assert_eq!(
            digest, &digests[0].2,
            "U8X_TIER={value:?} ({name}) computes other results than the best tier"
        );
    }
}
