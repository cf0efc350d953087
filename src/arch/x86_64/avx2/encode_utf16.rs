//! UTF-16 to UTF-8, 16 units a step, with the UCS-4 encoder's blocks.
//!
//! # Algorithm
//!
//! Each step loads 16 units (byte-swapped first for the other byte order)
//! and takes the cheapest path that holds for all of them:
//!
//! * **ASCII**: narrowed with one pack and stored as 16 bytes; after an
//!   ASCII step, 32 units are tried at once.
//! * **Below U+0800**: the UCS-4 encoder's 16-bit pair block.
//! * **No surrogate**: the UCS-4 encoder's BMP block, after one permute into
//!   the order of its packed words.
//! * **A surrogate**: 8 units in 32-bit lanes, and 9 when the eighth is a
//!   high surrogate and the ninth a low one. A high surrogate followed by a
//!   low one becomes their scalar value in its lane; the low ones' lanes are
//!   dropped with a permute from a table keyed by the lanes kept, and the
//!   UCS-4 encoder's any-length block encodes what is left. The lanes after
//!   the kept ones are zero, and their zero bytes are not counted.
//!
//! A step never splits a pair, so every stop lies between characters. The
//! surrogate step stops before an unpaired surrogate and flags it for the
//! reference core, which applies the caller's policy to it alone. The last 15
//! units or fewer are written one character at a time
//! (`units::encode_units_in`, several times cheaper per character than the
//! engine's reference core); a step whose bytes would not fit is left to
//! the reference core (the engine's loop, `engine::run`): the kernel returns
//! without a flag.
//!
//! Every store is exact, as in the UCS-4 encoder: no byte lands past
//! `written`.
//!
//! # CESU-8 and Modified UTF-8
//!
//! With the mode as a const parameter ([`encode_utf16_cesu`]), each half
//! of a pair is written as the 3-byte form of its unit value, which is
//! what the BMP block does with any unit of U+0800 or more: so a block
//! whose surrogates all pair within it (its high-surrogate mask, shifted by
//! one unit, is its low-surrogate mask) takes the BMP path as CJK text
//! does, 48 bytes for 16 units, and the 8-pair path of UTF-8 is not used.
//! A block with an unpaired surrogate, or with a high surrogate in its last
//! unit (a pair it would split), is written one character at a time
//! (`units::encode_units_in`), which also stops before an unpaired
//! surrogate; after a split pair, it ends one unit further, so the blocks
//! that follow are aligned to the pairs. For Modified UTF-8 a block with a
//! 0 unit (C0 80) takes that path too: the ASCII, 2-byte and BMP tests
//! also ask for no 0 unit.

use core::arch::x86_64::*;

use super::encode_ucs4::block::{
    any_surrogate, encode_any, encode_bmp, encode_pairs, narrow_bytes, none_of, set1, store,
    store_loose, store_prefix, store_two, Lanes,
};
use super::lanes::LEFT_PACK;
use crate::arch::x86_64::units::{encode_units_in, Units};
use crate::contract::{FastStop, Mode};

crate::arch::generic::encode_utf16::utf16_encoder_entries!("avx2,popcnt,bmi1");

/// Whether no unit of `a` or `b` is 0 (always, but for Modified UTF-8,
/// which writes it as C0 80).
#[target_feature(enable = "avx2")]
#[inline]
fn no_zero<const MODE: u8>(a: __m256i, b: __m256i) -> bool {
    if MODE != Mode::MUTF8 {
        return true;
    }
    let hit = _mm256_cmpeq_epi16(_mm256_min_epu16(a, b), _mm256_setzero_si256());
    _mm256_testz_si256(hit, hit) == 1
}

/// Whether the 16 units are ASCII, in `MODE`'s one-byte form.
#[target_feature(enable = "avx2")]
#[inline]
fn ascii<const MODE: u8>(units: __m256i) -> bool {
    none_of(units, 0xFF80_FF80) && no_zero::<MODE>(units, units)
}

/// Whether the 16 units are below U+0800, in `MODE`'s one- or two-byte
/// forms.
#[target_feature(enable = "avx2")]
#[inline]
fn short<const MODE: u8>(units: __m256i) -> bool {
    none_of(units, 0xF800_F800) && no_zero::<MODE>(units, units)
}

