//! The encoder's hot path: runs of blocks of one kind, each kind in its
//! own tight loop, with loose stores.
//!
//! A step of the general loop (in the parent module) tests which kind its
//! 16 units are, stores exactly (never a byte past its output) and keeps
//! a dozen values alive across its paths; on Zen cores the instructions
//! this costs, not any one latency, set its speed. Text keeps to one kind
//! of block for long stretches (Cyrillic to pairs, CJK and Indic scripts
//! to 1-3 bytes), so here each kind loops on its own, in a function of
//! its own (which keeps each loop's values in registers), with one test
//! per block to stay in the loop, and stores whole vectors: 16 bytes at a
//! time, each half right after the last one's bytes, zeros after the
//! step's output included.
//!
//! Those zeros lie past `written`, where the caller's bytes must survive.
//! A step of 16 units writes 16 bytes or more, starting with a whole
//! 16-byte store, so the next step covers the overhang of the step before
//! it. So a step stores loosely only once it knows the next block follows
//! in the same run: that block is whole, has room, and is of the run's
//! kind (hence valid). Otherwise it stores exactly (`store`, `store_two`)
//! and the run ends. (Saving the caller's 16 bytes past each step's output
//! and putting them back at the end instead costs a load from the output
//! ahead of the stores, which on Zen 5 can halve the speed of mostly-ASCII
//! text when the output is not in cache.) The runs stop at the first block
//! that is not whole, not valid, or without room for its largest output
//! and 16 bytes more; the exact loop takes over there.

use core::arch::x86_64::*;

use super::block::{
    all_valid, any_surrogate, encode_any, encode_bmp, encode_pairs, narrow_ascii32, narrow_bytes,
    narrow_words, none_of, pack_words, store, store_loose, store_two, Lanes,
};

/// How many units ahead the pairs loop has input fetched.
const AHEAD: usize = 512;

/// Room a loose step needs: 16 units of 4 bytes, and 16 bytes of overhang.
const ROOM: usize = 16 * 4 + 16;

/// Where the runs are: the input and output, and the limits within which
/// a block of 16 units may be encoded loosely.
#[derive(Clone, Copy)]
struct Span {
    src: *const u32,
    len: usize,
    out: *mut u8,
    /// The last index at which 16 units start.
    last_block: usize,
    /// The last output position with [`ROOM`] bytes of room after it.
    last_room: usize,
}

impl Span {
    /// Whether the block at `i` is whole and has room at `written`.
    #[inline(always)]
    fn ready(&self, i: usize, written: usize) -> bool {
        i <= self.last_block && written <= self.last_room
    }

    /// The 16 units at `i`.
    ///
    /// # Safety
    /// `i + 16 <= len`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load(&self, i: usize) -> (__m256i, __m256i) {
        // SAFETY: units i..i+16 are in bounds (the caller's promise).
        unsafe {
            let p = self.src.add(i).cast::<__m256i>();
            (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)))
        }
    }
}

/// Encodes `src` from its start while blocks of 16 units are whole, valid
/// and have room (see the module docs). Returns the units read and the
/// bytes written; nothing past the latter is changed.
///
/// # Safety
/// The CPU must support the enabled features; `out` points to `cap`
/// writable bytes.
#[target_feature(enable = "avx2,popcnt,bmi1")]
pub(super) unsafe fn encode_runs(src: &[u32], out: *mut u8, cap: usize) -> (usize, usize) {
    let len = src.len();
    if len < 16 || cap < ROOM {
        return (0, 0);
    }
    let span = Span {
        src: src.as_ptr(),
        len,
        out,
        last_block: len - 16,
        last_room: cap - ROOM,
    };
    let (mut i, mut written) = (0, 0);
    while span.ready(i, written) {
        // SAFETY: `ready` checked the block and the room each run needs.
        (i, written) = unsafe {
            let (a, b) = span.load(i);
            let any = _mm256_or_si256(a, b);
            if none_of(any, 0xFFFF_FF80) {
                ascii_run(&span, i, written)
            } else if none_of(any, 0xFFFF_F800) {
                pairs_run(&span, i, written)
            } else if none_of(any, 0xFFFF_0000)
                && !any_surrogate(pack_words(a, b), pack_words(a, b))
            {
                bmp_run(&span, i, written)
            } else if all_valid(a, b) {
                any_run(&span, i, written)
            } else {
                break;
            }
        };
    }
    (i, written)
}

/// ASCII from the block at `i`: it, then 32 units a step while they are
/// ASCII and fit. Returns where it stopped (units read, bytes written).
/// Its stores are exact.
///
/// # Safety
/// As for [`encode_runs`]; the block at `i` is ASCII and `span.ready(i,
/// written)`.
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn ascii_run(span: &Span, mut i: usize, mut written: usize) -> (usize, usize) {
    let out = span.out;
    // SAFETY: the block is whole and ASCII; `ready` left room for its 16
    // bytes.
    unsafe {
        let (a, b) = span.load(i);
        _mm_storeu_si128(out.add(written).cast(), narrow_bytes(narrow_words(a, b)));
    }
    (i, written) = (i + 16, written + 16);
    while span.len - i >= 32 && span.last_room + ROOM - written >= 32 {
        // SAFETY: units i..i+32 are in bounds.
        let ((a, b), (c, d)) = unsafe { (span.load(i), span.load(i + 16)) };
        let any = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
        if !none_of(any, 0xFFFF_FF80) {
            break;
        }
        // SAFETY: 32 bytes of room (checked).
        unsafe { _mm256_storeu_si256(out.add(written).cast(), narrow_ascii32(a, b, c, d)) };
        (i, written) = (i + 32, written + 32);
    }
    (i, written)
}

