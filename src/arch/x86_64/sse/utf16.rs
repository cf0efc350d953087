//! UTF-16 to UTF-8, 8 units a step.
//!
//! # Algorithm
//!
//! Each step takes a block of 8 units by the cheapest path that holds for
//! all of them:
//!
//! * **ASCII**: narrowed with one pack; 16 and then 32 units at a time while
//!   the run lasts.
//! * **Below U+0800**: 16-bit pairs (`110xxxxx 10xxxxxx`, or the unit and a
//!   zero byte), packed by a table keyed by which take 2 bytes (the UCS-4
//!   encoder's [`encode8_words`]).
//! * **Any other BMP unit**: the byte layout of simdutf's UTF-16 encoder,
//!   each unit's bytes in a 4-byte slot built with one shuffle and one
//!   `maddubs`; each half of four slots is packed by a table keyed by the
//!   lengths in unary, so that a half's length is 4 plus a population count
//!   (one fixed pattern when all eight take 3 bytes).
//! * **Surrogates**: four pairs (emoji text) are joined and encoded in
//!   32-bit lanes with no table; any other block with a surrogate is
//!   encoded one character at a time. An unpaired surrogate stops the
//!   kernel and is flagged for the scalar core, which applies the caller's
//!   policy to it; a high surrogate that ends the input is left to the
//!   scalar core unflagged (with more input to come it is incomplete).
//!
//! A block of the last two kinds is stored as whole vectors, up to 8 bytes
//! past its output, only when the next block surely follows: it is whole,
//! has no surrogate, and fits the output after this one. It then writes 8
//! bytes or more over those. Otherwise the block is stored exactly. So when
//! the kernel returns, no byte past `written` has changed. The last 7 units
//! or fewer, and a block that does not fit, are left to the scalar core.

use core::arch::x86_64::*;

use super::ucs4::{encode4, encode8_words};
use crate::arch::x86_64::packs::COMPACT_BMP;
use crate::arch::FastStop;

/// Encodes `src` (byte-swapped with `swap`) up to its first unpaired
/// surrogate, which is reported as `flagged`.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap` writable
/// bytes.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(super) unsafe fn encode_utf16(src: &[u16], out: *mut u8, cap: usize, swap: bool) -> FastStop {
    // SAFETY: the caller's promises.
    unsafe {
        if swap {
            encode::<true>(src, out, cap)
        } else {
            encode::<false>(src, out, cap)
        }
    }
}

fn set16(v: u16) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set1_epi16(v as i16) }
}

/// Unit `i` in native order.
#[inline(always)]
fn unit<const SWAP: bool>(src: &[u16], i: usize) -> u16 {
    if SWAP {
        src[i].swap_bytes()
    } else {
        src[i]
    }
}

/// 8 units from `src[i..]` in native order.
///
/// # Safety
/// Units `i..i+8` are in bounds.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn load8<const SWAP: bool>(src: &[u16], i: usize) -> __m128i {
    // SAFETY: the caller's promise.
    let v = unsafe { _mm_loadu_si128(src.as_ptr().add(i).cast()) };
    if SWAP {
        _mm_shuffle_epi8(
            v,
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
        )
    } else {
        v
    }
}

/// Whether no unit of `words` has a bit of `mask` set.
#[target_feature(enable = "sse4.1")]
#[inline]
fn none_of(words: __m128i, mask: u16) -> bool {
    _mm_testz_si128(words, set16(mask)) == 1
}

