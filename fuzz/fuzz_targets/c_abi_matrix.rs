//! The C ABI for the runtimes' forms to one another (Latin-1, UTF-16,
//! UCS-4: `u8x_convert_*`), UCS-4 and ASCII validation, UTF-16
//! classification, well-formed UTF-16, byte swaps and encoding detection,
//! called as C calls them (`u8x::ffi::u8x_*` through raw pointers) on
//! hostile input, against oracles from `std` (`char::decode_utf16`,
//! `char::from_u32`, `str::from_utf8`).
//!
//! Input: 8 control bytes, then the data. Byte 0 picks the policy (the four
//! the conversions take and invalid values), byte 1 the replacement, byte 2
//! the flags (each side's byte orders, `U8X_MORE_INPUT`, both orders of a
//! side, unknown bits); all eight seed the generator for capacities,
//! offsets and split points. The data is, in memory order, the UTF-16
//! units, the UCS-4 units and the Latin-1 bytes.
//!
//! Properties: every call through `common::run` (misaligned pointers, NULL
//! with a length and overlapping buffers refused, nothing written on
//! refusal nor past `written`); the output of a big-enough call equals the
//! oracle's under every policy; the size query (NULL, 0) equals it;
//! `U8X_OUTPUT_FULL` resumption and `U8X_MORE_INPUT` chunking equal one call
//! (no pair split); validation, classification, well-formedness, swaps and
//! detection agree with `std`.
#![no_main]

mod common;

use common::*;
use libfuzzer_sys::fuzz_target;
use u8x::ffi::*;

const ENCODE_POLICIES: [u32; 6] = [0, 1, 2, 5, 3, 0x201];
const FLAGS: [u32; 12] = [0, 1, 2, 4, 16, 32, 18, 36, 6, 48, 64, 8];

fuzz_target!(|data: &[u8]| {
    if data.len() < CONTROL {
        return;
    }
    let (ctl, src) = data.split_at(CONTROL);
    let mut rng = Rng::new(ctl);
    let policy = ENCODE_POLICIES[ctl[0] as usize % 6];
    let repl = REPLACEMENTS[ctl[1] as usize % 8];
    let flags = FLAGS[ctl[2] as usize % 12];
    let u16s: Vec<u16> = src.chunks_exact(2).map(|b| u16::from_ne_bytes([b[0], b[1]])).collect();
    let u32s: Vec<u32> = src.chunks_exact(4).map(|b| u32::from_ne_bytes([b[0], b[1], b[2], b[3]])).collect();

    utf16_to_ucs4(&mut rng, &u16s, policy, repl, flags);
    ucs4_to_utf16(&mut rng, &u32s, policy, repl, flags);
    to_latin1(&mut rng, &u16s, &u32s, policy, repl, flags);
    from_latin1(&mut rng, src, flags);
    checks(&mut rng, src, &u16s, &u32s, flags);
});

/// The byte orders `flags` gives each side (`None` if refused), and
/// whether it asks for more input.
fn orders(flags: u32, allowed: u32) -> Option<(bool, fn(u16) -> u16, fn(u32) -> u32)> {
    if flags & !allowed != 0 || flags & 6 == 6 || flags & 48 == 48 {
        return None;
    }
    let o16: fn(u16) -> u16 = match flags & 6 {
        2 => u16::from_le,
        4 => u16::from_be,
        _ => |u| u,
    };
    let o32: fn(u32) -> u32 = match flags & 48 {
        16 => u32::from_le,
        32 => u32::from_be,
        _ => |u| u,
    };
    Some((flags & 1 != 0, o16, o32))
}

/// The encoding policy `policy` with `repl`, if valid: 0 strict, 1
/// replace, 2 escape, 5 ignore.
fn valid_policy(policy: u32, repl: u32) -> bool {
    matches!(policy, 0 | 2 | 5) || (policy == 1 && is_scalar(repl))
}

