//! The C ABI for the runtimes' forms (UTF-16, Latin-1, classification,
//! valid-text sizes), called as C calls it (`u8x::ffi::u8x_*` through raw
//! pointers), against `std` and the reference logic in `common`.
//!
//! Input: 8 control bytes, then the data. Byte 0 picks the policy (the five
//! policies and three invalid values), byte 1 the replacement (scalars, BMP
//! and supplementary, and non-scalars), byte 2 the flags (0,
//! `U8X_MORE_INPUT`, each byte order, both orders and unknown bits), byte 3
//! the Latin-1 policy and replacement byte (including invalid ones, as 2
//! and 256); all eight seed the generator for capacities, offsets and
//! split points. The data is the UTF-8 input and, two bytes at a time in
//! memory order, the UTF-16 input.
//!
//! Properties:
//! - `u8x_decode_utf16` equals the reference decoder written as UTF-16 in
//!   the requested byte order (and `from_utf8_lossy` under replacement);
//!   `u8x_encode_utf16` equals reference logic built like
//!   `char::decode_utf16`, and `String::from_utf16` / `from_utf16_lossy`;
//!   strict reports the index of the unpaired surrogate; `U8X_MORE_INPUT`
//!   leaves a final high surrogate unconsumed; `u8x_validate_utf16` agrees;
//! - `u8x_decode_latin1` (not-representable characters, replacement byte)
//!   and `u8x_encode_latin1` equal the reference and `std`;
//! - `u8x_classify` equals `from_utf8` on the well-formed prefix; NULL or
//!   misaligned `info` and bad flags are refused with `info` untouched;
//! - every call is made through `common::run` (misaligned `uint16_t`
//!   pointers, NULL with a length and overlapping buffers refused, nothing
//!   written on refusal nor past `written`); any capacity, and the size
//!   query (NULL, 0) equals a big-enough call; invalid policies, flags and
//!   replacements are `U8X_BAD_ARGUMENT`;
//! - `U8X_OUTPUT_FULL` resumption and `U8X_MORE_INPUT` chunking (both
//!   directions of UTF-16) equal one call, so no surrogate pair is split;
//! - bytes survive `U8X_ESCAPE` through UTF-16 and back, in each byte order;
//! - `u8x_count_utf16_valid`, `u8x_encoded_len_utf16_valid` on valid text
//!   and the four bounds.
#![no_main]

mod common;

use common::*;
use libfuzzer_sys::fuzz_target;
use std::ptr::null;
use u8x::ffi::*;

fuzz_target!(|data: &[u8]| {
    if data.len() < CONTROL {
        return;
    }
    let (ctl, src) = data.split_at(CONTROL);
    let mut rng = Rng::new(ctl);
    let policy = POLICIES[ctl[0] as usize % 8];
    let repl = REPLACEMENTS[ctl[1] as usize % 8];
    let flags = [0, 1, 2, 4, 6, 3, 5, 16][ctl[2] as usize % 8];
    let l1_policy = [0, 1, 2, 0x8000_0001][ctl[3] as usize % 4];
    let l1_repl = [b'?' as u32, 0, 0xFF, 0x100, 0xFFFD][(ctl[3] as usize >> 2) % 5];
    let units: Vec<u16> = src.chunks_exact(2).map(|b| u16::from_ne_bytes([b[0], b[1]])).collect();
    let ps = pieces(src);

    to_utf16(&mut rng, src, &ps, policy, repl, flags);
    from_utf16(&mut rng, &units, policy, repl, flags);
    escape_round_trip(src, flags & 6);
    latin1(&mut rng, src, &ps, l1_policy, l1_repl, flags);
    classify(&mut rng, src, flags);
    sizes(&mut rng, src, &units, flags);
});

