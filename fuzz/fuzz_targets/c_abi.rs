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
//!   name functions;
//! - the restartable drop-ins over `u8x_mbstate_t`, as the header documents
//!   them, against a reference from `str::from_utf8` (`valid_up_to`,
//!   `error_len`) and `char::encode_utf8`: `u8x_mbrtowc` fed the data in
//!   pieces of 0, 1, a few or all the bytes (each its own allocation),
//!   through one state, gives the characters, byte counts, 0 for NUL,
//!   `(size_t)-2` with the bytes carried in the state, `(size_t)-1` and
//!   EILSEQ at the byte that rules a character out (then going on from
//!   there), and `u8x_mbsinit` is true exactly between characters;
//!   `u8x_mbrlen` and a NULL state agree; a NULL `s` ends the string;
//!   `u8x_mbsrtowcs` (from a state holding a character's first bytes too)
//!   and `u8x_wcsrtombs` (values that are not scalars put in) with NULL
//!   `dst`, any `len` and canaries past it, where `*src` is left, the
//!   terminator, errno and the state; `u8x_wcrtomb` of every value; corrupt
//!   states, a state holding decode bytes when encoding, misaligned
//!   pointers: EINVAL.
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
    restartable(&mut rng, src, &units);
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

// ------------------------------------------------ the restartable drop-ins

extern "C" {
    fn __errno_location() -> *mut i32;
}

fn set_errno(value: i32) {
    unsafe { *__errno_location() = value };
}

/// `(size_t)-1` and `(size_t)-2`.
const FAILED: usize = usize::MAX;
const INCOMPLETE_CHAR: usize = usize::MAX - 1;
const INITIAL: u8x_mbstate_t = u8x_mbstate_t { count: 0, bytes: [0; 3] };
/// Values that are not Unicode scalar values, as `wchar_t`: surrogates,
/// above 0x10FFFF, negative.
const NOT_SCALARS: [i32; 8] = [0xD800, 0xDBFF, 0xDC80, 0xDFFF, 0x11_0000, 0x7FFF_FFFF, -1, i32::MIN];

/// What a restartable decoder meets in a byte string, found with
/// `std::str::from_utf8`: a character (offset, length, value), or the first
/// ill-formed sequence (offset, and the byte that rules out every character
/// beginning there; `None` when the input ends inside one).
#[derive(Clone, Copy, Debug)]
enum Item {
    Char(usize, usize, u32),
    Bad(usize, Option<usize>),
}

impl Item {
    fn start(self) -> usize {
        match self {
            Item::Char(s, ..) | Item::Bad(s, _) => s,
        }
    }
}

/// The characters of `t` up to its first ill-formed sequence, and that
/// sequence; offsets plus `at`.
fn items(t: &[u8], at: usize) -> Vec<Item> {
    let (valid, bad) = match std::str::from_utf8(t) {
        Ok(s) => (s, None),
        Err(e) => {
            let v = e.valid_up_to();
            // A byte that can begin a character (C2..F4) is ruled out by the
            // byte after its maximal subpart (`error_len`: the longest prefix
            // of a character); any other byte by itself.
            let ruling = e.error_len().map(|k| if (0xC2..=0xF4).contains(&t[v]) { v + k } else { v });
            (std::str::from_utf8(&t[..v]).unwrap(), Some(Item::Bad(at + v, ruling.map(|r| at + r))))
        }
    };
    valid.char_indices().map(|(i, c)| Item::Char(at + i, c.len_utf8(), c as u32)).chain(bad).collect()
}

/// A state holding `bytes` pending, as the header describes its fields.
fn holding(bytes: &[u8]) -> u8x_mbstate_t {
    let mut st = INITIAL;
    st.count = bytes.len() as u8;
    st.bytes[..bytes.len()].copy_from_slice(bytes);
    st
}

fn mbsinit(st: &u8x_mbstate_t) -> bool {
    unsafe { u8x_mbsinit(st) != 0 }
}