/// One unit or pair of UTF-16 as `char::decode_utf16` reads it: (index,
/// Ok(scalar) or Err(lone unit), units).
fn utf16_items(units: &[u16]) -> Vec<(usize, Result<u32, u32>, usize)> {
    let mut at = 0;
    char::decode_utf16(units.iter().copied())
        .map(|r| {
            let item = match r {
                Ok(c) => (at, Ok(c as u32), c.len_utf16()),
                Err(e) => (at, Err(u32::from(e.unpaired_surrogate())), 1),
            };
            at += item.2;
            item
        })
        .collect()
}

fn utf16_to_ucs4(rng: &mut Rng, units: &[u16], policy: u32, repl: u32, flags: u32) {
    let all = U8X_MORE_INPUT | 6 | 48;
    let ok = valid_policy(policy, repl) && orders(flags, all).is_some();
    let cap = rng.cap(units.len(), 2 * units.len());
    let p = Place::random(rng, 2 * units.len(), cap);
    let cap = p.cap;
    let got = run(units, p, units.len(), !ok, |sp, dp| unsafe {
        u8x_convert_utf16_to_ucs4(sp, units.len(), dp, cap, policy, repl, flags & !U8X_MORE_INPUT)
    });
    let Some((_, o16, o32)) = orders(flags, all) else { return };
    if !valid_policy(policy, repl) {
        return;
    }
    // The oracle on native values.
    let native: Vec<u16> = units.iter().map(|&u| o16(u)).collect();
    let (mut out, mut handled, mut stop) = (Vec::new(), 0, None);
    for (at, item, _) in utf16_items(&native) {
        match (item, policy) {
            (Ok(v), _) => out.push(v),
            (Err(_), 0) => {
                stop = Some(at);
                break;
            }
            (Err(_), 1) => out.push(repl),
            (Err(s), 2) => out.push(s),
            _ => {}
        }
        handled += usize::from(item.is_err());
    }
    // A big-enough call, and the size query.
    let whole = run(units, Place::plain(2 * units.len(), units.len()), units.len(), false, |sp, dp| unsafe {
        u8x_convert_utf16_to_ucs4(sp, units.len(), dp, units.len(), policy, repl, flags & !U8X_MORE_INPUT)
    })
    .unwrap();
    let written: Vec<u32> = whole.1.iter().map(|&v| o32(v)).collect();
    assert_eq!(written, out);
    assert_eq!(whole.0.handled, handled);
    match stop {
        Some(at) => assert_eq!((whole.0.status as u32, whole.0.read, whole.0.error as u32), (ILL_FORMED, at, E_SURROGATE)),
        None => assert_eq!((whole.0.status as u32, whole.0.read), (OK, units.len())),
    }
    let size = unsafe { u8x_convert_utf16_to_ucs4(units.as_ptr(), units.len(), std::ptr::null_mut(), 0, policy, repl, flags & !U8X_MORE_INPUT) };
    assert_eq!((size.status, size.read, size.written, size.handled), (whole.0.status, whole.0.read, whole.0.written, whole.0.handled));
    if let Some((r, o)) = got {
        assert!(o[..] == whole.1[..o.len()], "a smaller output is a prefix");
        assert!(r.status as u32 == OUTPUT_FULL || r == whole.0);
    }
    // Resumed after every full output, and chunked with more input to come.
    let (r, o) = resume(rng, units.len(), 1, |from, cap| {
        let s = &units[from..];
        run(s, Place::plain(2 * s.len(), cap), s.len(), false, |sp, dp| unsafe {
            u8x_convert_utf16_to_ucs4(sp, s.len(), dp, cap, policy, repl, flags & !U8X_MORE_INPUT)
        })
        .unwrap()
    });
    assert_eq!((o, r.status, r.read), (whole.1.clone(), whole.0.status, whole.0.read));
    let (r, o, _) = chunked(rng, units.len(), |start, end, last| {
        let s = &units[start..end];
        let f = if last { flags & !U8X_MORE_INPUT } else { flags | U8X_MORE_INPUT };
        run(s, Place::plain(2 * s.len(), s.len()), s.len(), false, |sp, dp| unsafe {
            u8x_convert_utf16_to_ucs4(sp, s.len(), dp, s.len(), policy, repl, f)
        })
        .unwrap()
    });
    assert_eq!((o, r.status, r.read), (whole.1, whole.0.status, whole.0.read));
}

