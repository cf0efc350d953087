//! Decoding validated text in steps over a 12-byte window.
//!
//! The caller gives an *end mask* over a 64-byte window: bit `j` is set iff
//! byte `j` is the last byte of a character that may be emitted. A step at a
//! lead `p` looks at the 12 bits `(ends >> p) & 0xFFF`, which tell where each
//! character in the next 12 bytes ends, and one lookup ([`STEPS`]) gives how
//! many whole characters it takes (`k`, up to 8), how many bytes they span,
//! and a VPSHUFB index ([`SHUFFLES`], deduplicated) that copies each one into
//! a 32-bit lane, last byte lowest, from the 16 bytes at `p` (loaded into
//! both halves). [`join`] then masks and shifts each byte into place, and a
//! masked store writes exactly `k` code points. A character that does not end
//! within the 12 bytes is left to the next step.
//!
//! Uniform runs skip the lookup: 8 characters of 3 bytes (24 bytes) or of
//! 4 bytes (32) are one step whose length a predicted branch knows, which
//! also takes the lookup off the chain of dependent loads from one step to
//! the next.
//!
//! A block's steps run while they start before its byte 32, so they may
//! take characters of the next block (the caller validated it too), and the
//! caller starts the next block's steps where these stopped.

use core::arch::x86_64::*;

/// The characters in a 12-bit end mask `m` that a step takes, as
/// `(count, bytes)`: the longer of the leading run of up to 8 characters of
/// 1-2 bytes and the leading run of up to 4 of 1-4 bytes (which keeps the
/// number of distinct shuffles small).
const fn taken(m: usize) -> (usize, usize) {
    let mut lens = [0usize; 12];
    let (mut n, mut start, mut j) = (0, 0, 0);
    while j < 12 {
        if m & (1 << j) != 0 {
            lens[n] = j + 1 - start;
            n += 1;
            start = j + 1;
        }
        j += 1;
    }
    let mut short = 0;
    while short < n && short < 8 && lens[short] <= 2 {
        short += 1;
    }
    let mut any = 0;
    while any < n && any < 4 && lens[any] <= 4 {
        any += 1;
    }
    let k = if short > any { short } else { any };
    let (mut consumed, mut c) = (0, 0);
    while c < k {
        consumed += lens[c];
        c += 1;
    }
    (k, consumed)
}

/// Whether `m` has no end bit past its last taken character: one such mask
/// per distinct shuffle.
const fn canonical(m: usize) -> bool {
    let (_, consumed) = taken(m);
    m >> consumed == 0
}

const fn count_rows() -> usize {
    let (mut m, mut n) = (0, 0);
    while m < 4096 {
        n += canonical(m) as usize;
        m += 1;
    }
    n
}

const ROWS: usize = count_rows();

/// The shuffle for a canonical mask: lane `c` gets character `c`'s bytes,
/// last byte lowest; the rest are zeroed (index 0x80). Both 128-bit halves
/// index the same 16 bytes.
const fn shuffle_for(m: usize) -> [u8; 32] {
    let mut row = [0x80u8; 32];
    let (mut c, mut start, mut j) = (0, 0, 0);
    while j < 12 && c < 8 {
        if m & (1 << j) != 0 {
            let len = j + 1 - start;
            let mut b = 0;
            while b < len && b < 4 {
                row[4 * c + b] = (j - b) as u8;
                b += 1;
            }
            c += 1;
            start = j + 1;
        }
        j += 1;
    }
    row
}

