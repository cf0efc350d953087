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
}

/// A tier's `mod loops`: the portable loops compiled with the tier's
/// `#[target_feature]`s (none for the scalar tier), as kernels its table
/// can name (`loops::utf8_stats`, ...) and as [`Loops`] (`loops::LOOPS`).
///
/// A tier with a kernel of its own for a loop names it after a `;`
/// (`portable_loops!("..."; valid_utf16_prefix = super::path)`), and its
/// `Loops` holds that instead.
macro_rules! portable_loops {
    (@or $default:path) => { $default as unsafe fn(&[u16], bool) -> usize };
    (@or $default:path, $own:path) => { $own };
    ($($feature:literal)? $(; valid_utf16_prefix = $own_utf16:path)?) => {
        /// The portable loops compiled for this tier (see `arch::loops`).
        pub(crate) mod loops {
            use crate::arch::loops::{LoopFns, Loops};
            use crate::contract::Utf8Stats;
            use crate::portable::{loops as each, sizes, validate_utf16};

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

            pub(crate) static LOOPS: Loops = {
                let fns = LoopFns {
                    narrow_latin1,
                    ascii_blocks,
                    valid_utf16_prefix: crate::arch::loops::portable_loops!(
                        @or valid_utf16_prefix $(, $own_utf16)?
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
