//! UTF-8 to UCS-4 or UTF-16, 12 bytes a step: the decoder of the SSE4.2
//! and NEON tiers, written once over [`Lanes`].
//!
//! The decoder validates a chunk (up to 256 bytes) ahead of its output, then
//! converts the valid part. Each step looks at the 16 bytes at the current
//! character boundary; bit `j` of a 12-bit mask says that a character ends at
//! byte `j` (byte `j+1` is not a continuation). That mask selects a plan
//! from a table built at compile time: how many bytes the step consumes, how
//! many characters it writes, and a byte shuffle (`PSHUFB`, `TBL`) that gathers each
//! character's bytes into a lane, *last byte lowest*, zero-filled:
//!
//! - "short": six to eight characters of one or two bytes, in 16-bit lanes.
//! - "long": three or four characters of one to four bytes, in 32-bit lanes.
//!
//! Each tier joins the lanes' bits into code points its own way
//! ([`Lanes::short_lanes`], [`Lanes::long_lanes`]).
//!
//! Sixteen ASCII bytes take a shortcut. The lanes go out through a
//! [`Sink`]: as code points, or as UTF-16 units, where the 16-bit lanes of a
//! short plan are stored as they are and the 32-bit lanes of a long one are
//! narrowed (when none is supplementary) or become their units, one or two
//! a lane, packed by a table keyed by which lanes take two.
//!
//! A step stores up to 8 lanes (units), a few
//! past its own characters; it runs only while 8 more bytes (so at least 2
//! more characters) of validated input follow it and the whole validated
//! stretch fits the output, so every such lane is overwritten by a later
//! character before the kernel returns. The kernel ends with exact scalar
//! writes, so no lane at or past the returned `written` is ever touched.

use super::lanes::Lanes;
use super::units::put16;
use super::utf8::{checked, ends_incomplete, four_valid, plain, NO_STOPS};
use super::vector::load_four;
use crate::contract::{restart_point, FastStop};

/// The error bits of a block, as RFC 3629 has them.
#[inline(always)]
fn checked_block<V: Lanes>(block: V, prev: V) -> super::utf8::Checked<V> {
    checked::<V, NO_STOPS>(block, prev)
}

/// Bytes validated per round.
const CHUNK: usize = 512;
/// A step runs while this many validated bytes remain: its 12 plus 8.
const STEP_NEED: usize = 20;

/// Plan ids: "long" plans of 4 and 3 characters (2 bits of length - 1 each),
/// then "short" plans of 6, 7 and 8 characters (1 bit each).
const LONG_4: usize = 0;
const LONG_3: usize = 256;
const SHORT_6: usize = 320;
const SHORT_7: usize = 384;
const SHORT_8: usize = 512;
const PLANS: usize = 768;
/// The rows of [`SHUFFLES`]: `PLANS` rounded up to a power of two, so that
/// masking an id bounds it (the rows past `PLANS` are never used).
const ROWS: usize = 1024;
/// The long plan of four 3-byte characters.
const FOUR_THREES: usize = LONG_4 + 0b10_10_10_10;
/// The end-of-character bits of four 3-byte characters.
const FOUR_THREE_ENDS: u64 = 0b1001_0010_0100;
/// Those of eight.
const EIGHT_THREE_ENDS: u64 = FOUR_THREE_ENDS << 12 | FOUR_THREE_ENDS;
/// The short plan of six 2-byte characters.
const SIX_TWOS: usize = SHORT_6 + 0b11_1111;

/// The characters of plan `id`: how many, and their lengths.
const fn plan_chars(id: usize) -> (usize, [usize; 8]) {
    let mut lens = [0usize; 8];
    let (k, code, bits) = if id < LONG_3 {
        (4, id - LONG_4, 2)
    } else if id < SHORT_6 {
        (3, id - LONG_3, 2)
    } else if id < SHORT_7 {
        (6, id - SHORT_6, 1)
    } else if id < SHORT_8 {
        (7, id - SHORT_7, 1)
    } else {
        (8, id - SHORT_8, 1)
    };
    let mut j = 0;
    while j < k {
        lens[j] = ((code >> (bits * j)) & ((1 << bits) - 1)) + 1;
        j += 1;
    }
    (k, lens)
}