/// `U8X_MORE_INPUT` and at most one byte order: the order's conversion of a
/// unit to and from memory.
fn order(flags: u32) -> Option<fn(u16) -> u16> {
    match flags & !U8X_MORE_INPUT {
        0 => Some(|u| u),
        U8X_LITTLE_ENDIAN => Some(u16::to_le),
        U8X_BIG_ENDIAN => Some(u16::to_be),
        _ => None,
    }
}

fn dec16(src: &[u8], policy: u32, repl: u32, flags: u32, cap: usize) -> (u8x_result, Vec<u16>) {
    let p = Place::plain(src.len(), cap);
    run(src, p, 2 * src.len(), false, |s, d| unsafe { u8x_decode_utf16(s, src.len(), d, cap, policy, repl, flags) })
        .unwrap()
}

fn enc16(units: &[u16], policy: u32, repl: u32, flags: u32, cap: usize) -> (u8x_result, Vec<u8>) {
    let p = Place::plain(units.len() * 2, cap);
    run(units, p, 4 * units.len(), false, |s, d| unsafe { u8x_encode_utf16(s, units.len(), d, cap, policy, repl, flags) })
        .unwrap()
}

/// Output cut at `p.cap`: `U8X_OUTPUT_FULL` with a prefix, or all of it.
fn check_capped<T: PartialEq + std::fmt::Debug>(e: &Expect<T>, r: &u8x_result, out: &[T], p: Place, what: &str) {
    if p.null_dst {
        e.assert_eq(r, None, what);
    } else if p.cap >= e.out.len() {
        e.assert_eq(r, Some(out), what);
    } else {
        assert_eq!(r.status as u32, OUTPUT_FULL, "{what}: cap {} < {}", p.cap, e.out.len());
        assert_eq!(out, &e.out[..r.written], "{what}: capped output");
    }
}

fn to_utf16(rng: &mut Rng, src: &[u8], ps: &[Piece], policy: u32, repl: u32, flags: u32) {
    let n = src.len();
    let ok = policy <= 4 && (policy != 1 || is_scalar(repl)) && order(flags).is_some();
    let to_mem = order(flags).unwrap_or(|u| u);
    let e = decode_ref(src, ps, if policy <= 4 { policy } else { 0 }, repl, flags & U8X_MORE_INPUT != 0);
    let mut units = Vec::new();
    for &c in &e.out {
        match char::from_u32(c) {
            Some(c) => units.extend(c.encode_utf16(&mut [0; 2]).iter().map(|&u| to_mem(u))),
            None => units.push(to_mem(c as u16)), // an escape, U+DC80..U+DCFF
        }
    }
    let e = Expect::stop(e.status, e.error, e.read, e.error_len, units);
    if ok && policy == 1 && repl == 0xFFFD && flags & U8X_MORE_INPUT == 0 {
        let lossy: Vec<u16> = String::from_utf8_lossy(src).encode_utf16().map(to_mem).collect();
        assert_eq!(e.out, lossy);
    }
    if ok && repl <= 0xFFFF {
        assert!(e.out.len() <= u8x_decode_utf16_bound(n));
    }
    let cap = rng.cap(e.out.len(), 2 * n + 4);
    let p = Place::random(rng, n, cap);
    if let Some((r, out)) = run(src, p, 2 * n, !ok, |s, d| unsafe { u8x_decode_utf16(s, n, d, p.cap, policy, repl, flags) }) {
        check_capped(&e, &r, &out, p, "decode_utf16");
    }
    if !ok {
        return;
    }
    let (r, out) = resume(rng, e.out.len(), 3, |from, cap| dec16(&src[from..], policy, repl, flags, cap));
    e.assert_eq(&r, Some(&out), "decode_utf16 resumed");
    let (r, out, cuts) = chunked(rng, n, |a, b, last| {
        dec16(&src[a..b], policy, repl, if last { flags } else { flags | U8X_MORE_INPUT }, 2 * (b - a))
    });
    e.assert_eq(&r, Some(&out), &format!("decode_utf16 chunked at {cuts:?}"));
}

