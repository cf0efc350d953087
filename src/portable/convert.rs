//! The fast loops of the conversions between Latin-1, UTF-16 and UCS-4,
//! written once in plain Rust and compiled by every tier with its own
//! features (`arch::portable_loops!`), so the compiler vectorises each at
//! that tier's width: widening and narrowing are a unit-for-unit copy, the
//! rest a block test (an OR or a comparison over 32 units, no branch per
//! unit) before the copy.
//!
//! Each loop converts the longest prefix it can with no policy to apply,
//! and stops before the first unit it cannot take: one the output form
//! cannot hold, a surrogate not paired within `src` (a high surrogate
//! ending `src` too: the engine's reference step, which sees the rest of
//! the input, decides), or the first item that does not fit in `dst`. It
//! returns the units read and written. The byte orders are const
//! parameters, so each order is its own vectorised loop.
//!
//! Surrogate pairs are taken a unit at a time here (UTF-16 <-> UCS-4 of
//! emoji runs at about 3 GB/s); the AVX-512 tier has kernels of its own for
//! those two (`arch/x86_64/avx512/utf16_ucs4.rs`, by compression).

/// Units a block test covers.
const BLOCK: usize = 64;

#[inline(always)]
fn get16<const SWAP: bool>(u: u16) -> u16 {
    if SWAP {
        u.swap_bytes()
    } else {
        u
    }
}

#[inline(always)]
fn get32<const SWAP: bool>(v: u32) -> u32 {
    if SWAP {
        v.swap_bytes()
    } else {
        v
    }
}

/// Calls `$f::<S1, S2>` with the two swap flags as consts.
macro_rules! by_order {
    ($f:ident($($arg:expr),*; $a:expr)) => {
        if $a { $f::<true>($($arg),*) } else { $f::<false>($($arg),*) }
    };
    ($f:ident($($arg:expr),*; $a:expr, $b:expr)) => {
        match ($a, $b) {
            (false, false) => $f::<false, false>($($arg),*),
            (false, true) => $f::<false, true>($($arg),*),
            (true, false) => $f::<true, false>($($arg),*),
            (true, true) => $f::<true, true>($($arg),*),
        }
    };
}

/// Latin-1 to UTF-16: every byte, as far as `dst` has room.
#[inline(always)]
pub(crate) fn latin1_to_utf16(src: &[u8], dst: &mut [u16], swap: bool) -> (usize, usize) {
    #[inline(always)]
    fn each<const SWAP: bool>(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
        let n = src.len().min(dst.len());
        for (d, &b) in dst[..n].iter_mut().zip(&src[..n]) {
            *d = get16::<SWAP>(u16::from(b));
        }
        (n, n)
    }
    by_order!(each(src, dst; swap))
}

/// Latin-1 to UCS-4: every byte, as far as `dst` has room.
#[inline(always)]
pub(crate) fn latin1_to_ucs4(src: &[u8], dst: &mut [u32], swap: bool) -> (usize, usize) {
    #[inline(always)]
    fn each<const SWAP: bool>(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
        let n = src.len().min(dst.len());
        for (d, &b) in dst[..n].iter_mut().zip(&src[..n]) {
            *d = get32::<SWAP>(u32::from(b));
        }
        (n, n)
    }
    by_order!(each(src, dst; swap))
}

/// A UTF-16 or UCS-4 unit, for the loops written over both.
trait Unit: Copy + core::ops::BitOr<Output = Self> + Into<u32> {
    const ZERO: Self;
    fn swapped(self) -> Self;
    /// The unit's low byte (its value when it is at most 0xFF).
    fn low_byte(self) -> u8;
}

impl Unit for u16 {
    const ZERO: u16 = 0;
    #[inline(always)]
    fn swapped(self) -> u16 {
        self.swap_bytes()
    }
    #[inline(always)]
    fn low_byte(self) -> u8 {
        self as u8
    }
}

impl Unit for u32 {
    const ZERO: u32 = 0;
    #[inline(always)]
    fn swapped(self) -> u32 {
        self.swap_bytes()
    }
    #[inline(always)]
    fn low_byte(self) -> u8 {
        self as u8
    }
}

