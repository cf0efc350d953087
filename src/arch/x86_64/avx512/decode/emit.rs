//! How a block's characters are written, by the longest of them (see the
//! decoder's module doc): the constant permutes, the lanes' assembly, the
//! stores, and the three paths.

use core::arch::x86_64::*;
use core::mem::transmute;

use super::super::blocks::bytes;
use super::super::validate::{low_bits, non_ascii};
use crate::arch::generic::tables;

const fn dwords(f: [u32; 8]) -> __m512i {
    let mut all = [0u32; 16];
    let mut i = 0;
    while i < 8 {
        all[i] = f[i];
        i += 1;
    }
    // SAFETY: as above.
    unsafe { transmute(all) }
}

/// A block's lead positions are the compressed lane numbers.
const IOTA: __m512i = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        idx[j] = j as u8;
        j += 1;
    }
    bytes(idx)
};

/// Byte `j` takes entry `first + j / each`: each entry of a compressed
/// vector spread over `each` bytes.
const fn repeat_each(first: usize, each: usize) -> __m512i {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        idx[j] = (first + j / each) as u8;
        j += 1;
    }
    bytes(idx)
}

/// For group `g`: lane `4j+t` takes lead `16g+j` (plus byte offset `t`,
/// added by [`BYTE_IN_LANE`]).
const SPREAD: [__m512i; 4] = [
    repeat_each(0, 4),
    repeat_each(16, 4),
    repeat_each(32, 4),
    repeat_each(48, 4),
];
const BYTE_IN_LANE: __m512i = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        idx[j] = (j % 4) as u8;
        j += 1;
    }
    bytes(idx)
};

/// Byte `j` of the 64 bytes starting one after a block's start (VPERMT2B
/// over the block and the next one).
pub(in super::super) const NEXT_BYTES: __m512i = {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        idx[j] = (j + 1) as u8;
        j += 1;
    }
    bytes(idx)
};

/// For group `g` of a block's leads (compressed) and the bytes after them:
/// lane `j` takes lead `16g+j` and its next byte (bytes 2-3 are zeroed).
const fn pair(g: usize) -> __m512i {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 16 {
        idx[4 * j] = (16 * g + j) as u8;
        idx[4 * j + 1] = (64 + 16 * g + j) as u8;
        j += 1;
    }
    bytes(idx)
}
const PAIR: [__m512i; 4] = [pair(0), pair(1), pair(2), pair(3)];

/// For half `h` of a block: 16-bit lane `j` takes byte `32h+j` (low) and
/// the byte after it (high), over the block and the next one.
const fn each_with_next(h: usize) -> __m512i {
    let mut idx = [0u8; 64];
    let mut j = 0;
    while j < 32 {
        idx[2 * j] = (32 * h + j) as u8;
        idx[2 * j + 1] = (32 * h + j + 1) as u8;
        j += 1;
    }
    bytes(idx)
}
const EACH_WITH_NEXT: [__m512i; 2] = [each_with_next(0), each_with_next(1)];

const PAIR_BYTES: u64 = 0x3333_3333_3333_3333;

/// By the lead's count of leading ones (0, 2, 3, 4): which payload bits of
/// the four gathered bytes belong to the character, and how far right the
/// joined 24-bit value must move.
const PAYLOAD_MASK: __m512i = dwords(tables::PAYLOAD_MASK);
const FINAL_SHIFT: __m512i = dwords(tables::FINAL_SHIFT);

