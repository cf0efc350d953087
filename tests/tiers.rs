//! Every vector tier against the scalar tier: identical `Progress` (status,
//! error offset, kind and length, read, written) and identical output, for
//! every operation, policy and output capacity, on inputs built to hit block
//! edges. Tiers the CPU lacks are skipped, and say so.

mod common;

use common::{random_scalar, Rng};
use u8x::{ByteOrder, Dialect, EncodePolicy, Engine, Policy, Progress, Tier, REPLACE};

const POLICIES: [Policy; 7] = [
    Policy::Strict,
    REPLACE,
    Policy::Replace('?'),
    Policy::Escape,
    Policy::Latin1,
    Policy::Cp1252,
    Policy::Ignore,
];
const ENCODE_POLICIES: [EncodePolicy; 4] = [
    EncodePolicy::Strict,
    EncodePolicy::Replace('\u{FFFD}'),
    EncodePolicy::Escape,
    EncodePolicy::Ignore,
];

fn scalar() -> Engine {
    Engine::new(Tier::Scalar).expect("the scalar tier is always available")
}

fn fast_tiers() -> Vec<Engine> {
    let tiers: Vec<Engine> = Tier::ALL
        .iter()
        .filter(|&&t| t != Tier::Scalar)
        .filter_map(|&t| {
            let engine = Engine::new(t);
            if engine.is_none() {
                eprintln!("skipped: this CPU lacks the {t:?} tier");
            }
            engine
        })
        .collect();
    tiers
}

/// Valid text of at least `len` bytes: ASCII letters with probability
/// `ascii_bias`%, otherwise a random scalar of any UTF-8 length.
fn text(rng: &mut Rng, len: usize, ascii_bias: usize) -> Vec<u8> {
    let mut s = String::new();
    while s.len() < len {
        if rng.below(100) < ascii_bias {
            s.push((b'a' + rng.below(26) as u8) as char);
        } else {
            s.push(random_scalar(rng));
        }
    }
    s.into_bytes()
}

/// Damage that exercises each error kind.
const DAMAGE: [&[u8]; 12] = [
    b"\x80",
    b"\xBF\xBF",
    b"\xC0\xAF",
    b"\xC1",
    b"\xE0\x80\x80",
    b"\xED\xA0\x80",
    b"\xF4\x90\x80\x80",
    b"\xF5",
    b"\xFF",
    b"\xE2\x82",
    b"\xF0\x9F\x98",
    b"\xC3",
];

fn compare_decoders(engine: Engine, src: &[u8], what: &str) {
    let reference = scalar();
    for more in [false, true] {
        assert_eq!(
            engine.validate_chunk(src, more),
            reference.validate_chunk(src, more),
            "validate {what} more={more}"
        );
        for policy in POLICIES {
            assert_eq!(
                engine.count(src, policy, more),
                reference.count(src, policy, more),
                "count {what} {policy:?} more={more}"
            );
            for cap in [src.len(), src.len() / 2, 17, 3] {
                let mut a = vec![0xAAAA_AAAAu32; cap];
                let mut b = vec![0xAAAA_AAAAu32; cap];
                let pa = engine.decode_ucs4(src, &mut a, policy, more);
                let pb = reference.decode_ucs4(src, &mut b, policy, more);
                assert_eq!(pa, pb, "decode {what} {policy:?} more={more} cap={cap}");
                assert_eq!(
                    a, b,
                    "decoded units (and untouched tail) {what} {policy:?} more={more} cap={cap}"
                );
            }
        }
    }
}

fn compare_encoders(engine: Engine, src: &[u32], what: &str) {
    let reference = scalar();
    for policy in ENCODE_POLICIES {
        assert_eq!(
            engine.encoded_len(src, policy),
            reference.encoded_len(src, policy),
            "encoded_len {what} {policy:?}"
        );
        for cap in [src.len() * 4, src.len() * 2, 13, 3] {
            let mut a = vec![0xAAu8; cap];
            let mut b = vec![0xAAu8; cap];
            let pa: Progress = engine.encode(src, &mut a, policy);
            let pb = reference.encode(src, &mut b, policy);
            assert_eq!(pa, pb, "encode {what} {policy:?} cap={cap}");
            assert_eq!(
                a, b,
                "encoded bytes (and untouched tail) {what} {policy:?} cap={cap}"
            );
        }
    }
}

#[test]
fn every_length_and_alignment() {
    let mut rng = Rng::new(1);
    for engine in fast_tiers() {
        let mut checked = 0;
        for (bias, seed_text) in [
            (100, text(&mut rng, 400, 100)),
            (30, text(&mut rng, 400, 30)),
            (0, text(&mut rng, 400, 0)),
        ] {
            let mut storage = vec![0u8; 512];
            for len in 0..=300usize {
                let len = len.min(seed_text.len());
                // Cut at a char boundary so the text itself is valid.
                let mut cut = len;
                while std::str::from_utf8(&seed_text[..cut]).is_err() {
                    cut -= 1;
                }
                for align in 0..64 {
                    storage[align..align + cut].copy_from_slice(&seed_text[..cut]);
                    let src = &storage[align..align + cut];
                    let reference = scalar();
                    assert_eq!(
                        engine.validate_chunk(src, false),
                        reference.validate_chunk(src, false),
                        "bias {bias} len {cut} align {align}"
                    );
                    let mut a = vec![0u32; cut];
                    let mut b = vec![0u32; cut];
                    assert_eq!(
                        engine.decode_ucs4(src, &mut a, Policy::Strict, false),
                        reference.decode_ucs4(src, &mut b, Policy::Strict, false)
                    );
                    assert_eq!(a, b, "bias {bias} len {cut} align {align}");
                    checked += 1;
                }
            }
        }
        eprintln!("{engine:?}: {checked} length/alignment cases");
        assert_eq!(checked, 3 * 301 * 64);
    }
}