/// UTF-16 or UCS-4 to Latin-1: the units up to the first above 0xFF, a
/// block's OR tested before its copy.
#[inline(always)]
fn narrow_to_latin1<const SWAP: bool, T: Unit>(src: &[T], dst: &mut [u8]) -> (usize, usize) {
    let get = |u: T| if SWAP { u.swapped() } else { u };
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let mut i = 0;
    for (s, d) in src.chunks_exact(BLOCK).zip(dst.chunks_exact_mut(BLOCK)) {
        if s.iter().fold(T::ZERO, |acc, &u| acc | get(u)).into() > 0xFF {
            break;
        }
        for (d, &u) in d.iter_mut().zip(s) {
            *d = get(u).low_byte();
        }
        i += BLOCK;
    }
    while i < n && get(src[i]).into() <= 0xFF {
        dst[i] = get(src[i]).low_byte();
        i += 1;
    }
    (i, i)
}

/// UTF-16 to Latin-1: the units up to the first above 0xFF.
#[inline(always)]
pub(crate) fn utf16_to_latin1(src: &[u16], dst: &mut [u8], swap: bool) -> (usize, usize) {
    if swap {
        narrow_to_latin1::<true, _>(src, dst)
    } else {
        narrow_to_latin1::<false, _>(src, dst)
    }
}

/// UCS-4 to Latin-1: the units up to the first above 0xFF.
#[inline(always)]
pub(crate) fn ucs4_to_latin1(src: &[u32], dst: &mut [u8], swap: bool) -> (usize, usize) {
    if swap {
        narrow_to_latin1::<true, _>(src, dst)
    } else {
        narrow_to_latin1::<false, _>(src, dst)
    }
}

/// Whether some unit of `units` is a surrogate.
#[inline(always)]
fn any_surrogate<const SWAP: bool>(units: &[u16]) -> bool {
    units
        .iter()
        .fold(false, |acc, &u| acc | (get16::<SWAP>(u) & 0xF800 == 0xD800))
}

/// UTF-16 to UCS-4: units and pairs up to the first unpaired surrogate.
#[inline(always)]
pub(crate) fn utf16_to_ucs4(
    src: &[u16],
    dst: &mut [u32],
    swap16: bool,
    swap32: bool,
) -> (usize, usize) {
    #[inline(always)]
    fn each<const S16: bool, const S32: bool>(src: &[u16], dst: &mut [u32]) -> (usize, usize) {
        let (mut i, mut w) = (0, 0);
        loop {
            if src.len() - i >= BLOCK && dst.len() - w >= BLOCK {
                let s = &src[i..i + BLOCK];
                if !any_surrogate::<S16>(s) {
                    for (d, &u) in dst[w..w + BLOCK].iter_mut().zip(s) {
                        *d = get32::<S32>(u32::from(get16::<S16>(u)));
                    }
                    (i, w) = (i + BLOCK, w + BLOCK);
                    continue;
                }
            }
            // A block with a surrogate, or the end: a unit or pair at a time.
            let end = (i + BLOCK).min(src.len());
            while i < end && w < dst.len() {
                let u = u32::from(get16::<S16>(src[i]));
                if u & 0xF800 != 0xD800 {
                    dst[w] = get32::<S32>(u);
                    (i, w) = (i + 1, w + 1);
                    continue;
                }
                let low = src.get(i + 1).map(|&l| u32::from(get16::<S16>(l)));
                match low {
                    Some(low @ 0xDC00..=0xDFFF) if u < 0xDC00 => {
                        let v = 0x1_0000 + ((u - 0xD800) << 10) + (low - 0xDC00);
                        dst[w] = get32::<S32>(v);
                        (i, w) = (i + 2, w + 1);
                    }
                    _ => return (i, w),
                }
            }
            if i >= src.len() || w == dst.len() {
                return (i, w);
            }
        }
    }
    by_order!(each(src, dst; swap16, swap32))
}

/// The largest value of `values`, and the largest with 0xFFFF2000 added
/// (wrapping), which is 0xFFFFF800 or more exactly for a surrogate
/// (simdutf's test): two `max` reductions, with no branch per unit.
#[inline(always)]
fn max_and_surrogate<const SWAP: bool>(values: &[u32]) -> (u32, u32) {
    values.iter().fold((0, 0), |(max, offset), &v| {
        let v = get32::<SWAP>(v);
        (max.max(v), offset.max(v.wrapping_add(0xFFFF_2000)))
    })
}

