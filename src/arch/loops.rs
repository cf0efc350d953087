//! The portable core's element-wise loops in a tier's table.
//!
//! The loops in `portable::loops`, `portable::sizes` and
//! `portable::validate_utf16` are plain Rust the compiler vectorises with
//! whatever instruction set the function it lands in is compiled for. Each
//! tier therefore compiles them again with its own features
//! ([`portable_loops!`], invoked in the tier's `mod.rs`), and its table
//! holds those copies ([`Loops`]): one indirect call, as for a kernel, and
//! no tier matched by name anywhere.

/// The loops' functions, as [`portable_loops!`] lists them.
pub(crate) struct LoopFns {
    pub narrow_latin1: unsafe fn(&[u32], &mut [u8], Option<u8>) -> usize,
    pub ascii_blocks: unsafe fn(&[u8]) -> usize,
    pub valid_utf16_prefix: unsafe fn(&[u16], bool) -> usize,
    pub convert: ConvertFns,
}

use crate::portable::convert::PairStats;

/// A conversion with one side in a byte order: (units read, written).
type OneOrder<I, O> = unsafe fn(&[I], &mut [O], bool) -> (usize, usize);
/// A conversion with both sides in a byte order.
type TwoOrders<I, O> = unsafe fn(&[I], &mut [O], bool, bool) -> (usize, usize);

/// The conversions between Latin-1, UTF-16 and UCS-4
/// (`portable::convert`): each returns the units read and written; the
/// flags say which sides are not in the machine's byte order.
pub(crate) struct ConvertFns {
    pub latin1_to_utf16: OneOrder<u8, u16>,
    pub latin1_to_ucs4: OneOrder<u8, u32>,
    pub utf16_to_latin1: OneOrder<u16, u8>,
    pub ucs4_to_latin1: OneOrder<u32, u8>,
    pub utf16_to_ucs4: TwoOrders<u16, u32>,
    pub ucs4_to_utf16: TwoOrders<u32, u16>,
    pub valid_ucs4_prefix: unsafe fn(&[u32], bool) -> usize,
    pub swap_utf16: unsafe fn(&[u16], &mut [u16]) -> usize,
    pub swap_utf16_in_place: unsafe fn(&mut [u16]),
    pub utf16_stats: unsafe fn(&[u16], bool) -> (u16, usize),
    pub utf16_len_of_ucs4: unsafe fn(&[u32], bool) -> usize,
    pub ascii_prefix_utf16: unsafe fn(&[u16], bool) -> usize,
    pub utf16_byte_stats: unsafe fn(&[u8]) -> PairStats,
    pub ascii_prefix: unsafe fn(&[u8]) -> usize,
}

/// A tier's compilation of the portable loops, callable once its table was
/// handed out (after the CPU check). Each method is the loop of the same
/// name in `crate::portable`; see there.
pub(crate) struct Loops(LoopFns);

impl Loops {
    /// # Safety
    /// Every function must be sound to call with any arguments on a CPU
    /// with the features of the tier whose table holds the result, and
    /// that table must be handed out only after checking them.
    pub(crate) const unsafe fn new(fns: LoopFns) -> Loops {
        Loops(fns)
    }
}

// SAFETY (every method below): a `Loops` is reachable only through a tier's
// table, which is handed out only on a CPU with the features the functions
// are compiled for (`Loops::new`); they take safe arguments.
impl Loops {
    #[inline(always)]
    pub(crate) fn narrow_latin1(&self, cps: &[u32], dst: &mut [u8], r: Option<u8>) -> usize {
        // SAFETY: see above.
        unsafe { (self.0.narrow_latin1)(cps, dst, r) }
    }
    #[inline(always)]
    pub(crate) fn ascii_blocks(&self, bytes: &[u8]) -> usize {
        // SAFETY: see above.
        unsafe { (self.0.ascii_blocks)(bytes) }
    }
    #[inline(always)]
    pub(crate) fn valid_utf16_prefix(&self, units: &[u16], swap: bool) -> usize {
        // SAFETY: see above.
        unsafe { (self.0.valid_utf16_prefix)(units, swap) }
    }
    #[inline(always)]
    pub(crate) fn convert(&self) -> &ConvertFns {
        &self.0.convert
    }
}