/// `(CONSUMED, STEPS, SHUFFLES)`: per 12-bit end mask the bytes a step
/// consumes, and the characters it takes (bits 0-3) with its `SHUFFLES`
/// row (bits 4 and up). Masks that valid text cannot produce (no end within
/// 4 bytes) take what they can, or nothing.
#[allow(clippy::type_complexity)]
const TABLES: ([u8; 4096], [u16; 4096], [[u8; 32]; ROWS]) = {
    let mut consumed_by = [0u8; 4096];
    let mut steps = [0u16; 4096];
    let mut shuffles = [[0x80u8; 32]; ROWS];
    let mut m = 0;
    let mut rows = 0;
    while m < 4096 {
        let (k, consumed) = taken(m);
        let canon = m & ((1 << consumed) - 1);
        // A canonical mask is its own submask; smaller masks got their rows
        // first.
        let row = if canon == m {
            shuffles[rows] = shuffle_for(m);
            rows += 1;
            rows - 1
        } else {
            (steps[canon] >> 4) as usize
        };
        consumed_by[m] = consumed as u8;
        steps[m] = (row << 4) as u16 | k as u16;
        m += 1;
    }
    (consumed_by, steps, shuffles)
};

/// Bytes a step consumes, per 12-bit end mask: alone in its table, it is
/// the only lookup on the chain from one step to the next.
static CONSUMED: [u8; 4096] = TABLES.0;
/// Characters taken and shuffle row, per 12-bit end mask.
static STEPS: [u16; 4096] = TABLES.1;
/// VPSHUFB indexes, one per distinct run of character lengths.
static SHUFFLES: [[u8; 32]; ROWS] = TABLES.2;

const fn vec(b: [u8; 32]) -> __m256i {
    // SAFETY: 32 plain bytes; every bit pattern is a valid __m256i.
    unsafe { core::mem::transmute(b) }
}

/// Four 3-byte characters per 128-bit half (each half loaded at its own
/// start): the shuffle of four characters in `0x924`, repeated.
const THREE: __m256i = {
    let four = shuffle_for(0x924);
    let mut row = four;
    let mut i = 16;
    while i < 32 {
        row[i] = four[i - 16];
        i += 1;
    }
    vec(row)
};
/// Four 4-byte characters per half, likewise.
const FOUR: __m256i = {
    let mut row = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        // Lane byte b of a 4-byte character holds its byte 3 - b.
        row[i] = ((i % 16) / 4 * 4 + 3 - i % 4) as u8;
        i += 1;
    }
    vec(row)
};
/// Joins 32-bit lanes of 1-4 bytes, last byte lowest, into code points.
/// Byte 2 is a continuation (keep 6 bits) or a 3-byte lead `1110xxxx`
/// (keep 4): its bit 6 tells them apart and clears the lead's bit 5.
#[target_feature(enable = "avx2")]
#[inline]
fn join(v: __m256i) -> __m256i {
    let low = _mm256_and_si256(v, _mm256_set1_epi32(0x7F));
    let mid = _mm256_and_si256(v, _mm256_set1_epi32(0x3F00));
    let third = _mm256_xor_si256(
        _mm256_and_si256(v, _mm256_set1_epi32(0x3F_0000)),
        _mm256_and_si256(_mm256_srli_epi32::<1>(v), _mm256_set1_epi32(0x20_0000)),
    );
    let top = _mm256_and_si256(v, _mm256_set1_epi32(0x0700_0000));
    _mm256_or_si256(
        _mm256_or_si256(low, _mm256_srli_epi32::<2>(mid)),
        _mm256_or_si256(_mm256_srli_epi32::<4>(third), _mm256_srli_epi32::<6>(top)),
    )
}

/// Joins lanes of 1-3 bytes (no 4-byte lead in byte 3, byte 2 a lead).
#[target_feature(enable = "avx2")]
#[inline]
fn join3(v: __m256i) -> __m256i {
    let low = _mm256_and_si256(v, _mm256_set1_epi32(0x7F));
    let mid = _mm256_and_si256(v, _mm256_set1_epi32(0x3F00));
    let high = _mm256_and_si256(v, _mm256_set1_epi32(0x0F_0000));
    _mm256_or_si256(
        _mm256_or_si256(low, _mm256_srli_epi32::<2>(mid)),
        _mm256_srli_epi32::<4>(high),
    )
}