/// The byte shuffle of each plan (0x80 zeroes a byte). Every index is below
/// 16: at most 4 characters of 4 bytes or 8 of 2.
#[repr(align(16))]
struct Shuffles([[u8; 16]; ROWS]);

static SHUFFLES: Shuffles = {
    let mut table = [[0x80u8; 16]; ROWS];
    let mut id = 0;
    while id < PLANS {
        let (k, lens) = plan_chars(id);
        let (mut j, mut start) = (0, 0);
        while j < k {
            let last = start + lens[j] - 1;
            let mut t = 0;
            while t < lens[j] {
                let lane_byte = if id < SHORT_6 { 4 * j + t } else { 2 * j + t };
                table[id][lane_byte] = (last - t) as u8;
                t += 1;
            }
            start += lens[j];
            j += 1;
        }
        id += 1;
    }
    Shuffles(table)
};

/// For each 12-bit end-of-character mask: the bytes its plan consumes (bits
/// 0..8), the plan id (bits 8..24) and the characters it writes (bits
/// 24..32). Masks that valid input cannot produce (a character longer than 4
/// bytes) get a harmless plan: every plan writes at most as many characters
/// as it consumes bytes, which the capacity reasoning in `steps` relies on.
static STEPS: [u32; 4096] = {
    let mut table = [0u32; 4096];
    let mut mask = 0;
    while mask < 4096 {
        let mut lens = [0usize; 12];
        let (mut n, mut start, mut p) = (0, 0, 0);
        while p < 12 {
            if mask >> p & 1 == 1 {
                lens[n] = p + 1 - start;
                n += 1;
                start = p + 1;
            }
            p += 1;
        }
        let mut short = 0;
        while short < n && short < 8 && lens[short] <= 2 {
            short += 1;
        }
        let mut long = 0;
        while long < n && long < 4 && lens[long] <= 4 {
            long += 1;
        }
        let (id, mut k, bits) = if short >= 6 {
            let base = [SHORT_6, SHORT_7, SHORT_8][short - 6];
            (base, short, 1)
        } else if long >= 3 {
            ([LONG_3, LONG_4][long - 3], long, 2)
        } else {
            (LONG_3, 0, 2)
        };
        let (mut code, mut consumed, mut j) = (0, 0, 0);
        while j < k {
            code |= (lens[j] - 1) << (bits * j);
            consumed += lens[j];
            j += 1;
        }
        if k == 0 {
            // Three one-byte characters, as `LONG_3 + 0`.
            (consumed, k) = (3, 3);
        }
        table[mask] = (consumed | (id + code) << 8 | k << 24) as u32;
        mask += 1;
    }
    table
};

/// Non-continuation bits of bytes `[at, at+64)` of `src`, zero-filled past
/// its end (so the bits past the end are set).
#[inline(always)]
fn leads64<V: Lanes>(src: &[u8], at: usize) -> u64 {
    let blocks = if src.len() - at >= 64 {
        // SAFETY: bytes at..at+64 are in bounds; a `V` is in use, so the
        // CPU has its instruction set.
        unsafe { load_four::<V>(src, at) }
    } else {
        // SAFETY: as above.
        // (Four calls, not `map`, which the compiler may leave a call: a
        // call in the loop makes it keep vector constants on the stack.)
        unsafe {
            [
                V::chunk(src, at),
                V::chunk(src, at + 16),
                V::chunk(src, at + 32),
                V::chunk(src, at + 48),
            ]
        }
    };
    V::leads64(blocks)
}

