//! Latin-1, UTF-16 and UCS-4 to one another (`convert_*`, issue 43),
//! against oracles built from `std` alone (`char::decode_utf16`,
//! `char::from_u32`, `char::encode_utf16`): every tier, every byte order
//! of both sides, every policy; random text with lone surrogates and
//! values above U+10FFFF at every length 0..=300, every output capacity
//! of the shorter ones (resuming after `OutputFull`), every split point
//! of streamed input, measuring against writing, every UTF-16 unit alone
//! and every high surrogate against a stride of lows, and every UCS-4
//! value up to 0x110000. Then the C functions' argument checks.

mod common;

use common::{emulated, stride, Rng};
use u8x::{
    ByteOrder, EncodePolicy, Engine, ErrorKind, Latin1Policy, Progress, Status, Tier, Utf8Error,
};

const ORDERS: [ByteOrder; 3] = [ByteOrder::Native, ByteOrder::Little, ByteOrder::Big];
const POLICIES: [EncodePolicy; 5] = [
    EncodePolicy::Strict,
    EncodePolicy::Replace('\u{FFFD}'),
    EncodePolicy::Replace('\u{1F600}'),
    EncodePolicy::Escape,
    EncodePolicy::Ignore,
];
const LATIN1_POLICIES: [Latin1Policy; 3] = [
    Latin1Policy::Strict,
    Latin1Policy::Replace(b'?'),
    Latin1Policy::Ignore,
];