/// Whether the BMP block writes the 16 units in `MODE`: they have no
/// surrogate; or, in CESU-8 and Modified UTF-8, every surrogate pairs with
/// its neighbour in the block (each half is then its unit's 3-byte form).
#[target_feature(enable = "avx2")]
#[inline]
fn bmp<const MODE: u8>(units: __m256i) -> bool {
    if !any_surrogate(units, units) {
        return no_zero::<MODE>(units, units);
    }
    if MODE == Mode::UTF8 {
        return false;
    }
    let kind = _mm256_and_si256(units, _mm256_set1_epi16(0xFC00u16 as i16));
    let of = |k: u16| _mm256_movemask_epi8(_mm256_cmpeq_epi16(kind, _mm256_set1_epi16(k as i16)));
    // Two bits a unit: a low surrogate exactly after each high one, and
    // none in the last unit.
    let (high, low) = (of(0xD800) as u32, of(0xDC00) as u32);
    u64::from(high) << 2 == u64::from(low) && no_zero::<MODE>(units, units)
}

/// 16 units from `p`, in native order.
///
/// # Safety
/// `p` points to 16 readable units.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load16<const SWAP: bool>(p: *const u16) -> __m256i {
    // SAFETY: the caller's promise.
    let v = unsafe { _mm256_loadu_si256(p.cast()) };
    if SWAP {
        _mm256_shuffle_epi8(
            v,
            _mm256_setr_epi8(
                1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, //
                1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,
            ),
        )
    } else {
        v
    }
}

/// 8 units from `p` in 32-bit lanes, in native order.
///
/// # Safety
/// `p` points to 8 readable units.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load8<const SWAP: bool>(p: *const u16) -> __m256i {
    // SAFETY: the caller's promise.
    let v = unsafe { _mm_loadu_si128(p.cast()) };
    let v = if SWAP {
        _mm_shuffle_epi8(
            v,
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
        )
    } else {
        v
    };
    _mm256_cvtepu16_epi32(v)
}

/// Narrows runs of 32 ASCII units while they fit; returns the units done
/// (as many bytes were written).
///
/// # Safety
/// `ptr` points to `len` readable units and `out` to `room` writable bytes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn narrow_ascii_runs<const SWAP: bool, const MODE: u8>(
    ptr: *const u16,
    len: usize,
    out: *mut u8,
    room: usize,
) -> usize {
    let mut i = 0;
    while len - i >= 32 && room - i >= 32 {
        // SAFETY: units i..i+32 are in bounds.
        let (a, b) = unsafe { (load16::<SWAP>(ptr.add(i)), load16::<SWAP>(ptr.add(i + 16))) };
        if !none_of(_mm256_or_si256(a, b), 0xFF80_FF80) || !no_zero::<MODE>(a, b) {
            break;
        }
        // The pack interleaves by 128-bit lane; the permute restores order.
        let bytes = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi16(a, b));
        // SAFETY: bytes i..i+32 of the `room` checked above.
        unsafe { _mm256_storeu_si256(out.add(i).cast(), bytes) };
        i += 32;
    }
    i
}

/// Room a loose pair block needs: 16 units of 2 bytes, and 16 bytes of
/// overhang.
const PAIRS_ROOM: usize = 16 * 2 + 16;

/// How many units ahead the pairs loop has input fetched.
const AHEAD: usize = 512;

/// Blocks of 16 units below U+0800 from `i`, the first of which has
/// [`PAIRS_ROOM`] and a whole block after it, in a loop of their own:
/// ASCII blocks are stored exactly (16 bytes), other blocks loosely when
/// the next block is whole, below U+0800 and has room, so that its store
/// (16 bytes or more, starting with a whole vector) writes over their
/// overhang. Returns where it stopped.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap`
/// writable bytes; the block at `i` is whole and [`short`] in `MODE`.
#[inline(never)]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn pairs_run<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    mut i: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> (usize, usize) {
    let (ptr, len) = (src.as_ptr(), src.len());
    let ready = |i: usize, written: usize| len - i >= 16 && cap - written >= PAIRS_ROOM;
    // SAFETY: the block is whole.
    let mut units = unsafe { load16::<SWAP>(ptr.add(i)) };
    loop {
        // ASCII blocks take one test each.
        while ascii::<MODE>(units) {
            // SAFETY: `ready` (or the caller) left room for 16 bytes.
            unsafe { _mm_storeu_si128(out.add(written).cast(), narrow_bytes(units)) };
            (i, written) = (i + 16, written + 16);
            // SAFETY: units i..len are readable, `cap - written` bytes
            // writable.
            let run = unsafe {
                narrow_ascii_runs::<SWAP, MODE>(
                    ptr.add(i),
                    len - i,
                    out.add(written),
                    cap - written,
                )
            };
            (i, written) = (i + run, written + run);
            if !ready(i, written) {
                return (i, written);
            }
            // A hint never faults.
            _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(i + AHEAD).cast());
            // SAFETY: the block is whole (`ready`).
            units = unsafe { load16::<SWAP>(ptr.add(i)) };
        }
        if !short::<MODE>(units) {
            return (i, written);
        }
        let lanes = encode_pairs(units);
        let (next, end) = (i + 16, written + lanes.total());
        if ready(next, end) {
            _mm_prefetch::<_MM_HINT_T0>(ptr.wrapping_add(next + AHEAD).cast());
            // SAFETY: the block is whole (`ready`).
            units = unsafe { load16::<SWAP>(ptr.add(next)) };
            if short::<MODE>(units) {
                // SAFETY: `ready` left room for the output (16 to 32 bytes)
                // and 16 more; the next step (pairs or ASCII) writes over
                // the latter.
                unsafe { store_loose(&lanes, out.add(written)) };
                (i, written) = (next, end);
                continue;
            }
        }
        // SAFETY: the output (16 bytes or more) fits (`ready` before it).
        unsafe { store(&lanes, out.add(written)) };
        return (next, end);
    }
}