/// Blocks of units below U+0800 from `i` (ASCII blocks among them too):
/// pairs loosely while the next block follows, ASCII exactly. Returns
/// where it stopped.
///
/// # Safety
/// As for [`ascii_run`], the block at `i` below U+0800.
#[inline(never)]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn pairs_run(span: &Span, mut i: usize, mut written: usize) -> (usize, usize) {
    let out = span.out;
    // SAFETY: the block is whole.
    let (mut a, mut b) = unsafe { span.load(i) };
    let mut any = _mm256_or_si256(a, b);
    loop {
        // ASCII blocks take one test each.
        while none_of(any, 0xFFFF_FF80) {
            // SAFETY: `ready` left room for 16 bytes.
            unsafe { _mm_storeu_si128(out.add(written).cast(), narrow_bytes(narrow_words(a, b))) };
            (i, written) = (i + 16, written + 16);
            if !span.ready(i, written) {
                return (i, written);
            }
            // On mostly-ASCII text each mispredicted test waits for its
            // block's load; from memory that is long. A hint never faults.
            _mm_prefetch::<_MM_HINT_T0>(span.src.wrapping_add(i + AHEAD).cast());
            // SAFETY: the block is whole (`ready`).
            (a, b) = unsafe { span.load(i) };
            any = _mm256_or_si256(a, b);
        }
        if !none_of(any, 0xFFFF_F800) {
            return (i, written);
        }
        let lanes = encode_pairs(narrow_words(a, b));
        let (next, end) = (i + 16, written + lanes.total());
        if span.ready(next, end) {
            _mm_prefetch::<_MM_HINT_T0>(span.src.wrapping_add(next + AHEAD).cast());
            // SAFETY: the block is whole (`ready`).
            (a, b) = unsafe { span.load(next) };
            any = _mm256_or_si256(a, b);
            if none_of(any, 0xFFFF_F800) {
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

/// Stores two blocks (16 units) at `out`: loosely if `loose` (the next
/// step writes over the overhang), else exactly. Returns their length.
///
/// # Safety
/// `out` has room for both blocks' bytes and, if `loose`, 16 more; each
/// block has 8 bytes or more.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn put_two(first: &Lanes, second: &Lanes, out: *mut u8, loose: bool) -> usize {
    // SAFETY: the caller's promises; the first block's overhang is covered
    // by the second's first store, a whole vector.
    unsafe {
        if loose {
            store_loose(first, out);
            store_loose(second, out.add(first.total()));
        } else {
            store_two(first, second, out);
        }
    }
    first.total() + second.total()
}

/// Blocks of scalar values below U+10000 from `i`. Returns where it
/// stopped: before a block with a surrogate or a unit above U+FFFF, or
/// after a block of 32 bytes or fewer (mostly 1 and 2 bytes: the next may
/// go faster as pairs; testing the next block itself costs more than the
/// odd detour).
///
/// # Safety
/// As for [`ascii_run`], the block at `i` below U+10000 without
/// surrogates.
#[inline(never)]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn bmp_run(span: &Span, mut i: usize, mut written: usize) -> (usize, usize) {
    let out = span.out;
    // SAFETY: the block is whole.
    let (a, b) = unsafe { span.load(i) };
    let mut words = pack_words(a, b);
    loop {
        let [first, second] = encode_bmp(words);
        let total = first.total() + second.total();
        let (next, end) = (i + 16, written + total);
        let mut follows = false;
        if total > 32 && span.ready(next, end) {
            // SAFETY: the block is whole (`ready`).
            let (a, b) = unsafe { span.load(next) };
            if none_of(_mm256_or_si256(a, b), 0xFFFF_0000) {
                words = pack_words(a, b);
                follows = !any_surrogate(words, words);
            }
        }
        // SAFETY: `ready` left room for the output (16 to 48 bytes) and 16
        // more; if the next block follows, it writes over the latter.
        unsafe { put_two(&first, &second, out.add(written), follows) };
        (i, written) = (next, end);
        if !follows {
            return (i, written);
        }
    }
}

/// Blocks with units above U+FFFF from `i`, while all are scalar values.
/// Returns where it stopped.
///
/// # Safety
/// As for [`ascii_run`], every unit of the block at `i` a scalar value.
#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn any_run(span: &Span, mut i: usize, mut written: usize) -> (usize, usize) {
    let out = span.out;
    // SAFETY: the block is whole.
    let (mut a, mut b) = unsafe { span.load(i) };
    loop {
        let (first, second) = (encode_any(a), encode_any(b));
        let (next, end) = (i + 16, written + first.total() + second.total());
        let mut follows = false;
        if span.ready(next, end) {
            // SAFETY: the block is whole (`ready`).
            (a, b) = unsafe { span.load(next) };
            follows = !none_of(_mm256_or_si256(a, b), 0xFFFF_0000) && all_valid(a, b);
        }
        // SAFETY: `ready` left room for the output (16 to 64 bytes) and 16
        // more; if the next block follows, it writes over the latter.
        unsafe { put_two(&first, &second, out.add(written), follows) };
        (i, written) = (next, end);
        if !follows {
            return (i, written);
        }
    }
}