/// `u8x_mbrtowc`, `u8x_mbrlen`, `u8x_mbsinit`, `u8x_mbsrtowcs`,
/// `u8x_wcsrtombs` and `u8x_wcrtomb` against `std`, as the header documents
/// them. Returns nothing; panics on a difference.
fn restartable(rng: &mut Rng, src: &[u8], units: &[u32]) {
    // Piece by piece, the first 4 KiB (each piece is its own allocation,
    // so reading past it is caught by ASan); the string functions, 16 KiB.
    let decoded = feed_pieces(rng, &src[..src.len().min(1 << 12)]);
    corrupt_states(rng);
    mbsrtowcs(rng, &src[..src.len().min(1 << 14)]);
    wcsrtombs(rng, &decoded);
    wcrtomb(rng, units.iter().take(1024).chain(decoded.iter().take(1024)));
    assert!(unsafe { u8x_mbsinit(null()) } != 0, "mbsinit(NULL)");
}

/// Feeds `src` to `u8x_mbrtowc` in pieces of random sizes (0, 1, a few,
/// the rest) through one state, `u8x_mbrlen` on a copy of the state
/// alongside, and after an `EILSEQ` goes on from the byte that caused it (a
/// fresh character, or the next byte when it was the first). Returns the
/// code points decoded.
fn feed_pieces(rng: &mut Rng, src: &[u8]) -> Vec<u32> {
    let mut st = INITIAL;
    let mut todo = items(src, 0);
    let (mut next, mut p, mut decoded) = (0, 0, Vec::new());
    while let Some(&item) = todo.get(next) {
        if matches!(item, Item::Bad(_, None)) && p == src.len() {
            break;
        }
        let rest = src.len() - p;
        let m = match rng.next() % 16 {
            0 => 0,
            1..=6 => 1.min(rest),
            7..=10 => rng.upto(4).min(rest),
            11 | 12 => rest,
            _ => rng.upto(rest),
        };
        let piece: Box<[u8]> = src[p..p + m].into();
        let s = piece.as_ptr().cast();
        let start = item.start();
        // Formatted only when an assertion fails.
        let (at, upto) = (p, p + m);
        let what = || format!("{:02X?} fed {at}..{upto} after {:02X?}", &src[start..(start + 4).min(src.len())], &src[start..at]);
        assert!(st == holding(&src[start..p]), "{}: the state before", what());
        // A NULL state is a fresh one for the call: the same answer from
        // the initial state, and nothing kept.
        let fresh = (p == start && rng.next() % 4 == 0).then(|| {
            let mut wc = CANARY;
            set_errno(0);
            let r = unsafe { u8x_mbrtowc(&mut wc, s, m, null_mut()) };
            let l = unsafe { u8x_mbrlen(s, m, null_mut()) };
            (r, wc, errno(), l)
        });
        let mut copy = st;
        set_errno(0);
        let len = unsafe { u8x_mbrlen(s, m, &mut copy) };
        let len_errno = errno();
        let mut wc = CANARY;
        set_errno(0);
        let r = unsafe { u8x_mbrtowc(&mut wc, s, m, &mut st) };
        let e = errno();
        assert_eq!((len, copy), (r, st), "{}: mbrlen and mbrtowc differ", what());
        if r == FAILED {
            assert_eq!(len_errno, e, "{}: mbrlen's errno", what());
        }
        if let Some((fr, fwc, fe, fl)) = fresh {
            assert_eq!((fr, fl), (r, r), "{}: NULL state", what());
            assert!(r != FAILED || fe == EILSEQ, "{}: NULL state errno", what());
            assert!(r >= INCOMPLETE_CHAR || fwc == wc, "{}: NULL state character", what());
        }
        let init = mbsinit(&st);
        match item {
            Item::Char(c, l, cp) if p + m >= c + l => {
                assert_eq!(r, if cp == 0 { 0 } else { c + l - p }, "{}: bytes finishing U+{cp:04X}", what());
                assert_eq!(wc as u32, cp, "{}: the character", what());
                assert!(st == INITIAL && init, "{}: initial after a character", what());
                decoded.push(cp);
                p = c + l;
                next += 1;
            }
            Item::Bad(b, Some(ruling)) if p + m > ruling => {
                assert_eq!((r, e), (FAILED, EILSEQ), "{}: EILSEQ at byte {ruling}", what());
                assert!(wc == CANARY, "{}: nothing stored on EILSEQ", what());
                assert!(st == INITIAL && init, "{}: initial after EILSEQ", what());
                p = if ruling > b { ruling } else { ruling + 1 };
                todo = items(&src[p..], p);
                next = 0;
            }
            _ => {
                assert_eq!(r, INCOMPLETE_CHAR, "{}: (size_t)-2", what());
                assert!(wc == CANARY, "{}: nothing stored on (size_t)-2", what());
                p += m;
                assert!(st == holding(&src[start..p]), "{}: the bytes carried in the state", what());
                assert_eq!(init, p == start, "{}: mbsinit between characters only", what());
            }
        }
    }
    // A NULL `s`: the end of the string. 0 between characters; EILSEQ with
    // bytes pending (the input ends inside a sequence), the state reset.
    let pending = st.count != 0;
    assert_eq!(mbsinit(&st), !pending);
    let mut wc = CANARY;
    set_errno(0);
    let r = unsafe { u8x_mbrtowc(&mut wc, null(), rng.next() as usize, &mut st) };
    if pending {
        assert_eq!((r, errno()), (FAILED, EILSEQ), "NULL s with bytes pending");
    } else {
        assert_eq!(r, 0, "NULL s between characters");
    }
    assert!(st == INITIAL && mbsinit(&st) && wc == CANARY, "NULL s: initial state, nothing stored");
    decoded
}