/// Room a loose BMP block needs: 16 units of 3 bytes, and 16 bytes of
/// overhang.
const BMP_ROOM: usize = 16 * 3 + 16;

/// 16 words in the order the BMP block takes them, that of the packs that
/// narrow 32-bit units: units 0-3, 8-11 | 4-7, 12-15.
#[target_feature(enable = "avx2")]
#[inline]
fn pack_order(units: __m256i) -> __m256i {
    _mm256_permute4x64_epi64::<0xD8>(units)
}

/// Blocks of 16 units without surrogates from `i`, the first of which has
/// [`BMP_ROOM`] and a whole block after it, in a loop of their own (as the
/// UCS-4 encoder's `bmp_run`): a block is stored loosely, whole vectors
/// with zeros after its bytes, only when the next block is whole, has no
/// surrogate and has room, so that its exact or loose store (which starts
/// with 16 bytes or more) writes over them. Returns where it stopped, after
/// a block stored exactly, or after a block of 32 bytes or fewer (mostly 1
/// and 2 bytes, which the pair block encodes faster).
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap`
/// writable bytes; the block at `i` is whole and [`bmp`] in `MODE`.
#[inline(never)]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn bmp_run<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    mut i: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> (usize, usize) {
    let (ptr, len) = (src.as_ptr(), src.len());
    // SAFETY: the block is whole.
    let mut words = pack_order(unsafe { load16::<SWAP>(ptr.add(i)) });
    loop {
        let [first, second] = encode_bmp(words);
        let total = first.total() + second.total();
        let (next, end) = (i + 16, written + total);
        let mut follows = false;
        if total > 32 && len - next >= 16 && cap - end >= BMP_ROOM {
            // SAFETY: units next..next+16 are in bounds.
            let units = unsafe { load16::<SWAP>(ptr.add(next)) };
            follows = bmp::<MODE>(units);
            words = pack_order(units);
        }
        // SAFETY: `out + written` has room for the output (16 to 48 bytes)
        // and, when the next block follows, for 16 bytes more, which its
        // store writes over; both blocks have 8 bytes or more.
        unsafe {
            let at = out.add(written);
            if follows {
                store_loose(&first, at);
                store_loose(&second, at.add(first.total()));
            } else {
                store_two(&first, &second, at);
            }
        }
        (i, written) = (next, end);
        if !follows {
            return (i, written);
        }
    }
}

/// The UTF-8 of 16 units that are 8 surrogate pairs, high then low (text
/// of emoji, or of other supplementary characters without spaces): 32
/// bytes, 4 a pair, with no table and no packing.
#[target_feature(enable = "avx2")]
#[inline]
fn eight_pairs(units: __m256i) -> Option<__m256i> {
    let kinds = _mm256_and_si256(units, set1(0xFC00_FC00));
    if _mm256_movemask_epi8(_mm256_cmpeq_epi16(kinds, set1(0xDC00_D800))) != -1 {
        return None;
    }
    // Each 32-bit lane is a pair, the high unit in its low half:
    // ((high & 0x3FF) << 10) + (low & 0x3FF) + 0x10000.
    let s = _mm256_add_epi32(
        _mm256_or_si256(
            _mm256_slli_epi32::<10>(_mm256_and_si256(units, set1(0x3FF))),
            _mm256_and_si256(_mm256_srli_epi32::<16>(units), set1(0x3FF)),
        ),
        set1(0x1_0000),
    );
    // Bytes F0|s>>18, 80|s>>12&3F, 80|s>>6&3F, 80|s&3F, lowest first.
    let bytes = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_srli_epi32::<18>(s),
            _mm256_and_si256(_mm256_srli_epi32::<4>(s), set1(0x3F00)),
        ),
        _mm256_or_si256(
            _mm256_and_si256(_mm256_slli_epi32::<10>(s), set1(0x3F_0000)),
            _mm256_and_si256(_mm256_slli_epi32::<24>(s), set1(0x3F00_0000)),
        ),
    );
    Some(_mm256_or_si256(bytes, set1(0x8080_80F0)))
}

/// How a surrogate step of 8 units ended.
enum Step {
    /// All 8 read: whether they had a surrogate (the next 8 may too), and
    /// whether the last was a high surrogate whose low one, the next unit,
    /// was written with it.
    Read { surrogates: bool, carry: bool },
    /// Stopped before the unpaired surrogate at this index.
    Unpaired(usize),
    /// No room: nothing written.
    Full,
}

/// Encodes the 8 units from `p`, stopping before an unpaired surrogate. A
/// high surrogate in the last lane is paired with the ninth unit, and its
/// character written whole; with `carry`, the first unit is such a low
/// surrogate, already written. The steps are 8 units apart whatever their
/// pairs, so that no step's loads wait for the one before.
///
/// # Safety
/// `p` points to 9 readable units; `out` to `room` writable bytes.
#[target_feature(enable = "avx2,popcnt,bmi1")]
#[inline]
unsafe fn step_surrogates<const SWAP: bool>(
    p: *const u16,
    out: *mut u8,
    room: usize,
    written: &mut usize,
    carry: bool,
) -> Step {
    // SAFETY: units 0..9 are readable.
    let (units, next) = unsafe { (load8::<SWAP>(p), load8::<SWAP>(p.add(1))) };
    let kind = |v| _mm256_and_si256(v, set1(0xFC00));
    let high = _mm256_cmpeq_epi32(kind(units), set1(0xD800));
    let low = _mm256_cmpeq_epi32(kind(units), set1(0xDC00));
    let paired = _mm256_and_si256(high, _mm256_cmpeq_epi32(kind(next), set1(0xDC00)));
    let mask = |v: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(v)) as u32;
    let (high_m, low_m, paired_m) = (mask(high), mask(low), mask(paired));
    // A low surrogate is paired when the lane before holds a paired high
    // one, or, in lane 0, with `carry`.
    let paired_low = ((paired_m << 1) & 0xFF) | u32::from(carry);
    let unpaired = (high_m | low_m) & !(paired_m | paired_low);
    let mut keep = !paired_low & 0xFF;
    if unpaired != 0 {
        keep &= (1 << unpaired.trailing_zeros()) - 1;
    }
    // (high - 0xD800) << 10 + (low - 0xDC00) + 0x10000.
    let joined = _mm256_sub_epi32(
        _mm256_add_epi32(_mm256_slli_epi32::<10>(units), next),
        set1(0x035F_DC00),
    );
    let scalars = _mm256_blendv_epi8(units, joined, paired);
    let count = keep.count_ones() as usize;
    // SAFETY: the row is 8 lanes (indexing checks the key).
    let order = unsafe { _mm256_loadu_si256(LEFT_PACK[keep as usize].as_ptr().cast()) };
    let kept = _mm256_permutevar8x32_epi32(scalars, order);
    let live = _mm256_cmpgt_epi32(
        _mm256_set1_epi32(count as i32),
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
    );
    let lanes: Lanes = encode_any(_mm256_and_si256(kept, live)).first_lanes(count);
    let total = lanes.total();
    if room < total {
        return Step::Full;
    }
    // SAFETY: exactly `total` bytes, which fit (checked just above).
    unsafe {
        if total >= 8 {
            store(&lanes, out);
        } else {
            store_prefix(&lanes, total, out);
        }
    }
    *written += total;
    if unpaired != 0 {
        Step::Unpaired(unpaired.trailing_zeros() as usize)
    } else {
        Step::Read {
            surrogates: high_m | low_m != 0,
            carry: paired_m >> 7 != 0,
        }
    }
}

#[target_feature(enable = "avx2,popcnt,bmi1")]
unsafe fn encode<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    out: *mut u8,
    cap: usize,
) -> FastStop {
    let (ptr, len) = (src.as_ptr(), src.len());
    let (mut i, mut written) = (0usize, 0usize);
    let stop = |read, written, flagged| FastStop {
        read,
        written,
        flagged,
    };
    while len - i >= 16 {
        // SAFETY: units i..i+16 are in bounds.
        let units = unsafe { load16::<SWAP>(ptr.add(i)) };
        let room = cap - written;
        if ascii::<MODE>(units) {
            if room < 16 {
                return stop(i, written, None);
            }
            // SAFETY: 16 bytes of room were just checked.
            unsafe { _mm_storeu_si128(out.add(written).cast(), narrow_bytes(units)) };
            (i, written) = (i + 16, written + 16);
            // After an ASCII step, a longer run is likely.
            // SAFETY: units i..len are readable, `cap - written` bytes
            // writable.
            let run = unsafe {
                narrow_ascii_runs::<SWAP, MODE>(
                    ptr.add(i),
                    len - i,
                    out.add(written),
                    cap - written,
                )
            };
            (i, written) = (i + run, written + run);
            continue;
        }
        if short::<MODE>(units) {
            if len - i >= 32 && room >= PAIRS_ROOM {
                // SAFETY: the block at `i` is whole, below U+0800, and the
                // room is `cap - written`.
                (i, written) = unsafe { pairs_run::<SWAP, MODE>(src, i, out, cap, written) };
                continue;
            }
            let lanes = encode_pairs(units);
            if room < lanes.total() {
                return stop(i, written, None);
            }
            // SAFETY: 16 units take 16 bytes or more, which fit.
            unsafe { store(&lanes, out.add(written)) };
            (i, written) = (i + 16, written + lanes.total());
            continue;
        }
        if bmp::<MODE>(units) {
            if len - i >= 32 && room >= BMP_ROOM {
                // SAFETY: the block at `i` is whole, has no surrogate, and
                // the room is `cap - written`.
                (i, written) = unsafe { bmp_run::<SWAP, MODE>(src, i, out, cap, written) };
                continue;
            }
            let [first, second] = encode_bmp(pack_order(units));
            let total = first.total() + second.total();
            if room < total {
                return stop(i, written, None);
            }
            // SAFETY: both blocks have 8 bytes or more, and fit (checked
            // just above).
            unsafe { store_two(&first, &second, out.add(written)) };
            (i, written) = (i + 16, written + total);
            continue;
        }
        if MODE != Mode::UTF8 {
            // An unpaired surrogate, a pair the block would split, or (in
            // Modified UTF-8) a 0 unit: one character at a time.
            // SAFETY: `out` has `cap` bytes, written <= cap.
            match unsafe { encode_units_in::<SWAP, MODE>(src, i, i + 16, out, cap, written) } {
                Units::Done(read, w) => (i, written) = (read, w),
                Units::Stop(s) => return s,
            }
            continue;
        }
        // Surrogate steps go on while they meet surrogates. With `carry`,
        // unit `i` is the low half of a pair already written: a stop reads
        // past it.
        let mut carry = false;
        loop {
            // The first unit not yet written.
            let j = i + usize::from(carry);
            if len - j >= 16 && cap - written >= 32 {
                // SAFETY: units j..j+16 are in bounds (checked just above).
                let units = unsafe { load16::<SWAP>(ptr.add(j)) };
                if let Some(bytes) = eight_pairs(units) {
                    // SAFETY: 32 bytes of room were just checked.
                    unsafe { _mm256_storeu_si256(out.add(written).cast(), bytes) };
                    (i, written, carry) = (j + 16, written + 32, false);
                    if len - i < 16 {
                        break;
                    }
                    continue;
                }
            }
            // SAFETY: units i..i+9 are in bounds (16 are); `cap - written`
            // bytes from `written` are writable.
            let step = unsafe {
                let at = out.add(written);
                step_surrogates::<SWAP>(ptr.add(i), at, cap - written, &mut written, carry)
            };
            match step {
                Step::Read {
                    surrogates,
                    carry: c,
                } => {
                    (i, carry) = (i + 8, c);
                    if !surrogates || len - i < 16 {
                        i += usize::from(carry);
                        break;
                    }
                }
                // With `carry`, the unpaired unit is not the first.
                Step::Unpaired(n) => return stop(i + n, written, Some(i + n)),
                Step::Full => return stop(i + usize::from(carry), written, None),
            }
        }
    }
    // The last 15 units or fewer.
    // SAFETY: `out` has `cap` bytes, written <= cap.
    match unsafe { encode_units_in::<SWAP, MODE>(src, i, len, out, cap, written) } {
        Units::Done(read, written) => stop(read, written, None),
        Units::Stop(s) => s,
    }
}
