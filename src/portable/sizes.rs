//! Sizes of text already known to be well-formed, in loops written for the
//! compiler to vectorise: byte (or unit) counters in vector-sized blocks,
//! folded before they can overflow.

use crate::contract::Utf8Stats;

const LANES: usize = 32;

/// [`Utf8Stats`] of `src`, at vector speed.
#[inline(always)]
pub(crate) fn utf8_stats(src: &[u8]) -> Utf8Stats {
    let (blocks, tail) = src.as_chunks::<LANES>();
    let mut stats = Utf8Stats::default();
    let mut max = [0u8; LANES];
    // 255 blocks at most per run: a lane counter adds at most 1 per block.
    for run in blocks.chunks(255) {
        let mut leads = [0u8; LANES];
        let mut fours = [0u8; LANES];
        for block in run {
            for j in 0..LANES {
                let b = block[j];
                leads[j] += u8::from((b as i8) >= -64);
                fours[j] += u8::from(b >= 0xF0);
                max[j] = max[j].max(b);
            }
        }
        stats.leads += leads.iter().map(|&n| usize::from(n)).sum::<usize>();
        stats.fours += fours.iter().map(|&n| usize::from(n)).sum::<usize>();
    }
    for &b in tail {
        stats.leads += usize::from((b as i8) >= -64);
        stats.fours += usize::from(b >= 0xF0);
    }
    stats.max = max.iter().chain(tail).copied().max().unwrap_or(0);
    stats
}

/// UTF-8 bytes for well-formed UTF-16 `src`: 1, 2 or 3 a unit, 2 for each
/// half of a pair.
#[inline(always)]
pub(crate) fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
    const UNITS: usize = 16;
    let unit = |u: u16| if swap { u.swap_bytes() } else { u };
    let (blocks, tail) = src.as_chunks::<UNITS>();
    // One byte a unit, one more from U+0080, one more from U+0800, one
    // less for each half of a pair, each counted in lanes of its own: with
    // one sum of the three per lane, the compiler vectorised across blocks
    // instead, gathering each lane's units one by one (3x slower on
    // baseline x86-64).
    let mut total = blocks.len() * UNITS;
    // A lane adds at most 1 per block.
    for run in blocks.chunks(usize::from(u16::MAX)) {
        let (mut two, mut three, mut halves) = ([0u16; UNITS], [0u16; UNITS], [0u16; UNITS]);
        for block in run {
            for j in 0..UNITS {
                let u = unit(block[j]);
                two[j] += u16::from(u >= 0x80);
                three[j] += u16::from(u >= 0x800);
                halves[j] += u16::from(u & 0xF800 == 0xD800);
            }
        }
        let sum = |lanes: [u16; UNITS]| lanes.iter().map(|&n| usize::from(n)).sum::<usize>();
        total += sum(two) + sum(three) - sum(halves);
    }
    total
        + tail
            .iter()
            .map(|&u| utf8_len_of_unit(unit(u)))
            .sum::<usize>()
}

/// The UTF-8 bytes a unit of well-formed UTF-16 stands for: 1, 2 or 3, and
/// 2 for each half of a pair.
#[inline(always)]
pub(crate) fn utf8_len_of_unit(u: u16) -> usize {
    1 + usize::from(u >= 0x80) + usize::from(u >= 0x800) - usize::from(u & 0xF800 == 0xD800)
}