/// Where decoded characters go, and in what units.
trait Sink<V: Lanes> {
    type Unit;
    /// Writes 16 ASCII bytes as 16 units.
    ///
    /// # Safety
    /// `dst` has room for 16 units.
    unsafe fn ascii(input: V, dst: *mut Self::Unit, k: &V::Constants);
    /// Writes the 8 characters of a short plan, below U+0800 in 16-bit
    /// lanes, as 8 units.
    ///
    /// # Safety
    /// `dst` has room for 8 units.
    unsafe fn short(cps: V, dst: *mut Self::Unit);
    /// Writes the code points of a long plan, in 32-bit lanes (a lane past
    /// the plan's characters holds zero); returns how many units past one a
    /// character they took (the supplementary ones, in UTF-16).
    ///
    /// # Safety
    /// `dst` has room for 8 units.
    unsafe fn long(cps: V, dst: *mut Self::Unit) -> usize;
    /// [`Sink::long`] for four characters below U+10000 (no pair).
    ///
    /// # Safety
    /// `dst` has room for 4 units.
    unsafe fn four_bmp(cps: V, dst: *mut Self::Unit);
    /// Writes one character if its units fit `room`; returns how many it
    /// wrote (0 when they do not fit).
    ///
    /// # Safety
    /// `dst` has room for `room` units.
    unsafe fn one(cp: u32, dst: *mut Self::Unit, room: usize) -> usize;
}

/// Code points.
struct Ucs4;

impl<V: Lanes> Sink<V> for Ucs4 {
    type Unit = u32;

    #[inline(always)]
    unsafe fn ascii(input: V, dst: *mut u32, k: &V::Constants) {
        // SAFETY: the caller's promise of room.
        unsafe { input.ascii_ucs4(dst, k) }
    }

    #[inline(always)]
    unsafe fn short(cps: V, dst: *mut u32) {
        // SAFETY: the caller's promise of room.
        unsafe { cps.short_ucs4(dst) }
    }

    #[inline(always)]
    unsafe fn long(cps: V, dst: *mut u32) -> usize {
        // SAFETY: 4 of the 8 units of room.
        unsafe { cps.long_ucs4(dst) };
        0
    }

    #[inline(always)]
    unsafe fn four_bmp(cps: V, dst: *mut u32) {
        // SAFETY: the caller's promise of room.
        unsafe { cps.long_ucs4(dst) }
    }

    #[inline]
    unsafe fn one(cp: u32, dst: *mut u32, room: usize) -> usize {
        if room == 0 {
            return 0;
        }
        // SAFETY: one unit of room.
        unsafe { dst.write(cp) };
        1
    }
}

/// UTF-16 units, byte-swapped with `SWAP`.
struct Utf16<const SWAP: bool>;

impl<V: Lanes, const SWAP: bool> Sink<V> for Utf16<SWAP> {
    type Unit = u16;

    #[inline(always)]
    unsafe fn ascii(input: V, dst: *mut u16, _k: &V::Constants) {
        // SAFETY: the caller's promise of room.
        unsafe { input.ascii_utf16::<SWAP>(dst) }
    }

    #[inline(always)]
    unsafe fn short(cps: V, dst: *mut u16) {
        // SAFETY: the caller's promise of room.
        unsafe { cps.short_utf16::<SWAP>(dst) }
    }

    #[inline(always)]
    unsafe fn long(cps: V, dst: *mut u16) -> usize {
        // SAFETY: the caller's promise of room.
        unsafe { cps.long_utf16::<SWAP>(dst) }
    }

    #[inline(always)]
    unsafe fn four_bmp(cps: V, dst: *mut u16) {
        // SAFETY: the caller's promise of room.
        unsafe { cps.bmp_utf16::<SWAP>(dst) }
    }

    #[inline]
    unsafe fn one(cp: u32, dst: *mut u16, room: usize) -> usize {
        if room < 1 + usize::from(cp >= 0x1_0000) {
            return 0;
        }
        // SAFETY: room for its units (checked just above).
        unsafe { put16::<SWAP>(cp, dst) }
    }
}

