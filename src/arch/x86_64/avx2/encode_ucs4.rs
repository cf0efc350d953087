//! Code points to UTF-8, 16 a step (two `__m256i` of 32-bit units).
//!
//! # Algorithm
//!
//! The hot path is [`runs`]: while blocks of 16 units are valid and the
//! output has room to spare, each kind of block loops on its own and
//! stores whole vectors. This module's loop goes on from where the runs
//! stop, one step at a time and storing exactly: at an invalid unit, near
//! the end of the output, and for the last units.
//!
//! Each step ORs its 16 units together and takes the cheapest path that
//! holds for all of them (the block encoders are in [`block`]):
//!
//! * **ASCII** (all < 0x80): narrowed with saturating packs and stored as
//!   16 bytes; after an ASCII step, 32 units are tried at once.
//! * **One or two bytes** (all < 0x800, hence valid): narrowed to 16-bit
//!   words, each turned into the pair `110xxxxx 10xxxxxx` (or the unit and a
//!   zero byte for ASCII); per 128-bit lane of 8, a `pshufb` pattern from a
//!   256-entry table keyed by which units are 2-byte keeps the used bytes.
//! * **Up to three bytes** (all < 0x10000, none a surrogate): as simdutf
//!   encodes UTF-16, each word becomes a 32-bit lane holding its ASCII
//!   byte, its last byte, a 3-byte lead and a 2-byte lead or middle byte
//!   (a byte shuffle, a `maddubs` and a few logic operations). Per 128-bit
//!   lane of 4 units, the bytes past the first, counted in unary in 2 bits
//!   each, form an 8-bit key to a 256-entry table of `pshufb` patterns that
//!   pick each character's bytes in order; the lane's length is 4 plus the
//!   key's population count.
//! * **Anything else** (4-byte characters, errors): 8 units at a time.
//!   Invalid units (surrogates, above U+10FFFF) end the kernel before their
//!   block, flagging the first; valid lanes are built in 32 bits (`g0 g1 g2
//!   g3` = bits 18.., 12..17, 6..11, 0..5, with `0x80`, `0xC0`, `0xE0`,
//!   `0xF0` markers chosen by three compares; a character of length `n` is
//!   bytes `4-n .. 4` of its lane), and the lengths minus one, 2 bits each,
//!   key a table of patterns that pack the used bytes to the front.
//!
//! All the tables are built by `const fn`s.
//!
//! Measuring (`encoded_len`, [`measure`]) takes 32 units a step: nothing
//! for ASCII; below 0x10000, a surrogate check and the 1-3 byte lengths
//! from two compares on 16-bit words; otherwise a check of the largest unit
//! and of surrogates, and three compares. Lengths are summed with
//! `vpsadbw`. A step with an invalid unit, and the last 31 units or fewer,
//! go to the encoder's loop in measuring mode, which flags the error.
//!
//! # Never writing past `written`
//!
//! AVX2 has no byte-masked store (`vpmaskmovd` works on whole dwords), and a
//! 16-byte store of a half-empty lane leaves zeros after the real bytes. If
//! those survived a stop (an error in the next block, a full output, the end
//! of the input), they would lie past the reported `written`, where the
//! caller's bytes must stay untouched. So each step first checks that its
//! whole output fits in `cap`, and then every byte it stores lies inside
//! *its own output* `[written, written + total)`, or is overwritten by a
//! later store of the same step:
//!
//! * A block of two lanes (`lo`: `tot_lo` bytes, `hi`: `tot_hi`) with
//!   `total >= 16` stores `lo` at `written`, then the block's last 16 bytes
//!   (`hi` and the end of `lo` joined by sliding-window shuffles) at
//!   `written + total - 16`: inside the output, and covering the zeros after
//!   `lo`'s bytes. With `8 <= total < 16`, the first and last 8 bytes.
//! * When a step has two blocks of 8, the first usually stores its two
//!   lanes unshuffled, leaving `16 - tot_hi` zeros after its bytes: only
//!   when the second block's output (all of which it then stores) is at
//!   least that long.
//! * The last, partial block is loaded with `vpmaskmovd` (no read past the
//!   input), encoded into a stack buffer and copied with its exact length.
//!
//! The tests check every output capacity with two sentinel values.

use core::arch::x86_64::*;

use self::block::{
    add_extra_bytes, add_extra_bytes_words, all_valid, all_valid4, any_surrogate, encode_any,
    encode_bmp, encode_pairs, extra_bytes4, invalid_lanes, narrow_ascii32, narrow_bytes,
    narrow_words, none_of, pack_words, store, store_prefix, store_two, sum_u64x4,
};
use crate::contract::FastStop;

