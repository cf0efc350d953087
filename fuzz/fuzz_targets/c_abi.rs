//! The C ABI for UTF-8 and UCS-4, called as C calls it (`u8x::ffi::u8x_*`
//! through raw pointers), against `std` and the reference logic in
//! `common`.
//!
//! Input: 8 control bytes, then the data. Byte 0 picks the policy (the five
//! policies and three invalid values), byte 1 the replacement (scalars and
//! 0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF), byte 2 the flags (0,
//! `U8X_MORE_INPUT`, and unknown bits); all eight seed the generator for
//! capacities, offsets and split points. The data is the UTF-8 input, and,
//! read four bytes at a time, the code points to encode (mostly scalars,
//! also surrogates, escapes and values above 0x10FFFF).
//!
//! Properties:
//! - the reference decoder agrees with `from_utf8` and `from_utf8_lossy`;
//! - `u8x_validate`, `u8x_count`, `u8x_decode_ucs4` (any capacity, NULL
//!   output with capacity 0) equal the reference for every policy, every
//!   replacement and flags value; invalid ones are `U8X_BAD_ARGUMENT`;
//! - every call made through `common::run` has its input and output at
//!   chosen offsets of one buffer: misaligned `uint32_t` pointers, NULL with
//!   a length, and overlapping input and output are refused with nothing
//!   written; otherwise nothing is written past `written`;
//! - `U8X_OUTPUT_FULL` resumption from `read` with small capacities, and
//!   chunked decoding with `U8X_MORE_INPUT` at random split points
//!   (carrying the unconsumed `error_len` bytes), equal one call;
//! - the size query (NULL, 0) equals what a big-enough call writes;
//! - `u8x_next_boundary` / `u8x_prev_boundary` split points decode
//!   piecewise to the whole; on valid text they are character boundaries;
//! - `u8x_encode` / `u8x_encoded_len` equal `char::encode_utf8`, strict and
//!   escape stop at the right index with the right error;
//! - bytes survive `U8X_ESCAPE` decoding then encoding unchanged;
//! - `u8x_count_valid`, the bounds, `u8x_mbstowcs` / `u8x_wcstombs` (with
//!   NULL, short, misaligned and overlapping destinations, errno), and the
//!   name functions.
#![no_main]

mod common;

use common::*;
use libfuzzer_sys::fuzz_target;
use std::ffi::CStr;
use std::ptr::{null, null_mut};
use u8x::ffi::*;

fuzz_target!(|data: &[u8]| {
    if data.len() < CONTROL {
        return;
    }
    let (ctl, src) = data.split_at(CONTROL);
    let mut rng = Rng::new(ctl);
    let policy = POLICIES[ctl[0] as usize % 8];
    let repl = REPLACEMENTS[ctl[1] as usize % 8];
    let flags = [0, U8X_MORE_INPUT, 2, 0x8000_0001][ctl[2] as usize % 4];
    let ps = pieces(src);

    oracle(src, &ps);
    decoding(&mut rng, src, &ps, policy, repl, flags);
    boundaries(&mut rng, src, &ps, policy, repl);
    let units = code_points(src);
    encoding(&mut rng, &units, policy, repl);
    escape_round_trip(src);
    posix(&mut rng, src, &units);
    sizes_and_names(&mut rng, src);
});

/// Decodes all of `src` through the C ABI (plain, separate buffers).
fn dec(src: &[u8], policy: u32, repl: u32, flags: u32, cap: usize) -> (u8x_result, Vec<u32>) {
    let p = Place::plain(src.len(), cap);
    run(src, p, src.len(), false, |s, d| unsafe { u8x_decode_ucs4(s, src.len(), d, cap, policy, repl, flags) })
        .unwrap()
}

fn enc(units: &[u32], policy: u32, repl: u32, cap: usize) -> (u8x_result, Vec<u8>) {
    let p = Place::plain(units.len() * 4, cap);
    run(units, p, units.len() * 4, false, |s, d| unsafe { u8x_encode(s, units.len(), d, cap, policy, repl) })
        .unwrap()
}

