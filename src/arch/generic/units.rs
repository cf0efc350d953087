//! UTF-16 to UTF-8 one character at a time, exactly: for the blocks with
//! surrogates that the vector encoders do not take whole, and for their
//! last few units, which the engine's reference core (policies, sinks) would
//! take at several times the cost per character; and one code point's
//! UTF-8 or UTF-16, for the same ends of the decoders and encoders.

use crate::contract::{FastStop, Mode};

/// Unit `i` in native order.
#[inline(always)]
fn unit<const SWAP: bool>(src: &[u16], i: usize) -> u16 {
    if SWAP {
        src[i].swap_bytes()
    } else {
        src[i]
    }
}

/// Writes the UTF-8 of scalar value `c` at `out`; returns its length. The
/// bytes go out in one or two fixed-size stores: a copy of `len` bytes
/// becomes a call to `memcpy`, which took most of a short call's time.
///
/// # Safety
/// `out` has room for that length.
#[inline]
pub(crate) unsafe fn put(c: u32, out: *mut u8) -> usize {
    let cont = |shift: u32| 0x80 | (c >> shift & 0x3F);
    // The bytes, first lowest.
    let (word, len) = match c {
        0..=0x7F => (c, 1),
        0x80..=0x7FF => (0xC0 | c >> 6 | cont(0) << 8, 2),
        0x800..=0xFFFF => (0xE0 | c >> 12 | cont(6) << 8 | cont(0) << 16, 3),
        _ => (
            0xF0 | c >> 18 | cont(12) << 8 | cont(6) << 16 | cont(0) << 24,
            4,
        ),
    };
    let bytes = word.to_le_bytes();
    // SAFETY: each store lies in the `len` bytes of room.
    unsafe {
        match len {
            1 => out.write(bytes[0]),
            2 => out.cast::<[u8; 2]>().write_unaligned([bytes[0], bytes[1]]),
            3 => {
                out.cast::<[u8; 2]>().write_unaligned([bytes[0], bytes[1]]);
                out.add(2).write(bytes[2]);
            }
            _ => out.cast::<[u8; 4]>().write_unaligned(bytes),
        }
    }
    len
}

/// Writes the UTF-16 of scalar value `c` at `out`, byte-swapped with
/// `SWAP`; returns how many units (one or two). One or two plain stores, as
/// in [`put`].
///
/// # Safety
/// `out` has room for that many units.
#[inline]
pub(crate) unsafe fn put16<const SWAP: bool>(c: u32, out: *mut u16) -> usize {
    let order = |u: u32| {
        if SWAP {
            (u as u16).swap_bytes()
        } else {
            u as u16
        }
    };
    // SAFETY: one unit, or two for a pair, of room.
    unsafe {
        if c < 0x1_0000 {
            out.write(order(c));
            1
        } else {
            out.write(order(0xD7C0 + (c >> 10)));
            out.add(1).write(order(0xDC00 | (c & 0x3FF)));
            2
        }
    }
}

/// How a stretch of characters ended.
pub(crate) enum Units {
    /// Past the stretch (one unit past it when a pair crossed its end):
    /// where, and the bytes written so far.
    Done(usize, usize),
    /// Stopped: the kernel returns this. At an unpaired surrogate
    /// (flagged), at a high surrogate that ends the input (its pair may come
    /// with more input: the reference core decides), or where the room ends.
    Stop(FastStop),
}

/// Encodes the units `src[pos..end)` one character at a time into the
/// `cap` bytes at `out` from `written`; a pair may end one unit past `end`.
/// The forms are `MODE`'s ([`Mode`]): with CESU-8 and Modified UTF-8, a
/// pair is written as two 3-byte forms (the 3-byte bit pattern applied to
/// each surrogate unit), and with Modified UTF-8 a 0 unit as C0 80; an
/// unpaired surrogate stops it in every mode.
///
/// # Safety
/// `out` points to `cap` writable bytes; `written <= cap`.
pub(crate) unsafe fn encode_units_in<const SWAP: bool, const MODE: u8>(
    src: &[u16],
    mut pos: usize,
    end: usize,
    out: *mut u8,
    cap: usize,
    mut written: usize,
) -> Units {
    let stop = |read, written, flagged| {
        Units::Stop(FastStop {
            read,
            written,
            flagged,
        })
    };
    while pos < end {
        let u = unit::<SWAP>(src, pos);
        let (c, units) = match u {
            0xD800..=0xDBFF if pos + 1 == src.len() => return stop(pos, written, None),
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
        if MODE != Mode::UTF8 && (units == 2 || (MODE == Mode::MUTF8 && c == 0)) {
            let n = if units == 2 { 6 } else { 2 };
            if cap - written < n {
                return stop(pos, written, None);
            }
            // SAFETY: n bytes of room (checked just above): a pair's two
            // halves take 3 bytes each (`put` of a surrogate value writes
            // its 3-byte form), U+0000 the two of C0 80.
            unsafe {
                let at = out.add(written);
                if units == 2 {
                    put(u32::from(u), at);
                    put(u32::from(unit::<SWAP>(src, pos + 1)), at.add(3));
                } else {
                    at.cast::<[u8; 2]>().write_unaligned([0xC0, 0x80]);
                }
            }
            written += n;
            pos += units;
            continue;
        }
        let n = 1 + usize::from(c >= 0x80) + usize::from(c >= 0x800) + usize::from(c >= 0x1_0000);
        // The reference core stops exactly where the room ends.
        if cap - written < n {
            return stop(pos, written, None);
        }
        // SAFETY: n bytes of room (checked just above).
        written += unsafe { put(c, out.add(written)) };
        pos += units;
    }
    Units::Done(pos, written)
}