pub(super) mod block;
mod runs;

/// Where one step stopped the kernel: units read (a block start) and the
/// flagged unit, if any.
type Halt = (usize, Option<usize>);

/// One block of 8 units of any kind at `i`: checked, then encoded (or
/// measured into `extra`) and stored if it fits.
///
/// # Safety
/// As for [`encode`].
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn step_any<const MEASURE: bool>(
    units: __m256i,
    i: usize,
    out: *mut u8,
    cap: usize,
    written: &mut usize,
    extra: &mut __m256i,
) -> Result<(), Halt> {
    let bad = invalid_lanes(units);
    if bad != 0 {
        return Err((i, Some(i + bad.trailing_zeros() as usize)));
    }
    if MEASURE {
        *extra = add_extra_bytes(*extra, units);
        *written += 8;
        return Ok(());
    }
    let lanes = encode_any(units);
    if cap - *written < lanes.total() {
        return Err((i, None));
    }
    // SAFETY: 8 units take 8 bytes or more, and they fit (checked above).
    unsafe { store(&lanes, out.add(*written)) };
    *written += lanes.total();
    Ok(())
}

/// Encodes (or, with `MEASURE`, measures) `src` up to its first block with
/// an invalid unit, whose index is reported as `flagged`, or until the next
/// block's bytes would not fit in `cap`.
///
/// # Safety
/// The CPU must support the enabled features; unless `MEASURE`, `out` points
/// to `cap` writable bytes.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn encode<const MEASURE: bool>(
    src: &[u32],
    out: *mut u8,
    cap: usize,
) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    // The hot path first; the loop below goes on exactly from where it
    // stopped.
    let (mut i, mut written) = if MEASURE {
        (0, 0)
    } else {
        // SAFETY: forwarded from this function's contract.
        unsafe { runs::encode_runs(src, out, cap) }
    };
    // MEASURE: bytes beyond one per unit, in 64-bit lanes.
    let mut extra = _mm256_setzero_si256();
    // Whether the last step was ASCII (then 32 units are tried at once).
    let mut ascii_run = true;
    let stop = |(read, flagged): Halt, written: usize, extra: __m256i| FastStop {
        read,
        written: written + if MEASURE { sum_u64x4(extra) } else { 0 },
        flagged,
    };
    while len - i >= 16 {
        if ascii_run && len - i >= 32 && (MEASURE || cap - written >= 32) {
            // SAFETY: units i..i+32 are in bounds.
            let (a, b, c, d) = unsafe {
                let p = ptr.add(i).cast::<__m256i>();
                (
                    _mm256_loadu_si256(p),
                    _mm256_loadu_si256(p.add(1)),
                    _mm256_loadu_si256(p.add(2)),
                    _mm256_loadu_si256(p.add(3)),
                )
            };
            let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
            if none_of(any, 0xFFFF_FF80) {
                if !MEASURE {
                    let bytes = narrow_ascii32(a, b, c, d);
                    // SAFETY: cap - written >= 32 was checked above.
                    unsafe { _mm256_storeu_si256(out.add(written).cast(), bytes) };
                }
                written += 32;
                i += 32;
                continue;
            }
        }
        // SAFETY: units i..i+16 are in bounds.
        let (a, b) = unsafe {
            let p = ptr.add(i).cast::<__m256i>();
            (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)))
        };
        let any = _mm256_or_si256(a, b);
        ascii_run = false;
        // Below 0x800: 16 valid units of one or two bytes.
        if none_of(any, 0xFFFF_F800) {
            ascii_run = none_of(any, 0xFFFF_FF80);
            let words = narrow_words(a, b);
            if MEASURE {
                extra = add_extra_bytes_words(extra, words);
            } else if ascii_run {
                if cap - written < 16 {
                    return stop((i, None), written, extra);
                }
                // SAFETY: 16 bytes of room were just checked.
                unsafe { _mm_storeu_si128(out.add(written).cast(), narrow_bytes(words)) };
            } else {
                let lanes = encode_pairs(words);
                if cap - written < lanes.total() {
                    return stop((i, None), written, extra);
                }
                // SAFETY: 16 units take 16 bytes or more, which fit.
                unsafe { store(&lanes, out.add(written)) };
                written += lanes.total() - 16;
            }
            written += 16;
            i += 16;
            continue;
        }
        // Below 0x10000 and no surrogate: up to three bytes each.
        if none_of(any, 0xFFFF_0000) {
            let words = pack_words(a, b);
            if !any_surrogate(words, words) {
                if MEASURE {
                    extra = add_extra_bytes_words(extra, words);
                    written += 16;
                } else {
                    let [first, second] = encode_bmp(words);
                    if cap - written < first.total() + second.total() {
                        return stop((i, None), written, extra);
                    }
                    // SAFETY: both blocks fit (checked just above).
                    unsafe { store_two(&first, &second, out.add(written)) };
                    written += first.total() + second.total();
                }
                i += 16;
                continue;
            }
        }
        // Anything else: both blocks at once if valid,
        if all_valid(a, b) {
            if MEASURE {
                extra = add_extra_bytes(add_extra_bytes(extra, a), b);
                written += 16;
            } else {
                let (first, second) = (encode_any(a), encode_any(b));
                if cap - written < first.total() + second.total() {
                    return stop((i, None), written, extra);
                }
                // SAFETY: both blocks fit (checked just above).
                unsafe { store_two(&first, &second, out.add(written)) };
                written += first.total() + second.total();
            }
            i += 16;
            continue;
        }
        // or one at a time to stop at the first invalid one.
        for (units, at) in [(a, i), (b, i + 8)] {
            // SAFETY: forwarded from this function's contract.
            let step =
                unsafe { step_any::<MEASURE>(units, at, out, cap, &mut written, &mut extra) };
            if let Err(halt) = step {
                return stop(halt, written, extra);
            }
        }
        i += 16;
    }
    if len - i >= 8 {
        // SAFETY: units i..i+8 are in bounds.
        let units = unsafe { _mm256_loadu_si256(ptr.add(i).cast()) };
        // SAFETY: forwarded from this function's contract.
        let step = unsafe { step_any::<MEASURE>(units, i, out, cap, &mut written, &mut extra) };
        if let Err(halt) = step {
            return stop(halt, written, extra);
        }
        i += 8;
    }
    if i == len {
        return stop((len, None), written, extra);
    }
    // The last 1..=7 units; the lanes past them load as zero.
    let n = len - i;
    let load_mask = _mm256_cmpgt_epi32(
        _mm256_set1_epi32(n as i32),
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
    );
    // SAFETY: only lanes 0..n (units i..len, in bounds) are read; masked-off
    // lanes are not accessed and do not fault.
    let units = unsafe { _mm256_maskload_epi32(ptr.add(i).cast(), load_mask) };
    let bad = invalid_lanes(units);
    if bad != 0 {
        // Zero lanes are valid: the bad lane is one of the first n.
        return stop((i, Some(i + bad.trailing_zeros() as usize)), written, extra);
    }
    if MEASURE {
        extra = add_extra_bytes(extra, units);
        return stop((len, None), written + n, extra);
    }
    // Zero lanes encode to one zero byte each, after the real characters of
    // their 128-bit lane, so the real output is the first `total` bytes.
    let lanes = encode_any(units);
    let total = lanes.total() - (8 - n);
    if cap - written < total {
        return stop((i, None), written, extra);
    }
    // SAFETY: `total` bytes fit (checked just above).
    unsafe { store_prefix(&lanes, total, out.add(written)) };
    stop((len, None), written + total, extra)
}