/// Narrows runs of 32 ASCII units in `src[pos..end)` while they fit the
/// `room` bytes at `out`, then the whole blocks of 8 ASCII units that begin
/// the 32 units where the run ends; returns the units done (as many bytes
/// were written). ASCII units are never surrogates: no scan needs to come
/// first.
///
/// # Safety
/// `out` points to `room` writable bytes.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn ascii_runs<const SWAP: bool>(
    src: &[u16],
    pos: usize,
    end: usize,
    out: *mut u8,
    room: usize,
) -> usize {
    let mut i = 0;
    while end - pos - i >= 32 && room - i >= 32 {
        // SAFETY: units pos+i..pos+i+32 are in bounds.
        let v = unsafe { [0, 8, 16, 24].map(|o| load8::<SWAP>(src, pos + i + o)) };
        let any = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
        let (front, back) = (_mm_packus_epi16(v[0], v[1]), _mm_packus_epi16(v[2], v[3]));
        if !none_of(any, 0xFF80) {
            // A unit's byte has its high bit set when the unit is not
            // ASCII: adding 0x7F80 (saturating) sets bit 15 exactly then,
            // and the signed pack keeps it.
            let wide = |a, b| {
                let top = |v| _mm_adds_epu16(v, set16(0x7F80));
                _mm_movemask_epi8(_mm_packs_epi16(top(a), top(b))) as u32
            };
            let wide = wide(v[0], v[1]) | wide(v[2], v[3]) << 16;
            // The whole ASCII blocks before the first wide unit.
            let blocks = wide.trailing_zeros() as usize / 8;
            // SAFETY: 8 * blocks <= 24 bytes of the `room` checked above,
            // all of them ASCII units' bytes.
            unsafe {
                let at = out.add(i);
                match blocks {
                    0 => {}
                    1 => _mm_storel_epi64(at.cast(), front),
                    _ => {
                        _mm_storeu_si128(at.cast(), front);
                        if blocks == 3 {
                            _mm_storel_epi64(at.add(16).cast(), back);
                        }
                    }
                }
            }
            return i + 8 * blocks;
        }
        // SAFETY: bytes i..i+32 of the `room` checked above.
        unsafe {
            _mm_storeu_si128(out.add(i).cast(), front);
            _mm_storeu_si128(out.add(i + 16).cast(), back);
        }
        i += 32;
    }
    i
}

/// The UTF-8 of 8 units: the first `n_lo` bytes of `lo`, then the first
/// `n_hi` of `hi`, 8 to 24 in all.
struct Encoded {
    lo: __m128i,
    hi: __m128i,
    n_lo: usize,
    n_hi: usize,
}

/// 8 units that are not surrogates, in simdutf's layout (see the module
/// docs).
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
fn encode_bmp(words: __m128i) -> Encoded {
    // Bit 15 set for 2 or more bytes (`two`), for 3 bytes (`three`).
    let two = _mm_adds_epu16(words, set16(0x7F80));
    let three = _mm_adds_epu16(words, set16(0x7800));
    // Bytes 0 and 1 of each slot: the word's low 7 bits (an ASCII
    // character) and `10g3`, from its low byte in both halves.
    let dup = _mm_shuffle_epi8(
        words,
        _mm_setr_epi8(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14),
    );
    let low = _mm_or_si128(_mm_and_si128(dup, set16(0x3F7F)), set16(0x8000));
    // Bytes 2 and 3: `1110g1` and `10g2` (`110g2` for 2 bytes, where g2 <
    // 0x20). `maddubs` multiplies the low byte of `(w >> 4) & 0xFFC`
    // (g2 << 2) by 0x40 into the high byte, and adds the high byte (g1).
    let parts = _mm_maddubs_epi16(
        _mm_and_si128(_mm_srli_epi16::<4>(words), set16(0x0FFC)),
        set16(0x0140),
    );
    let high = _mm_xor_si128(
        _mm_or_si128(parts, set16(0xC0E0)),
        _mm_and_si128(_mm_srli_epi16::<1>(three), set16(0x4000)),
    );
    let first = _mm_unpacklo_epi16(low, high);
    let second = _mm_unpackhi_epi16(low, high);
    // Bytes past the first, in unary, 2 bits a unit (the high bits of its
    // two bytes): bit 0 for 2 or 3 bytes, bit 1 for 3.
    let key_bytes = _mm_or_si128(
        _mm_srli_epi16::<8>(two),
        _mm_and_si128(three, set16(0xFF00)),
    );
    let key = _mm_movemask_epi8(key_bytes) as u32;
    let pattern = |k: usize| {
        // SAFETY: a row is 16 bytes (indexing checks the key).
        unsafe { _mm_loadu_si128(COMPACT_BMP[k].as_ptr().cast()) }
    };
    if key == 0xFFFF {
        // All 3 bytes (CJK text): one pattern for both halves.
        let all = pattern(0xFF);
        return Encoded {
            lo: _mm_shuffle_epi8(first, all),
            hi: _mm_shuffle_epi8(second, all),
            n_lo: 12,
            n_hi: 12,
        };
    }
    let (k_lo, k_hi) = ((key & 0xFF) as usize, (key >> 8) as usize);
    Encoded {
        lo: _mm_shuffle_epi8(first, pattern(k_lo)),
        hi: _mm_shuffle_epi8(second, pattern(k_hi)),
        n_lo: 4 + k_lo.count_ones() as usize,
        n_hi: 4 + k_hi.count_ones() as usize,
    }
}