/// Decodes whole steps of the valid stretch `src[pos..end)` to `out +
/// written`, while at least `STEP_NEED` bytes remain. Returns the new
/// `(pos, written)`.
///
/// # Safety
/// `src[pos..end)` is valid UTF-8 starting at a character boundary, and `out`
/// has room for `end - pos` units from `written`.
#[inline(always)]
unsafe fn steps<V: Lanes, S: Sink<V>>(
    src: &[u8],
    mut pos: usize,
    end: usize,
    out: *mut S::Unit,
    mut written: usize,
) -> (usize, usize) {
    if pos + STEP_NEED > end {
        return (pos, written);
    }
    // The loop's constants, made here once: left to itself, the compiler
    // makes a constant again at each use on a path the loop does not always
    // take (a third of a NEON step's instructions).
    // SAFETY: the caller's promise of V's instruction set.
    let (four_threes, six_twos, k) = unsafe {
        (
            V::load(SHUFFLES.0[FOUR_THREES].as_ptr()).pinned(),
            V::load(SHUFFLES.0[SIX_TWOS].as_ptr()).pinned(),
            V::constants(),
        )
    };
    // Bit j of `ends`: a character ends at byte pos+j (byte pos+j+1 is not a
    // continuation); valid for j < 63 - at, where `at` counts the bytes
    // consumed since `ends` was loaded. Shifting it by each step's byte count
    // keeps the table index two instructions after the table load.
    let mut ends = leads64::<V>(src, pos) >> 1;
    // `ends` is loaded again once `at` > 51 (12 valid bits left), at
    // `pos > reload`; the bits past the valid ones are 0.
    let mut reload = pos + 51;
    // Capacity: with w0, p0 the entry values, every plan writes at most one
    // unit per byte consumed (a UTF-16 pair comes from 4 bytes), so written
    // - w0 <= pos - p0 <= end - 20 - p0, and the furthest store (16 units for
    // ASCII, 8 otherwise) ends at most at w0 + end - p0 - 4, within the room
    // the caller guarantees.
    // (`end >= STEP_NEED`, as checked above.)
    let last = end - STEP_NEED;
    // One test a step for both limits: `stop` is the nearer.
    let mut stop = reload.min(last);
    loop {
        if pos > stop {
            if pos > last {
                break;
            }
            ends = leads64::<V>(src, pos) >> 1;
            reload = pos + 51;
            stop = reload.min(last);
        }
        // SAFETY: pos + 16 <= end <= src.len().
        let input = unsafe { V::load(src.as_ptr().add(pos)) };
        // When bits 0..16 of `ends` are set, the 16 bytes are ASCII: in
        // valid UTF-8 a byte followed by a lead byte (or ASCII) is not a
        // multi-byte lead. (Bits 12..16 may be past the valid ones, which
        // are 0: the test can fail, never pass, for want of them.)
        if ends & 0xFFFF == 0xFFFF {
            let mut input = input;
            loop {
                // SAFETY: 16 units from `written` are in room (see above).
                unsafe { S::ascii(input, out.add(written), &k) };
                pos += 16;
                written += 16;
                if pos > last {
                    break;
                }
                // SAFETY: pos + 16 <= end <= src.len().
                input = unsafe { V::load(src.as_ptr().add(pos)) };
                if input.any_high() {
                    break;
                }
            }
            // Load `ends` again at the next step.
            stop = 0;
            continue;
        }
        let dst = out.wrapping_add(written);
        if ends & 0xFFF == 0b1010_1010_1010 {
            // Six 2-byte characters (Cyrillic, Greek, Arabic, Hebrew words):
            // a fixed plan too.
            // SAFETY: 8 units from `written` are in room (see above).
            unsafe { S::short(six_twos.lookup(input).short_lanes_with(&k), dst) };
            ends >>= 12;
            pos += 12;
            written += 6;
            continue;
        }
        if ends & 0xFFF == FOUR_THREE_ENDS {
            // Four 3-byte characters (most CJK text): a fixed plan, which
            // keeps the table load off the chain from one step to the next,
            // and a loop of its own while they last, with no ASCII test.
            // Eight at a time while `ends` has 24 valid bits (at <= 39,
            // so pos + 12 <= stop) and 32 bytes are in bounds (pos + 12 <=
            // last = end - 20).
            let mut input = input;
            loop {
                let dst = out.wrapping_add(written);
                if ends & 0xFF_FFFF == EIGHT_THREE_ENDS && pos + 12 <= stop {
                    // SAFETY: 32 bytes from pos are in bounds (above); 8
                    // units from `written` are in room (see above).
                    unsafe { S::short(V::eight_threes(src.as_ptr().add(pos), &k), dst) };
                    ends >>= 24;
                    pos += 24;
                    written += 8;
                } else {
                    // SAFETY: 8 units from `written` are in room.
                    unsafe {
                        let cps = four_threes.lookup(input).three_lanes_with(&k);
                        S::four_bmp(cps, dst);
                    }
                    ends >>= 12;
                    pos += 12;
                    written += 4;
                }
                if pos > stop || ends & 0xFFF != FOUR_THREE_ENDS {
                    break;
                }
                // SAFETY: pos <= stop <= end - STEP_NEED, so pos + 16 <= end.
                input = unsafe { V::load(src.as_ptr().add(pos)) };
            }
            continue;
        }
        let plan = STEPS[(ends & 0xFFF) as usize] as usize;
        let id = (plan >> 8) & (ROWS - 1);
        // SAFETY: a row of the table, 16 bytes (id < ROWS by the mask).
        let shuffle = unsafe { V::load(SHUFFLES.0[id].as_ptr()) };
        let x = shuffle.lookup(input);
        let mut extra = 0;
        if id < SHORT_6 {
            // SAFETY: 8 units from `written` are in room (see above).
            extra = unsafe { S::long(x.long_lanes_with(&k), dst) };
        } else {
            // SAFETY: 8 units from `written` are in room (see above).
            unsafe { S::short(x.short_lanes_with(&k), dst) };
        }
        let consumed = plan & 0xFF;
        ends >>= consumed;
        pos += consumed;
        written += (plan >> 24) + extra;
    }
    (pos, written)
}

