//! Shared by the C ABI targets (`c_abi.rs`, `c_abi_forms.rs`): the control
//! bytes, a reference decoder built on `std::str::from_utf8`, and `run`,
//! which makes one call with its input and output placed at chosen offsets
//! of a single canary-filled buffer and checks that the call refused
//! exactly the arguments it must refuse and wrote nothing but `written`.
#![allow(dead_code)]

use std::mem::size_of;
use u8x::ffi::u8x_result;

pub const OK: u32 = 0;
pub const ILL_FORMED: u32 = 1;
pub const INCOMPLETE: u32 = 2;
pub const OUTPUT_FULL: u32 = 3;
pub const BAD: u32 = 4;

pub const E_NONE: u32 = 0;
pub const E_CONTINUATION: u32 = 1;
pub const E_INVALID_BYTE: u32 = 2;
pub const E_TRUNCATED: u32 = 3;
pub const E_OVERLONG: u32 = 4;
pub const E_SURROGATE: u32 = 5;
pub const E_ABOVE_MAX: u32 = 6;
pub const E_END: u32 = 7;
pub const E_NOT_REPRESENTABLE: u32 = 8;

/// Bytes at the front of every fuzz input; the rest is the data.
pub const CONTROL: usize = 8;
/// Policy values: the five policies, then values no function accepts.
pub const POLICIES: [u32; 8] = [0, 1, 2, 3, 4, 6, 0x8000_0001, 0x600];
/// Replacements: scalars (BMP and supplementary), then non-scalars.
pub const REPLACEMENTS: [u32; 8] = [0xFFFD, b'?' as u32, 0x1F600, 0x10FFFF, 0xD800, 0xDFFF, 0x110000, u32::MAX];

pub fn is_scalar(c: u32) -> bool {
    char::from_u32(c).is_some()
}