/// Writes `e` at `out` as whole vectors: up to 8 bytes past its output get
/// stray bytes. The first store reaches byte 16, at most 8 past the output
/// (8 units take 8 bytes or more); the second half goes at `n_lo` in two
/// halves of 8 bytes, the upper one only if `n_hi` is above 8 (else into a
/// local, chosen without a branch: `n_hi` varies from block to block in
/// text that mixes ASCII with 3-byte characters), so it ends at most 8
/// bytes past the output too.
///
/// # Safety
/// `out` has room for `e.n_lo + e.n_hi` bytes and 8 more.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn store_loose(e: &Encoded, out: *mut u8) {
    let mut sink = [0u8; 8];
    // SAFETY: every store ends at most 8 bytes past the output (above), or
    // lies in the local.
    unsafe {
        _mm_storeu_si128(out.cast(), e.lo);
        let at = out.add(e.n_lo);
        _mm_storel_epi64(at.cast(), e.hi);
        let upper = if e.n_hi > 8 {
            at.add(8)
        } else {
            sink.as_mut_ptr()
        };
        _mm_storeh_pd(upper.cast(), _mm_castsi128_pd(e.hi));
    }
}

/// Writes `e`'s bytes, and nothing else, at `out`.
///
/// # Safety
/// `out` has room for `e.n_lo + e.n_hi` bytes.
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn store_exact(e: &Encoded, out: *mut u8) {
    let mut buf = [0u8; 32];
    // SAFETY: both stores lie in the 32-byte local (n_lo <= 16); the
    // n_lo + n_hi <= 24 bytes copied fit the caller's room, which a local
    // cannot overlap.
    unsafe {
        _mm_storeu_si128(buf.as_mut_ptr().cast(), e.lo);
        _mm_storeu_si128(buf.as_mut_ptr().add(e.n_lo).cast(), e.hi);
        core::ptr::copy_nonoverlapping(buf.as_ptr(), out, e.n_lo + e.n_hi);
    }
}

/// Writes the UTF-8 of scalar value `c` at `out`; returns its length.
///
/// # Safety
/// `out` has room for that length.
#[inline]
unsafe fn put(c: u32, out: *mut u8) -> usize {
    let cont = |shift: u32| 0x80 | (c >> shift & 0x3F) as u8;
    let bytes: ([u8; 4], usize) = match c {
        0..=0x7F => ([c as u8, 0, 0, 0], 1),
        0x80..=0x7FF => ([0xC0 | (c >> 6) as u8, cont(0), 0, 0], 2),
        0x800..=0xFFFF => ([0xE0 | (c >> 12) as u8, cont(6), cont(0), 0], 3),
        _ => ([0xF0 | (c >> 18) as u8, cont(12), cont(6), cont(0)], 4),
    };
    for (k, &b) in bytes.0[..bytes.1].iter().enumerate() {
        // SAFETY: k < the length, for which there is room.
        unsafe { out.add(k).write(b) };
    }
    bytes.1
}

/// The UTF-8 of 8 units that are 4 surrogate pairs, high then low: 16
/// bytes, 4 a pair, with no table and no packing.
#[target_feature(enable = "sse4.1")]
#[inline]
fn four_pairs(units: __m128i) -> Option<__m128i> {
    let set = |v: u32| _mm_set1_epi32(v as i32);
    let kinds = _mm_and_si128(units, set(0xFC00_FC00));
    if _mm_movemask_epi8(_mm_cmpeq_epi32(kinds, set(0xDC00_D800))) != 0xFFFF {
        return None;
    }
    // Each 32-bit lane is a pair, the high unit in its low half:
    // ((high & 0x3FF) << 10) + (low & 0x3FF) + 0x10000.
    let s = _mm_add_epi32(
        _mm_or_si128(
            _mm_slli_epi32::<10>(_mm_and_si128(units, set(0x3FF))),
            _mm_and_si128(_mm_srli_epi32::<16>(units), set(0x3FF)),
        ),
        set(0x1_0000),
    );
    // Bytes F0|s>>18, 80|s>>12&3F, 80|s>>6&3F, 80|s&3F, lowest first.
    let bytes = _mm_or_si128(
        _mm_or_si128(
            _mm_srli_epi32::<18>(s),
            _mm_and_si128(_mm_srli_epi32::<4>(s), set(0x3F00)),
        ),
        _mm_or_si128(
            _mm_and_si128(_mm_slli_epi32::<10>(s), set(0x3F_0000)),
            _mm_and_si128(_mm_slli_epi32::<24>(s), set(0x3F00_0000)),
        ),
    );
    Some(_mm_or_si128(bytes, set(0x8080_80F0)))
}

