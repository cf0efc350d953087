//! [`Lanes`] for the SSE4.2 tier: the decoder's lane arithmetic with
//! x86's multiply-adds, and its stores with zero-extensions.

use core::arch::x86_64::*;

use super::super::packs::utf16_of_four;
use super::vector::Sse;
use crate::arch::generic::lanes::Lanes;

/// `units` in the byte order asked for.
#[inline(always)]
fn order<const SWAP: bool>(units: __m128i) -> __m128i {
    if SWAP {
        // SAFETY: SSSE3, which a `Sse` value vouches for at every caller.
        unsafe {
            _mm_shuffle_epi8(
                units,
                _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
            )
        }
    } else {
        units
    }
}

// SAFETY (every `unsafe` block below without its own comment): a `Sse`
// exists only on a CPU with SSSE3 and SSE4.1 (the type's invariant), and
// the tier's kernels, where these inline, also enable SSE4.2 and POPCNT.
impl Lanes for Sse {
    type Constants = ();
    #[inline(always)]
    unsafe fn constants() {}

    #[inline(always)]
    fn short_lanes(self) -> Sse {
        // Masking with 0x1F7F keeps the payload bits; one multiply-add (by
        // 1 and 64) joins them.
        Sse(unsafe {
            _mm_maddubs_epi16(
                _mm_and_si128(self.0, _mm_set1_epi16(0x1F7F)),
                _mm_set1_epi16(0x4001),
            )
        })
    }

    #[inline(always)]
    fn long_lanes(self) -> Sse {
        // Masking with 0x07_3F_3F_7F keeps the payload bits, except that a
        // 3-byte lead in byte 2 keeps a stray bit 5, cleared by XOR with its
        // own bit 6 (which a continuation byte lacks); two multiply-adds
        // join them.
        Sse(unsafe {
            let x = self.0;
            let t = _mm_and_si128(x, _mm_set1_epi32(0x073F_3F7F));
            let stray = _mm_srli_epi32::<1>(_mm_and_si128(x, _mm_set1_epi32(0x0040_0000)));
            let pairs = _mm_maddubs_epi16(_mm_xor_si128(t, stray), _mm_set1_epi16(0x4001));
            _mm_madd_epi16(pairs, _mm_set1_epi32(0x1000_0001))
        })
    }