/// 16 code points from 16 lanes each holding a character's bytes, lead byte
/// lowest (bytes past the character's length are ignored).
#[target_feature(enable = "avx512f,avx512bw,avx512cd")]
#[inline]
fn assemble(x: __m512i) -> __m512i {
    let ones = _mm512_lzcnt_epi32(_mm512_slli_epi32::<24>(_mm512_andnot_si512(
        x,
        _mm512_set1_epi32(0xFF),
    )));
    let payload = _mm512_and_si512(x, _mm512_permutexvar_epi32(ones, PAYLOAD_MASK));
    // Lead first: b0*64 + b1 and b2*64 + b3 in 16 bits, then (hi<<12) + lo.
    let pairs = _mm512_maddubs_epi16(payload, _mm512_set1_epi16(0x0140));
    let joined = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x0001_1000));
    _mm512_srlv_epi32(joined, _mm512_permutexvar_epi32(ones, FINAL_SHIFT))
}

/// 16 code points below U+0800 from 16 lanes holding a lead byte and the byte
/// after it (bytes 2-3 zero).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn assemble_short(x: __m512i) -> __m512i {
    // Lead bits 0-4 land in bits 6-10; the continuation's low 6 bits stay.
    let two = _mm512_ternarylogic_epi32::<0xE4>(
        _mm512_slli_epi32::<6>(x),
        _mm512_srli_epi32::<8>(x),
        _mm512_set1_epi32(0x7C0),
    );
    let ascii = _mm512_testn_epi32_mask(x, _mm512_set1_epi32(0x80));
    _mm512_mask_and_epi32(two, ascii, x, _mm512_set1_epi32(0x7F))
}

/// 32 UTF-16 units below U+0800 from 32 16-bit lanes each holding a lead
/// byte (low) and the byte after it (high).
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn assemble_short16(x: __m512i) -> __m512i {
    let two = _mm512_ternarylogic_epi32::<0xE4>(
        _mm512_slli_epi16::<6>(x),
        _mm512_srli_epi16::<8>(x),
        _mm512_set1_epi16(0x7C0),
    );
    let ascii = _mm512_testn_epi16_mask(x, _mm512_set1_epi16(0x80));
    _mm512_mask_mov_epi16(two, ascii, _mm512_and_si512(x, _mm512_set1_epi16(0x7F)))
}

/// Stores the first `n` (at most 32) of the 16-bit lanes of `units` at
/// `out`, byte-swapped with `SWAP`.
///
/// # Safety
/// `out` has room for `n` units.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn store_units<const SWAP: bool>(out: *mut u8, n: usize, units: __m512i) {
    let units = if SWAP { swap16(units) } else { units };
    if n >= 32 {
        // SAFETY: room for 32 units.
        unsafe { _mm512_storeu_si512(out.cast(), units) }
    } else {
        // SAFETY: only the first `n` units are written.
        unsafe { _mm512_mask_storeu_epi16(out.cast(), low_bits(n) as u32, units) }
    }
}

/// Stores the `lanes` of `v` at `out`: a plain store when all 16 are wanted.
///
/// # Safety
/// `out` has room for the lanes set in `lanes` (which form a prefix).
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn store_lanes(out: *mut u32, lanes: u16, v: __m512i) {
    if lanes == u16::MAX {
        // SAFETY: room for all 16.
        unsafe { _mm512_storeu_si512(out.cast(), v) }
    } else {
        // SAFETY: masked-off lanes are not written.
        unsafe { _mm512_mask_storeu_epi32(out.cast(), lanes, v) }
    }
}

/// Swaps the two bytes of every 16-bit lane (UTF-16BE on this
/// little-endian machine).
#[target_feature(enable = "avx512bw")]
#[inline]
fn swap16(v: __m512i) -> __m512i {
    _mm512_or_si512(_mm512_slli_epi16::<8>(v), _mm512_srli_epi16::<8>(v))
}