fn ucs4_to_utf16(rng: &mut Rng, values: &[u32], policy: u32, repl: u32, flags: u32) {
    let all = U8X_MORE_INPUT | 6 | 48;
    let ok = valid_policy(policy, repl) && orders(flags, all).is_some();
    let most = 2 * values.len();
    let cap = rng.cap(values.len(), most);
    let p = Place::random(rng, 4 * values.len(), cap);
    let cap = p.cap;
    let f = flags & !U8X_MORE_INPUT;
    let got = run(values, p, most, !ok, |sp, dp| unsafe { u8x_convert_ucs4_to_utf16(sp, values.len(), dp, cap, policy, repl, f) });
    if !ok {
        return;
    }
    let (_, o16, o32) = orders(flags, all).unwrap();
    let native: Vec<u32> = values.iter().map(|&v| o32(v)).collect();
    let (mut out, mut handled, mut stop) = (Vec::new(), 0, None);
    let mut buf = [0u16; 2];
    for (at, &v) in native.iter().enumerate() {
        if let Some(c) = char::from_u32(v) {
            out.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        let surrogate = (0xD800..0xE000).contains(&v);
        let joins = (0xD800..0xDC00).contains(&v) && native.get(at + 1).is_some_and(|n| (0xDC00..0xE000).contains(n));
        match policy {
            1 => out.extend_from_slice(char::from_u32(repl).unwrap().encode_utf16(&mut buf)),
            2 if surrogate && !joins => out.push(v as u16),
            5 => {}
            _ => {
                let kind = if surrogate { E_SURROGATE } else { E_ABOVE_MAX };
                stop = Some((at, kind));
                break;
            }
        }
        handled += 1;
    }
    let whole = run(values, Place::plain(4 * values.len(), most), most, false, |sp, dp| unsafe {
        u8x_convert_ucs4_to_utf16(sp, values.len(), dp, most, policy, repl, f)
    })
    .unwrap();
    let written: Vec<u16> = whole.1.iter().map(|&u| o16(u)).collect();
    assert_eq!((written, whole.0.handled), (out, handled));
    match stop {
        Some((at, kind)) => assert_eq!((whole.0.status as u32, whole.0.read, whole.0.error as u32), (ILL_FORMED, at, kind)),
        None => assert_eq!(whole.0.status as u32, OK),
    }
    let size = unsafe { u8x_convert_ucs4_to_utf16(values.as_ptr(), values.len(), std::ptr::null_mut(), 0, policy, repl, f) };
    assert_eq!((size.status, size.written, size.handled), (whole.0.status, whole.0.written, whole.0.handled));
    if let Some((r, o)) = got {
        assert!(o[..] == whole.1[..o.len()]);
        assert!(r.status as u32 == OUTPUT_FULL || r == whole.0);
    }
    let (r, o) = resume(rng, most, 2, |from, cap| {
        let s = &values[from..];
        run(s, Place::plain(4 * s.len(), cap), 2 * s.len(), false, |sp, dp| unsafe {
            u8x_convert_ucs4_to_utf16(sp, s.len(), dp, cap, policy, repl, f)
        })
        .unwrap()
    });
    assert_eq!((o, r.status, r.read), (whole.1, whole.0.status, whole.0.read));
}

fn to_latin1(rng: &mut Rng, units: &[u16], values: &[u32], policy: u32, repl: u32, flags: u32) {
    let l1 = match (policy, repl) {
        (0, _) | (5, _) => true,
        (1, r) => r <= 0xFF,
        _ => false,
    };
    // UTF-16 in.
    let ok16 = l1 && orders(flags, U8X_MORE_INPUT | 6).is_some();
    let cap = rng.cap(units.len(), units.len());
    let p = Place::random(rng, 2 * units.len(), cap);
    let cap = p.cap;
    let f = flags & !U8X_MORE_INPUT;
    let got = run(units, p, units.len(), !ok16, |sp, dp| unsafe { u8x_convert_utf16_to_latin1(sp, units.len(), dp, cap, policy, repl, f) });
    if ok16 {
        let (_, o16, _) = orders(flags, U8X_MORE_INPUT | 6).unwrap();
        let native: Vec<u16> = units.iter().map(|&u| o16(u)).collect();
        let (mut out, mut handled, mut stop) = (Vec::new(), 0, None);
        for (at, item, len) in utf16_items(&native) {
            match item {
                Ok(v) if v <= 0xFF => {
                    out.push(v as u8);
                    continue;
                }
                _ if policy == 0 => {
                    let kind = if item.is_ok() { E_NOT_REPRESENTABLE } else { E_SURROGATE };
                    stop = Some((at, kind, len));
                    break;
                }
                _ if policy == 1 => out.push(repl as u8),
                _ => {}
            }
            handled += 1;
        }
        let whole = run(units, Place::plain(2 * units.len(), units.len()), units.len(), false, |sp, dp| unsafe {
            u8x_convert_utf16_to_latin1(sp, units.len(), dp, units.len(), policy, repl, f)
        })
        .unwrap();
        assert_eq!((&whole.1, whole.0.handled), (&out, handled));
        if let Some((at, kind, len)) = stop {
            assert_eq!((whole.0.read, whole.0.error as u32, whole.0.error_len), (at, kind, len));
        }
        if let Some((r, o)) = got {
            assert!(o[..] == whole.1[..o.len()]);
            assert!(r.status as u32 == OUTPUT_FULL || r == whole.0);
        }
    }
    // UCS-4 in.
    let ok32 = l1 && orders(flags, 48).is_some();
    let cap = rng.cap(values.len(), values.len());
    let p = Place::random(rng, 4 * values.len(), cap);
    let cap = p.cap;
    let got = run(values, p, values.len(), !ok32, |sp, dp| unsafe { u8x_convert_ucs4_to_latin1(sp, values.len(), dp, cap, policy, repl, flags) });
    if ok32 {
        let (_, _, o32) = orders(flags, 48).unwrap();
        let mut out = Vec::new();
        for &v in values {
            match o32(v) {
                v if v <= 0xFF => out.push(v as u8),
                _ if policy == 0 => break,
                _ if policy == 1 => out.push(repl as u8),
                _ => {}
            }
        }
        if let Some((_, o)) = got {
            assert!(o[..] == out[..o.len()]);
        }
    }
}

fn from_latin1(rng: &mut Rng, bytes: &[u8], flags: u32) {
    let ok = orders(flags, 6).is_some();
    let cap = rng.cap(bytes.len(), bytes.len());
    let p = Place::random(rng, bytes.len(), cap);
    let (cap, measuring) = (p.cap, p.null_dst);
    if let Some((r, o)) = run(bytes, p, bytes.len(), !ok, |sp, dp| unsafe { u8x_convert_latin1_to_utf16(sp, bytes.len(), dp, cap, flags) }) {
        let (_, o16, _) = orders(flags, 6).unwrap();
        assert!(o.iter().zip(bytes).all(|(&u, &b)| o16(u) == u16::from(b)));
        assert_eq!(r.status as u32 == OK, measuring || o.len() == bytes.len());
        assert_eq!(r.written, if measuring { bytes.len() } else { o.len() });
    }
    let ok = orders(flags, 48).is_some();
    let cap = rng.cap(bytes.len(), bytes.len());
    let p = Place::random(rng, bytes.len(), cap);
    let cap = p.cap;
    if let Some((_, o)) = run(bytes, p, bytes.len(), !ok, |sp, dp| unsafe { u8x_convert_latin1_to_ucs4(sp, bytes.len(), dp, cap, flags) }) {
        let (_, _, o32) = orders(flags, 48).unwrap();
        assert!(o.iter().zip(bytes).all(|(&v, &b)| o32(v) == u32::from(b)));
    }
}

fn checks(rng: &mut Rng, bytes: &[u8], units: &[u16], values: &[u32], flags: u32) {
    // ASCII.
    let r = unsafe { u8x_validate_ascii(bytes.as_ptr(), bytes.len()) };
    let first = bytes.iter().position(|b| !b.is_ascii());
    assert_eq!(r.read, first.unwrap_or(bytes.len()));
    // UCS-4 validation.
    let r = unsafe { u8x_validate_ucs4(values.as_ptr(), values.len(), flags) };
    if let Some((_, _, o32)) = orders(flags, 48) {
        let bad = values.iter().position(|&v| char::from_u32(o32(v)).is_none());
        assert_eq!((r.status as u32 == OK, r.read), (bad.is_none(), bad.unwrap_or(values.len())));
    } else {
        assert_eq!(r.status as u32, BAD);
    }
    // UTF-16: classification and well-formedness.
    let mut info = u8x_classification { width: u8x_width::U8X_WIDTH_ASCII, code_points: 0, utf16_units: 0 };
    let r = unsafe { u8x_classify_utf16(units.as_ptr(), units.len(), flags, &mut info) };
    let Some((more, o16, _)) = orders(flags, U8X_MORE_INPUT | 6) else {
        assert_eq!(r.status as u32, BAD);
        return;
    };
    let native: Vec<u16> = units.iter().map(|&u| o16(u)).collect();
    let valid = utf16_items(&native).iter().take_while(|i| i.1.is_ok()).map(|i| i.2).sum::<usize>();
    let cut = more && valid + 1 == units.len() && (0xD800..0xDC00).contains(&native[valid]);
    assert_eq!(r.read, valid);
    assert_eq!(r.status as u32, if valid == units.len() { OK } else if cut { INCOMPLETE } else { ILL_FORMED });
    let expected: Vec<u16> = String::from_utf16_lossy(&native).encode_utf16().collect();
    let mut fixed = units.to_vec();
    let r = unsafe { u8x_to_well_formed_utf16(fixed.as_ptr(), fixed.len(), fixed.as_mut_ptr(), fixed.len(), 0xFFFD, flags & !U8X_MORE_INPUT) };
    assert_eq!(r.status as u32, OK);
    assert!(fixed.iter().map(|&u| o16(u)).eq(expected.iter().copied()));
    // Copying (in place, the same pointer, is tested above: `run` takes
    // any overlap for a refusal).
    let separate = |rng: &mut Rng| {
        let cap = rng.cap(units.len(), units.len());
        let p = Place::random(rng, 2 * units.len(), cap);
        if p.dst_at == p.src_at { Place::plain(2 * units.len(), p.cap) } else { p }
    };
    let p = separate(rng);
    let cap = p.cap;
    if let Some((_, o)) = run(units, p, units.len(), false, |sp, dp| unsafe {
        u8x_to_well_formed_utf16(sp, units.len(), dp, cap, 0xFFFD, flags & !U8X_MORE_INPUT)
    }) {
        assert!(o.iter().map(|&u| o16(u)).eq(expected[..o.len()].iter().copied()));
    }
    let p = separate(rng);
    let cap = p.cap;
    if let Some((_, o)) = run(units, p, units.len(), false, |sp, dp| unsafe { u8x_swap_utf16(sp, units.len(), dp, cap) }) {
        assert!(o.iter().zip(units).all(|(&a, &b)| a == b.swap_bytes()));
    }
    // Detection, against std's verdicts.
    let mut d = u8x_detection { valid: 0, likely: 0, bom_len: 0 };
    let r = unsafe { u8x_detect_encoding(bytes.as_ptr(), bytes.len(), &mut d) };
    assert_eq!(r.status as u32, OK);
    assert!(d.likely == 0 || d.valid & d.likely != 0);
    let marks: [&[u8]; 4] = [b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF", b"\x00\x00\xFE\xFF"];
    if !marks.iter().any(|m| bytes.starts_with(m)) {
        let utf8 = std::str::from_utf8(bytes).is_ok();
        assert_eq!(d.valid & 1 != 0, utf8);
        let le16 = bytes.len() % 2 == 0 && char::decode_utf16(bytes.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]]))).all(|c| c.is_ok());
        assert_eq!(d.valid & 2 != 0, le16);
        let be32 = bytes.len() % 4 == 0 && bytes.chunks_exact(4).all(|b| char::from_u32(u32::from_be_bytes([b[0], b[1], b[2], b[3]])).is_some());
        assert_eq!(d.valid & 16 != 0, be32);
    }
}