/// The reference itself against std.
fn oracle(src: &[u8], ps: &[Piece]) {
    let lossy: Vec<u32> = String::from_utf8_lossy(src).chars().map(u32::from).collect();
    assert_eq!(decode_ref(src, ps, 1, 0xFFFD, false).out, lossy);
    let strict = decode_ref(src, ps, 0, 0, false);
    match std::str::from_utf8(src) {
        Ok(_) => assert_eq!(strict.status, OK),
        Err(e) => assert_eq!((strict.read, Some(strict.error_len)), (e.valid_up_to(), e.error_len().or(Some(src.len() - e.valid_up_to())))),
    }
}

/// A result for a call whose output was cut short at `cap`: `U8X_OUTPUT_FULL`
/// with a prefix of the output, or, with room for it all, the whole result.
fn check_capped<T: PartialEq + std::fmt::Debug + Copy>(e: &Expect<T>, r: &u8x_result, out: &[T], p: Place, what: &str) {
    if p.null_dst {
        e.assert_eq(r, None, what);
    } else if p.cap >= e.out.len() {
        e.assert_eq(r, Some(out), what);
    } else {
        assert_eq!(r.status as u32, OUTPUT_FULL, "{what}: cap {} < {}", p.cap, e.out.len());
        assert_eq!(out, &e.out[..r.written], "{what}: capped output");
    }
}

fn decoding(rng: &mut Rng, src: &[u8], ps: &[Piece], policy: u32, repl: u32, flags: u32) {
    let n = src.len();
    let more = flags == U8X_MORE_INPUT;
    let flags_ok = flags & !U8X_MORE_INPUT == 0;
    let policy_ok = policy <= 4;
    let ok = policy_ok && flags_ok && (policy != 1 || is_scalar(repl));
    let e = decode_ref(src, ps, if policy_ok { policy } else { 0 }, repl, more);

    // u8x_validate: the strict result, nothing written.
    let p = Place { null_dst: true, cap: 0, ..Place::random(rng, n, 0) };
    if let Some((r, _)) = run::<u8, u8>(src, p, 0, !flags_ok, |s, _| unsafe { u8x_validate(s, n, flags) }) {
        let v = decode_ref(src, ps, 0, 0, more);
        Expect { out: vec![], ..v }.assert_eq(&r, None, "validate");
    }
    // u8x_count: the decode result without output; the replacement is not used.
    if let Some((r, _)) = run::<u8, u8>(src, p, 0, !(policy_ok && flags_ok), |s, _| unsafe { u8x_count(s, n, policy, flags) }) {
        e.assert_eq(&r, None, "count");
    }
    // One call, anywhere in the buffer, any capacity.
    let cap = rng.cap(e.out.len(), n + 4);
    let p = Place::random(rng, n, cap);
    let got = run(src, p, n, !ok, |s, d| unsafe { u8x_decode_ucs4(s, n, d, p.cap, policy, repl, flags) });
    if let Some((r, out)) = got {
        check_capped(&e, &r, &out, p, "decode_ucs4");
    }
    if !ok {
        return;
    }
    // U8X_OUTPUT_FULL resumption.
    let (r, out) = resume(rng, e.out.len(), 3, |from, cap| dec(&src[from..], policy, repl, flags, cap));
    e.assert_eq(&r, Some(&out), "decode_ucs4 resumed");
    // Chunks with U8X_MORE_INPUT, carrying the unconsumed bytes over.
    let (r, out, cuts) = chunked(rng, n, |a, b, last| {
        dec(&src[a..b], policy, repl, if last { flags } else { U8X_MORE_INPUT }, b - a)
    });
    e.assert_eq(&r, Some(&out), &format!("chunked at {cuts:?}"));
}

