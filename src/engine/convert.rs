//! Latin-1, UTF-16 and UCS-4 to one another: the tier's loops
//! (`portable::convert`, compiled with its features) over the stretches
//! with nothing to handle, the reference core (`reference::convert`) for
//! one item wherever a loop stops, then the loop again: the engine's one
//! shape of route. Measuring (no output) runs the same loops into a
//! scratch buffer, a chunk of input at a time, so the count is the one
//! the writing call reaches.

use crate::arch::loops::ConvertFns;
use crate::contract::rebase;
use crate::reference::convert::{
    self as reference, Latin1, OnInvalid, Reader, Ucs4, Utf16, Writer,
};
use crate::reference::sink::{CountSink, SliceSink};
use crate::types::{ByteOrder, EncodePolicy, Latin1Policy};
use crate::{Engine, Progress, Status};

/// Output units of the scratch buffer a measuring call converts into.
const SCRATCH: usize = 512;

/// The shared route: `fast` (a tier loop, returning units read and
/// written) then one item by the reference core, until the input ends or
/// the reference core stops.
fn route<R: Reader, W: Writer>(
    (r, w): (R, W),
    src: &[R::Unit],
    dst: Option<&mut [W::Unit]>,
    on_invalid: OnInvalid,
    more_input: bool,
    fast: impl Fn(&[R::Unit], &mut [W::Unit]) -> (usize, usize),
) -> Progress {
    let (mut read, mut written, mut handled) = (0, 0, 0);
    let measuring = dst.is_none();
    let dst = dst.unwrap_or(&mut []);
    // Filled once, when measuring, not once a chunk.
    let mut scratch = measuring.then(|| [W::Unit::default(); SCRATCH]);
    loop {
        if let Some(scratch) = scratch.as_mut() {
            // At most two output units an input unit (UCS-4 to UTF-16), so
            // a chunk never runs out of room: a loop stops before the
            // chunk's end only at a unit it cannot take.
            let end = src.len().min(read + SCRATCH / 2);
            let (r, n) = fast(&src[read..end], scratch);
            (read, written) = (read + r, written + n);
            if read == end && end < src.len() {
                continue;
            }
        } else {
            let (r, n) = fast(&src[read..], &mut dst[written..]);
            (read, written) = (read + r, written + n);
        }
        if read == src.len() {
            return Progress {
                status: Status::Done,
                read,
                written,
                handled,
            };
        }
        let p = if measuring {
            reference::convert(
                r,
                w,
                &src[read..],
                &mut CountSink::default(),
                on_invalid,
                more_input,
                1,
            )
        } else {
            let sink = &mut SliceSink::new(&mut dst[written..]);
            reference::convert(r, w, &src[read..], sink, on_invalid, more_input, 1)
        };
        written += p.written;
        handled += p.handled;
        if p.status != Status::Done {
            return Progress {
                status: rebase(p.status, read),
                read: read + p.read,
                written,
                handled,
            };
        }
        read += p.read;
    }
}

impl Engine {
    fn conv(&self) -> &ConvertFns {
        self.kernels.loops().convert()
    }

    /// See [`crate::convert_latin1_to_utf16`].
    pub fn convert_latin1_to_utf16(
        &self,
        src: &[u8],
        dst: Option<&mut [u16]>,
        order: ByteOrder,
    ) -> Progress {
        let swap = order.swaps();
        let fast = |s: &[u8], d: &mut [u16]| self.conv().latin1_to_utf16(s, d, swap);
        route(
            (Latin1, Utf16 { swap }),
            src,
            dst,
            OnInvalid::Stop,
            false,
            fast,
        )
    }

    /// See [`crate::convert_latin1_to_ucs4`].
    pub fn convert_latin1_to_ucs4(
        &self,
        src: &[u8],
        dst: Option<&mut [u32]>,
        order: ByteOrder,
    ) -> Progress {
        let swap = order.swaps();
        let fast = |s: &[u8], d: &mut [u32]| self.conv().latin1_to_ucs4(s, d, swap);
        route(
            (Latin1, Ucs4 { swap }),
            src,
            dst,
            OnInvalid::Stop,
            false,
            fast,
        )
    }

    /// See [`crate::convert_utf16_to_latin1`].
    pub fn convert_utf16_to_latin1(
        &self,
        src: &[u16],
        dst: Option<&mut [u8]>,
        policy: Latin1Policy,
        order: ByteOrder,
        more_input: bool,
    ) -> Progress {
        let swap = order.swaps();
        let fast = |s: &[u16], d: &mut [u8]| self.conv().utf16_to_latin1(s, d, swap);
        route(
            (Utf16 { swap }, Latin1),
            src,
            dst,
            policy.into(),
            more_input,
            fast,
        )
    }

    /// See [`crate::convert_ucs4_to_latin1`].
    pub fn convert_ucs4_to_latin1(
        &self,
        src: &[u32],
        dst: Option<&mut [u8]>,
        policy: Latin1Policy,
        order: ByteOrder,
    ) -> Progress {
        let swap = order.swaps();
        let fast = |s: &[u32], d: &mut [u8]| self.conv().ucs4_to_latin1(s, d, swap);
        route(
            (Ucs4 { swap }, Latin1),
            src,
            dst,
            policy.into(),
            false,
            fast,
        )
    }

    /// See [`crate::convert_utf16_to_ucs4`].
    pub fn convert_utf16_to_ucs4(
        &self,
        src: &[u16],
        dst: Option<&mut [u32]>,
        policy: EncodePolicy,
        (from, to): (ByteOrder, ByteOrder),
        more_input: bool,
    ) -> Progress {
        let (s16, s32) = (from.swaps(), to.swaps());
        let fast = |s: &[u16], d: &mut [u32]| self.conv().utf16_to_ucs4(s, d, s16, s32);
        let forms = (Utf16 { swap: s16 }, Ucs4 { swap: s32 });
        route(forms, src, dst, policy.into(), more_input, fast)
    }

    /// See [`crate::convert_ucs4_to_utf16`].
    pub fn convert_ucs4_to_utf16(
        &self,
        src: &[u32],
        dst: Option<&mut [u16]>,
        policy: EncodePolicy,
        (from, to): (ByteOrder, ByteOrder),
        more_input: bool,
    ) -> Progress {
        let (s32, s16) = (from.swaps(), to.swaps());
        let fast = |s: &[u32], d: &mut [u16]| self.conv().ucs4_to_utf16(s, d, s32, s16);
        let forms = (Ucs4 { swap: s32 }, Utf16 { swap: s16 });
        route(forms, src, dst, policy.into(), more_input, fast)
    }

    /// See [`crate::validate_ucs4`].
    pub fn validate_ucs4(&self, src: &[u32], order: ByteOrder) -> Progress {
        let swap = order.swaps();
        let valid = self.conv().valid_ucs4_prefix(src, swap);
        let p = reference::validate_ucs4(&src[valid..], swap);
        Progress {
            status: rebase(p.status, valid),
            read: valid + p.read,
            written: 0,
            handled: 0,
        }
    }
}