/// For each 4-bit mask of 32-bit lanes to keep: a `pshufb` pattern that
/// moves them to the front, in order, and zeroes the rest.
static LEFT_PACK4: [[u8; 16]; 16] = {
    let mut table = [[0x80u8; 16]; 16];
    let mut keep = 0;
    while keep < 16 {
        let (mut n, mut lane) = (0, 0);
        while lane < 4 {
            if keep >> lane & 1 != 0 {
                let mut b = 0;
                while b < 4 {
                    table[keep][4 * n + b] = (4 * lane + b) as u8;
                    b += 1;
                }
                n += 1;
            }
            lane += 1;
        }
        keep += 1;
    }
    table
};

/// 4 units from `src[i..]` in 32-bit lanes, in native order.
///
/// # Safety
/// Units `i..i+4` are in bounds.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn load4<const SWAP: bool>(src: &[u16], i: usize) -> __m128i {
    // SAFETY: the caller's promise.
    let v = unsafe { _mm_loadl_epi64(src.as_ptr().add(i).cast()) };
    let v = if SWAP {
        _mm_shuffle_epi8(
            v,
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
        )
    } else {
        v
    };
    _mm_cvtepu16_epi32(v)
}

/// How a surrogate step of 4 units ended.
enum Step {
    /// All 4 read; whether the last was a high surrogate whose low one,
    /// the next unit, was written with it.
    Read { carry: bool },
    /// Stopped before the unpaired surrogate at this lane.
    Unpaired(usize),
    /// No room: nothing written.
    Full,
}

/// Encodes the 4 units at `i`, stopping before an unpaired surrogate, in
/// 32-bit lanes: a high surrogate followed by a low one becomes their
/// scalar value in its lane (in the last lane, with the fifth unit), the
/// low ones' lanes are dropped with a table shuffle, and the UCS-4
/// encoder's block encodes the rest; the dropped lanes, zero at the end,
/// encode to one zero byte each, which are not counted. With `carry`, the
/// first unit is the low half of a pair already written. Steps are 4
/// units apart whatever their pairs, so that no step's loads wait for the
/// one before.
///
/// # Safety
/// Units `i..i+5` are in bounds; `out` points to `room` writable bytes.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
unsafe fn step4<const SWAP: bool>(
    src: &[u16],
    i: usize,
    out: *mut u8,
    room: usize,
    written: &mut usize,
    carry: bool,
) -> Step {
    // SAFETY: units i..i+5 are in bounds.
    let (units, next) = unsafe { (load4::<SWAP>(src, i), load4::<SWAP>(src, i + 1)) };
    let set = |v: u32| _mm_set1_epi32(v as i32);
    let kind = |v| _mm_and_si128(v, set(0xFC00));
    let high = _mm_cmpeq_epi32(kind(units), set(0xD800));
    let low = _mm_cmpeq_epi32(kind(units), set(0xDC00));
    let paired = _mm_and_si128(high, _mm_cmpeq_epi32(kind(next), set(0xDC00)));
    let mask = |v: __m128i| _mm_movemask_ps(_mm_castsi128_ps(v)) as u32;
    let (high_m, low_m, paired_m) = (mask(high), mask(low), mask(paired));
    // A low surrogate is paired when the lane before holds a paired high
    // one, or, in lane 0, with `carry`.
    let paired_low = ((paired_m << 1) & 0xF) | u32::from(carry);
    let unpaired = (high_m | low_m) & !(paired_m | paired_low);
    let mut keep = !paired_low & 0xF;
    if unpaired != 0 {
        keep &= (1 << unpaired.trailing_zeros()) - 1;
    }
    // (high - 0xD800) << 10 + (low - 0xDC00) + 0x10000.
    let joined = _mm_sub_epi32(
        _mm_add_epi32(_mm_slli_epi32::<10>(units), next),
        set(0x035F_DC00),
    );
    let scalars = _mm_blendv_epi8(units, joined, paired);
    // SAFETY: a row is 16 bytes (indexing checks the key).
    let order = unsafe { _mm_loadu_si128(LEFT_PACK4[keep as usize].as_ptr().cast()) };
    let (bytes, total) = encode4(_mm_shuffle_epi8(scalars, order));
    let total = total - (4 - keep.count_ones() as usize);
    if room < total {
        return Step::Full;
    }
    let mut buf = [0u8; 16];
    // SAFETY: 16 bytes into the local; `total` (at most 16) of them into
    // the room checked above.
    unsafe {
        _mm_storeu_si128(buf.as_mut_ptr().cast(), bytes);
        for (k, &b) in buf[..total].iter().enumerate() {
            out.add(k).write(b);
        }
    }
    *written += total;
    if unpaired != 0 {
        Step::Unpaired(unpaired.trailing_zeros() as usize)
    } else {
        Step::Read {
            carry: paired_m >> 3 != 0,
        }
    }
}