#[test]
fn errors_at_every_position_around_block_edges() {
    let mut rng = Rng::new(2);
    for engine in fast_tiers() {
        let mut checked = 0;
        for bias in [100, 50, 0] {
            let base = text(&mut rng, 300, bias);
            for damage in DAMAGE {
                for pos in (0..200).filter(|p| p % 64 < 5 || p % 64 > 58) {
                    let mut src = base[..pos.min(base.len())].to_vec();
                    src.extend_from_slice(damage);
                    src.extend_from_slice(&base[pos.min(base.len())..]);
                    compare_decoders(
                        engine,
                        &src,
                        &format!("damage {damage:02X?} at {pos}, bias {bias}"),
                    );
                    // And the damage as the very end of the input.
                    src.truncate(pos + damage.len());
                    compare_decoders(
                        engine,
                        &src,
                        &format!("damage {damage:02X?} ending input at {pos}"),
                    );
                    checked += 2;
                }
            }
        }
        eprintln!("{engine:?}: {checked} planted-error inputs");
    }
}

/// The AVX-512 validator and counter skip long ASCII runs and test four
/// blocks at a time: damage just after runs of about 1-4 such groups, with
/// text after it, so that the error lands at and around group starts.
#[test]
fn errors_after_long_ascii_runs() {
    let mut rng = Rng::new(7);
    let after = text(&mut rng, 300, 30);
    for engine in fast_tiers() {
        let mut checked = 0;
        for groups in 1..=4 {
            for run in 256 * groups - 4..=256 * groups + 4 {
                for damage in DAMAGE {
                    let mut src = vec![b'a'; run];
                    src.extend_from_slice(damage);
                    src.extend_from_slice(&after);
                    compare_decoders(
                        engine,
                        &src,
                        &format!("damage {damage:02X?} after {run} ASCII"),
                    );
                    checked += 1;
                }
            }
        }
        eprintln!("{engine:?}: {checked} inputs with damage after ASCII runs");
    }
}

/// Text of 3- and 4-byte characters with sparse ASCII (and a few 2-byte
/// ones): what the AVX2 tier decodes in steps that run over block edges.
fn wide_text(rng: &mut Rng, len: usize, four_in: usize) -> Vec<u8> {
    let mut s = String::new();
    while s.len() < len {
        let r = rng.below(100);
        let c = if r < 2 {
            (b'0' + rng.below(10) as u8) as char
        } else if r < 5 {
            char::from_u32(0x400 + rng.range(0, 0x100)).unwrap()
        } else if r < 5 + four_in {
            char::from_u32(0x1F300 + rng.range(0, 0x300)).unwrap()
        } else {
            char::from_u32(0x4E00 + rng.range(0, 0x5000)).unwrap()
        };
        s.push(c);
    }
    s.into_bytes()
}

#[test]
fn wide_text_whole_and_damaged_anywhere() {
    let mut rng = Rng::new(9);
    for engine in fast_tiers() {
        let mut checked = 0;
        for four_in in [0, 10, 50, 95] {
            for len in [70, 150, 333] {
                let base = wide_text(&mut rng, len, four_in);
                compare_decoders(engine, &base, &format!("wide text, {four_in}% 4-byte"));
                for pos in (0..base.len()).step_by(5) {
                    let damage = DAMAGE[rng.below(DAMAGE.len())];
                    let mut src = base[..pos].to_vec();
                    src.extend_from_slice(damage);
                    src.extend_from_slice(&base[pos..]);
                    compare_decoders(
                        engine,
                        &src,
                        &format!("wide text, damage {damage:02X?} at {pos}"),
                    );
                    checked += 1;
                }
            }
        }
        eprintln!("{engine:?}: {checked} damaged wide-text inputs");
    }
}