/// Decodes the valid stretch `src[pos..end)` one character at a time, as far
/// as `cap` allows. Returns the new `(pos, written)`.
///
/// # Safety
/// `out` points to `cap` writable units, and `written <= cap`.
unsafe fn finish<V: Lanes, S: Sink<V>>(
    src: &[u8],
    mut pos: usize,
    end: usize,
    out: *mut S::Unit,
    mut written: usize,
    cap: usize,
) -> (usize, usize) {
    while pos < end {
        let lead = src[pos];
        let (n, mut cp) = match lead {
            0x00..=0x7F => (1, lead as u32),
            0x80..=0xDF => (2, (lead & 0x1F) as u32),
            0xE0..=0xEF => (3, (lead & 0x0F) as u32),
            _ => (4, (lead & 0x07) as u32),
        };
        for &b in &src[pos + 1..pos + n] {
            cp = cp << 6 | (b & 0x3F) as u32;
        }
        // SAFETY: `cap - written` units from `written` are writable.
        let units = unsafe { S::one(cp, out.add(written), cap - written) };
        if units == 0 {
            break;
        }
        written += units;
        pos += n;
    }
    (pos, written)
}

/// Decodes the longest valid prefix of `src` to code points, stopping at a
/// character boundary before the first error or when `out` is full.
///
/// # Safety
/// The CPU has `V`'s instruction set; `out` points to `cap` writable code
/// points.
#[inline(always)]
pub(crate) unsafe fn decode<V: Lanes>(src: &[u8], out: *mut u32, cap: usize) -> FastStop {
    // SAFETY: the caller's promises.
    unsafe { decode_to::<V, Ucs4>(src, out, cap) }
}

/// Decodes the longest valid prefix of `src` to UTF-16 (byte-swapped with
/// `swap`), stopping at a character boundary before the first error or
/// when `out` is full; a pair is written whole or not at all.
///
/// # Safety
/// The CPU has `V`'s instruction set; `out` points to `cap` writable units.
#[inline(always)]
pub(crate) unsafe fn decode_utf16<V: Lanes>(
    src: &[u8],
    out: *mut u16,
    cap: usize,
    swap: bool,
) -> FastStop {
    // SAFETY: the caller's promises.
    unsafe {
        if swap {
            decode_to::<V, Utf16<true>>(src, out, cap)
        } else {
            decode_to::<V, Utf16<false>>(src, out, cap)
        }
    }
}