// SAFETY (every method below): as for `Loops`, whose table holds these.
impl ConvertFns {
    #[inline(always)]
    pub(crate) fn latin1_to_utf16(&self, s: &[u8], d: &mut [u16], sw: bool) -> (usize, usize) {
        // SAFETY: see above.
        unsafe { (self.latin1_to_utf16)(s, d, sw) }
    }
    #[inline(always)]
    pub(crate) fn latin1_to_ucs4(&self, s: &[u8], d: &mut [u32], sw: bool) -> (usize, usize) {
        // SAFETY: see above.
        unsafe { (self.latin1_to_ucs4)(s, d, sw) }
    }
    #[inline(always)]
    pub(crate) fn utf16_to_latin1(&self, s: &[u16], d: &mut [u8], sw: bool) -> (usize, usize) {
        // SAFETY: see above.
        unsafe { (self.utf16_to_latin1)(s, d, sw) }
    }
    #[inline(always)]
    pub(crate) fn ucs4_to_latin1(&self, s: &[u32], d: &mut [u8], sw: bool) -> (usize, usize) {
        // SAFETY: see above.
        unsafe { (self.ucs4_to_latin1)(s, d, sw) }
    }
    #[inline(always)]
    pub(crate) fn utf16_to_ucs4(
        &self,
        s: &[u16],
        d: &mut [u32],
        sw16: bool,
        sw32: bool,
    ) -> (usize, usize) {
        // SAFETY: see above.
        unsafe { (self.utf16_to_ucs4)(s, d, sw16, sw32) }
    }
    #[inline(always)]
    pub(crate) fn ucs4_to_utf16(
        &self,
        s: &[u32],
        d: &mut [u16],
        sw32: bool,
        sw16: bool,
    ) -> (usize, usize) {
        // SAFETY: see above.
        unsafe { (self.ucs4_to_utf16)(s, d, sw32, sw16) }
    }
    #[inline(always)]
    pub(crate) fn valid_ucs4_prefix(&self, s: &[u32], sw: bool) -> usize {
        // SAFETY: see above.
        unsafe { (self.valid_ucs4_prefix)(s, sw) }
    }
    #[inline(always)]
    pub(crate) fn swap_utf16(&self, s: &[u16], d: &mut [u16]) -> usize {
        // SAFETY: see above.
        unsafe { (self.swap_utf16)(s, d) }
    }
    #[inline(always)]
    pub(crate) fn swap_utf16_in_place(&self, units: &mut [u16]) {
        // SAFETY: see above.
        unsafe { (self.swap_utf16_in_place)(units) }
    }
    #[inline(always)]
    pub(crate) fn utf16_stats(&self, s: &[u16], sw: bool) -> (u16, usize) {
        // SAFETY: see above.
        unsafe { (self.utf16_stats)(s, sw) }
    }
    #[inline(always)]
    pub(crate) fn utf16_len_of_ucs4(&self, s: &[u32], sw: bool) -> usize {
        // SAFETY: see above.
        unsafe { (self.utf16_len_of_ucs4)(s, sw) }
    }
    #[inline(always)]
    pub(crate) fn ascii_prefix_utf16(&self, s: &[u16], sw: bool) -> usize {
        // SAFETY: see above.
        unsafe { (self.ascii_prefix_utf16)(s, sw) }
    }
    #[inline(always)]
    pub(crate) fn utf16_byte_stats(&self, bytes: &[u8]) -> PairStats {
        // SAFETY: see above.
        unsafe { (self.utf16_byte_stats)(bytes) }
    }
    #[inline(always)]
    pub(crate) fn ascii_prefix(&self, bytes: &[u8]) -> usize {
        // SAFETY: see above.
        unsafe { (self.ascii_prefix)(bytes) }
    }
}