/// States the header calls corrupt are refused by every function with
/// EINVAL, nothing changed; `u8x_mbsinit` says 0 for them.
fn corrupt_states(rng: &mut Rng) {
    let corrupt = [
        u8x_mbstate_t { count: 4 + rng.upto(251) as u8, bytes: [0; 3] },
        u8x_mbstate_t { count: 0, bytes: [0xE2, 0, 0] },
        u8x_mbstate_t { count: 1, bytes: [0xE2, 0x82, 0] },
        holding(&[0x80]),
        holding(&[0xC0]),
        holding(&[0xF5 + rng.upto(10) as u8]),
        holding(&[0xE0, 0x80]),
        holding(&[0xED, 0xA0]),
    ];
    let st0 = corrupt[rng.upto(corrupt.len() - 1)];
    let mut st = st0;
    assert!(!mbsinit(&st), "mbsinit of {st0:?}");
    let string = b"\xC3\xA9a\0";
    let text = [0xE9, 0x61, 0];
    let mut wc = CANARY;
    let mut bytes = [0xA5u8; 4];
    let mut wide = [CANARY; 4];
    let mut sp: *const std::ffi::c_char = string.as_ptr().cast();
    let mut wp: *const i32 = text.as_ptr();
    for name in ["mbrtowc", "mbrlen", "wcrtomb", "wcrtomb(NULL)", "mbsrtowcs", "mbsrtowcs(NULL)", "wcsrtombs"] {
        let ps = &mut st as *mut u8x_mbstate_t;
        set_errno(0);
        let r = unsafe {
            match name {
                "mbrtowc" => u8x_mbrtowc(&mut wc, sp, 3, ps),
                "mbrlen" => u8x_mbrlen(sp, 3, ps),
                "wcrtomb" => u8x_wcrtomb(bytes.as_mut_ptr().cast(), 0x41, ps),
                "wcrtomb(NULL)" => u8x_wcrtomb(null_mut(), 0x41, ps),
                "mbsrtowcs" => u8x_mbsrtowcs(wide.as_mut_ptr(), &mut sp, 4, ps),
                "mbsrtowcs(NULL)" => u8x_mbsrtowcs(null_mut(), &mut sp, 4, ps),
                _ => u8x_wcsrtombs(bytes.as_mut_ptr().cast(), &mut wp, 4, ps),
            }
        };
        assert_eq!((r, errno()), (FAILED, EINVAL), "{name} of {st0:?}");
        assert!(st == st0, "{name} changed {st0:?}");
    }
    assert!(wc == CANARY && bytes == [0xA5; 4] && wide == [CANARY; 4], "written with a corrupt state");
    assert!(sp == string.as_ptr().cast() && wp == text.as_ptr(), "*src moved with a corrupt state");
    // A misaligned `pwc`: EINVAL, nothing changed.
    let mut st = INITIAL;
    let mut raw = [0xA5u8; 8];
    let at = 1 + rng.upto(2);
    set_errno(0);
    let r = unsafe { u8x_mbrtowc(raw.as_mut_ptr().add(at).cast(), b"a".as_ptr().cast(), 1, &mut st) };
    assert_eq!((r, errno(), raw, st), (FAILED, EINVAL, [0xA5; 8], INITIAL), "misaligned pwc");
}