/// The UTF-8 length of `src` up to its first block with an invalid unit
/// (flagged), 32 units a step: checks and length sums are cheaper than the
/// encoder's paths when nothing is stored. The rest (under 32 units, or
/// from a step with an invalid unit) goes to `encode::<true>`.
///
/// # Safety
/// The CPU must support the enabled features.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn measure(src: &[u32]) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let mut i = 0usize;
    let mut extra = _mm256_setzero_si256();
    while len - i >= 32 {
        // SAFETY: units i..i+32 are in bounds.
        let units = unsafe {
            let p = ptr.add(i).cast::<__m256i>();
            [0, 1, 2, 3].map(|k| _mm256_loadu_si256(p.add(k)))
        };
        let [a, b, c, d] = units;
        let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
        if none_of(any, 0xFFFF_FF80) {
            // ASCII: one byte each.
        } else if none_of(any, 0xFFFF_0000) {
            // As 16-bit words (their order does not matter here).
            let (w0, w1) = (_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
            if any_surrogate(w0, w1) {
                break;
            }
            extra = add_extra_bytes_words(add_extra_bytes_words(extra, w0), w1);
        } else if all_valid4(units) {
            extra = _mm256_add_epi64(
                extra,
                _mm256_sad_epu8(extra_bytes4(units), _mm256_setzero_si256()),
            );
        } else {
            break;
        }
        i += 32;
    }
    // SAFETY: forwarded; with MEASURE the output is never used.
    let rest = unsafe { encode::<true>(&src[i..], core::ptr::null_mut(), usize::MAX) };
    FastStop {
        read: i + rest.read,
        written: i + sum_u64x4(extra) + rest.written,
        flagged: rest.flagged.map(|e| i + e),
    }
}