/// A tier's `mod loops`: the portable loops compiled with the tier's
/// `#[target_feature]`s (none for the scalar tier), as kernels its table
/// can name (`loops::utf8_stats`, ...) and as [`Loops`] (`loops::LOOPS`).
///
/// A tier with a kernel of its own for a loop names it after a `;`
/// (`portable_loops!("..."; valid_utf16_prefix = super::path)`, and `;
/// pairs = to_ucs4, to_utf16` for the UTF-16 <-> UCS-4 conversions), and
/// its `Loops` holds that instead.
macro_rules! portable_loops {
    (@pick $default:path) => { $default };
    (@pick $default:path, $own:path) => { $own };
    (
        $($feature:literal)?
        $(; valid_utf16_prefix = $own_utf16:path)?
        $(; pairs = $own_to_ucs4:path, $own_to_utf16:path)?
    ) => {
        /// The portable loops compiled for this tier (see `arch::loops`).
        pub(crate) mod loops {
            use crate::arch::loops::{ConvertFns, LoopFns, Loops};
            use crate::contract::Utf8Stats;
            use crate::portable::{convert, loops as each, sizes, validate_utf16};

            $(#[target_feature(enable = $feature)])?
            pub(crate) unsafe fn narrow_latin1(c: &[u32], d: &mut [u8], r: Option<u8>) -> usize {
                each::narrow_latin1(c, d, r)
            }
            $(#[target_feature(enable = $feature)])?
            pub(crate) unsafe fn ascii_blocks(b: &[u8]) -> usize {
                each::ascii_blocks(b)
            }
            // Unused by a tier with a kernel of its own for it.
            #[allow(dead_code)]
            $(#[target_feature(enable = $feature)])?
            pub(crate) unsafe fn valid_utf16_prefix(u: &[u16], swap: bool) -> usize {
                validate_utf16::valid_prefix_in(u, swap)
            }
            // Unused by a tier with a kernel of its own for it.
            #[allow(dead_code)]
            $(#[target_feature(enable = $feature)])?
            pub(crate) unsafe fn utf8_stats(src: &[u8]) -> Utf8Stats {
                sizes::utf8_stats(src)
            }
            /// UTF-16 units of well-formed UTF-8: characters, and one more
            /// for each of 4 bytes. Unused by a tier with a kernel of its own for it.
            #[allow(dead_code)]
            $(#[target_feature(enable = $feature)])?
            pub(crate) unsafe fn utf16_len(src: &[u8]) -> usize {
                let s = sizes::utf8_stats(src);
                s.leads + s.fours
            }
            // Unused by a tier with a kernel of its own for it.
            #[allow(dead_code)]
            $(#[target_feature(enable = $feature)])?
            pub(crate) unsafe fn utf8_len_of_utf16(src: &[u16], swap: bool) -> usize {
                sizes::utf8_len_of_utf16(src, swap)
            }

            /// The conversions between Latin-1, UTF-16 and UCS-4.
            mod conv {
                use super::convert;
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn latin1_to_utf16(s: &[u8], d: &mut [u16], w: bool) -> (usize, usize) {
                    convert::latin1_to_utf16(s, d, w)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn latin1_to_ucs4(s: &[u8], d: &mut [u32], w: bool) -> (usize, usize) {
                    convert::latin1_to_ucs4(s, d, w)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn utf16_to_latin1(s: &[u16], d: &mut [u8], w: bool) -> (usize, usize) {
                    convert::utf16_to_latin1(s, d, w)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn ucs4_to_latin1(s: &[u32], d: &mut [u8], w: bool) -> (usize, usize) {
                    convert::ucs4_to_latin1(s, d, w)
                }
                // Unused by a tier with a kernel of its own for it.
                #[allow(dead_code)]
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn utf16_to_ucs4(
                    s: &[u16],
                    d: &mut [u32],
                    w16: bool,
                    w32: bool,
                ) -> (usize, usize) {
                    convert::utf16_to_ucs4(s, d, w16, w32)
                }
                // Unused by a tier with a kernel of its own for it.
                #[allow(dead_code)]
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn ucs4_to_utf16(
                    s: &[u32],
                    d: &mut [u16],
                    w32: bool,
                    w16: bool,
                ) -> (usize, usize) {
                    convert::ucs4_to_utf16(s, d, w32, w16)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn valid_ucs4_prefix(s: &[u32], w: bool) -> usize {
                    convert::valid_ucs4_prefix(s, w)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn swap_utf16(s: &[u16], d: &mut [u16]) -> usize {
                    convert::swap_utf16(s, d)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn swap_utf16_in_place(u: &mut [u16]) {
                    convert::swap_utf16_in_place(u)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn utf16_stats(s: &[u16], w: bool) -> (u16, usize) {
                    convert::utf16_stats(s, w)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn utf16_len_of_ucs4(s: &[u32], w: bool) -> usize {
                    convert::utf16_len_of_ucs4(s, w)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn ascii_prefix_utf16(s: &[u16], w: bool) -> usize {
                    convert::ascii_prefix_utf16(s, w)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn utf16_byte_stats(b: &[u8]) -> convert::PairStats {
                    convert::utf16_byte_stats(b)
                }
                $(#[target_feature(enable = $feature)])?
                pub(super) unsafe fn ascii_prefix(b: &[u8]) -> usize {
                    convert::ascii_prefix(b)
                }
            }

            pub(crate) static LOOPS: Loops = {
                let fns = LoopFns {
                    narrow_latin1,
                    ascii_blocks,
                    convert: ConvertFns {
                        latin1_to_utf16: conv::latin1_to_utf16,
                        latin1_to_ucs4: conv::latin1_to_ucs4,
                        utf16_to_latin1: conv::utf16_to_latin1,
                        ucs4_to_latin1: conv::ucs4_to_latin1,
                        utf16_to_ucs4: crate::arch::loops::portable_loops!(
                            @pick conv::utf16_to_ucs4 $(, $own_to_ucs4)?
                        ),
                        ucs4_to_utf16: crate::arch::loops::portable_loops!(
                            @pick conv::ucs4_to_utf16 $(, $own_to_utf16)?
                        ),
                        valid_ucs4_prefix: conv::valid_ucs4_prefix,
                        swap_utf16: conv::swap_utf16,
                        swap_utf16_in_place: conv::swap_utf16_in_place,
                        utf16_stats: conv::utf16_stats,
                        utf16_len_of_ucs4: conv::utf16_len_of_ucs4,
                        ascii_prefix_utf16: conv::ascii_prefix_utf16,
                        utf16_byte_stats: conv::utf16_byte_stats,
                        ascii_prefix: conv::ascii_prefix,
                    },
                    valid_utf16_prefix: crate::arch::loops::portable_loops!(
                        @pick self::valid_utf16_prefix $(, $own_utf16)?
                    ),
                };
                // SAFETY: plain Rust over safe arguments, compiled for this
                // tier's features; the tier hands out the table that holds
                // them only after its CPU check.
                unsafe { Loops::new(fns) }
            };
        }
    };
}
pub(crate) use portable_loops;