/// Stores the `lanes` (a prefix) of the 16 scalars in `v` at `out`, in the
/// output form: `UTF16` writes each as one unit, or a surrogate pair for
/// scalars above U+FFFF (byte-swapped with `SWAP`); otherwise as UCS-4.
/// Returns the units written.
///
/// # Safety
/// `out` has room for that many units of the form.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2")]
#[inline]
unsafe fn store<const UTF16: bool, const SWAP: bool>(
    out: *mut u8,
    lanes: u16,
    v: __m512i,
) -> usize {
    let m = lanes.count_ones() as usize;
    if !UTF16 {
        // SAFETY: room for the `m` lanes, per the caller.
        unsafe { store_lanes(out.cast(), lanes, v) };
        return m;
    }
    let high = _mm512_mask_cmpge_epu32_mask(lanes, v, _mm512_set1_epi32(0x1_0000));
    if high == 0 {
        let v = if SWAP { swap16(v) } else { v };
        // Narrowed in a register: VPMOVDW straight to memory is slow on Zen.
        let units = _mm512_cvtepi32_epi16(v);
        if lanes == u16::MAX {
            // SAFETY: room for all 16 units.
            unsafe { _mm256_storeu_si256(out.cast(), units) };
        } else {
            // SAFETY: only the `m` wanted units are written.
            unsafe {
                _mm512_mask_storeu_epi16(
                    out.cast(),
                    low_bits(m) as u32,
                    _mm512_castsi256_si512(units),
                )
            };
        }
        return m;
    }
    // Each lane becomes its unit in the low half and, above U+FFFF, the low
    // surrogate in the high half (the high surrogate in the low half);
    // compressing the 32 halves drops the empty high halves of the others.
    let s = _mm512_sub_epi32(v, _mm512_set1_epi32(0x1_0000));
    let hi = _mm512_or_si512(_mm512_srli_epi32::<10>(s), _mm512_set1_epi32(0xD800));
    let lo =
        _mm512_ternarylogic_epi32::<0xEA>(s, _mm512_set1_epi32(0x3FF), _mm512_set1_epi32(0xDC00));
    let pairs = _mm512_or_si512(hi, _mm512_slli_epi32::<16>(lo));
    let units = _mm512_mask_mov_epi32(v, high, pairs);
    let units = if SWAP { swap16(units) } else { units };
    // Keep the low half of every wanted lane, and the high half of the
    // lanes above U+FFFF.
    let wanted = if m == 16 {
        u32::MAX
    } else {
        (1u32 << (2 * m)) - 1
    };
    let keep = (0x5555_5555 | spread_high(high)) & wanted;
    let n = keep.count_ones() as usize;
    let packed = _mm512_maskz_compress_epi16(keep, units);
    // SAFETY: `n` units, which the caller has room for.
    unsafe { _mm512_mask_storeu_epi16(out.cast(), low_bits(n) as u32, packed) };
    n
}

/// Bit `2j+1` set for each bit `j` of `high`.
#[inline(always)]
fn spread_high(high: u16) -> u32 {
    let mut x = u32::from(high);
    x = (x | (x << 8)) & 0x00FF_00FF;
    x = (x | (x << 4)) & 0x0F0F_0F0F;
    x = (x | (x << 2)) & 0x3333_3333;
    x = (x | (x << 1)) & 0x5555_5555;
    x << 1
}

/// The four 16-byte quarters of a block.
#[target_feature(enable = "avx512f")]
#[inline]
fn quarters(block: __m512i) -> [__m128i; 4] {
    [
        _mm512_castsi512_si128(block),
        _mm512_extracti32x4_epi32::<1>(block),
        _mm512_extracti32x4_epi32::<2>(block),
        _mm512_extracti32x4_epi32::<3>(block),
    ]
}

/// Writes an all-ASCII block as 64 units of the form.
///
/// # Safety
/// `out` has room for 64 units.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) unsafe fn widen_block<const UTF16: bool, const SWAP: bool>(
    block: __m512i,
    out: *mut u8,
) {
    if UTF16 {
        for k in 0..2 {
            let half = if k == 0 {
                _mm512_castsi512_si256(block)
            } else {
                _mm512_extracti64x4_epi64::<1>(block)
            };
            let units = _mm512_cvtepu8_epi16(half);
            let units = if SWAP {
                _mm512_slli_epi16::<8>(units)
            } else {
                units
            };
            // SAFETY: units 32k..32k+32 of the 64 the caller has room for.
            unsafe { _mm512_storeu_si512(out.add(64 * k).cast(), units) };
        }
        return;
    }
    for (k, part) in quarters(block).into_iter().enumerate() {
        // SAFETY: lanes 16k..16k+16 of the 64 the caller has room for.
        unsafe { _mm512_storeu_si512(out.add(64 * k).cast(), _mm512_cvtepu8_epi32(part)) };
    }
}