/// [`decode`] into any [`Sink`].
///
/// # Safety
/// The CPU has `V`'s instruction set; `out` points to `cap` writable units.
#[inline(always)]
unsafe fn decode_to<V: Lanes, S: Sink<V>>(src: &[u8], out: *mut S::Unit, cap: usize) -> FastStop {
    const { assert!(V::BYTES == 16, "written for 16-byte blocks") };
    let len = src.len();
    let (mut pos, mut written) = (0, 0);
    let mut checked = 0;
    // SAFETY: the caller's promise of V's instruction set.
    let mut prev = unsafe { V::splat(0) };
    loop {
        // An ASCII run, when everything validated so far is decoded: valid
        // as it stands (after a block that ends complete), so it is widened
        // as it is tested, 64 bytes a test.
        if pos == checked && !ends_incomplete(prev) {
            // Whole steps of 64 that the input holds and the output fits.
            let steps = ((len - pos) / 64).min((cap - written) / 64);
            // SAFETY: the caller's promise of V's instruction set.
            let k = unsafe { V::constants() };
            for _ in 0..steps {
                // SAFETY: bytes pos..pos+64 are in bounds.
                let four = unsafe { load_four::<V>(src, pos) };
                if !plain::<V, NO_STOPS>(four) {
                    break;
                }
                // SAFETY: 64 units of room (`steps`).
                unsafe {
                    let dst = out.add(written);
                    S::ascii(four[0], dst, &k);
                    S::ascii(four[1], dst.add(16), &k);
                    S::ascii(four[2], dst.add(32), &k);
                    S::ascii(four[3], dst.add(48), &k);
                }
                (pos, written) = (pos + 64, written + 64);
                prev = four[3];
            }
            checked = pos;
        }
        // Validate the next chunk.
        let chunk_end = (checked + CHUNK).min(len);
        let mut error = None;
        while checked + 64 <= chunk_end {
            // SAFETY: bytes checked..checked+64 are in bounds.
            let four = unsafe { load_four::<V>(src, checked) };
            if !four_valid::<V, NO_STOPS>(four, prev) {
                break; // Found one block at a time below.
            }
            prev = four[3];
            checked += 64;
        }
        while checked < chunk_end {
            // SAFETY: the caller's promise of V's instruction set.
            let block = unsafe { V::chunk(src, checked) };
            let bad = if !block.any_high() {
                if ends_incomplete(prev) {
                    Some(checked)
                } else {
                    None
                }
            } else {
                match checked_block(block, prev).errors.nonzero_mask() {
                    0 => None,
                    f => Some(checked + V::first_set(f)),
                }
            };
            if let Some(e) = bad {
                error = Some(e.min(len));
                break;
            }
            prev = block;
            checked += 16;
        }
        let last = error.is_some() || checked >= len;
        if last && error.is_none() && ends_incomplete(prev) {
            error = Some(len);
        }
        // Everything before `end` is complete and valid: up to the restart
        // point of an error, or short of a character the chunk may cut.
        let end = match error {
            Some(e) => restart_point(src, e),
            None if last => len,
            None => restart_point(src, checked),
        };
        // A restart point is the last character start before the error or
        // the cut; after an ASCII run that ends right there it is the run's
        // last byte, already decoded, and the stretch to convert is empty.
        let end = end.max(pos);
        let fits = cap - written >= end - pos;
        if fits {
            // SAFETY: src[pos..end) is valid from a boundary; room for end - pos.
            (pos, written) = unsafe { steps::<V, S>(src, pos, end, out, written) };
        }
        if last || !fits {
            // SAFETY: `out` has `cap` units and written <= cap.
            let (read, written) = unsafe { finish::<V, S>(src, pos, end, out, written, cap) };
            return FastStop {
                read,
                written,
                flagged: if read == end { error } else { None },
            };
        }
    }
}