/// xorshift64*, seeded from the control bytes: split points, capacities,
/// offsets.
pub struct Rng(pub u64);
impl Rng {
    pub fn new(control: &[u8]) -> Rng {
        Rng(u64::from_le_bytes(control[..8].try_into().unwrap()) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..=n`.
    pub fn upto(&mut self, n: usize) -> usize {
        (self.next() % (n as u64 + 1)) as usize
    }
    /// 0, small, exactly `need`, `need` plus a little, or anything up to `most`.
    pub fn cap(&mut self, need: usize, most: usize) -> usize {
        match self.next() % 6 {
            0 => 0,
            1 => self.upto(8),
            2 => need,
            3 => need + self.upto(3),
            4 => self.upto(need),
            _ => self.upto(most),
        }
    }
}

/// What std's `from_utf8` sees: characters, maximal subparts of ill-formed
/// sequences, and a sequence cut by the end of the input.
pub enum Piece {
    Char(char, usize, usize),
    Bad(usize, usize),
    Cut(usize, usize),
}

pub fn pieces(src: &[u8]) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut pos = 0;
    let chars = |out: &mut Vec<Piece>, at: usize, s: &str| {
        out.extend(s.char_indices().map(|(i, c)| Piece::Char(c, at + i, c.len_utf8())))
    };
    loop {
        match std::str::from_utf8(&src[pos..]) {
            Ok(s) => return { chars(&mut out, pos, s); out },
            Err(e) => {
                let valid = e.valid_up_to();
                chars(&mut out, pos, std::str::from_utf8(&src[pos..pos + valid]).unwrap());
                pos += valid;
                match e.error_len() {
                    Some(n) => out.push(Piece::Bad(pos, n)),
                    None => return { out.push(Piece::Cut(pos, src.len() - pos)); out },
                }
                pos += e.error_len().unwrap();
            }
        }
    }
}

/// The error kind of the maximal subpart at `off` (Table 3-7), from its
/// first two bytes.
pub fn kind(src: &[u8], off: usize, len: usize) -> u32 {
    let b1 = src.get(off + 1).copied().unwrap_or(0);
    match (src[off], len) {
        (0x80..=0xBF, _) => E_CONTINUATION,
        (0xC0 | 0xC1 | 0xF5..=0xFF, _) => E_INVALID_BYTE,
        (0xE0, 1) if (0x80..=0x9F).contains(&b1) => E_OVERLONG,
        (0xF0, 1) if (0x80..=0x8F).contains(&b1) => E_OVERLONG,
        (0xED, 1) if (0xA0..=0xBF).contains(&b1) => E_SURROGATE,
        (0xF4, 1) if (0x90..=0xBF).contains(&b1) => E_ABOVE_MAX,
        _ => E_TRUNCATED,
    }
}

/// windows-1252 as WHATWG maps 80..9F (81, 8D, 8F, 90, 9D stay C1 controls).
const CP1252: [u16; 32] = [
    0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152, 0x8D,
    0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122, 0x161, 0x203A,
    0x153, 0x9D, 0x17E, 0x178,
];

/// An expected result: status, error, read, error_len, and the output.
#[derive(Clone, Debug, PartialEq)]
pub struct Expect<T> {
    pub status: u32,
    pub error: u32,
    pub read: usize,
    pub error_len: usize,
    pub out: Vec<T>,
}

impl<T> Expect<T> {
    pub fn stop(status: u32, error: u32, read: usize, error_len: usize, out: Vec<T>) -> Self {
        Expect { status, error, read, error_len, out }
    }
    pub fn assert_eq(&self, r: &u8x_result, out: Option<&[T]>, what: &str)
    where
        T: PartialEq + std::fmt::Debug,
    {
        let got = (r.status as u32, r.error as u32, r.read, r.written, r.error_len);
        assert_eq!(got, (self.status, self.error, self.read, self.out.len(), self.error_len), "{what}");
        if let Some(out) = out {
            assert_eq!(out, &self.out[..], "{what}: output");
        }
    }
}

/// The code points `u8x_decode_ucs4` must give, from `pieces`: policy 0..=4.
pub fn decode_ref(src: &[u8], ps: &[Piece], policy: u32, repl: u32, more: bool) -> Expect<u32> {
    let mut out = Vec::new();
    for p in ps {
        let (off, len, k) = match *p {
            Piece::Char(c, _, _) => {
                out.push(c as u32);
                continue;
            }
            Piece::Bad(off, len) => (off, len, kind(src, off, len)),
            Piece::Cut(off, len) if more => return Expect::stop(INCOMPLETE, E_END, off, len, out),
            Piece::Cut(off, len) => (off, len, E_END),
        };
        let bytes = &src[off..off + len];
        match policy {
            0 => return Expect::stop(ILL_FORMED, k, off, len, out),
            1 => out.push(repl),
            2 => out.extend(bytes.iter().map(|&b| 0xDC00 + b as u32)),
            3 => out.extend(bytes.iter().map(|&b| b as u32)),
            _ => out.extend(bytes.iter().map(|&b| match b {
                0x80..=0x9F => CP1252[b as usize - 0x80] as u32,
                _ => b as u32,
            })),
        }
    }
    Expect::stop(OK, E_NONE, src.len(), 0, out)
}

/// Where `run` places a call's input and output.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    /// Byte offsets of the input and the output in the shared buffer.
    pub src_at: usize,
    pub dst_at: usize,
    /// Output capacity in elements; `null_dst` passes NULL instead (with
    /// this capacity: NULL with a non-zero capacity must be refused).
    pub cap: usize,
    pub null_dst: bool,
    /// Pass NULL for the input (with its real length).
    pub null_src: bool,
}

impl Place {
    /// Separate, aligned input and output.
    pub fn plain(src_bytes: usize, cap: usize) -> Place {
        Place { src_at: 0, dst_at: (src_bytes + 8) & !7, cap, null_dst: false, null_src: false }
    }
    /// Random offsets: usually separate, sometimes misaligned or overlapping.
    pub fn random(rng: &mut Rng, src_bytes: usize, cap: usize) -> Place {
        let src_at = if rng.next() % 4 == 0 { rng.upto(7) } else { 0 };
        let dst_at = match rng.next() % 8 {
            0 => rng.upto(src_at + src_bytes + 8),
            1 => src_at + rng.upto(7),
            _ => ((src_at + src_bytes + 8) & !7) + if rng.next() % 4 == 0 { rng.upto(7) } else { 0 },
        };
        let null_dst = rng.next() % 8 == 0;
        let cap = if null_dst && rng.next() % 2 == 0 { 0 } else { cap };
        Place { src_at, dst_at, cap, null_dst, null_src: rng.next() % 32 == 0 }
    }
}

/// Calls `f(src, dst)` with `src` copied into a canary-filled buffer at
/// `p.src_at` and the output at `p.dst_at`. `bad` says whether the scalar
/// arguments are invalid; `most` is the largest output (elements) the call
/// can produce. Checks the call was refused (`U8X_BAD_ARGUMENT`, nothing
/// changed) exactly when it had to be, and that nothing outside
/// `dst[..written]` changed. Returns the result and the output, or `None`
/// if refused.
pub fn run<S: Copy, T: Copy>(
    src: &[S],
    p: Place,
    most: usize,
    bad: bool,
    f: impl FnOnce(*const S, *mut T) -> u8x_result,
) -> Option<(u8x_result, Vec<T>)> {
    let (sb, tb) = (std::mem::size_of_val(src), size_of::<T>());
    let len = (p.src_at + sb).max(p.dst_at + p.cap * tb) + 16;
    let mut arena = vec![0u64; len.div_ceil(8)];
    let base = arena.as_mut_ptr().cast::<u8>();
    // SAFETY: `len` bytes of `arena`; the slices below do not outlive a
    // statement, so no reference is alive while `f` writes.
    let bytes = |_: ()| unsafe { std::slice::from_raw_parts_mut(base, len) };
    for (i, b) in bytes(()).iter_mut().enumerate() {
        *b = 0xA5 ^ (i as u8).wrapping_mul(29);
    }
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr().cast::<u8>(), base.add(p.src_at), sb) };
    let before = bytes(()).to_vec();
    let sp = if p.null_src { std::ptr::null() } else { unsafe { base.add(p.src_at) }.cast::<S>() };
    let dp = if p.null_dst { std::ptr::null_mut() } else { unsafe { base.add(p.dst_at) }.cast::<T>() };
    let reach = p.cap.min(most) * tb;
    let refuse = bad
        || (p.null_src && !src.is_empty())
        || !sp.is_aligned()
        || (p.null_dst && p.cap != 0)
        || !dp.is_aligned()
        || (!p.null_dst && reach > 0 && sb > 0 && !p.null_src
            && p.dst_at < p.src_at + sb && p.src_at < p.dst_at + reach);
    let r = f(sp, dp);
    let after = bytes(());
    if refuse {
        assert_eq!(r.status as u32, BAD, "must refuse: {p:?}");
        assert!(after == &before[..], "refused call wrote: {p:?}");
        return None;
    }
    assert_ne!(r.status as u32, BAD, "must not refuse: {p:?}");
    let w = if p.null_dst { 0 } else { r.written * tb };
    assert!(p.null_dst || r.written <= p.cap, "written > cap");
    let d = p.dst_at;
    assert!(after[..d] == before[..d] && after[d + w..] == before[d + w..], "wrote past `written`: {p:?}");
    let out = (0..w / tb).map(|i| unsafe { dp.add(i).read() }).collect();
    Some((r, out))
}

/// Resumes a call after `U8X_OUTPUT_FULL` with small capacities until it
/// ends, and returns the combined result (read/written totals) and output.
/// `call(from, cap)` calls the function on the input from element `from`
/// with `cap` elements of room; `step` is the most output one input element
/// or character can need (so `step` elements of room always make progress).
pub fn resume<T: Copy>(
    rng: &mut Rng,
    total: usize,
    step: usize,
    mut call: impl FnMut(usize, usize) -> (u8x_result, Vec<T>),
) -> (u8x_result, Vec<T>) {
    let (mut from, mut out, mut calls) = (0, Vec::new(), 0);
    loop {
        calls += 1;
        // A few small capacities, then room for the rest.
        let cap = if calls <= 12 { rng.upto(2 * step) } else { total.saturating_sub(out.len()) * 2 + step };
        let (mut r, o) = call(from, cap);
        assert!(o.len() <= cap);
        out.extend_from_slice(&o);
        if r.status as u32 == OUTPUT_FULL {
            assert!(cap < step || r.read > 0 || r.written > 0, "no progress with room for {cap}");
            from += r.read;
            continue;
        }
        r.read += from;
        r.written = out.len();
        return (r, out);
    }
}

/// Feeds the input in chunks cut at random points, every chunk but the
/// last with `U8X_MORE_INPUT`: `call(start, end, last)` converts elements
/// `start..end`. After `U8X_INCOMPLETE` the next chunk starts at the
/// unconsumed elements. Returns the combined result (absolute `read`, total
/// `written`), the output and the cuts.
pub fn chunked<T>(
    rng: &mut Rng,
    n: usize,
    mut call: impl FnMut(usize, usize, bool) -> (u8x_result, Vec<T>),
) -> (u8x_result, Vec<T>, Vec<usize>) {
    let mut cuts: Vec<usize> = (0..rng.upto(6)).map(|_| rng.upto(n)).collect();
    cuts.sort();
    cuts.push(n);
    let (mut start, mut out) = (0, Vec::new());
    for (i, &cut) in cuts.iter().enumerate() {
        let (last, end) = (i + 1 == cuts.len(), cut.max(start));
        let (mut r, o) = call(start, end, last);
        out.extend(o);
        let (status, at) = (r.status as u32, start + r.read);
        match status {
            OK => start = end,
            INCOMPLETE => {
                assert_eq!(at + r.error_len, end, "U8X_INCOMPLETE: error_len is the rest");
                start = at;
            }
            _ => {}
        }
        if last || status == ILL_FORMED {
            (r.read, r.written) = (at, out.len());
            return (r, out, cuts);
        }
    }
    unreachable!()
}