/// `u8x_mbsrtowcs` on `src` up to its first NUL (its own allocation, with
/// the terminator), from its start or from inside a character whose first
/// bytes an `u8x_mbrtowc` put in the state; NULL `dst` and any `len`.
fn mbsrtowcs(rng: &mut Rng, src: &[u8]) {
    let z = src.iter().position(|&b| b == 0).unwrap_or(src.len());
    let t = &src[..z];
    let string: Box<[u8]> = t.iter().copied().chain([0]).collect();
    let base = string.as_ptr();
    // Where to start, and how many bytes of the first character are already
    // in the state: a character of 2 bytes or more, or the valid prefix of
    // the ill-formed sequence (or of what the terminator cuts).
    let whole = items(t, 0);
    let (o, h) = match whole[rng.upto(whole.len()).min(whole.len().saturating_sub(1))..].first() {
        Some(&Item::Char(c, l, _)) if l > 1 && rng.next() % 2 == 0 => (c, 1 + rng.upto(l - 2)),
        Some(&Item::Bad(b, ruling)) if (0xC2..=0xF4).contains(&t[b]) && rng.next() % 2 == 0 => {
            (b, 1 + rng.upto(ruling.unwrap_or(z) - b - 1))
        }
        _ => (0, 0),
    };
    let mut st0 = INITIAL;
    if h > 0 {
        let piece: Box<[u8]> = t[o..o + h].into();
        let r = unsafe { u8x_mbrtowc(null_mut(), piece.as_ptr().cast(), h, &mut st0) };
        assert_eq!((r, st0), (INCOMPLETE_CHAR, holding(&t[o..o + h])), "mbsrtowcs: the state's bytes");
    }
    let want = items(&t[o..], o);
    let chars: Vec<(u32, usize)> = want.iter().filter_map(|&i| match i {
        Item::Char(c, l, cp) => Some((cp, c + l)),
        Item::Bad(..) => None,
    }).collect();
    let bad = match want.last() {
        Some(&Item::Bad(b, _)) => Some(b),
        _ => None,
    };
    let k = chars.len();
    let start: *const std::ffi::c_char = unsafe { base.add(o + h) }.cast();
    let what = format!("mbsrtowcs from {o}+{h} of {:02X?}", &t[o..z.min(o + 12)]);
    // A NULL state: a fresh one, when none is needed.
    let null_ps = h == 0 && rng.next() % 4 == 0;
    let mut st = st0;
    let ps = if null_ps { null_mut() } else { &mut st as *mut _ };
    // Only counting: neither `*src` nor `*ps` changes.
    let mut sp = start;
    set_errno(0);
    let r = unsafe { u8x_mbsrtowcs(null_mut(), &mut sp, rng.next() as usize, ps) };
    match bad {
        Some(_) => assert_eq!((r, errno()), (FAILED, EILSEQ), "{what}: NULL dst"),
        None => assert_eq!(r, k, "{what}: NULL dst counts"),
    }
    assert!(sp == start && st == st0, "{what}: NULL dst changed *src or *ps");
    let len = match rng.next() % 6 {
        0 => 0,
        1 => 1 + rng.upto(2),
        2 => k,
        3 => k + 1,
        _ => rng.upto(k + 3),
    };
    let mut dst = vec![CANARY; len + 4];
    set_errno(0);
    let r = unsafe { u8x_mbsrtowcs(dst.as_mut_ptr(), &mut sp, len, ps) };
    let e = errno();
    let what = format!("{what}, len {len} ({k} characters, bad {bad:?})");
    let stored = |n: usize| dst[..n].iter().zip(&chars).all(|(&w, &(c, _))| w as u32 == c);
    let untouched = |from: usize| dst[from..].iter().all(|&w| w == CANARY);
    if len == 0 {
        assert!(r == 0 && sp == start && st == st0 && untouched(0), "{what}: len 0 changes nothing");
        return;
    }
    assert!(st == INITIAL, "{what}: the state is initial afterwards");
    if len <= k {
        assert_eq!(r, len, "{what}: len characters");
        assert!(stored(len) && untouched(len), "{what}: output");
        assert_eq!(sp, unsafe { base.add(chars[len - 1].1) }.cast(), "{what}: *src after the last one");
    } else if let Some(b) = bad {
        assert_eq!((r, e), (FAILED, EILSEQ), "{what}: EILSEQ");
        assert!(stored(k) && untouched(k), "{what}: output before the error");
        // The start of the ill-formed sequence; when it began in the state,
        // no character was converted and `*src` is where it was.
        assert_eq!(sp, unsafe { base.add(b.max(o + h)) }.cast(), "{what}: *src at the error");
    } else {
        assert_eq!(r, k, "{what}: every character");
        assert!(stored(k) && dst[k] == 0 && untouched(k + 1), "{what}: output and L'\\0'");
        assert!(sp.is_null(), "{what}: *src NULL after the terminator");
    }
}