fn boundaries(rng: &mut Rng, src: &[u8], ps: &[Piece], policy: u32, repl: u32) {
    let n = src.len();
    let (policy, repl) = if policy <= 4 && is_scalar(repl) { (policy, repl) } else { (1, 0xFFFD) };
    let whole = decode_ref(src, ps, policy, repl, false);
    let valid = std::str::from_utf8(src).ok();
    for _ in 0..3 {
        let pos = rng.upto(n);
        let next = unsafe { u8x_next_boundary(src.as_ptr(), n, pos) };
        let prev = unsafe { u8x_prev_boundary(src.as_ptr(), n, pos) };
        assert!(pos <= next && next <= n && prev <= pos, "{prev} {pos} {next}");
        if let Some(s) = valid {
            assert_eq!(next, (pos..=n).find(|&i| s.is_char_boundary(i)).unwrap());
            assert_eq!(prev, (0..=pos).rev().find(|&i| s.is_char_boundary(i)).unwrap());
        }
        for cut in [next, prev] {
            let (a, mut out) = dec(&src[..cut], policy, repl, 0, cut);
            let (b, rest) = dec(&src[cut..], policy, repl, 0, n - cut);
            let (sa, sb) = (a.status as u32, b.status as u32);
            if whole.status == OK {
                assert!(sa == OK && sb == OK, "split at {cut}");
                out.extend(rest);
            } else if whole.read < cut {
                assert_eq!((sa, a.read), (ILL_FORMED, whole.read), "split at {cut}");
            } else {
                assert_eq!((sa, sb, b.read + cut), (OK, ILL_FORMED, whole.read), "split at {cut}");
                out.extend(rest);
            }
            assert_eq!(out, whole.out, "split at {cut}");
        }
    }
    let beyond = n + 1 + rng.upto(3);
    unsafe {
        assert_eq!(u8x_next_boundary(src.as_ptr(), n, beyond), U8X_BAD_SIZE);
        assert_eq!(u8x_prev_boundary(src.as_ptr(), n, beyond), U8X_BAD_SIZE);
        assert_eq!(u8x_next_boundary(null(), 0, 0), 0);
        assert_eq!(u8x_prev_boundary(null(), 1, 0), U8X_BAD_SIZE);
    }
}

/// The data read as code points: mostly scalars, some surrogates (often in
/// the escape range DC80..DCFF), some values above 0x10FFFF.
fn code_points(src: &[u8]) -> Vec<u32> {
    let cp = |b: &[u8]| match b[0] & 3 {
        0 => u32::from_le_bytes([b[1], b[2], b[3], 0]) % 0x11_0000,
        1 if b[2] & 1 == 1 => 0xDC00 | b[1] as u32,
        1 => 0xD800 + (((b[2] as u32 >> 1) & 7) << 8) + b[1] as u32,
        2 => u32::from_le_bytes(b.try_into().unwrap()),
        _ => b[1] as u32 | ((b[2] as u32 & 7) << 8),
    };
    src.chunks_exact(4).map(cp).collect()
}

fn encode_ref(units: &[u32], policy: u32, repl: u32) -> Expect<u8> {
    let mut out = Vec::new();
    for (i, &u) in units.iter().enumerate() {
        match (char::from_u32(u), policy) {
            (Some(c), _) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            (None, 1) => out.extend_from_slice(char::from_u32(repl).unwrap().encode_utf8(&mut [0; 4]).as_bytes()),
            (None, 2) if (0xDC80..=0xDCFF).contains(&u) => out.push(u as u8),
            (None, _) => {
                let kind = if (0xD800..=0xDFFF).contains(&u) { E_SURROGATE } else { E_ABOVE_MAX };
                return Expect::stop(ILL_FORMED, kind, i, 1, out);
            }
        }
    }
    Expect::stop(OK, E_NONE, units.len(), 0, out)
}