/// UTF-16 to UTF-8 by hand: pairs, unpaired surrogates per policy, a final
/// high surrogate left for the next chunk with `more`.
fn encode16_ref(l: &[u16], policy: u32, repl: u32, more: bool) -> Expect<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    let push = |out: &mut Vec<u8>, c: u32| out.extend_from_slice(char::from_u32(c).unwrap().encode_utf8(&mut [0; 4]).as_bytes());
    while i < l.len() {
        let (u, next) = (l[i] as u32, l.get(i + 1).map(|&u| u as u32));
        match (u, next) {
            (0xD800..=0xDBFF, Some(lo @ 0xDC00..=0xDFFF)) => {
                push(&mut out, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
                i += 2;
                continue;
            }
            (0xD800..=0xDBFF, None) if more => return Expect::stop(INCOMPLETE, E_END, i, 1, out),
            (0xD800..=0xDFFF, _) if policy == 1 => push(&mut out, repl),
            (0xDC80..=0xDCFF, _) if policy == 2 => out.push(u as u8),
            (0xD800..=0xDFFF, _) => return Expect::stop(ILL_FORMED, E_SURROGATE, i, 1, out),
            _ => push(&mut out, u),
        }
        i += 1;
    }
    Expect::stop(OK, E_NONE, l.len(), 0, out)
}

fn from_utf16(rng: &mut Rng, units: &[u16], policy: u32, repl: u32, flags: u32) {
    let n = units.len();
    let ok = policy <= 2 && (policy != 1 || is_scalar(repl)) && order(flags).is_some();
    let more = flags & U8X_MORE_INPUT != 0;
    let from_mem = order(flags).unwrap_or(|u| u); // swapping is its own inverse
    let logical: Vec<u16> = units.iter().map(|&u| from_mem(u)).collect();
    let e = encode16_ref(&logical, if ok { policy } else { 0 }, repl, more);
    // The hand-written reference against std.
    let strict = encode16_ref(&logical, 0, 0, false);
    match String::from_utf16(&logical) {
        Ok(s) => assert_eq!((strict.status, &strict.out[..]), (OK, s.as_bytes())),
        Err(_) => {
            let index: usize = char::decode_utf16(logical.iter().copied())
                .take_while(Result::is_ok)
                .map(|c| c.unwrap().len_utf16())
                .sum();
            assert_eq!((strict.status, strict.read), (ILL_FORMED, index));
        }
    }
    assert_eq!(encode16_ref(&logical, 1, 0xFFFD, false).out, String::from_utf16_lossy(&logical).as_bytes());

    let cap = rng.cap(e.out.len(), 3 * n + 4);
    let p = Place::random(rng, 2 * n, cap);
    if let Some((r, out)) = run(units, p, 4 * n, !ok, |s, d| unsafe { u8x_encode_utf16(s, n, d, p.cap, policy, repl, flags) }) {
        check_capped(&e, &r, &out, p, "encode_utf16");
    }
    // u8x_validate_utf16: the strict result, nothing written.
    let p = Place { null_dst: true, cap: 0, ..Place::random(rng, 2 * n, 0) };
    let bad_flags = order(flags).is_none();
    if let Some((r, _)) = run::<u16, u8>(units, p, 0, bad_flags, |s, _| unsafe { u8x_validate_utf16(s, n, flags) }) {
        Expect { out: vec![], ..encode16_ref(&logical, 0, 0, more) }.assert_eq(&r, None, "validate_utf16");
    }
    if !ok {
        return;
    }
    if repl <= 0xFFFF {
        assert!(e.out.len() <= u8x_encode_utf16_bound(n));
    }
    let (r, out) = resume(rng, e.out.len(), 4, |from, cap| enc16(&units[from..], policy, repl, flags, cap));
    e.assert_eq(&r, Some(&out), "encode_utf16 resumed");
    let (r, out, cuts) = chunked(rng, n, |a, b, last| {
        enc16(&units[a..b], policy, repl, if last { flags } else { flags | U8X_MORE_INPUT }, 4 * (b - a))
    });
    e.assert_eq(&r, Some(&out), &format!("encode_utf16 chunked at {cuts:?}"));
}