/// `u8x_wcsrtombs` on the code points `u8x_mbrtowc` decoded, up to the
/// first 0, with values that are not scalars put in now and then.
fn wcsrtombs(rng: &mut Rng, decoded: &[u32]) {
    let mut wide: Vec<i32> = decoded.iter().take_while(|&&c| c != 0).map(|&c| c as i32).collect();
    if rng.next() % 2 == 0 {
        for _ in 0..1 + rng.upto(2) {
            let at = rng.upto(wide.len());
            wide.insert(at, NOT_SCALARS[rng.upto(NOT_SCALARS.len() - 1)]);
        }
    }
    let n = wide.len();
    wide.push(0);
    let base = wide.as_ptr();
    // The reference: each character's UTF-8 from std, and the first value
    // that has none.
    let mut utf8 = Vec::new();
    let mut ends = Vec::new();
    let invalid = wide[..n].iter().position(|&w| match char::from_u32(w as u32) {
        Some(c) => {
            utf8.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            ends.push(utf8.len());
            false
        }
        None => true,
    });
    let what = format!("wcsrtombs of {:X?}", &wide[..n.min(8)]);
    let mut st = INITIAL;
    let ps = if rng.next() % 2 == 0 { null_mut() } else { &mut st as *mut _ };
    let mut wp = base;
    set_errno(0);
    let r = unsafe { u8x_wcsrtombs(null_mut(), &mut wp, rng.next() as usize, ps) };
    match invalid {
        Some(_) => assert_eq!((r, errno()), (FAILED, EILSEQ), "{what}: NULL dst"),
        None => assert_eq!(r, utf8.len(), "{what}: NULL dst size"),
    }
    assert!(wp == base, "{what}: NULL dst moved *src");
    let total = utf8.len();
    let len = match rng.next() % 6 {
        0 => 0,
        1 => rng.upto(4),
        2 => total,
        3 => total + 1,
        _ => rng.upto(total + 4),
    };
    // What the call must do: store the characters that fit in `len` bytes
    // (`ends` stops at the invalid value), then, with room left, fail at
    // the invalid value or store the terminator; `*src` is where it stopped.
    let mut fit = 0;
    while fit < ends.len() && ends[fit] <= len {
        fit += 1;
    }
    let bytes = if fit == 0 { 0 } else { ends[fit - 1] };
    let mut dst = vec![0xA5u8; len + 4];
    set_errno(0);
    let r = unsafe { u8x_wcsrtombs(dst.as_mut_ptr().cast(), &mut wp, len, ps) };
    let e = errno();
    let what = format!("{what}: len {len} ({total} bytes, invalid {invalid:?}, {fit} fit)");
    assert!(st == INITIAL, "{what}: the state changed");
    assert!(dst[..bytes] == utf8[..bytes], "{what}: output");
    match invalid {
        Some(j) if fit == j && bytes < len => {
            assert_eq!((r, e), (FAILED, EILSEQ), "{what}: EILSEQ");
            assert!(dst[bytes..].iter().all(|&b| b == 0xA5), "{what}: wrote past");
            assert_eq!(wp, unsafe { base.add(j) }, "{what}: *src at the invalid value");
        }
        None if fit == n && bytes < len => {
            assert_eq!(r, total, "{what}: all");
            assert!(dst[total] == 0 && dst[total + 1..].iter().all(|&x| x == 0xA5), "{what}: terminator");
            assert!(wp.is_null(), "{what}: *src NULL after the terminator");
        }
        _ => {
            assert_eq!(r, bytes, "{what}: what fits");
            assert!(dst[bytes..].iter().all(|&x| x == 0xA5), "{what}: wrote past");
            assert_eq!(wp, unsafe { base.add(fit) }, "{what}: *src at the next one");
        }
    }
    // A state holding the bytes of a character being decoded, and a
    // misaligned `*src`: EINVAL.
    let mut st = INITIAL;
    unsafe { u8x_mbrtowc(null_mut(), b"\xF0".as_ptr().cast(), 1, &mut st) };
    let before = st;
    let mut wp = base;
    set_errno(0);
    let r = unsafe { u8x_wcsrtombs(dst.as_mut_ptr().cast(), &mut wp, len, &mut st) };
    assert_eq!((r, errno(), wp, st), (FAILED, EINVAL, base, before), "{what}: a decoding state");
    let mut raw = vec![0u8; wide.len() * 4 + 4];
    let at = 1 + rng.upto(2);
    unsafe { std::ptr::copy_nonoverlapping(base.cast::<u8>(), raw.as_mut_ptr().add(at), wide.len() * 4) };
    let mut wp: *const i32 = unsafe { raw.as_ptr().add(at) }.cast();
    set_errno(0);
    let r = unsafe { u8x_wcsrtombs(dst.as_mut_ptr().cast(), &mut wp, len, null_mut()) };
    assert_eq!((r, errno()), (FAILED, EINVAL), "{what}: misaligned *src");
}