/// Whether any unit of `words` is a surrogate.
#[target_feature(enable = "sse4.1")]
#[inline]
fn any_surrogate(words: __m128i) -> bool {
    let hit = _mm_cmpeq_epi16(_mm_and_si128(words, set16(0xF800)), set16(0xD800));
    _mm_testz_si128(hit, hit) == 0
}

/// How the scalar steps through a block with surrogates ended.
enum Surrogates {
    /// Past the block (one unit past it when a pair crossed its end).
    Done(usize, usize),
    /// Stopped: the kernel returns this.
    Stop(FastStop),
}

/// Encodes the block of 8 units at `pos`, which has a surrogate, one
/// character at a time; a pair may end one unit past the block.
///
/// # Safety
/// Units `pos..pos+8` are in bounds; `out` points to `cap` writable bytes.
unsafe fn surrogates<const SWAP: bool>(
    src: &[u16],
    mut pos: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> Surrogates {
    let stop = |read, written, flagged| {
        Surrogates::Stop(FastStop {
            read,
            written,
            flagged,
        })
    };
    let end = pos + 8;
    while pos < end {
        let u = unit::<SWAP>(src, pos);
        let (c, units) = match u {
            0xD800..=0xDBFF if pos + 1 == src.len() => {
                // Perhaps incomplete: the scalar core knows whether more
                // comes.
                return stop(pos, written, None);
            }
            0xD800..=0xDBFF => match unit::<SWAP>(src, pos + 1) {
                low @ 0xDC00..=0xDFFF => (
                    0x1_0000 + ((u32::from(u) & 0x3FF) << 10) + (u32::from(low) & 0x3FF),
                    2,
                ),
                _ => return stop(pos, written, Some(pos)),
            },
            0xDC00..=0xDFFF => return stop(pos, written, Some(pos)),
            _ => (u32::from(u), 1),
        };
        let n = 1 + usize::from(c >= 0x80) + usize::from(c >= 0x800) + usize::from(c >= 0x1_0000);
        // The scalar core stops exactly where the room ends.
        if cap - written < n {
            return stop(pos, written, None);
        }
        // SAFETY: n bytes of room (checked just above).
        written += unsafe { put(c, out.add(written)) };
        pos += units;
    }
    Surrogates::Done(pos, written)
}

/// Units below U+0800 from `pos` (ASCII, Latin, Cyrillic, Arabic...), 16 a
/// step, in a loop of their own, whether or not they are ASCII: in text
/// with a Latin-1 letter every ten units or so, a branch to the ASCII path
/// and back for every block costs more than encoding ASCII as pairs. A
/// step of 16 ASCII units is narrowed and stored exactly, and a longer
/// ASCII run follows it in [`ascii_runs`]. Any other step encodes two
/// blocks of pairs and stores them as whole vectors, up to 8 bytes past
/// each block's output: the second block writes over the first's excess,
/// and the next block over the second's, as it is whole, has no surrogate
/// and has room (the loop's conditions), so the caller or the next step
/// encodes it. A step that is not all below U+0800 ends the run, after its
/// first block if that one is. Returns where it stopped.
///
/// # Safety
/// `out` points to `cap` writable bytes.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline(never)]
unsafe fn short_run<const SWAP: bool>(
    src: &[u16],
    mut pos: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> (usize, usize) {
    let len = src.len();
    // Room for a step (32 bytes at most) and the next block (24).
    while len - pos >= 24 && cap - written >= 32 + 24 {
        // SAFETY: units pos..pos+24 are in bounds.
        let [a, b, next] = unsafe { [0, 8, 16].map(|o| load8::<SWAP>(src, pos + o)) };
        let both = _mm_or_si128(a, b);
        if none_of(both, 0xFF80) {
            // SAFETY: 16 bytes of room (the loop's condition).
            unsafe { _mm_storeu_si128(out.add(written).cast(), _mm_packus_epi16(a, b)) };
            (pos, written) = (pos + 16, written + 16);
            // SAFETY: `out + written` has `cap - written` bytes.
            let run = unsafe { ascii_runs::<SWAP>(src, pos, len, out.add(written), cap - written) };
            (pos, written) = (pos + run, written + run);
            continue;
        }
        let (first, n) = encode8_words(a);
        if !none_of(both, 0xF800) {
            if none_of(a, 0xF800) && !any_surrogate(b) {
                // SAFETY: room for this block and 8 bytes more, which the
                // caller's next block (it has no surrogate and room) writes
                // over.
                unsafe { _mm_storeu_si128(out.add(written).cast(), first) };
                (pos, written) = (pos + 8, written + n);
            }
            return (pos, written);
        }
        let (second, m) = encode8_words(b);
        let follows = !any_surrogate(next);
        // SAFETY: room for both blocks and 8 bytes more (the loop's
        // condition); the second block's store covers the first's excess.
        unsafe { _mm_storeu_si128(out.add(written).cast(), first) };
        let e = Encoded {
            lo: second,
            hi: _mm_setzero_si128(),
            n_lo: m,
            n_hi: 0,
        };
        // SAFETY: as above; an excess past the second block only when the
        // next block writes over it.
        unsafe {
            if follows {
                _mm_storeu_si128(out.add(written + n).cast(), second);
            } else {
                store_exact(&e, out.add(written + n));
            }
        }
        (pos, written) = (pos + 16, written + n + m);
        if !follows {
            return (pos, written);
        }
    }
    (pos, written)
}

/// Blocks of 8 units without surrogates from `pos`, in a loop of their own,
/// two at a time while the second is whole, has no surrogate and both fit
/// with a third block's room to spare: the first is stored as whole vectors
/// (up to 12 bytes past its output), which the second's first store (16
/// bytes) writes over; the second is stored loosely (up to 8 bytes past its
/// output) when the next block is whole, has no surrogate and fits after
/// it, and exactly otherwise, which ends the run; a next block below U+0800
/// also ends it, for the pair block. Single blocks go the same way. Returns
/// where it stopped.
///
/// # Safety
/// The block at `pos` is whole and has no surrogate; `out` points to `cap`
/// writable bytes, of which 24 or more are free from `written`.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline(never)]
unsafe fn bmp_run<const SWAP: bool>(
    src: &[u16],
    mut pos: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> (usize, usize) {
    let len = src.len();
    // SAFETY: the block is whole.
    let mut units = unsafe { load8::<SWAP>(src, pos) };
    loop {
        if len - pos >= 16 && cap - written >= 48 + 24 {
            // SAFETY: units pos+8..pos+16 are in bounds.
            let second = unsafe { load8::<SWAP>(src, pos + 8) };
            if !any_surrogate(second) {
                let (e1, e2) = (encode_bmp(units), encode_bmp(second));
                let n1 = e1.n_lo + e1.n_hi;
                let (next, end) = (pos + 16, written + n1 + e2.n_lo + e2.n_hi);
                let follows = len - next >= 8 && {
                    // SAFETY: the block at `next` is whole.
                    units = unsafe { load8::<SWAP>(src, next) };
                    !any_surrogate(units)
                };
                // SAFETY: 48 bytes of room (checked above) hold both
                // blocks' output and the excess past the first: 12 bytes at
                // most, which the second's loose store (16 bytes from its
                // start) writes over, or 8 at most, which its exact store
                // (8 bytes or more) does. 24 bytes of room after both
                // blocks hold the next block, which writes 8 bytes or more
                // over the 8 at most past the second when that one is
                // loose.
                unsafe {
                    let (at1, at2) = (out.add(written), out.add(written + n1));
                    if follows {
                        _mm_storeu_si128(at1.cast(), e1.lo);
                        _mm_storeu_si128(at1.add(e1.n_lo).cast(), e1.hi);
                        store_loose(&e2, at2);
                    } else {
                        store_loose(&e1, at1);
                        store_exact(&e2, at2);
                    }
                }
                (pos, written) = (next, end);
                if !follows || none_of(units, 0xF800) {
                    return (pos, written);
                }
                continue;
            }
        }
        let e = encode_bmp(units);
        let (next, n) = (pos + 8, e.n_lo + e.n_hi);
        if len - next >= 8 && cap - written >= n + 24 {
            // SAFETY: the block at `next` is whole.
            units = unsafe { load8::<SWAP>(src, next) };
            if !any_surrogate(units) {
                // SAFETY: room for this block and the next (24 bytes at
                // most), which writes 8 bytes or more over the 8 at most
                // past this one's.
                unsafe { store_loose(&e, out.add(written)) };
                (pos, written) = (next, written + n);
                if none_of(units, 0xF800) {
                    return (pos, written); // The pair block's.
                }
                continue;
            }
        }
        // SAFETY: 24 bytes of room or more (the caller's promise or the
        // check above).
        unsafe { store_exact(&e, out.add(written)) };
        return (next, written + n);
    }
}

#[target_feature(enable = "ssse3,sse4.1,popcnt")]
unsafe fn encode<const SWAP: bool>(src: &[u16], out: *mut u8, cap: usize) -> FastStop {
    let len = src.len();
    let (mut pos, mut written) = (0usize, 0usize);
    // A block takes 24 bytes at most; with less room left, the scalar core
    // writes what fits.
    while len - pos >= 8 && cap - written >= 24 {
        // SAFETY: units pos..pos+8 are in bounds.
        let a = unsafe { load8::<SWAP>(src, pos) };
        if none_of(a, 0xF800) {
            // SAFETY: `out` has `cap` bytes.
            let (p, w) = unsafe { short_run::<SWAP>(src, pos, out, cap, written) };
            if p == pos {
                // Too close to the end for the run: this block alone.
                let (bytes, n) = encode8_words(a);
                let e = Encoded {
                    lo: bytes,
                    hi: _mm_setzero_si128(),
                    n_lo: n,
                    n_hi: 0,
                };
                // SAFETY: 24 bytes of room (the loop's condition).
                unsafe { store_exact(&e, out.add(written)) };
                (pos, written) = (pos + 8, written + n);
            } else {
                (pos, written) = (p, w);
            }
            continue;
        }
        if !any_surrogate(a) {
            // SAFETY: the block is whole without surrogates; 24 bytes free.
            (pos, written) = unsafe { bmp_run::<SWAP>(src, pos, out, cap, written) };
            continue;
        }
        let start = pos;
        while len - pos >= 8 && cap - written >= 16 {
            // SAFETY: units pos..pos+8 are in bounds.
            let Some(bytes) = four_pairs(unsafe { load8::<SWAP>(src, pos) }) else {
                break;
            };
            // SAFETY: 16 bytes of room (checked above).
            unsafe { _mm_storeu_si128(out.add(written).cast(), bytes) };
            (pos, written) = (pos + 8, written + 16);
        }
        if pos != start {
            continue;
        }
        if len - pos < 9 {
            // SAFETY: units pos..pos+8 are in bounds; `out` has `cap` bytes.
            match unsafe { surrogates::<SWAP>(src, pos, out, cap, written) } {
                Surrogates::Done(p, w) => (pos, written) = (p, w),
                Surrogates::Stop(stop) => return stop,
            }
            continue;
        }
        // Two steps of 4; with `carry`, the unit after a step is the low
        // half of a pair it wrote.
        let mut carry = false;
        for base in [pos, pos + 4] {
            // SAFETY: units base..base+5 are in bounds (pos + 9 <= len);
            // `out + written` has `cap - written` bytes.
            let step = unsafe {
                let at = out.add(written);
                step4::<SWAP>(src, base, at, cap - written, &mut written, carry)
            };
            match step {
                Step::Read { carry: c } => carry = c,
                Step::Unpaired(k) => {
                    return FastStop {
                        read: base + k,
                        written,
                        flagged: Some(base + k),
                    }
                }
                Step::Full => {
                    return FastStop {
                        read: base + usize::from(carry),
                        written,
                        flagged: None,
                    }
                }
            }
        }
        pos += 8 + usize::from(carry);
    }
    // The last 7 units or fewer, or the last 23 bytes of room or fewer, are
    // left to the scalar core.
    FastStop {
        read: pos,
        written,
        flagged: None,
    }
}