    #[inline(always)]
    unsafe fn eight_threes(p: *const u8, _k: &()) -> Sse {
        // Four characters from each of two loads 12 bytes apart: their last
        // two bytes into 16-bit lanes (last byte lowest), joined by one
        // multiply-add, and their leads into low bytes, shifted by 12 (a
        // 16-bit shift drops all but the lead's four payload bits).
        const fn gather(tails: bool, to: usize) -> [i8; 16] {
            let mut t = [-1i8; 16];
            let mut j = 0;
            while j < 4 {
                let at = 3 * j as u8;
                if tails {
                    t[to + 2 * j] = (at + 2) as i8;
                    t[to + 2 * j + 1] = (at + 1) as i8;
                } else {
                    t[to + 2 * j] = at as i8;
                }
                j += 1;
            }
            t
        }
        const TAILS_LOW: [i8; 16] = gather(true, 0);
        const TAILS_HIGH: [i8; 16] = gather(true, 8);
        const LEADS_LOW: [i8; 16] = gather(false, 0);
        const LEADS_HIGH: [i8; 16] = gather(false, 8);
        unsafe {
            // SAFETY: the caller's 32 readable bytes cover p..p+28.
            let (lo, hi) = (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(12).cast()));
            let table = |t: [i8; 16]| _mm_loadu_si128(t.as_ptr().cast());
            let tails = _mm_or_si128(
                _mm_shuffle_epi8(lo, table(TAILS_LOW)),
                _mm_shuffle_epi8(hi, table(TAILS_HIGH)),
            );
            let leads = _mm_or_si128(
                _mm_shuffle_epi8(lo, table(LEADS_LOW)),
                _mm_shuffle_epi8(hi, table(LEADS_HIGH)),
            );
            let joined = _mm_maddubs_epi16(
                _mm_and_si128(tails, _mm_set1_epi16(0x3F3F)),
                _mm_set1_epi16(0x4001),
            );
            Sse(_mm_or_si128(joined, _mm_slli_epi16::<12>(leads)))
        }
    }

    #[inline(always)]
    fn leads64(blocks: [Sse; 4]) -> u64 {
        use crate::arch::generic::vector::Bytes;
        let [a, b, c, d] = blocks.map(|b| b.lead_mask());
        a | b << 16 | c << 32 | d << 48
    }

    #[inline(always)]
    unsafe fn ascii_ucs4(self, dst: *mut u32, _k: &()) {
        let input = self.0;
        // SAFETY: the four stores cover exactly dst..dst+16, the caller's
        // room.
        unsafe {
            _mm_storeu_si128(dst.cast(), _mm_cvtepu8_epi32(input));
            _mm_storeu_si128(
                dst.add(4).cast(),
                _mm_cvtepu8_epi32(_mm_srli_si128::<4>(input)),
            );
            _mm_storeu_si128(
                dst.add(8).cast(),
                _mm_cvtepu8_epi32(_mm_srli_si128::<8>(input)),
            );
            _mm_storeu_si128(
                dst.add(12).cast(),
                _mm_cvtepu8_epi32(_mm_srli_si128::<12>(input)),
            );
        }
    }

    #[inline(always)]
    unsafe fn ascii_utf16<const SWAP: bool>(self, dst: *mut u16) {
        let (lo, hi) = unsafe {
            (
                _mm_cvtepu8_epi16(self.0),
                _mm_cvtepu8_epi16(_mm_srli_si128::<8>(self.0)),
            )
        };
        // SAFETY: the two stores cover exactly dst..dst+16, the caller's
        // room.
        unsafe {
            _mm_storeu_si128(dst.cast(), order::<SWAP>(lo));
            _mm_storeu_si128(dst.add(8).cast(), order::<SWAP>(hi));
        }
    }

    #[inline(always)]
    unsafe fn short_ucs4(self, dst: *mut u32) {
        // SAFETY: the two stores cover exactly dst..dst+8, the caller's
        // room.
        unsafe {
            _mm_storeu_si128(dst.cast(), _mm_cvtepu16_epi32(self.0));
            _mm_storeu_si128(
                dst.add(4).cast(),
                _mm_cvtepu16_epi32(_mm_srli_si128::<8>(self.0)),
            );
        }
    }

    #[inline(always)]
    unsafe fn short_utf16<const SWAP: bool>(self, dst: *mut u16) {
        // SAFETY: 8 units of room.
        unsafe { _mm_storeu_si128(dst.cast(), order::<SWAP>(self.0)) };
    }

    #[inline(always)]
    unsafe fn long_ucs4(self, dst: *mut u32) {
        // SAFETY: 4 units of room.
        unsafe { _mm_storeu_si128(dst.cast(), self.0) };
    }

    #[inline(always)]
    unsafe fn bmp_utf16<const SWAP: bool>(self, dst: *mut u16) {
        // SAFETY: 4 units of room.
        unsafe {
            _mm_storel_epi64(dst.cast(), order::<SWAP>(_mm_packus_epi32(self.0, self.0)));
        }
    }

    #[inline(always)]
    unsafe fn long_utf16<const SWAP: bool>(self, dst: *mut u16) -> usize {
        let cps = self.0;
        let supplementary = unsafe { _mm_cmpgt_epi32(cps, _mm_set1_epi32(0xFFFF)) };
        if unsafe { _mm_testz_si128(supplementary, supplementary) } == 1 {
            // SAFETY: 4 of the 8 units of room.
            unsafe {
                _mm_storel_epi64(dst.cast(), order::<SWAP>(_mm_packus_epi32(cps, cps)));
            }
            return 0;
        }
        // SAFETY: the tier's kernels enable POPCNT as well.
        let (units, extra) = unsafe { utf16_of_four(cps) };
        // SAFETY: 8 units of room.
        unsafe { _mm_storeu_si128(dst.cast(), order::<SWAP>(units)) };
        extra
    }
}