/// Long runs of 3-byte characters, which SSE4.2 and NEON decode in steps
/// of their own (8 characters from 24 bytes) and AVX-512 in a loop of its
/// own (`bmp_run`), entered at every phase of a block and broken anywhere:
/// by what the step's shape test sees (a stray continuation byte, a 4-byte
/// or 2-byte character, ASCII, a 00 that Modified UTF-8 refuses, a 4- or
/// 5-byte lead with two continuation bytes), by what only its code-point
/// test sees (the overlong E0 80 80 and E0 9F BF, C0 80 and C1 BF, a
/// surrogate ED A0 80, which CESU-8 pairs, the last one ED BF BF, and a
/// stray byte after U+FFFF), and by the end of room; and not broken, by the
/// first and last 3-byte characters on each side of those tests (U+0800,
/// U+D7FF, U+FFFF). Every tier must decode them as the scalar tier does, to UCS-4
/// and to UTF-16 in both byte orders, in RFC 3629, CESU-8 and Modified
/// UTF-8.
#[test]
fn runs_of_three_byte_characters_broken_anywhere() {
    const BREAKS: [&[u8]; 19] = [
        b"\x00",
        b"\xC0\x80",
        b"\xC1\xBF",
        b"\xE0\x9F\xBF",
        b"\xED\xBF\xBF",
        b"\xEF\xBF\xBF\xBF",
        b"\xE0\x80\x80",
        b"\xED\xA0\x80",
        b"\xED\xA0\x80\xED\xB0\x80",
        b"\x80",
        b"\xF0\x9F\x98\x80",
        b"\xC3\xA9",
        b"a",
        b"\xE2\x82",
        b"\xF4\x8F\xBF",
        b"\xF8\x88\x80",
        b"\xE0\xA0\x80",
        b"\xEF\xBF\xBF",
        b"\xED\x9F\xBF",
    ];
    let reference = scalar();
    let mut rng = Rng::new(12);
    let run: String = (0..260)
        .map(|_| char::from_u32(0x4E00 + rng.range(0, 0x5000)).unwrap())
        .collect();
    for engine in fast_tiers() {
        let mut checked = 0;
        for lead_in in 0..4 {
            let mut base = b"abc"[..lead_in].to_vec();
            base.extend_from_slice(run.as_bytes());
            // (Every 7th byte: 7 is prime to a character's 3 bytes and
            // to the steps' 24 and 96, so the breaks fall at every phase.)
            for at in (lead_in..base.len()).step_by(7) {
                let brk = BREAKS[(at / 7) % BREAKS.len()];
                let mut src = base[..at].to_vec();
                src.extend_from_slice(brk);
                src.extend_from_slice(&base[at..]);
                let caps = [src.len(), at / 3, at / 3 + 1, 33];
                for cap in caps {
                    let what = format!("{lead_in} ASCII, {brk:02X?} at {at}, cap {cap}");
                    let mut a = vec![0xAAAA_AAAAu32; cap];
                    let mut b = a.clone();
                    assert_eq!(
                        engine.decode_ucs4(&src, &mut a, Policy::Strict, false),
                        reference.decode_ucs4(&src, &mut b, Policy::Strict, false),
                        "UCS-4, {what}"
                    );
                    assert_eq!(a, b, "UCS-4 code points, {what}");
                    for order in [ByteOrder::Little, ByteOrder::Big] {
                        for dialect in [Dialect::Standard, Dialect::Cesu8, Dialect::Mutf8] {
                            let mut a = vec![0xAAAAu16; cap];
                            let mut b = a.clone();
                            assert_eq!(
                                engine
                                    .decode_utf16_in(dialect, &src, &mut a, REPLACE, order, false),
                                reference
                                    .decode_utf16_in(dialect, &src, &mut b, REPLACE, order, false),
                                "UTF-16 {order:?} {dialect:?}, {what}"
                            );
                            assert_eq!(a, b, "UTF-16 {order:?} {dialect:?} units, {what}");
                        }
                    }
                    checked += 1;
                }
            }
        }
        eprintln!("{engine:?}: {checked} broken runs of 3-byte characters");
    }
}

#[test]
fn random_valid_and_damaged_inputs() {
    let mut rng = Rng::new(3);
    for engine in fast_tiers() {
        for case in 0..3000 {
            let len = rng.below(700);
            let mut src = text(&mut rng, len, [0, 10, 50, 90, 100][case % 5]);
            let damage_count = [0, 1, 3, 20][case % 4];
            for _ in 0..damage_count {
                if src.is_empty() {
                    break;
                }
                let at = rng.below(src.len());
                match rng.below(3) {
                    0 => src[at] = rng.next_u64() as u8,
                    1 => src.truncate(at),
                    _ => {
                        let d = DAMAGE[rng.below(DAMAGE.len())];
                        src.splice(at..at, d.iter().copied());
                    }
                }
            }
            compare_decoders(engine, &src, &format!("random case {case}"));
        }
        // Pure random bytes.
        for case in 0..1000 {
            let len = rng.below(300);
            let src: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            compare_decoders(engine, &src, &format!("random bytes {case}"));
        }
    }
}

/// Runs of one- and two-byte characters ending in a few longer ones, at the
/// end of the input or just before an error: a kernel that stores whole
/// vectors must still leave every unit at or past `written` untouched.
#[test]
fn decode_leaves_the_tail_untouched() {
    const CHARS: [&str; 8] = [
        "a",
        "b",
        "\u{E9}",
        "\u{436}",
        "\u{7FF}",
        "\u{20AC}",
        "\u{4E2D}",
        "\u{1F600}",
    ];
    let mut rng = Rng::new(6);
    for engine in fast_tiers() {
        for case in 0..40_000 {
            let mut src = vec![b'x'; rng.below(160)];
            for _ in 0..rng.below(12) {
                src.extend_from_slice(CHARS[rng.below(5)].as_bytes());
            }
            for _ in 0..rng.below(4) {
                src.extend_from_slice(CHARS[rng.below(8)].as_bytes());
            }
            if rng.chance(1, 2) {
                src.extend_from_slice(DAMAGE[rng.below(DAMAGE.len())]);
                src.extend_from_slice(b"tail");
            }
            for cap in [src.len() + 16, src.len() / 2 + 3] {
                strict_decode_alike(engine, &src, cap, &format!("case {case}"));
            }
        }
    }
}