fn tiers() -> Vec<Engine> {
    Tier::ALL
        .iter()
        .filter_map(|&t| {
            let e = Engine::new(t);
            if e.is_none() {
                eprintln!("skipped: this CPU lacks the {t:?} tier");
            }
            e
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Units in a byte order, as the caller's memory holds them.
// ---------------------------------------------------------------------------

trait Unit: Copy + Default + PartialEq + std::fmt::Debug {
    fn put(self, o: ByteOrder) -> Self;
    fn get(self, o: ByteOrder) -> Self {
        self.put(o) // swapping is its own inverse
    }
}
impl Unit for u8 {
    fn put(self, _: ByteOrder) -> u8 {
        self
    }
}
impl Unit for u16 {
    fn put(self, o: ByteOrder) -> u16 {
        match o {
            ByteOrder::Native => self,
            ByteOrder::Little => self.to_le(),
            ByteOrder::Big => self.to_be(),
        }
    }
}
impl Unit for u32 {
    fn put(self, o: ByteOrder) -> u32 {
        match o {
            ByteOrder::Native => self,
            ByteOrder::Little => self.to_le(),
            ByteOrder::Big => self.to_be(),
        }
    }
}

fn put<T: Unit>(units: &[T], o: ByteOrder) -> Vec<T> {
    units.iter().map(|u| u.put(o)).collect()
}

// ---------------------------------------------------------------------------
// Oracles, from std only. Each returns the whole-input result with room
// enough, in native units.
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
struct Expected<T> {
    out: Vec<T>,
    status: Status,
    read: usize,
    handled: usize,
}

fn ill(at: usize, kind: ErrorKind, len: u8) -> Status {
    Status::IllFormed(Utf8Error {
        valid_up_to: at,
        kind,
        len,
    })
}

fn finish<T>(out: Vec<T>, status: Status, read: usize, handled: usize) -> Expected<T> {
    Expected {
        out,
        status,
        read,
        handled,
    }
}

/// UTF-16 read by `char::decode_utf16`: (index, Ok(char) or Err(lone unit)).
fn utf16_items(src: &[u16]) -> Vec<(usize, Result<char, u16>)> {
    let mut at = 0;
    char::decode_utf16(src.iter().copied())
        .map(|r| {
            let item = (at, r.map_err(|e| e.unpaired_surrogate()));
            at += item.1.map_or(1, char::len_utf16);
            item
        })
        .collect()
}

fn oracle_utf16_to_ucs4(src: &[u16], policy: EncodePolicy) -> Expected<u32> {
    let (mut out, mut handled) = (Vec::new(), 0);
    for (at, item) in utf16_items(src) {
        match (item, policy) {
            (Ok(c), _) => out.push(c as u32),
            (Err(_), EncodePolicy::Strict) => {
                return finish(out, ill(at, ErrorKind::Surrogate, 1), at, handled)
            }
            (Err(_), EncodePolicy::Replace(r)) => out.push(r as u32),
            (Err(s), EncodePolicy::Escape) => out.push(u32::from(s)),
            (Err(_), EncodePolicy::Ignore) => {}
        }
        handled += usize::from(item.is_err());
    }
    finish(out, Status::Done, src.len(), handled)
}

fn oracle_utf16_to_latin1(src: &[u16], policy: Latin1Policy) -> Expected<u8> {
    let (mut out, mut handled) = (Vec::new(), 0);
    for (at, item) in utf16_items(src) {
        let error = match item {
            Ok(c) if (c as u32) < 0x100 => {
                out.push(c as u8);
                continue;
            }
            Ok(c) => (ErrorKind::NotRepresentable, c.len_utf16() as u8),
            Err(_) => (ErrorKind::Surrogate, 1),
        };
        match policy {
            Latin1Policy::Strict => return finish(out, ill(at, error.0, error.1), at, handled),
            Latin1Policy::Replace(b) => out.push(b),
            Latin1Policy::Ignore => {}
        }
        handled += 1;
    }
    finish(out, Status::Done, src.len(), handled)
}

fn ucs4_kind(v: u32) -> ErrorKind {
    if (0xD800..0xE000).contains(&v) {
        ErrorKind::Surrogate
    } else {
        ErrorKind::AboveMax
    }
}

fn oracle_ucs4_to_utf16(src: &[u32], policy: EncodePolicy) -> Expected<u16> {
    let (mut out, mut handled) = (Vec::new(), 0);
    let mut buf = [0u16; 2];
    for (at, &v) in src.iter().enumerate() {
        if let Some(c) = char::from_u32(v) {
            out.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        let high_then_low = (0xD800..0xDC00).contains(&v)
            && src
                .get(at + 1)
                .is_some_and(|n| (0xDC00..0xE000).contains(n));
        match policy {
            EncodePolicy::Replace(r) => out.extend_from_slice(r.encode_utf16(&mut buf)),
            EncodePolicy::Escape if ucs4_kind(v) == ErrorKind::Surrogate && !high_then_low => {
                out.push(v as u16)
            }
            EncodePolicy::Ignore => {}
            _ => return finish(out, ill(at, ucs4_kind(v), 1), at, handled),
        }
        handled += 1;
    }
    finish(out, Status::Done, src.len(), handled)
}

fn oracle_ucs4_to_latin1(src: &[u32], policy: Latin1Policy) -> Expected<u8> {
    let (mut out, mut handled) = (Vec::new(), 0);
    for (at, &v) in src.iter().enumerate() {
        let kind = match char::from_u32(v) {
            Some(_) if v < 0x100 => {
                out.push(v as u8);
                continue;
            }
            Some(_) => ErrorKind::NotRepresentable,
            None => ucs4_kind(v),
        };
        match policy {
            Latin1Policy::Strict => return finish(out, ill(at, kind, 1), at, handled),
            Latin1Policy::Replace(b) => out.push(b),
            Latin1Policy::Ignore => {}
        }
        handled += 1;
    }
    finish(out, Status::Done, src.len(), handled)
}

// ---------------------------------------------------------------------------
// Random input: runs of one kind, so that whole clean blocks occur.
// ---------------------------------------------------------------------------

/// A BMP character above U+00FF.
fn bmp_above_latin1(rng: &mut Rng) -> u32 {
    if rng.chance(1, 2) {
        rng.range(0x100, 0xD7FF)
    } else {
        rng.range(0xE000, 0xFFFF)
    }
}

fn random_utf16(rng: &mut Rng, len: usize) -> Vec<u16> {
    let mut v = Vec::with_capacity(len + 1);
    while v.len() < len {
        let kind = rng.below(12);
        let run = if rng.chance(1, 3) {
            1
        } else {
            1 + rng.below(40)
        };
        for _ in 0..run {
            match kind {
                0..=3 => v.push(rng.range(0, 0x7F) as u16),
                4 | 5 => v.push(rng.range(0, 0xFF) as u16),
                6 | 7 => v.push(bmp_above_latin1(rng) as u16),
                8 | 9 => {
                    v.push(rng.range(0xD800, 0xDBFF) as u16);
                    v.push(rng.range(0xDC00, 0xDFFF) as u16);
                }
                10 => v.push(rng.range(0xD800, 0xDBFF) as u16),
                _ => v.push(rng.range(0xDC00, 0xDFFF) as u16),
            }
        }
    }
    v.truncate(len);
    v
}

fn random_ucs4(rng: &mut Rng, len: usize) -> Vec<u32> {
    let mut v = Vec::with_capacity(len);
    while v.len() < len {
        let kind = rng.below(14);
        let run = if rng.chance(1, 3) {
            1
        } else {
            1 + rng.below(40)
        };
        for _ in 0..run {
            v.push(match kind {
                0..=3 => rng.range(0, 0x7F),
                4 | 5 => rng.range(0, 0xFF),
                6 | 7 => bmp_above_latin1(rng),
                8 | 9 => rng.range(0x1_0000, 0x10_FFFF),
                10 => rng.range(0xD800, 0xDBFF),
                11 => rng.range(0xDC00, 0xDFFF),
                12 => {
                    let any = rng.next_u32() | 0x20_0000;
                    rng.pick(&[0x11_0000, 0xFFFF_FFFF, 0x8000_0000, any])
                }
                _ => rng.pick(&[0xD800, 0xDC00, 0x10_FFFF, 0xFFFF, 0xFF, 0x100]),
            });
        }
    }
    v.truncate(len);
    v
}

/// A conversion under test: `call(src, dst)`, measuring with `dst` `None`.
type Call<'a, I, O> = dyn Fn(&[I], Option<&mut [O]>) -> Progress + 'a;

// ---------------------------------------------------------------------------
// The contract, for one conversion: `call(src, dst)` runs it (dst None:
// measure); `bound` is room that always suffices.
// ---------------------------------------------------------------------------

fn check<I: Unit, O: Unit>(
    what: &str,
    src: &[I],
    expected: &Expected<O>,
    out_order: ByteOrder,
    bound: usize,
    every_capacity: bool,
    call: &Call<'_, I, O>,
) {
    let mut dst = vec![O::default(); bound];
    let p = call(src, Some(&mut dst));
    let got: Vec<O> = dst[..p.written].iter().map(|u| u.get(out_order)).collect();
    let ctx = || format!("{what}: input {src:x?}");
    assert_eq!(got, expected.out, "{}", ctx());
    assert_eq!(
        (p.status, p.read, p.handled),
        (expected.status, expected.read, expected.handled),
        "{}",
        ctx()
    );
    assert_eq!(call(src, None), p, "measuring, {}", ctx());
    if !every_capacity {
        return;
    }
    for cap in 0..expected.out.len() {
        let mut dst = vec![O::default(); cap];
        let p = call(src, Some(&mut dst));
        assert!(p.written <= cap, "{}", ctx());
        let got: Vec<O> = dst[..p.written].iter().map(|u| u.get(out_order)).collect();
        assert_eq!(
            got[..],
            expected.out[..p.written],
            "capacity {cap}, {}",
            ctx()
        );
        if p.status != Status::OutputFull {
            // Only an error can come before the output is full.
            assert_eq!(
                (p.status, p.read),
                (expected.status, expected.read),
                "capacity {cap}, {}",
                ctx()
            );
            continue;
        }
        // A full output is never one more item short of room, and resumes.
        assert!(p.read < expected.read, "capacity {cap}, {}", ctx());
        let mut rest = vec![O::default(); bound];
        let q = call(&src[p.read..], Some(&mut rest));
        let mut whole = got;
        whole.extend(rest[..q.written].iter().map(|u| u.get(out_order)));
        assert_eq!(
            whole,
            expected.out,
            "resumed after capacity {cap}, {}",
            ctx()
        );
        assert_eq!(
            p.handled + q.handled,
            expected.handled,
            "capacity {cap}, {}",
            ctx()
        );
    }
}

/// Every conversion on `u16s` and `u32s` (native values), on `engine`, in
/// every pair of byte orders and under every policy.
fn check_all(engine: Engine, u16s: &[u16], u32s: &[u32], every_capacity: bool) {
    let latin1: Vec<u8> = u32s.iter().map(|&v| v as u8).collect();
    let tier = engine.tier();
    for o16 in ORDERS {
        let src16 = put(u16s, o16);
        for o32 in ORDERS {
            let src32 = put(u32s, o32);
            for policy in POLICIES {
                let what = format!("{tier:?} UTF-16 {o16:?} -> UCS-4 {o32:?}, {policy:?}");
                check(
                    &what,
                    &src16,
                    &oracle_utf16_to_ucs4(u16s, policy),
                    o32,
                    u16s.len(),
                    every_capacity,
                    &|s, d| engine.convert_utf16_to_ucs4(s, d, policy, (o16, o32), false),
                );
                let what = format!("{tier:?} UCS-4 {o32:?} -> UTF-16 {o16:?}, {policy:?}");
                check(
                    &what,
                    &src32,
                    &oracle_ucs4_to_utf16(u32s, policy),
                    o16,
                    2 * u32s.len(),
                    every_capacity,
                    &|s, d| engine.convert_ucs4_to_utf16(s, d, policy, (o32, o16), false),
                );
            }
            let what = format!("{tier:?} Latin-1 -> UCS-4 {o32:?}");
            let widened: Vec<u32> = latin1.iter().map(|&b| u32::from(b)).collect();
            let expected = finish(widened, Status::Done, latin1.len(), 0);
            check(
                &what,
                &latin1,
                &expected,
                o32,
                latin1.len(),
                every_capacity,
                &|s, d| engine.convert_latin1_to_ucs4(s, d, o32),
            );
            if o16 == ByteOrder::Native {
                for policy in LATIN1_POLICIES {
                    let what = format!("{tier:?} UCS-4 {o32:?} -> Latin-1, {policy:?}");
                    check(
                        &what,
                        &src32,
                        &oracle_ucs4_to_latin1(u32s, policy),
                        ByteOrder::Native,
                        u32s.len(),
                        every_capacity,
                        &|s, d| engine.convert_ucs4_to_latin1(s, d, policy, o32),
                    );
                }
                let valid = u32s.iter().position(|&v| char::from_u32(v).is_none());
                let p = engine.validate_ucs4(&src32, o32);
                let expected = match valid {
                    Some(at) => (ill(at, ucs4_kind(u32s[at]), 1), at),
                    None => (Status::Done, u32s.len()),
                };
                assert_eq!(
                    (p.status, p.read, p.written),
                    (expected.0, expected.1, 0),
                    "{tier:?} validate_ucs4 {o32:?}: {u32s:x?}"
                );
            }
        }
        for policy in LATIN1_POLICIES {
            let what = format!("{tier:?} UTF-16 {o16:?} -> Latin-1, {policy:?}");
            check(
                &what,
                &src16,
                &oracle_utf16_to_latin1(u16s, policy),
                ByteOrder::Native,
                u16s.len(),
                every_capacity,
                &|s, d| engine.convert_utf16_to_latin1(s, d, policy, o16, false),
            );
        }
        let what = format!("{tier:?} Latin-1 -> UTF-16 {o16:?}");
        let widened: Vec<u16> = latin1.iter().map(|&b| u16::from(b)).collect();
        let expected = finish(widened, Status::Done, latin1.len(), 0);
        check(
            &what,
            &latin1,
            &expected,
            o16,
            latin1.len(),
            every_capacity,
            &|s, d| engine.convert_latin1_to_utf16(s, d, o16),
        );
    }
}

#[test]
fn random_text_every_tier_order_policy_length() {
    let mut rng = Rng::new(43);
    let lengths: Vec<usize> = if emulated() {
        (0..=300).step_by(7).collect()
    } else {
        (0..=300).collect()
    };
    for engine in tiers() {
        for &len in &lengths {
            let u16s = random_utf16(&mut rng, len);
            let u32s = random_ucs4(&mut rng, len);
            check_all(engine, &u16s, &u32s, len <= 24);
        }
    }
}

#[test]
fn long_clean_text_with_one_damaged_unit() {
    // Long clean runs go through the vector blocks; one bad unit at every
    // position of a few blocks checks where each loop hands over.
    for engine in tiers() {
        for at in (0..200).step_by(if emulated() { 13 } else { 1 }) {
            let mut u16s: Vec<u16> = (0..200)
                .map(|i| [0x41, 0xE9, 0x3B1, 0x4E2D][i / 50])
                .collect();
            u16s[at] = [0xD800, 0xDC00, 0x100][at % 3];
            let mut u32s: Vec<u32> = (0..200)
                .map(|i| [0x41, 0xE9, 0x3B1, 0x1F600][i / 50])
                .collect();
            u32s[at] = [0xD800, 0x11_0000, 0x100][at % 3];
            check_all(engine, &u16s, &u32s, false);
        }
    }
}

#[test]
fn streamed_utf16_split_anywhere() {
    // With more input to come, a high surrogate ending a chunk is left
    // unread; the outputs of the two calls join into the one-call output.
    let mut rng = Rng::new(4343);
    for engine in tiers() {
        for _ in 0..if emulated() { 20 } else { 200 } {
            let len = rng.below(80);
            let units = random_utf16(&mut rng, len);
            for split in 0..=len {
                for policy in POLICIES.into_iter().filter(|p| *p != EncodePolicy::Strict) {
                    let mut out = vec![0u32; len];
                    let p = engine.convert_utf16_to_ucs4(
                        &units[..split],
                        Some(&mut out),
                        policy,
                        (ByteOrder::Native, ByteOrder::Native),
                        true,
                    );
                    // A high surrogate is never a pair's second unit.
                    let cut = split > 0 && (0xD800..0xDC00).contains(&units[split - 1]);
                    let expected = if cut {
                        (Status::Incomplete { len: 1 }, split - 1)
                    } else {
                        (Status::Done, split)
                    };
                    assert_eq!((p.status, p.read), expected, "{units:x?} split at {split}");
                    let mut rest = vec![0u32; len];
                    let q = engine.convert_utf16_to_ucs4(
                        &units[p.read..],
                        Some(&mut rest),
                        policy,
                        (ByteOrder::Native, ByteOrder::Native),
                        false,
                    );
                    let mut whole = out[..p.written].to_vec();
                    whole.extend_from_slice(&rest[..q.written]);
                    let expected = oracle_utf16_to_ucs4(&units, policy);
                    assert_eq!(
                        whole, expected.out,
                        "{units:x?} split at {split}, {policy:?}"
                    );
                    assert_eq!(p.handled + q.handled, expected.handled);
                    let mut latin1 = vec![0u8; len];
                    let p = engine.convert_utf16_to_latin1(
                        &units[..split],
                        Some(&mut latin1),
                        Latin1Policy::Replace(b'?'),
                        ByteOrder::Native,
                        true,
                    );
                    let mut rest8 = vec![0u8; len];
                    let q = engine.convert_utf16_to_latin1(
                        &units[p.read..],
                        Some(&mut rest8),
                        Latin1Policy::Replace(b'?'),
                        ByteOrder::Native,
                        false,
                    );
                    let mut whole = latin1[..p.written].to_vec();
                    whole.extend_from_slice(&rest8[..q.written]);
                    assert_eq!(
                        whole,
                        oracle_utf16_to_latin1(&units, Latin1Policy::Replace(b'?')).out,
                        "{units:x?} split at {split}"
                    );
                }
            }
        }
    }
}

#[test]
fn escape_round_trips_any_utf16() {
    // UTF-16 -> UCS-4 -> UTF-16 under the escape policy gives back the
    // units, lone surrogates included.
    let mut rng = Rng::new(7);
    for engine in tiers() {
        for _ in 0..if emulated() { 50 } else { 500 } {
            let len = rng.below(300);
            let units = random_utf16(&mut rng, len);
            let mut u32s = vec![0u32; len];
            let p = engine.convert_utf16_to_ucs4(
                &units,
                Some(&mut u32s),
                EncodePolicy::Escape,
                (ByteOrder::Native, ByteOrder::Big),
                false,
            );
            assert_eq!(p.status, Status::Done);
            let mut back = vec![0u16; 2 * len];
            let q = engine.convert_ucs4_to_utf16(
                &u32s[..p.written],
                Some(&mut back),
                EncodePolicy::Escape,
                (ByteOrder::Big, ByteOrder::Little),
                false,
            );
            assert_eq!(q.status, Status::Done);
            let back: Vec<u16> = back[..q.written].iter().map(|&u| u16::from_le(u)).collect();
            assert_eq!(back, units);
        }
    }
}

#[test]
fn escaped_high_surrogate_waits_for_more_input() {
    for engine in tiers() {
        let orders = (ByteOrder::Native, ByteOrder::Native);
        let mut out = [0u16; 4];
        let p = engine.convert_ucs4_to_utf16(
            &[0x41, 0xD800],
            Some(&mut out),
            EncodePolicy::Escape,
            orders,
            true,
        );
        assert_eq!(
            (p.status, p.read, p.written),
            (Status::Incomplete { len: 1 }, 1, 1)
        );
        let p = engine.convert_ucs4_to_utf16(
            &[0xD800, 0xDC00],
            Some(&mut out),
            EncodePolicy::Escape,
            orders,
            false,
        );
        assert_eq!(p.status, ill(0, ErrorKind::Surrogate, 1));
        let p = engine.convert_ucs4_to_utf16(
            &[0xD800, 0x41],
            Some(&mut out),
            EncodePolicy::Escape,
            orders,
            true,
        );
        assert_eq!(
            (p.status, &out[..p.written]),
            (Status::Done, &[0xD800, 0x41][..])
        );
    }
}

#[test]
fn every_utf16_unit_and_pair() {
    let step = stride();
    for engine in tiers() {
        let lone: Vec<u16> = (0..=0xFFFF).collect();
        for policy in POLICIES {
            let expected = oracle_utf16_to_ucs4(&lone, policy);
            let mut out = vec![0u32; lone.len()];
            let p = engine.convert_utf16_to_ucs4(
                &lone,
                Some(&mut out),
                policy,
                (ByteOrder::Native, ByteOrder::Native),
                false,
            );
            assert_eq!(
                (&out[..p.written], p.status, p.handled),
                (&expected.out[..], expected.status, expected.handled),
                "{policy:?}"
            );
        }
        let mut pairs = Vec::new();
        for high in 0xD800..0xDC00u16 {
            for low in (0xDC00..0xE000u16).step_by(step) {
                pairs.extend_from_slice(&[high, low]);
            }
        }
        let mut out = vec![0u32; pairs.len()];
        let p = engine.convert_utf16_to_ucs4(
            &pairs,
            Some(&mut out),
            EncodePolicy::Strict,
            (ByteOrder::Native, ByteOrder::Native),
            false,
        );
        assert_eq!(
            &out[..p.written],
            &oracle_utf16_to_ucs4(&pairs, EncodePolicy::Strict).out[..]
        );
        let mut back = vec![0u16; pairs.len()];
        let q = engine.convert_ucs4_to_utf16(
            &out[..p.written],
            Some(&mut back),
            EncodePolicy::Strict,
            (ByteOrder::Native, ByteOrder::Native),
            false,
        );
        assert_eq!((q.status, &back[..q.written]), (Status::Done, &pairs[..]));
    }
}

#[test]
fn every_ucs4_value_to_utf16_latin1_and_validation() {
    let mut values: Vec<u32> = (0..=0x11_0000).collect();
    values.extend_from_slice(&[0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x20_0000]);
    for engine in tiers() {
        for policy in POLICIES.into_iter().filter(|p| *p != EncodePolicy::Strict) {
            let expected = oracle_ucs4_to_utf16(&values, policy);
            let mut out = vec![0u16; 2 * values.len()];
            let p = engine.convert_ucs4_to_utf16(
                &values,
                Some(&mut out),
                policy,
                (ByteOrder::Native, ByteOrder::Native),
                false,
            );
            assert_eq!(
                (&out[..p.written], p.status, p.read, p.handled),
                (
                    &expected.out[..],
                    expected.status,
                    expected.read,
                    expected.handled
                ),
                "{policy:?}"
            );
        }
        let expected = oracle_ucs4_to_latin1(&values, Latin1Policy::Replace(0));
        let mut out = vec![0u8; values.len()];
        let p = engine.convert_ucs4_to_latin1(
            &values,
            Some(&mut out),
            Latin1Policy::Replace(0),
            ByteOrder::Native,
        );
        assert_eq!(
            (&out[..p.written], p.handled),
            (&expected.out[..], expected.handled)
        );
        let valid: Vec<u32> = values
            .iter()
            .copied()
            .filter(|&v| char::from_u32(v).is_some())
            .collect();
        assert_eq!(
            engine.validate_ucs4(&valid, ByteOrder::Native).status,
            Status::Done
        );
        let p = engine.validate_ucs4(&values, ByteOrder::Native);
        assert_eq!(p.status, ill(0xD800, ErrorKind::Surrogate, 1));
    }
}

#[test]
fn agrees_with_simdutf() {
    // simdutf 9.1's conversions, a second oracle: the same output for
    // input it takes, and a refusal (0 units) exactly where the strict
    // policy stops. UTF-16 little-endian, UCS-4 native, as simdutf has them.
    if !simdutf9_peer::AVAILABLE {
        eprintln!("skipped: simdutf 9.1 was not compiled in");
        return;
    }
    let mut rng = Rng::new(91);
    let (le, native) = (ByteOrder::Little, ByteOrder::Native);
    for engine in tiers() {
        for _ in 0..if emulated() { 30 } else { 300 } {
            let len = rng.below(400);
            // Mostly clean text: simdutf refuses the whole of bad input.
            let u16s = if rng.chance(1, 2) {
                random_utf16(&mut rng, len)
            } else {
                let s: String = (0..len)
                    .map(|_| char::from_u32(rng.range(0, 0x10FFFF)).unwrap_or('a'))
                    .collect();
                s.encode_utf16().collect()
            };
            let src16 = put(&u16s, le);
            let mut ours = vec![0u32; src16.len()];
            let mut theirs = vec![0u32; src16.len()];
            let p = engine.convert_utf16_to_ucs4(
                &src16,
                Some(&mut ours),
                EncodePolicy::Strict,
                (le, native),
                false,
            );
            let n = simdutf9_peer::convert_utf16le_to_utf32(&src16, &mut theirs);
            if p.status == Status::Done {
                assert_eq!(&ours[..p.written], &theirs[..n]);
            } else {
                assert_eq!(n, 0, "simdutf took what u8x stops at: {u16s:x?}");
            }
            let mut ours8 = vec![0u8; src16.len()];
            let mut theirs8 = vec![0u8; src16.len()];
            let p = engine.convert_utf16_to_latin1(
                &src16,
                Some(&mut ours8),
                Latin1Policy::Strict,
                le,
                false,
            );
            let n = simdutf9_peer::convert_utf16le_to_latin1(&src16, &mut theirs8);
            if p.status == Status::Done {
                assert_eq!(&ours8[..p.written], &theirs8[..n]);
            } else if !src16.is_empty() {
                assert_eq!(n, 0, "simdutf took what u8x stops at: {u16s:x?}");
            }
            let u32s: Vec<u32> = if rng.chance(1, 2) {
                random_ucs4(&mut rng, len)
            } else {
                char::decode_utf16(u16s.iter().copied())
                    .map(|c| c.map_or(0xFFFD, u32::from))
                    .collect()
            };
            let mut ours16 = vec![0u16; 2 * u32s.len()];
            let mut theirs16 = vec![0u16; 2 * u32s.len()];
            let p = engine.convert_ucs4_to_utf16(
                &u32s,
                Some(&mut ours16),
                EncodePolicy::Strict,
                (native, le),
                false,
            );
            let n = simdutf9_peer::convert_utf32_to_utf16le(&u32s, &mut theirs16);
            assert_eq!(
                p.status == Status::Done,
                engine.validate_ucs4(&u32s, native).status == Status::Done
            );
            assert_eq!(
                simdutf9_peer::validate_utf32(&u32s),
                p.status == Status::Done
            );
            if p.status == Status::Done {
                assert_eq!(&ours16[..p.written], &theirs16[..n]);
            } else {
                assert_eq!(n, 0, "simdutf took what u8x stops at: {u32s:x?}");
            }
            let latin1: Vec<u8> = u32s.iter().map(|&v| v as u8).collect();
            let mut ours32 = vec![0u32; latin1.len()];
            let mut theirs32 = vec![0u32; latin1.len()];
            let p = engine.convert_latin1_to_ucs4(&latin1, Some(&mut ours32), native);
            let n = simdutf9_peer::convert_latin1_to_utf32(&latin1, &mut theirs32);
            assert_eq!(&ours32[..p.written], &theirs32[..n]);
            let mut ours16 = vec![0u16; latin1.len()];
            let p = engine.convert_latin1_to_utf16(&latin1, Some(&mut ours16), le);
            let n = simdutf9_peer::convert_latin1_to_utf16le(&latin1, &mut theirs16);
            assert_eq!(&ours16[..p.written], &theirs16[..n]);
        }
    }
}

// ---------------------------------------------------------------------------
// The C functions.
// ---------------------------------------------------------------------------

mod c_abi {
    use u8x::ffi::*;

    fn bad(r: u8x_result) -> bool {
        r.status == u8x_status::U8X_BAD_ARGUMENT
    }

    #[test]
    fn converts_and_measures() {
        let src: [u16; 5] = [0x41, 0xD83D, 0xDE00, 0xDC00, 0xE9];
        let mut out = [0u32; 5];
        // SAFETY (every call below): the pointers and lengths describe
        // live arrays, or NULL with 0.
        let r = unsafe {
            u8x_convert_utf16_to_ucs4(src.as_ptr(), 5, out.as_mut_ptr(), 5, 1, 0xFFFD, 0)
        };
        assert_eq!(
            (r.status, r.read, r.written, r.handled),
            (u8x_status::U8X_OK, 5, 4, 1)
        );
        assert_eq!(out[..4], [0x41, 0x1F600, 0xFFFD, 0xE9]);
        let r = unsafe {
            u8x_convert_utf16_to_ucs4(src.as_ptr(), 5, core::ptr::null_mut(), 0, 0, 0, 0)
        };
        assert_eq!(
            (r.status, r.error, r.read, r.written, r.error_len),
            (
                u8x_status::U8X_ILL_FORMED,
                u8x_error::U8X_ERR_SURROGATE,
                3,
                2,
                1
            )
        );
        let mut latin1 = [0u8; 5];
        let r = unsafe {
            u8x_convert_utf16_to_latin1(src.as_ptr(), 5, latin1.as_mut_ptr(), 5, 0, 0, 0)
        };
        assert_eq!(
            (r.status, r.error, r.read, r.error_len),
            (
                u8x_status::U8X_ILL_FORMED,
                u8x_error::U8X_ERR_NOT_REPRESENTABLE,
                1,
                2
            )
        );
        let be: Vec<u16> = b"caf\xE9".iter().map(|&b| u16::from(b).to_be()).collect();
        let r = unsafe {
            u8x_convert_utf16_to_latin1(
                be.as_ptr(),
                4,
                latin1.as_mut_ptr(),
                5,
                0,
                0,
                U8X_BIG_ENDIAN,
            )
        };
        assert_eq!(
            (r.status, &latin1[..r.written]),
            (u8x_status::U8X_OK, &b"caf\xE9"[..])
        );
        let mut wide = [0u32; 4];
        let r = unsafe {
            u8x_convert_latin1_to_ucs4(
                b"caf\xE9".as_ptr(),
                4,
                wide.as_mut_ptr(),
                4,
                U8X_UCS4_BIG_ENDIAN,
            )
        };
        assert_eq!(
            (r.status, wide),
            (u8x_status::U8X_OK, [0x63, 0x61, 0x66, 0xE9].map(u32::to_be))
        );
        let mut two = [0u16; 1];
        let r = unsafe {
            u8x_convert_ucs4_to_utf16([0x1F600u32].as_ptr(), 1, two.as_mut_ptr(), 1, 0, 0, 0)
        };
        assert_eq!(
            (r.status, r.read, r.written),
            (u8x_status::U8X_OUTPUT_FULL, 0, 0)
        );
        let r = unsafe { u8x_validate_ucs4([0x41u32, 0x11_0000].as_ptr(), 2, 0) };
        assert_eq!(
            (r.status, r.error, r.read),
            (u8x_status::U8X_ILL_FORMED, u8x_error::U8X_ERR_ABOVE_MAX, 1)
        );
        let r = unsafe {
            u8x_convert_latin1_to_utf16(core::ptr::null(), 0, core::ptr::null_mut(), 0, 0)
        };
        assert_eq!((r.status, r.read, r.written), (u8x_status::U8X_OK, 0, 0));
    }

    #[test]
    fn refuses_bad_arguments() {
        let units = [0x41u16; 4];
        let values = [0x41u32; 4];
        let mut out16 = [0u16; 8];
        let mut out32 = [0u32; 8];
        let mut out8 = [0u8; 8];
        let null16: *const u16 = core::ptr::null();
        // SAFETY (every call below): the pointers and lengths describe
        // live arrays, or are the bad arguments under test, which the
        // functions refuse before touching memory.
        unsafe {
            // Both byte orders on one side; a flag the function has no use for.
            assert!(bad(u8x_convert_latin1_to_utf16(
                b"a".as_ptr(),
                1,
                out16.as_mut_ptr(),
                8,
                U8X_LITTLE_ENDIAN | U8X_BIG_ENDIAN
            )));
            assert!(bad(u8x_convert_latin1_to_utf16(
                b"a".as_ptr(),
                1,
                out16.as_mut_ptr(),
                8,
                U8X_UCS4_BIG_ENDIAN
            )));
            assert!(bad(u8x_convert_latin1_to_utf16(
                b"a".as_ptr(),
                1,
                out16.as_mut_ptr(),
                8,
                U8X_MORE_INPUT
            )));
            assert!(bad(u8x_convert_latin1_to_ucs4(
                b"a".as_ptr(),
                1,
                out32.as_mut_ptr(),
                8,
                U8X_BIG_ENDIAN
            )));
            assert!(bad(u8x_convert_utf16_to_ucs4(
                units.as_ptr(),
                4,
                out32.as_mut_ptr(),
                8,
                0,
                0,
                U8X_UCS4_LITTLE_ENDIAN | U8X_UCS4_BIG_ENDIAN
            )));
            assert!(bad(u8x_convert_utf16_to_ucs4(
                units.as_ptr(),
                4,
                out32.as_mut_ptr(),
                8,
                0,
                0,
                U8X_SKIP_BOM
            )));
            assert!(bad(u8x_validate_ucs4(
                values.as_ptr(),
                4,
                U8X_LITTLE_ENDIAN
            )));
            // Policies: a dialect, a decoding-only policy, a bad replacement.
            assert!(bad(u8x_convert_utf16_to_ucs4(
                units.as_ptr(),
                4,
                out32.as_mut_ptr(),
                8,
                u8x_dialect::U8X_DIALECT_CESU8 as u32,
                0,
                0
            )));
            assert!(bad(u8x_convert_utf16_to_ucs4(
                units.as_ptr(),
                4,
                out32.as_mut_ptr(),
                8,
                3,
                0,
                0
            )));
            assert!(bad(u8x_convert_ucs4_to_utf16(
                values.as_ptr(),
                4,
                out16.as_mut_ptr(),
                8,
                1,
                0xD800,
                0
            )));
            assert!(bad(u8x_convert_utf16_to_latin1(
                units.as_ptr(),
                4,
                out8.as_mut_ptr(),
                8,
                1,
                0x100,
                0
            )));
            assert!(bad(u8x_convert_ucs4_to_latin1(
                values.as_ptr(),
                4,
                out8.as_mut_ptr(),
                8,
                2,
                0,
                0
            )));
            // NULL with a length, misaligned pointers, overlapping buffers.
            assert!(bad(u8x_convert_utf16_to_latin1(
                null16,
                1,
                out8.as_mut_ptr(),
                8,
                0,
                0,
                0
            )));
            assert!(bad(u8x_convert_utf16_to_latin1(
                units.as_ptr(),
                4,
                core::ptr::null_mut(),
                8,
                0,
                0,
                0
            )));
            let odd = (units.as_ptr() as *const u8).add(1) as *const u16;
            assert!(bad(u8x_convert_utf16_to_ucs4(
                odd,
                1,
                out32.as_mut_ptr(),
                8,
                0,
                0,
                0
            )));
            let odd32 = (out32.as_mut_ptr() as *mut u8).add(2) as *mut u32;
            assert!(bad(u8x_convert_utf16_to_ucs4(
                units.as_ptr(),
                4,
                odd32,
                4,
                0,
                0,
                0
            )));
            let mut shared = [0x41u32; 8];
            let p = shared.as_mut_ptr();
            assert!(bad(u8x_convert_ucs4_to_utf16(
                p,
                4,
                p.add(1) as *mut u16,
                8,
                0,
                0,
                0
            )));
            assert!(bad(u8x_validate_ucs4(core::ptr::null(), 3, 0)));
        }
    }
}