fn encoding(rng: &mut Rng, units: &[u32], policy: u32, repl: u32) {
    let n = units.len();
    let ok = policy <= 2 && (policy != 1 || is_scalar(repl));
    let e = encode_ref(units, if ok { policy } else { 0 }, repl);
    if ok && units.iter().all(|&u| is_scalar(u)) {
        let s: String = units.iter().map(|&u| char::from_u32(u).unwrap()).collect();
        assert_eq!(e.out, s.as_bytes());
    }
    let cap = rng.cap(e.out.len(), 4 * n + 4);
    let p = Place::random(rng, n * 4, cap);
    if let Some((r, out)) = run(units, p, 4 * n, !ok, |s, d| unsafe { u8x_encode(s, n, d, p.cap, policy, repl) }) {
        check_capped(&e, &r, &out, p, "encode");
    }
    let p = Place { null_dst: true, cap: 0, ..Place::random(rng, n * 4, 0) };
    if let Some((r, _)) = run::<u32, u8>(units, p, 0, !ok, |s, _| unsafe { u8x_encoded_len(s, n, policy, repl) }) {
        e.assert_eq(&r, None, "encoded_len");
    }
    if ok {
        let (r, out) = resume(rng, e.out.len(), 4, |from, cap| enc(&units[from..], policy, repl, cap));
        e.assert_eq(&r, Some(&out), "encode resumed");
    }
}

fn escape_round_trip(src: &[u8]) {
    let (r, cps) = dec(src, 2, 0, 0, src.len());
    assert_eq!((r.status as u32, r.read), (OK, src.len()));
    let (r, bytes) = enc(&cps, 2, 0, cps.len() * 4);
    assert_eq!((r.status as u32, r.read), (OK, cps.len()));
    assert_eq!(bytes, src, "escape round trip");
}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap()
}
const EINVAL: i32 = 22;
const EILSEQ: i32 = 84;
const CANARY: i32 = 0x5A5A_5A5A;