/// For half `h` of a block's leads (compressed): both bytes of 16-bit
/// lane `j` take lead `32h+j`'s entry.
const DUP16: [__m512i; 2] = [repeat_each(0, 2), repeat_each(32, 2)];

/// The code points of a block's characters when none is above U+FFFF, 32
/// to a vector of 16-bit lanes.
///
/// Each character's last byte and the one before it are gathered into a
/// 16-bit lane (last lowest), and the byte two before the last, doubled,
/// into another. One multiply-add joins the two bytes' low six bits,
/// which is the whole code point of a 2-byte character (C2..DF keep bit 5
/// clear, so `& 0x3F` takes just the lead's payload) and all but the
/// lead's payload of a 3-byte one, whose lead is the byte two before the
/// last, and which a shift by 12 in 16 bits supplies; ASCII takes its last
/// byte. The last byte's position is the lead's plus 0, 1 or 2 (by the
/// lead), so one compress finds the last bytes, up to byte 65 (which is
/// in the next block). The byte two before the last is E0..EF only for a
/// 3-byte character (a 3-byte lead there would cover the last byte of a
/// shorter one). Its position is clamped at 0 for a character that ends
/// in byte 1 (the byte there is then the character's own lead, or ASCII);
/// for an ASCII character in byte 0 the index wraps into the next block,
/// and what it gathers is overridden by ASCII's own selection. Against
/// the general path's 4-byte gathers and variable shifts for 16
/// characters, this takes half the instructions; gathering the leads
/// through their own compressed positions, as before, took two more
/// shuffles a block (Chinese to UTF-16 on Zen 4 8.1 -> 8.4 GB/s, Hindi
/// 8.2 -> 8.8).
struct BmpUnits {
    block: __m512i,
    next: __m512i,
    /// Last-byte positions, compressed.
    lasts: __m512i,
}

impl BmpUnits {
    /// `long`: the block's bytes E0..FF (none of them a lead F0..FF).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
    #[inline]
    fn new(block: __m512i, next: __m512i, leads: u64, long: u64) -> Self {
        let multi = _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xC0u8 as i8));
        let one = _mm512_set1_epi8(1);
        let lasts = _mm512_mask_add_epi8(IOTA, multi, IOTA, one);
        let lasts = _mm512_mask_add_epi8(lasts, long, lasts, one);
        Self {
            block,
            next,
            lasts: _mm512_maskz_compress_epi8(leads, lasts),
        }
    }

    /// Characters `32h..32h+32` (lanes past the block's last are garbage).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    #[inline]
    fn half(&self, h: usize) -> __m512i {
        // Low byte: the last byte; high byte: the one before it.
        let at = _mm512_add_epi8(
            _mm512_permutexvar_epi8(DUP16[h], self.lasts),
            _mm512_set1_epi16(0xFF00u16 as i16),
        );
        let tails = _mm512_permutex2var_epi8(self.block, at, self.next);
        // The byte two before the last in both bytes, clamped at byte 0.
        let leads = _mm512_permutex2var_epi8(
            self.block,
            _mm512_subs_epu8(at, _mm512_set1_epi16(0x0102)),
            self.next,
        );
        let low = _mm512_maddubs_epi16(
            _mm512_and_si512(tails, _mm512_set1_epi16(0x3F3F)),
            _mm512_set1_epi16(0x4001),
        );
        // A lead doubled in 16 bits: E0E0.. for 3 bytes.
        let three = _mm512_cmpge_epu16_mask(leads, _mm512_set1_epi16(0xE000u16 as i16));
        let ascii = _mm512_testn_epi16_mask(tails, _mm512_set1_epi16(0x80));
        let cps = _mm512_or_si512(low, _mm512_maskz_slli_epi16::<12>(three, leads));
        _mm512_mask_mov_epi16(cps, ascii, _mm512_and_si512(tails, _mm512_set1_epi16(0x7F)))
    }
}