/// Whether some value of `values` needs more than one UTF-16 unit or is
/// not a scalar (U+D800..U+DFFF and above U+FFFF).
#[inline(always)]
fn any_beyond_one_unit<const SWAP: bool>(values: &[u32]) -> bool {
    let (max, offset) = max_and_surrogate::<SWAP>(values);
    max > 0xFFFF || offset >= 0xFFFF_F800
}

/// UCS-4 to UTF-16: values up to the first surrogate or value above
/// 0x10FFFF; those above U+FFFF as pairs.
#[inline(always)]
pub(crate) fn ucs4_to_utf16(
    src: &[u32],
    dst: &mut [u16],
    swap32: bool,
    swap16: bool,
) -> (usize, usize) {
    #[inline(always)]
    fn each<const S32: bool, const S16: bool>(src: &[u32], dst: &mut [u16]) -> (usize, usize) {
        let (mut i, mut w) = (0, 0);
        loop {
            if src.len() - i >= BLOCK && dst.len() - w >= BLOCK {
                let s = &src[i..i + BLOCK];
                if !any_beyond_one_unit::<S32>(s) {
                    for (d, &v) in dst[w..w + BLOCK].iter_mut().zip(s) {
                        *d = get16::<S16>(get32::<S32>(v) as u16);
                    }
                    (i, w) = (i + BLOCK, w + BLOCK);
                    continue;
                }
            }
            let end = (i + BLOCK).min(src.len());
            while i < end {
                let v = get32::<S32>(src[i]);
                if v < 0x1_0000 && v & 0xF800 != 0xD800 && w < dst.len() {
                    dst[w] = get16::<S16>(v as u16);
                    (i, w) = (i + 1, w + 1);
                } else if (0x1_0000..=0x10_FFFF).contains(&v) && dst.len() - w >= 2 {
                    let v = v - 0x1_0000;
                    dst[w] = get16::<S16>(0xD800 | (v >> 10) as u16);
                    dst[w + 1] = get16::<S16>(0xDC00 | (v & 0x3FF) as u16);
                    (i, w) = (i + 1, w + 2);
                } else {
                    return (i, w);
                }
            }
            if i == src.len() {
                return (i, w);
            }
        }
    }
    by_order!(each(src, dst; swap32, swap16))
}

/// The units at the start of `src` that are Unicode scalar values.
#[inline(always)]
pub(crate) fn valid_ucs4_prefix(src: &[u32], swap: bool) -> usize {
    #[inline(always)]
    fn each<const SWAP: bool>(src: &[u32]) -> usize {
        let blocks = src
            .chunks_exact(4 * BLOCK)
            .take_while(|b| {
                let (max, offset) = max_and_surrogate::<SWAP>(b);
                max <= 0x10_FFFF && offset < 0xFFFF_F800
            })
            .count()
            * 4
            * BLOCK;
        let invalid = |&v: &u32| {
            let v = get32::<SWAP>(v);
            (v > 0x10_FFFF) | (v & 0xFFFF_F800 == 0xD800)
        };
        blocks
            + src[blocks..]
                .iter()
                .position(invalid)
                .unwrap_or(src.len() - blocks)
    }
    by_order!(each(src; swap))
}

/// UTF-16 units with their bytes swapped, as far as `dst` has room: how
/// many.
#[inline(always)]
pub(crate) fn swap_utf16(src: &[u16], dst: &mut [u16]) -> usize {
    let n = src.len().min(dst.len());
    for (d, &u) in dst[..n].iter_mut().zip(&src[..n]) {
        *d = u.swap_bytes();
    }
    n
}

/// `units` with their bytes swapped, in place.
#[inline(always)]
pub(crate) fn swap_utf16_in_place(units: &mut [u16]) {
    for u in units {
        *u = u.swap_bytes();
    }
}

/// The largest unit of `src` and how many of its units are low
/// surrogates: for well-formed UTF-16, the widest character (a pair when
/// there are lows) and the pairs.
#[inline(always)]
pub(crate) fn utf16_stats(src: &[u16], swap: bool) -> (u16, usize) {
    #[inline(always)]
    fn each<const SWAP: bool>(src: &[u16]) -> (u16, usize) {
        let (mut max, mut lows) = (0, 0);
        for block in src.chunks(4 * BLOCK) {
            // Plain accumulators, so that the loop vectorises.
            let (mut m, mut l) = (0u16, 0u16);
            for &u in block {
                let u = get16::<SWAP>(u);
                m = m.max(u);
                l += u16::from(u & 0xFC00 == 0xDC00);
            }
            max = max.max(m);
            lows += usize::from(l);
        }
        (max, lows)
    }
    by_order!(each(src; swap))
}