fn posix(rng: &mut Rng, src: &[u8], units: &[u32]) {
    // mbstowcs: the string up to the first NUL, in a 4-aligned buffer.
    let len = src.iter().position(|&b| b == 0).unwrap_or(src.len());
    let mut buf = vec![0u32; len / 4 + 1];
    let s = buf.as_mut_ptr().cast::<u8>();
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), s, len) };
    let e = decode_ref(&src[..len], &pieces(&src[..len]), 0, 0, false);
    let k = e.out.len();
    let r = unsafe { u8x_mbstowcs(null_mut(), s.cast(), rng.next() as usize) };
    assert_eq!(r, if e.status == OK { k } else { usize::MAX }, "mbstowcs size");
    let n = rng.upto(k + 2);
    let mut dest = vec![CANARY; n + 4];
    let r = unsafe { u8x_mbstowcs(dest.as_mut_ptr(), s.cast(), n) };
    let w = if e.status == OK || k >= n { k.min(n) } else { k };
    let ends = if e.status == OK || k >= n { assert_eq!(r, w, "mbstowcs"); w < n } else {
        assert_eq!((r, errno()), (usize::MAX, EILSEQ), "mbstowcs error");
        false
    };
    assert!(dest[..w].iter().zip(&e.out).all(|(&a, &b)| a as u32 == b), "mbstowcs output");
    assert!(!ends || dest[w] == 0, "mbstowcs terminator");
    assert!(dest[w + ends as usize..].iter().all(|&c| c == CANARY), "mbstowcs wrote past");
    let mut raw = vec![CANARY; n + 2];
    let r = unsafe { u8x_mbstowcs(raw.as_mut_ptr().cast::<u8>().add(1 + rng.upto(2)).cast(), s.cast(), n) };
    assert_eq!((r, errno(), raw.iter().all(|&c| c == CANARY)), (usize::MAX, EINVAL, true), "misaligned dest");
    if len > 0 && n > 0 {
        let r = unsafe { u8x_mbstowcs(s.cast(), s.cast(), n) };
        assert_eq!((r, errno()), (usize::MAX, EINVAL), "overlapping dest");
        assert!(unsafe { std::slice::from_raw_parts(s, len) } == &src[..len]);
    }
    assert_eq!(unsafe { (u8x_mbstowcs(null_mut(), null(), 0), errno()) }, (usize::MAX, EINVAL));

    // wcstombs: the code points up to the first 0; a character that does
    // not fit ends the output, an invalid one before that is EILSEQ.
    let wlen = units.iter().position(|&u| u == 0).unwrap_or(units.len());
    let mut wide: Vec<i32> = units[..wlen].iter().map(|&u| u as i32).collect();
    wide.push(0);
    let e = encode_ref(&units[..wlen], 0, 0);
    let r = unsafe { u8x_wcstombs(null_mut(), wide.as_ptr(), rng.next() as usize) };
    assert_eq!(r, if e.status == OK { e.out.len() } else { usize::MAX }, "wcstombs size");
    let n = rng.upto(e.out.len() + 5);
    let mut fits = e.out.clone();
    let cut = (0..=fits.len()).rev().find(|&i| i <= n && (i == fits.len() || fits[i] & 0xC0 != 0x80)).unwrap();
    fits.truncate(cut);
    let failed = e.status != OK && cut == e.out.len() && cut < n;
    let mut dest = vec![0xA5u8; n + 4];
    let r = unsafe { u8x_wcstombs(dest.as_mut_ptr().cast(), wide.as_ptr(), n) };
    if failed {
        assert_eq!((r, errno()), (usize::MAX, EILSEQ), "wcstombs error");
    } else {
        assert_eq!(r, cut, "wcstombs");
    }
    let ends = !failed && cut == e.out.len() && e.status == OK && cut < n;
    assert_eq!(&dest[..cut], &fits[..], "wcstombs output");
    assert!(!ends || dest[cut] == 0, "wcstombs terminator");
    assert!(dest[cut + ends as usize..].iter().all(|&b| b == 0xA5), "wcstombs wrote past");
    let mut raw = vec![0u8; wide.len() * 4 + 4];
    let at = 1 + rng.upto(2);
    unsafe { std::ptr::copy_nonoverlapping(wide.as_ptr().cast::<u8>(), raw.as_mut_ptr().add(at), wide.len() * 4) };
    let r = unsafe { u8x_wcstombs(dest.as_mut_ptr().cast(), raw.as_ptr().add(at).cast(), n) };
    assert_eq!((r, errno()), (usize::MAX, EINVAL), "misaligned src");
    if wlen > 0 && n > 0 {
        let r = unsafe { u8x_wcstombs(wide.as_mut_ptr().cast(), wide.as_ptr(), n) };
        assert_eq!((r, errno()), (usize::MAX, EINVAL), "overlapping dest");
    }
}

fn sizes_and_names(rng: &mut Rng, src: &[u8]) {
    let lead = src.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    unsafe {
        assert_eq!(u8x_count_valid(src.as_ptr(), src.len()), lead);
        assert_eq!(u8x_count_valid(null(), 0), 0);
        assert_eq!(u8x_count_valid(null(), 1 + rng.upto(9)), U8X_BAD_SIZE);
    }
    for n in [src.len(), rng.next() as usize, usize::MAX / 4, usize::MAX / 4 + 1, usize::MAX] {
        assert_eq!(u8x_decode_ucs4_bound(n), n);
        assert_eq!(u8x_encode_bound(n), n.checked_mul(4).unwrap_or(U8X_BAD_SIZE));
    }
    let name = |p: *const std::ffi::c_char| unsafe { CStr::from_ptr(p) }.to_str().unwrap();
    let s = rng.upto(8) as i32 - 1;
    assert_eq!(name(u8x_status_name(s)) == "unknown status", !(0..=5).contains(&s), "status {s}");
    let k = rng.upto(10) as i32 - 1;
    assert_eq!(name(u8x_error_name(k)) == "unknown error", !(0..=8).contains(&k), "error {k}");
    assert_eq!(name(u8x_version()).split('.').count(), 3);
    assert!(["scalar", "sse42", "avx2", "avx512"].contains(&name(u8x_tier_name())));
}