/// Writes the `n` characters whose leads are set in `leads`, none of them
/// longer than 2 bytes, to `out` in the form.
///
/// # Safety
/// `out` has room for `n` units.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
#[inline]
pub(super) unsafe fn emit_short<const UTF16: bool, const SWAP: bool>(
    block: __m512i,
    next: __m512i,
    leads: u64,
    n: usize,
    out: *mut u8,
) {
    if UTF16 {
        // Every byte with the one after it in a 16-bit lane, 32 lanes a
        // half, joined, then the leads' lanes compressed: four shuffles a
        // block, where compressing the leads and their next bytes first,
        // then pairing them up, took six (Cyrillic on Zen 4: 7.3 -> 7.9
        // GB/s). Both halves keep masked stores: a whole store for the
        // first half when the second covers its spare units (`n >= 32`)
        // took 2-byte scripts 2-4% up but `ascii+1%2B` 3-4% down (Zen 4,
        // four interleaved runs of `forms --tier avx512`).
        let mut done = 0;
        for (h, at) in EACH_WITH_NEXT.iter().enumerate() {
            let units = assemble_short16(_mm512_permutex2var_epi8(block, *at, next));
            let units = if SWAP { swap16(units) } else { units };
            let keep = (leads >> (32 * h)) as u32;
            let packed = _mm512_maskz_compress_epi16(keep, units);
            let k = keep.count_ones() as usize;
            // SAFETY: `k` of the `n` units the caller has room for.
            unsafe {
                _mm512_mask_storeu_epi16(out.add(2 * done).cast(), low_bits(k) as u32, packed)
            };
            done += k;
        }
        return;
    }
    // To UCS-4: compress the leads and the bytes after them, then pair
    // them up 16 at a time.
    let firsts = _mm512_maskz_compress_epi8(leads, block);
    let seconds =
        _mm512_maskz_compress_epi8(leads, _mm512_permutex2var_epi8(block, NEXT_BYTES, next));
    for (g, pair) in PAIR.iter().enumerate().take(n.div_ceil(16)) {
        let lanes = _mm512_maskz_permutex2var_epi8(PAIR_BYTES, firsts, *pair, seconds);
        let scalars = assemble_short(lanes);
        // SAFETY: lanes beyond the n characters are masked off.
        unsafe { store::<false, SWAP>(out.add(64 * g), low_bits(n - 16 * g) as u16, scalars) };
    }
}

/// Writes the `n` characters whose leads are set in `leads`, none of them
/// above U+FFFF, to `out` in the form ([`BmpUnits`]; `long`: the block's
/// bytes E0..FF).
///
/// # Safety
/// `out` has room for `n` units.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
#[inline]
pub(super) unsafe fn emit_bmp<const UTF16: bool, const SWAP: bool>(
    block: __m512i,
    next: __m512i,
    leads: u64,
    long: u64,
    n: usize,
    out: *mut u8,
) {
    let units = BmpUnits::new(block, next, leads, long);
    for h in 0..n.div_ceil(32) {
        let cps = units.half(h);
        let m = n - 32 * h;
        // SAFETY: units beyond the n characters are not written.
        unsafe {
            if UTF16 {
                store_units::<SWAP>(out.add(64 * h), m, cps);
            } else {
                let out = out.add(128 * h).cast::<u32>();
                let lo = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(cps));
                store_lanes(out, low_bits(m.min(16)) as u16, lo);
                if m > 16 {
                    let hi = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(cps));
                    store_lanes(out.add(16), low_bits(m - 16) as u16, hi);
                }
            }
        }
    }
}