fn escape_round_trip(src: &[u8], order_flags: u32) {
    let order_flags = if order_flags == 6 { 0 } else { order_flags };
    let (r, units) = dec16(src, 2, 0, order_flags, src.len());
    assert_eq!((r.status as u32, r.read), (OK, src.len()));
    let (r, bytes) = enc16(&units, 2, 0, order_flags, 3 * units.len());
    assert_eq!((r.status as u32, r.read), (OK, units.len()));
    assert_eq!(bytes, src, "escape round trip through UTF-16");
}

fn latin1(rng: &mut Rng, src: &[u8], ps: &[Piece], policy: u32, repl: u32, flags: u32) {
    let n = src.len();
    let ok = (policy == 0 || (policy == 1 && repl <= 0xFF)) && flags <= 1;
    let more = flags == U8X_MORE_INPUT;
    let mut out = Vec::new();
    let mut e = None;
    for p in ps {
        let stop = match *p {
            Piece::Char(c, _, _) if (c as u32) <= 0xFF => {
                out.push(c as u8);
                continue;
            }
            Piece::Cut(off, len) if more => Some((INCOMPLETE, E_END, off, len)),
            _ if policy == 1 => {
                out.push(repl as u8);
                continue;
            }
            Piece::Char(_, off, len) => Some((ILL_FORMED, E_NOT_REPRESENTABLE, off, len)),
            Piece::Bad(off, len) => Some((ILL_FORMED, kind(src, off, len), off, len)),
            Piece::Cut(off, len) => Some((ILL_FORMED, E_END, off, len)),
        };
        if let Some((status, error, off, len)) = stop {
            e = Some(Expect::stop(status, error, off, len, std::mem::take(&mut out)));
            break;
        }
    }
    let e = e.unwrap_or_else(|| Expect::stop(OK, E_NONE, n, 0, out));
    if let Ok(s) = std::str::from_utf8(src) {
        if ok && s.chars().all(|c| (c as u32) < 0x100) {
            assert_eq!(e.out, s.chars().map(|c| c as u8).collect::<Vec<_>>());
        }
    }
    let cap = rng.cap(e.out.len(), n + 4);
    let p = Place::random(rng, n, cap);
    if let Some((r, out)) = run(src, p, n, !ok, |s, d| unsafe { u8x_decode_latin1(s, n, d, p.cap, policy, repl, flags) }) {
        check_capped(&e, &r, &out, p, "decode_latin1");
    }
    if ok {
        let (r, out) = resume(rng, e.out.len(), 1, |from, cap| {
            let p = Place::plain(n - from, cap);
            run(&src[from..], p, n - from, false, |s, d| unsafe { u8x_decode_latin1(s, n - from, d, cap, policy, repl, flags) }).unwrap()
        });
        e.assert_eq(&r, Some(&out), "decode_latin1 resumed");
    }

    // Latin-1 to UTF-8: every byte is a character.
    let text: String = src.iter().map(|&b| b as char).collect();
    let e = Expect::stop(OK, E_NONE, n, 0, text.into_bytes());
    let cap = rng.cap(e.out.len(), 2 * n + 4);
    let p = Place::random(rng, n, cap);
    if let Some((r, out)) = run(src, p, 2 * n, false, |s, d| unsafe { u8x_encode_latin1(s, n, d, p.cap) }) {
        check_capped(&e, &r, &out, p, "encode_latin1");
    }
    let (r, out) = resume(rng, e.out.len(), 2, |from, cap| {
        let p = Place::plain(n - from, cap);
        run(&src[from..], p, 2 * (n - from), false, |s, d| unsafe { u8x_encode_latin1(s, n - from, d, cap) }).unwrap()
    });
    e.assert_eq(&r, Some(&out), "encode_latin1 resumed");
}