/// `u8x_wcrtomb` of each value: `char::encode_utf8`, no terminator after
/// it, or EILSEQ and nothing written; a state holding decode bytes is
/// EINVAL unless `s` is NULL, which resets it.
fn wcrtomb<'a>(rng: &mut Rng, values: impl Iterator<Item = &'a u32>) {
    let mut st = INITIAL;
    for &u in values {
        let mut buf = [0xA5u8; 8];
        let ps = if rng.next() % 2 == 0 { null_mut() } else { &mut st as *mut _ };
        set_errno(0);
        let r = unsafe { u8x_wcrtomb(buf.as_mut_ptr().cast(), u as i32, ps) };
        match char::from_u32(u) {
            Some(c) => {
                let want = c.encode_utf8(&mut [0; 4]).as_bytes().to_vec();
                assert_eq!(r, want.len(), "wcrtomb {u:#X}");
                assert!(buf[..r] == want[..] && buf[r..].iter().all(|&b| b == 0xA5), "wcrtomb {u:#X}: {buf:02X?}");
            }
            None => {
                assert_eq!((r, errno()), (FAILED, EILSEQ), "wcrtomb {u:#X}");
                assert_eq!(buf, [0xA5; 8], "wcrtomb {u:#X} wrote");
            }
        }
        assert!(st == INITIAL, "wcrtomb changed the state");
    }
    let lead = [0xC3, 0xE2, 0xF0][rng.upto(2)];
    unsafe { u8x_mbrtowc(null_mut(), [lead].as_ptr().cast(), 1, &mut st) };
    assert!(st == holding(&[lead]));
    let mut buf = [0xA5u8; 8];
    set_errno(0);
    let r = unsafe { u8x_wcrtomb(buf.as_mut_ptr().cast(), 0x41, &mut st) };
    assert_eq!((r, errno(), buf, st), (FAILED, EINVAL, [0xA5; 8], holding(&[lead])), "wcrtomb from a decoding state");
    assert_eq!(unsafe { u8x_wcrtomb(null_mut(), rng.next() as i32, &mut st) }, 1, "wcrtomb(NULL)");
    assert!(st == INITIAL && mbsinit(&st), "wcrtomb(NULL) resets the state");
    assert_eq!(unsafe { u8x_wcrtomb(null_mut(), 0, null_mut()) }, 1, "wcrtomb(NULL, NULL)");
}