/// UTF-16 units for the UCS-4 values of `src` taken as scalar values: one
/// each, and a second for each above U+FFFF.
#[inline(always)]
pub(crate) fn utf16_len_of_ucs4(src: &[u32], swap: bool) -> usize {
    #[inline(always)]
    fn each<const SWAP: bool>(src: &[u32]) -> usize {
        let mut above = 0;
        for block in src.chunks(BLOCK) {
            above += block
                .iter()
                .fold(0u32, |n, &v| n + u32::from(get32::<SWAP>(v) > 0xFFFF))
                as usize;
        }
        src.len() + above
    }
    by_order!(each(src; swap))
}

/// The units at the start of `src` that are ASCII (below 0x80).
#[inline(always)]
pub(crate) fn ascii_prefix_utf16(src: &[u16], swap: bool) -> usize {
    #[inline(always)]
    fn each<const SWAP: bool>(src: &[u16]) -> usize {
        let blocks = src
            .chunks_exact(BLOCK)
            .take_while(|b| b.iter().fold(0, |acc, &u| acc | get16::<SWAP>(u)) < 0x80)
            .count()
            * BLOCK;
        blocks
            + src[blocks..]
                .iter()
                .position(|&u| get16::<SWAP>(u) >= 0x80)
                .unwrap_or(src.len() - blocks)
    }
    by_order!(each(src; swap))
}

/// For bytes read as 2-byte units in both orders: how many units have a
/// zero high byte little-endian (odd offsets) and big-endian (even
/// offsets), and whether any has a high byte D8..DF (a surrogate) each way.
#[inline(always)]
pub(crate) fn utf16_byte_stats(bytes: &[u8]) -> PairStats {
    // Eight bytes a word, each byte's verdict in its top bit (exact, with
    // no borrow between bytes); the little-endian reading's high bytes are
    // the odd ones.
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const ODD: u64 = 0x8000_8000_8000_8000;
    const EVEN: u64 = 0x0080_0080_0080_0080;
    let zero_bytes = |x: u64| !(((x & LOW7) + LOW7) | x) & !LOW7;
    let (mut z_le, mut z_be, mut s_le, mut s_be) = (0usize, 0usize, 0u64, 0u64);
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for word in words {
        let x = u64::from_le_bytes([
            word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7],
        ]);
        let zeros = zero_bytes(x);
        z_le += (zeros & ODD).count_ones() as usize;
        z_be += (zeros & EVEN).count_ones() as usize;
        let surrogates = zero_bytes((x & 0xF8F8_F8F8_F8F8_F8F8) ^ 0xD8D8_D8D8_D8D8_D8D8);
        s_le |= surrogates & ODD;
        s_be |= surrogates & EVEN;
    }
    let mut stats = PairStats {
        zero_high: [z_le, z_be],
        surrogates: [s_le != 0, s_be != 0],
    };
    for pair in tail.chunks_exact(2) {
        stats.zero_high[0] += usize::from(pair[1] == 0);
        stats.zero_high[1] += usize::from(pair[0] == 0);
        stats.surrogates[0] |= pair[1] & 0xF8 == 0xD8;
        stats.surrogates[1] |= pair[0] & 0xF8 == 0xD8;
    }
    stats
}

/// What [`utf16_byte_stats`] finds, little-endian first.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairStats {
    pub zero_high: [usize; 2],
    pub surrogates: [bool; 2],
}

/// The bytes at the start of `src` that are ASCII (below 0x80).
#[inline(always)]
pub(crate) fn ascii_prefix(src: &[u8]) -> usize {
    let blocks = src
        .chunks_exact(4 * BLOCK)
        .take_while(|b| b.iter().fold(0, |acc, &x| acc | x) < 0x80)
        .count()
        * 4
        * BLOCK;
    blocks
        + src[blocks..]
            .iter()
            .position(|&b| b >= 0x80)
            .unwrap_or(src.len() - blocks)
}