/// One step at the lead `p` of the window, `rest` being the end mask
/// shifted right by `p`: writes its characters at `o`, and 8 lanes in all,
/// and returns how many bytes and characters it took.
///
/// # Safety
/// `window` points to 64 readable bytes; `p <= 31`; `rest` has no bit at
/// or past `63 - p`, marks the end of the character at `p`, and its marked
/// characters are well-formed; `o` has room for 8 code points.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn step(window: *const u8, rest: u64, p: usize, o: *mut u32) -> (usize, usize) {
    // Every load is within bytes p..p+32 <= 63 of the window.
    if rest & 0xFF_FFFF == 0x92_4924 {
        // SAFETY: bytes p..p+28 are readable; room for 24.
        unsafe {
            let data = _mm256_loadu2_m128i(window.add(p + 12).cast(), window.add(p).cast());
            _mm256_storeu_si256(o.cast(), join3(_mm256_shuffle_epi8(data, THREE)));
        }
        return (24, 8);
    }
    if rest & 0xFFFF_FFFF == 0x8888_8888 {
        // SAFETY: bytes p..p+32 are readable; room for 32.
        unsafe {
            let data = _mm256_loadu2_m128i(window.add(p + 16).cast(), window.add(p).cast());
            _mm256_storeu_si256(o.cast(), join(_mm256_shuffle_epi8(data, FOUR)));
        }
        return (32, 8);
    }
    let m = (rest & 0xFFF) as usize;
    let consumed = CONSUMED[m] as usize;
    let k = (STEPS[m] & 0xF) as usize;
    let row = (STEPS[m] >> 4) as usize;
    // SAFETY: bytes p..p+16 are readable; the row is below ROWS by
    // construction; the store writes 8 lanes, the k real ones and slack
    // that the caller's room covers and later output overwrites (see
    // [`emit_steps`]). A masked store (VPMASKMOVD) here ran Japanese text,
    // whose ASCII breaks the uniform runs every few steps, at 0.82x
    // simdutf on AMD Zen 4, where that store is microcoded.
    unsafe {
        let data = _mm256_broadcastsi128_si256(_mm_loadu_si128(window.add(p).cast()));
        let shuffle = _mm256_loadu_si256(SHUFFLES[row].as_ptr().cast());
        let cps = join(_mm256_shuffle_epi8(data, shuffle));
        _mm256_storeu_si256(o.cast(), cps);
    }
    (consumed, k)
}

/// Writes the characters marked in `ends` from the lead `p` on, in steps,
/// until the next step would start at or past byte 32 of the window.
/// Returns how many it wrote and where it stopped (the first byte not
/// emitted, in `32..64`). Each step stores 8 lanes, so up to 7 code points
/// of slack may follow the characters written: the caller writes over them
/// with the next block's characters (a well-formed block of 32 bytes leads
/// at least 8 past the bytes already written, and an error after it
/// takes back at most its last one).
///
/// # Safety
/// `window` points to 64 readable bytes; `p < 32` is a lead; `ends` marks
/// the last byte of every character from `p` on through byte 34 at least
/// (so each step takes at least one), has bit 63 clear, and the characters
/// it marks are well-formed; `out` has room for 64 code points (a step
/// starts at most 31 code points in and stores 8).
#[target_feature(enable = "avx2,bmi1")]
#[inline]
pub(super) unsafe fn emit_steps(
    window: *const u8,
    ends: u64,
    mut p: usize,
    out: *mut u32,
) -> (usize, usize) {
    let mut o = out;
    let mut rest = ends >> p;
    // Each step starts at p <= 31 and takes whole marked characters, so p
    // stays below 64 and at most one code point per byte is written.
    while p < 32 {
        // SAFETY: see above; the character at p ends by byte 34.
        let (consumed, k) = unsafe { step(window, rest, p, o) };
        rest >>= consumed;
        p += consumed;
        // SAFETY: as above.
        o = unsafe { o.add(k) };
    }
    // SAFETY: o only moved forward from out.
    (unsafe { o.offset_from(out) as usize }, p)
}
