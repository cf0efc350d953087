//! Runs of ASCII copied as they are, over any [`Simd`] width: what every
//! Latin-1 encoder does first.

use super::simd::Simd;

/// Copies whole all-ASCII runs of four registers from the start of `src`
/// while they fit in `room`; returns how many bytes it copied.
///
/// # Safety
/// The CPU has `V`'s instruction set; `out` points to `room` writable
/// bytes.
#[inline(always)]
pub(crate) unsafe fn copy_ascii_runs<V: Simd>(src: &[u8], out: *mut u8, room: usize) -> usize {
    let step = 4 * V::BYTES;
    let limit = src.len().min(room);
    let mut i = 0;
    while limit - i >= step {
        // SAFETY: bytes i..i+step are in bounds (i + step <= src.len()); the
        // CPU has V's set.
        let v: [V; 4] =
            unsafe { [0, 1, 2, 3].map(|k| V::load(src.as_ptr().add(i + V::BYTES * k))) };
        if v[0].or(v[1]).or(v[2].or(v[3])).any_high() {
            break;
        }
        for (k, block) in v.into_iter().enumerate() {
            // SAFETY: bytes i..i+step lie in the `room` (i + step <= room).
            unsafe { block.store(out.add(i + V::BYTES * k)) };
        }
        i += step;
    }
    i
}