/// All-ASCII strings of up to 64 bytes take a widening shortcut (inline
/// or the tier's widening kernel): at every length, source alignment and
/// output offset, they decode to their bytes and write nothing else, and
/// an output one unit short sends them down the ordinary path.
#[test]
fn short_ascii_widening_writes_exactly_its_length() {
    let text: Vec<u8> = (0..96u8).map(|i| b' ' + i % 95).collect();
    for engine in fast_tiers() {
        let mut checked = 0;
        for len in 0..=66 {
            for align in 0..8 {
                let src = &text[align..align + len];
                for offset in 0..16 {
                    for cap in [len, len.saturating_sub(1), len + 16] {
                        let mut out = vec![0xAAAA_AAAAu32; offset + cap + 16];
                        let p = engine.decode_ucs4(
                            src,
                            &mut out[offset..offset + cap],
                            Policy::Strict,
                            false,
                        );
                        let mut expected = vec![0xAAAA_AAAAu32; out.len()];
                        let got = len.min(cap);
                        for (e, &b) in expected[offset..].iter_mut().zip(&src[..got]) {
                            *e = u32::from(b);
                        }
                        assert_eq!(
                            (p.read, p.written),
                            (got, got),
                            "{engine:?} len {len} cap {cap}"
                        );
                        assert_eq!(
                            out, expected,
                            "{engine:?} len {len} align {align} offset {offset} cap {cap}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        eprintln!("{engine:?}: {checked} short ASCII cases");
    }
}

/// Strict decoding of `src` into a prefilled output of `cap` units: the
/// same `Progress` as the scalar tier, and the same units, including every
/// unit past `written` left untouched.
fn strict_decode_alike(engine: Engine, src: &[u8], cap: usize, what: &str) {
    let mut a = vec![0xAAAA_AAAAu32; cap];
    let mut b = a.clone();
    let pa = engine.decode_ucs4(src, &mut a, Policy::Strict, false);
    let pb = scalar().decode_ucs4(src, &mut b, Policy::Strict, false);
    assert_eq!(pa, pb, "{engine:?} {what} cap {cap}: {src:02X?}");
    assert_eq!(a, b, "{engine:?} {what} cap {cap}: {src:02X?}");
}

/// On the hot path a block may store whole vectors past its own output when
/// the next block is whole and well-formed, which then writes at least 7
/// code points over them. These inputs make that next block write as few as
/// it can (4-byte characters, cut short by an error whose maximal subpart
/// starts up to 3 bytes back) behind text for each per-block path (3-byte
/// with spaces, CJK, 2-byte with spaces, mixed), at every offset, into
/// outputs from too short to roomy: nothing past `written` may change.
#[test]
fn slack_stores_are_always_overwritten() {
    const RUNS: [&str; 5] = [
        "\u{915}\u{93F}\u{928} ",
        "\u{4E2D}\u{6587}",
        "\u{5D0}\u{5D1} ",
        "a\u{E9}\u{20AC}\u{1F600}",
        "\u{D55C} \u{AD6D}",
    ];
    const CUTS: [&[u8]; 4] = [b"\xF0\x9F\x98", b"\xE2\x82", b"\xC3", b""];
    let mut rng = Rng::new(12);
    let reference = scalar();
    for engine in fast_tiers() {
        for case in 0..30_000 {
            let mut src = vec![b' '; rng.below(40)];
            let run = RUNS[rng.below(RUNS.len())];
            let until = 64 + rng.below(96);
            while src.len() < until {
                src.extend_from_slice(run.as_bytes());
            }
            for _ in 0..rng.below(14) {
                src.extend_from_slice("\u{10348}".as_bytes());
            }
            src.extend_from_slice(CUTS[rng.below(CUTS.len())]);
            if rng.chance(3, 4) {
                src.extend_from_slice(b"\x80");
            }
            src.extend_from_slice(&b"tail after the damage, long enough"[..rng.below(34)]);
            let mut probe = vec![0u32; src.len()];
            let needed = reference
                .decode_ucs4(&src, &mut probe, Policy::Strict, false)
                .written;
            let short = needed - rng.below(needed / 2 + 1);
            for cap in [short, needed, needed + 1 + rng.below(48), src.len() + 64] {
                strict_decode_alike(engine, &src, cap, &format!("case {case}"));
            }
        }
    }
}

/// Units of every UTF-8 length ending at the end of the input or just
/// before an invalid unit, into an output exactly as long as needed, longer
/// or shorter: an encoder that stores whole vectors must still leave every
/// byte at or past `written` untouched.
#[test]
fn encode_leaves_the_tail_untouched() {
    const UNITS: [u32; 6] = [0x41, 0x7F, 0xE9, 0x7FF, 0x20AC, 0x1F600];
    let mut rng = Rng::new(8);
    let reference = scalar();
    for engine in fast_tiers() {
        for case in 0..40_000 {
            let mut src = vec![0x78u32; rng.below(80)];
            for _ in 0..rng.below(40) {
                src.push(UNITS[rng.below(UNITS.len())]);
            }
            if rng.chance(1, 2) {
                src.push([0xD800, 0xDFFF, 0x11_0000][rng.below(3)]);
                src.extend_from_slice(&[0x41; 3]);
            }
            let exact = reference.encoded_len(&src, EncodePolicy::Strict).written;
            for cap in [exact, exact + 16, exact / 2 + 1] {
                let mut a = vec![0xAAu8; cap];
                let mut b = a.clone();
                let pa = engine.encode(&src, &mut a, EncodePolicy::Strict);
                let pb = reference.encode(&src, &mut b, EncodePolicy::Strict);
                assert_eq!(pa, pb, "{engine:?} case {case} cap {cap}: {src:X?}");
                assert_eq!(a, b, "{engine:?} case {case} cap {cap}: {src:X?}");
            }
        }
    }
}

#[test]
fn every_two_byte_sequence_at_block_edges() {
    for engine in fast_tiers() {
        let reference = scalar();
        let mut checked = 0;
        for pair in 0..=0xFFFFu32 {
            let [a, b] = (pair as u16).to_be_bytes();
            for (pos, filler) in [(62usize, b'x'), (63, b'x'), (127, 0xC3)] {
                let mut src = vec![b'x'; 140];
                src[pos] = a;
                src[pos + 1] = b;
                if filler != b'x' {
                    src[pos + 2] = filler;
                }
                assert_eq!(
                    engine.validate_chunk(&src, false),
                    reference.validate_chunk(&src, false),
                    "{a:02X} {b:02X} at {pos}"
                );
                assert_eq!(
                    engine.count(&src, REPLACE, false),
                    reference.count(&src, REPLACE, false),
                    "{a:02X} {b:02X} at {pos}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 65536 * 3);
    }
}

#[test]
fn two_byte_text_with_one_fault_validates_and_counts_alike() {
    // Long runs of ASCII and 2-byte characters only, which tiers may
    // certify with a cheaper test than the general check, with one fault
    // (or one valid longer character, which that test must hand back)
    // anywhere past the first few hundred bytes. Several texts, so that
    // the bytes where a tier enters that test differ: dense ones (30%
    // ASCII, Cyrillic-like) and, from seed 15, sparse ones (97% ASCII, a
    // lead never after a continuation), where a test that took any byte
    // from 80 up for a lead would pass `C2 80 80`.
    let text = |seed: u64| {
        let mut rng = Rng::new(seed);
        let mut base = Vec::new();
        let ascii = if seed >= 15 { 97 } else { 30 };
        while base.len() < 6000 {
            let c = if rng.below(100) < ascii {
                u32::from(b' ') + rng.below(0x5F) as u32
            } else {
                0x80 + rng.below(0x780) as u32
            };
            let mut buf = [0u8; 4];
            base.extend_from_slice(char::from_u32(c).unwrap().encode_utf8(&mut buf).as_bytes());
        }
        base
    };
    let replacements = [
        0x00u8, b'a', 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4,
        0xF5, 0xFF,
    ];
    let insertions: [&[u8]; 6] = [
        "中".as_bytes(),
        "😀".as_bytes(),
        "\u{800}".as_bytes(),
        b"\xE4\xB8",
        b"\xC3",
        b"\xF0\x9F\x98",
    ];
    let reference = scalar();
    for engine in fast_tiers() {
        let mut checked = 0;
        for seed in 11..17 {
            let base = text(seed);
            for at in 400..5900 {
                // Every position for a stray continuation (the first
                // text: for a lead without one too); every 37th for the
                // rest; and a lead, good or overlong, in the last byte of
                // every 32 (the byte before a block, a group or a pair
                // test's run, whose continuation starts the next).
                let every = at % 37 == 0;
                let edge = (at + 1) % 32 == 0;
                let mut inputs: Vec<Vec<u8>> = replacements
                    .iter()
                    .filter(|&&r| {
                        every
                            || r == 0x80
                            || (seed == 11 && [0xC3, b'a'].contains(&r))
                            || (edge && [0xC0, 0xC1, 0xC2, 0xDF].contains(&r))
                    })
                    .map(|&r| {
                        let mut src = base.clone();
                        src[at] = r;
                        src
                    })
                    .collect();
                inputs.extend(insertions.iter().filter(|_| every).map(|ins| {
                    let mut src = base.clone();
                    src.splice(at..at, ins.iter().copied());
                    src
                }));
                // A stray continuation after ASCII, so that it lands at
                // every offset, block and group boundaries included.
                let mut src = base.clone();
                src.splice(at..at, *b"a\x80");
                inputs.push(src);
                for src in &inputs {
                    for more in [false, true] {
                        assert_eq!(
                            engine.validate_chunk(src, more),
                            reference.validate_chunk(src, more),
                            "{engine:?} validate, text {seed}, fault at {at}, more={more}"
                        );
                    }
                    // The count stops where validation does, with the
                    // characters before it (counted by the pair test too).
                    assert_eq!(
                        engine.count(src, Policy::Strict, false),
                        reference.count(src, Policy::Strict, false),
                        "{engine:?} count, text {seed}, fault at {at}"
                    );
                    // Classification counts inside the pair test as well.
                    assert_eq!(
                        engine.classify(src, false),
                        reference.classify(src, false),
                        "{engine:?} classify, text {seed}, fault at {at}"
                    );
                    checked += 1;
                }
            }
        }
        eprintln!("{engine:?}: {checked} faulted 2-byte texts");
    }
}

#[test]
fn every_three_and_four_byte_sequence_validates_alike() {
    // All 2^24 three-byte strings, and four-byte strings led by F0..F4 with
    // a sampled last byte, placed across the edge between two blocks. Under
    // an emulator the second and third bytes are sampled (Table 3-7's
    // edges kept), as the other enumerations are there: 2^24 strings on
    // each tier took minutes under qemu.
    let (middle, inner): (Vec<u8>, Vec<u8>) = if common::emulated() {
        (common::middle_bytes(), common::inner_bytes())
    } else {
        ((0..=255).collect(), (0..=255).collect())
    };
    for engine in fast_tiers() {
        let reference = scalar();
        let mut src = vec![b'a'; 130];
        let mut checked = 0u64;
        for a in 0..=255u8 {
            for &b in &middle {
                for &c in &inner {
                    src[62] = a;
                    src[63] = b;
                    src[64] = c;
                    assert_eq!(
                        engine.validate_chunk(&src, false),
                        reference.validate_chunk(&src, false),
                        "{a:02X} {b:02X} {c:02X}"
                    );
                    checked += 1;
                }
            }
        }
        src[65] = b'a';
        for lead in 0xF0..=0xF4u8 {
            for v in 0..1u32 << 16 {
                let [_, _, b, c] = v.to_be_bytes();
                for d in [0x7F, 0x80, 0xBF, 0xC0] {
                    src[61..65].copy_from_slice(&[lead, b, c, d]);
                    assert_eq!(
                        engine.validate_chunk(&src, false),
                        reference.validate_chunk(&src, false),
                        "{lead:02X} {b:02X} {c:02X} {d:02X}"
                    );
                    checked += 1;
                }
            }
        }
        eprintln!("{engine:?}: {checked} short sequences");
    }
}

#[test]
fn lipsum_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/lipsum");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} is not there", dir.display());
        return;
    };
    let files: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    assert!(!files.is_empty());
    for engine in fast_tiers() {
        for path in &files {
            let text = std::fs::read(path).expect("lipsum file is readable");
            let what = path.display().to_string();
            assert_eq!(
                engine.validate_chunk(&text, false).status,
                u8x::Status::Done,
                "{what}"
            );
            compare_decoders(engine, &text, &what);
            let scalars: Vec<u32> = std::str::from_utf8(&text)
                .expect("valid")
                .chars()
                .map(u32::from)
                .collect();
            compare_encoders(engine, &scalars, &what);
        }
    }
}

#[test]
fn encoders_on_random_units() {
    let mut rng = Rng::new(4);
    for engine in fast_tiers() {
        for case in 0..4000 {
            let len = rng.below(200);
            let units: Vec<u32> = (0..len)
                .map(|_| match rng.below(20) {
                    0 => 0xD800 + rng.below(0x800) as u32,
                    1 => 0x110000 + rng.next_u64() as u32 % 0xFFEF_0000,
                    2 => 0xDC80 + rng.below(0x80) as u32,
                    3..=8 => rng.below(0x80) as u32,
                    _ => u32::from(random_scalar(&mut rng)),
                })
                .collect();
            compare_encoders(engine, &units, &format!("random units {case}"));
        }
        let all: Vec<u32> = (0..=0x11_0000u32).collect();
        compare_encoders(engine, &all, "every code point and the first beyond");
    }
}

/// Random scalars below `limit` (any scalar when it is above U+10FFFF).
fn scalars_below(rng: &mut Rng, len: usize, limit: u32) -> Vec<u32> {
    (0..len)
        .map(|_| loop {
            let c = u32::from(random_scalar(rng));
            let c = if limit <= 0x80 { c % limit } else { c };
            if c < limit {
                break c;
            }
        })
        .collect()
}

#[test]
fn encoders_on_long_runs_of_each_length_class() {
    let mut rng = Rng::new(7);
    for engine in fast_tiers() {
        for limit in [0x80, 0x800, 0x1_0000, 0x11_0000] {
            for len in 0..=300 {
                let units = scalars_below(&mut rng, len, limit);
                compare_encoders(engine, &units, &format!("below {limit:#x}, {len} units"));
                if len > 0 {
                    let mut damaged = units.clone();
                    damaged[rng.below(len)] = 0xDC00;
                    compare_encoders(engine, &damaged, &format!("below {limit:#x}, damaged"));
                }
            }
        }
    }
}

#[test]
fn encoders_at_every_change_of_block_kind() {
    // Runs of 16-unit blocks of one kind (ASCII, 2-byte, mostly ASCII with
    // 2-byte, 3-byte, mostly short with one 3-byte, 4-byte, one invalid
    // unit), changing kind at block boundaries, with outputs that fit
    // exactly or nearly: a run that ends must leave nothing past its
    // output, whatever comes next.
    const KINDS: usize = 7;
    let block = |rng: &mut Rng, kind: usize| -> Vec<u32> {
        let mut units: Vec<u32> = (0..16)
            .map(|_| {
                let class = match kind {
                    2 => usize::from(rng.below(8) == 0),
                    4 => rng.below(2),
                    6 => rng.below(4),
                    _ => [0, 1, 0, 2, 0, 3][kind],
                };
                scalar_of_length(rng, class)
            })
            .collect();
        match kind {
            4 => units[rng.below(16)] = scalar_of_length(rng, 2),
            6 => units[rng.below(16)] = [0xD800, 0xDFFF, 0x11_0000][rng.below(3)],
            _ => {}
        }
        units
    };
    let reference = scalar();
    let mut rng = Rng::new(9);
    for engine in fast_tiers() {
        let mut checked = 0;
        for first in 0..KINDS {
            for second in 0..KINDS {
                for _ in 0..24 {
                    let mut units = Vec::new();
                    for _ in 0..1 + rng.below(4) {
                        units.extend(block(&mut rng, first));
                    }
                    for _ in 0..1 + rng.below(3) {
                        units.extend(block(&mut rng, second));
                    }
                    let tail = rng.below(24);
                    for _ in 0..tail {
                        let class = rng.below(4);
                        units.push(scalar_of_length(&mut rng, class));
                    }
                    let policy = EncodePolicy::Strict;
                    let full = reference.encoded_len(&units, policy).written;
                    for cap in [full, full + 1, full + 15, full + 16, full + 79, full + 80] {
                        let mut a = vec![0xAAu8; cap];
                        let mut b = vec![0xAAu8; cap];
                        let pa = engine.encode(&units, &mut a, policy);
                        let pb = reference.encode(&units, &mut b, policy);
                        let what = format!("kinds {first} then {second}, cap {cap}");
                        assert_eq!(pa, pb, "encode {what}");
                        assert_eq!(a, b, "encoded bytes (and untouched tail) {what}");
                        checked += 1;
                    }
                }
            }
        }
        eprintln!("{engine:?}: {checked} block-kind changes encoded");
    }
}

#[test]
fn encoders_with_one_bad_unit_anywhere() {
    let mut rng = Rng::new(6);
    for engine in fast_tiers() {
        for len in [1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 200] {
            let valid: Vec<u32> = (0..len)
                .map(|_| u32::from(random_scalar(&mut rng)))
                .collect();
            for pos in 0..len {
                for bad in [0xD800, 0xDFFF, 0x11_0000, u32::MAX] {
                    let mut units = valid.clone();
                    units[pos] = bad;
                    compare_encoders(engine, &units, &format!("{bad:#x} at {pos} of {len}"));
                }
            }
        }
        // Every unit near the edges of the scalar ranges, in both the
        // 16-unit and the 64-unit loops.
        let edges = (0xD000..0xE800)
            .chain(0x10_F000..0x12_1000)
            .chain(0xFFFF_F000..=u32::MAX);
        for unit in edges {
            for (len, pos) in [(20, 3), (70, 66)] {
                let mut units = vec![0x10FFFF; len];
                units[pos] = unit;
                compare_encoders(engine, &units, &format!("{unit:#x} at {pos} of {len}"));
            }
        }
    }
}

#[test]
fn count_valid_matches_scalar_and_std() {
    let mut rng = Rng::new(5);
    let reference = scalar();
    let mut engines = fast_tiers();
    engines.push(reference);
    for engine in engines {
        for case in 0..3000 {
            let len = rng.below(1200);
            let text = text(&mut rng, len, [0, 30, 100][case % 3]);
            let expected = std::str::from_utf8(&text).expect("valid").chars().count();
            assert_eq!(
                engine.count_valid(&text),
                expected,
                "{engine:?} case {case}"
            );
            // Any bytes: the lead-byte count, the same on every tier.
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            let leads = bytes
                .iter()
                .filter(|&&b| !(0x80..=0xBF).contains(&b))
                .count();
            assert_eq!(
                engine.count_valid(&bytes),
                leads,
                "{engine:?} random bytes {case}"
            );
        }
    }
}

/// The vector counts keep byte-wide counters that must be folded before
/// 256 steps: long inputs of nothing but continuation bytes (every counter
/// moves every step) and of random bytes, at lengths around the fold points
/// of the 64-byte (SSE4.2), 128-byte (AVX2) and 256-byte steps.
#[test]
fn count_valid_of_long_inputs() {
    let mut rng = Rng::new(6);
    let mut lengths = vec![1 << 20, (1 << 20) + 37];
    for step in [64, 128, 256] {
        for k in [255, 256, 510] {
            lengths.extend([k * step - 1, k * step, k * step + 1, k * step + 63]);
        }
    }
    let random: Vec<u8> = (0..(1 << 20) + 64).map(|_| rng.next_u64() as u8).collect();
    let leads = |b: &[u8]| b.iter().filter(|&&b| !(0x80..=0xBF).contains(&b)).count();
    for engine in fast_tiers() {
        for &len in &lengths {
            let continuations = vec![0x80u8; len];
            assert_eq!(
                engine.count_valid(&continuations),
                0,
                "{engine:?} {len} x 80"
            );
            let mut one_lead = continuations;
            one_lead[len / 2] = b'a';
            assert_eq!(
                engine.count_valid(&one_lead),
                1,
                "{engine:?} {len} x 80 + a"
            );
            let bytes = &random[..len];
            assert_eq!(
                engine.count_valid(bytes),
                leads(bytes),
                "{engine:?} random {len}"
            );
        }
    }
}

/// A valid scalar of UTF-8 length `class + 1`.
fn scalar_of_length(rng: &mut Rng, class: usize) -> u32 {
    match class {
        0 => rng.below(0x80) as u32,
        1 => 0x80 + rng.below(0x800 - 0x80) as u32,
        2 => {
            let v = 0x800 + rng.below(0x1_0000 - 0x800 - 0x800) as u32;
            if v >= 0xD800 {
                v + 0x800
            } else {
                v
            }
        }
        _ => 0x1_0000 + rng.below(0x10_0000) as u32,
    }
}

#[test]
fn encoders_at_every_output_capacity() {
    // Every capacity from 0 to past the full output, over inputs mixing all
    // four lengths (in runs and shuffled, with and without long ASCII runs
    // and invalid units): the encoder stops where the scalar tier does and
    // leaves every byte past `written` untouched (two sentinels).
    let reference = scalar();
    for engine in fast_tiers() {
        // The same inputs for every tier.
        let mut rng = Rng::new(6);
        let mut checked = 0;
        for case in 0..112 {
            let len = 1 + rng.below(140);
            let mut units: Vec<u32> = (0..len)
                .map(|_| {
                    let class = match case % 7 {
                        // Uniformly mixed lengths.
                        0 | 1 => rng.below(4),
                        // 1 to 3 bytes (the 16-bit paths).
                        6 => rng.below(3),
                        // Mostly ASCII, so that 32-unit ASCII steps happen.
                        2 if rng.below(40) == 0 => 1 + rng.below(3),
                        2 => 0,
                        // One length throughout.
                        3 => case / 7 % 4,
                        // 1- and 2-byte only.
                        4 => rng.below(2),
                        // 3- and 4-byte only.
                        5 => 2 + rng.below(2),
                        _ => unreachable!(),
                    };
                    scalar_of_length(&mut rng, class)
                })
                .collect();
            if case % 5 == 4 {
                let at = rng.below(len);
                units[at] = [0xD800, 0xDFFF, 0x11_0000, 0xFFFF_FFFF][rng.below(4)];
            }
            let full = reference.encoded_len(&units, EncodePolicy::Escape).written;
            for policy in ENCODE_POLICIES {
                assert_eq!(
                    engine.encoded_len(&units, policy),
                    reference.encoded_len(&units, policy),
                    "encoded_len case {case} {policy:?}"
                );
                for cap in 0..=full + 8 {
                    for sentinel in [0x00u8, 0xAA] {
                        let mut a = vec![sentinel; cap];
                        let mut b = vec![sentinel; cap];
                        let pa = engine.encode(&units, &mut a, policy);
                        let pb = reference.encode(&units, &mut b, policy);
                        assert_eq!(pa, pb, "encode case {case} {policy:?} cap={cap}");
                        assert_eq!(
                            a, b,
                            "encoded bytes (and untouched tail) case {case} {policy:?} cap={cap}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        eprintln!("{engine:?}: {checked} encoder capacity cases");
    }
}

#[test]
fn encoders_leave_nothing_after_a_last_full_step() {
    // Inputs of whole vector steps (16 or 32 units) that end there or at an
    // invalid unit, mostly ASCII with some longer characters, so that every
    // split of a step's output between its lanes and blocks comes up at the
    // very end of the output, where any byte stored past it would show.
    let reference = scalar();
    for engine in fast_tiers() {
        let mut rng = Rng::new(7);
        for case in 0..20_000 {
            let len = [16, 32, 48, 64][case % 4];
            let mut units: Vec<u32> = (0..len)
                .map(|_| {
                    let class = match rng.below(10) {
                        0..=5 => 0,
                        n => n - 6,
                    };
                    scalar_of_length(&mut rng, class)
                })
                .collect();
            if case % 3 == 1 {
                units.push(0xD800 + rng.below(0x800) as u32);
                units.push(u32::from('x'));
            }
            let full = reference.encoded_len(&units, EncodePolicy::Escape).written;
            for sentinel in [0x00u8, 0xAA] {
                let mut a = vec![sentinel; full + 16];
                let mut b = vec![sentinel; full + 16];
                let pa = engine.encode(&units, &mut a, EncodePolicy::Strict);
                let pb = reference.encode(&units, &mut b, EncodePolicy::Strict);
                assert_eq!(pa, pb, "case {case}");
                assert_eq!(a, b, "encoded bytes (and untouched tail) case {case}");
            }
        }
    }
}

/// Says in every `cargo test` run, not only when a test fails, which tiers
/// this suite compares with the scalar tier and which it skips, and which
/// tier the crate's free functions (the other suites) run. Written straight
/// to the stderr handle, which libtest does not capture (it captures only
/// `print!` and `eprint!`); .ci/run looks for the line.
#[test]
fn tiers_run() {
    let (run, skipped): (Vec<Tier>, Vec<Tier>) =
        Tier::ALL.into_iter().partition(|t| t.is_available());
    let names = |tiers: &[Tier]| match tiers {
        [] => "none".to_string(),
        _ => tiers.iter().map(|t| t.name()).collect::<Vec<_>>().join(" "),
    };
    let line = format!(
        "tiers run: {}; skipped: {}; free functions: {}\n",
        names(&run),
        names(&skipped),
        Engine::best().tier().name()
    );
    std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes()).unwrap();
}

/// Runs of 16-unit blocks of one mix of lengths (1-2, 1-3, 3 and 4, 1-4
/// bytes), then a block with an invalid unit at each position (or none),
/// then more valid units; every output capacity from 0 to past the full
/// output, with guard bytes past the capacity. Plus a block of twelve
/// 4-byte and four 3-byte characters before 3-byte ones, whose last packed
/// vector ends 4 bytes past its output. A vector encoder whose stores reach
/// past a step's own output (which only later output may cover) must stop
/// exactly where the scalar tier does and touch no byte at or past
/// `written`, inside the output or beyond it.
#[test]
fn encoders_stop_exactly_before_a_bad_block_or_the_end_of_room() {
    const GUARD: usize = 80;
    const MIXES: [&[usize]; 4] = [&[0, 1], &[0, 1, 2], &[2, 3], &[0, 1, 2, 3]];
    let reference = scalar();
    let mut inputs = Vec::new();
    let mut rng = Rng::new(12);
    for (m, mix) in MIXES.iter().enumerate() {
        for blocks in [2, 5] {
            for bad_at in 0..=16 {
                let mut units: Vec<u32> = (0..16 * blocks + 16 + 40)
                    .map(|_| {
                        let class = mix[rng.below(mix.len())];
                        scalar_of_length(&mut rng, class)
                    })
                    .collect();
                if bad_at < 16 {
                    units[16 * blocks + bad_at] = [0xD800, 0xDFFF, 0x11_0000][bad_at % 3];
                }
                inputs.push((format!("mix {m}, {blocks} blocks, bad at {bad_at}"), units));
            }
        }
    }
    let mut tight = vec![0x1_0000u32; 12];
    tight.extend([0x800; 40]);
    inputs.push(("12 x 4 bytes, then 3 bytes".to_string(), tight));
    for engine in fast_tiers() {
        let mut checked = 0;
        for (what, units) in &inputs {
            // Replacing goes on past the invalid unit (escaping stops).
            let replace = EncodePolicy::Replace('\u{FFFD}');
            let full = reference.encoded_len(units, replace).written;
            for policy in [EncodePolicy::Strict, replace] {
                assert_eq!(
                    engine.encoded_len(units, policy),
                    reference.encoded_len(units, policy),
                    "encoded_len {what} {policy:?}"
                );
                for cap in 0..=full + 4 {
                    // Mostly a sentinel that zeroed excess bytes would change.
                    let sentinel = if cap % 4 == 3 { 0x00 } else { 0xAA };
                    let mut a = vec![sentinel; cap + GUARD];
                    let mut b = vec![sentinel; cap + GUARD];
                    let pa = engine.encode(units, &mut a[..cap], policy);
                    let pb = reference.encode(units, &mut b[..cap], policy);
                    assert_eq!(pa, pb, "encode {what} {policy:?} cap={cap}");
                    assert_eq!(
                        a, b,
                        "encoded bytes, untouched tail and guard {what} {policy:?} cap={cap}"
                    );
                    checked += 1;
                }
            }
        }
        eprintln!("{engine:?}: {checked} runs before a bad block or the end of room");
    }
}