fn classify(rng: &mut Rng, src: &[u8], flags: u32) {
    let n = src.len();
    let flags = if flags <= 1 { flags } else { [0, 1, 2, 0x8000_0000][rng.upto(3)] };
    let ok = flags <= 1;
    let mut info = [0xA5A5_A5A5_A5A5_A5A5u64; 4];
    let at = match rng.next() % 8 { 0 => 1 + rng.upto(6), 1 => usize::MAX, _ => 0 };
    let info_ptr = match at {
        usize::MAX => std::ptr::null_mut(),
        _ => unsafe { info.as_mut_ptr().cast::<u8>().add(at) }.cast::<u8x_classification>(),
    };
    let place = Place { null_dst: true, cap: 0, ..Place::random(rng, n, 0) };
    let got = run::<u8, u8>(src, place, 0, !ok || at != 0, |s, _| unsafe { u8x_classify(s, n, flags, info_ptr) });
    let Some((r, _)) = got else {
        assert_eq!(info, [0xA5A5_A5A5_A5A5_A5A5u64; 4], "refused classify wrote info");
        return;
    };
    let e = decode_ref(src, &pieces(src), 0, 0, flags == U8X_MORE_INPUT);
    Expect { out: vec![], ..e.clone() }.assert_eq(&r, None, "classify");
    let prefix = std::str::from_utf8(&src[..r.read]).unwrap();
    let widest = prefix.chars().map(u32::from).max().unwrap_or(0);
    let width = [0x7F, 0xFF, 0xFFFF, u32::MAX].iter().position(|&m| widest <= m).unwrap() as u32;
    let got = unsafe { info_ptr.read() };
    assert_eq!((got.width as u32, got.code_points, got.utf16_units), (width, prefix.chars().count(), prefix.encode_utf16().count()));
    assert_eq!(info[3], 0xA5A5_A5A5_A5A5_A5A5, "classify wrote past info");
}

fn sizes(rng: &mut Rng, src: &[u8], units: &[u16], flags: u32) {
    unsafe {
        if let Ok(s) = std::str::from_utf8(src) {
            assert_eq!(u8x_count_utf16_valid(src.as_ptr(), src.len()), s.encode_utf16().count());
        }
        u8x_count_utf16_valid(src.as_ptr(), src.len()); // defined for any input
        assert_eq!(u8x_count_utf16_valid(null(), 1 + rng.upto(9)), U8X_BAD_SIZE);
        let order_ok = order(flags).is_some() && flags & U8X_MORE_INPUT == 0;
        let len = u8x_encoded_len_utf16_valid(units.as_ptr(), units.len(), flags);
        let logical: Vec<u16> = units.iter().map(|&u| order(flags).unwrap_or(|u| u)(u)).collect();
        match String::from_utf16(&logical) {
            _ if !order_ok => assert_eq!(len, U8X_BAD_SIZE),
            Ok(s) => assert_eq!(len, s.len()),
            Err(_) => {}
        }
        let bytes = vec![0u16; units.len() + 1];
        let odd = bytes.as_ptr().cast::<u8>().add(1).cast::<u16>();
        assert_eq!(u8x_encoded_len_utf16_valid(odd, rng.upto(units.len()), flags & 6), U8X_BAD_SIZE);
        assert_eq!(u8x_encoded_len_utf16_valid(null(), 1 + rng.upto(9), 0), U8X_BAD_SIZE);
    }
    for n in [src.len(), rng.next() as usize, usize::MAX / 3, usize::MAX / 3 + 1, usize::MAX / 2 + 1, usize::MAX] {
        assert_eq!(u8x_decode_utf16_bound(n), n);
        assert_eq!(u8x_decode_latin1_bound(n), n);
        assert_eq!(u8x_encode_utf16_bound(n), n.checked_mul(3).unwrap_or(U8X_BAD_SIZE));
        assert_eq!(u8x_encode_latin1_bound(n), n.checked_mul(2).unwrap_or(U8X_BAD_SIZE));
    }
}
