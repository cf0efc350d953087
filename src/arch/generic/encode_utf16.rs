//! The entry points of every vector tier's UTF-16 encoder, written once.
//!
//! Each tier's `encode_utf16.rs` has its own block algorithm (the widths
//! and instructions differ: AVX-512 compresses, AVX2 and SSE4.2 shuffle
//! from tables, NEON narrows), but all of them are one function generic
//! over the byte order and the output dialect,
//! `encode::<SWAP, MODE>(src, out, cap) -> FastStop`, and the table's two
//! entries only choose the instance at run time. [`utf16_encoder_entries!`]
//! writes those two entries, compiled with the tier's features, so that
//! the choice is made once per call and each instance inlines whole.

/// Defines, in the invoking module, the kernel table's `encode_utf16`
/// (`EncodeU16Kernel`) and `encode_utf16_cesu` (`EncodeCesuKernel`) over
/// that module's `encode::<SWAP, MODE>`, with `#[target_feature(enable =
/// $features)]`.
macro_rules! utf16_encoder_entries {
    ($features:literal) => {
        /// Encodes `src` (byte-swapped with `swap`) up to its first
        /// unpaired surrogate, which is reported as `flagged`.
        ///
        /// # Safety
        /// The CPU must support the enabled features; `out` points to `cap`
        /// writable bytes.
        #[target_feature(enable = $features)]
        pub(super) unsafe fn encode_utf16(
            src: &[u16],
            out: *mut u8,
            cap: usize,
            swap: bool,
        ) -> $crate::contract::FastStop {
            use $crate::contract::Mode;
            // SAFETY: the caller's promises.
            unsafe {
                if swap {
                    encode::<true, { Mode::UTF8 }>(src, out, cap)
                } else {
                    encode::<false, { Mode::UTF8 }>(src, out, cap)
                }
            }
        }

        /// Encodes `src` (byte-swapped with `swap`) to CESU-8, or with
        /// `mutf8` to Modified UTF-8, up to its first unpaired surrogate,
        /// which is reported as `flagged`.
        ///
        /// # Safety
        /// The CPU must support the enabled features; `out` points to `cap`
        /// writable bytes.
        #[target_feature(enable = $features)]
        pub(super) unsafe fn encode_utf16_cesu(
            src: &[u16],
            out: *mut u8,
            cap: usize,
            swap: bool,
            mutf8: bool,
        ) -> $crate::contract::FastStop {
            use $crate::contract::Mode;
            // SAFETY: the caller's promises.
            unsafe {
                match (swap, mutf8) {
                    (false, false) => encode::<false, { Mode::CESU8 }>(src, out, cap),
                    (true, false) => encode::<true, { Mode::CESU8 }>(src, out, cap),
                    (false, true) => encode::<false, { Mode::MUTF8 }>(src, out, cap),
                    (true, true) => encode::<true, { Mode::MUTF8 }>(src, out, cap),
                }
            }
        }
    };
}
pub(crate) use utf16_encoder_entries;