/// Writes the characters whose leads are set in `leads` (a prefix of the
/// block's leads), in order, to `out` in the form. Returns the units
/// written, and whether the block took the BMP path ([`BmpUnits`]) with
/// no byte F0..FF in `next` either: then `bmp_run` (in `decode`) may take the text on.
///
/// `_STOPS` is `decode_blocks`'s, only to make one copy for each caller:
/// with three callers, the compiler stopped inlining it, and RFC 3629
/// decoding of CJK text fell from 10.3 to 8.8 GB/s.
///
/// # Safety
/// `out` has room for those characters' units.
#[target_feature(enable = "avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2")]
#[inline]
pub(super) unsafe fn emit<const UTF16: bool, const SWAP: bool, const _STOPS: u8>(
    block: __m512i,
    next: __m512i,
    leads: u64,
    all_ascii: bool,
    out: *mut u8,
) -> (usize, bool) {
    let unit = if UTF16 { 2 } else { 4 };
    let n = leads.count_ones() as usize;
    if all_ascii {
        // Every byte is a character and `leads` is a prefix of the block.
        for (k, part) in quarters(block).into_iter().enumerate().take(n.div_ceil(16)) {
            let lanes = (leads >> (16 * k)) as u16;
            // SAFETY: the lanes written are leads 16k.. within the n that fit.
            unsafe {
                store::<UTF16, SWAP>(out.add(16 * k * unit), lanes, _mm512_cvtepu8_epi32(part))
            };
        }
        return (n, false);
    }
    let long = _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xE0u8 as i8));
    if long == 0 {
        // SAFETY: the caller's promise.
        unsafe { emit_short::<UTF16, SWAP>(block, next, leads, n, out) };
        // Alphabetic text goes on in [`bmp_run`]; mostly-ASCII text, whose
        // blocks with a 2-byte character are scattered, would leave it at
        // once (handed over at every such block, ASCII with 1% 2-byte
        // characters decoded at half speed).
        let dense = non_ascii(block).count_ones() >= 16 && non_ascii(next) != 0;
        return (n, UTF16 && dense && !has_four_lead(next));
    }
    let fours = _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xF0u8 as i8)) & leads;
    if fours == 0 {
        // SAFETY: the caller's promise.
        unsafe { emit_bmp::<UTF16, SWAP>(block, next, leads, long, n, out) };
        return (n, !has_four_lead(next));
    }
    let positions = _mm512_maskz_compress_epi8(leads, IOTA);
    let mut written = 0;
    for (g, spread) in SPREAD.iter().enumerate().take(n.div_ceil(16)) {
        let index = _mm512_add_epi8(_mm512_permutexvar_epi8(*spread, positions), BYTE_IN_LANE);
        let scalars = assemble(_mm512_permutex2var_epi8(block, index, next));
        let lanes = low_bits(n - 16 * g) as u16;
        if UTF16 {
            // SAFETY: lanes beyond the n characters are masked off; the
            // units before them were counted in `written`.
            written += unsafe { store::<UTF16, SWAP>(out.add(written * unit), lanes, scalars) };
        } else {
            // One unit a character: group g starts at unit 16g, an address
            // known without counting the units of the groups before it.
            // SAFETY: lanes beyond the n characters are masked off.
            unsafe { store_lanes(out.cast::<u32>().add(16 * g), lanes, scalars) };
        }
    }
    (if UTF16 { written } else { n }, false)
}

/// Whether `block` holds a byte F0..FF.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn has_four_lead(block: __m512i) -> bool {
    _mm512_cmpge_epu8_mask(block, _mm512_set1_epi8(0xF0u8 as i8)) != 0
}
