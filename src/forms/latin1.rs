//! UTF-8 <-> Latin-1 over the tier's UCS-4 kernels.

use super::loops::{ascii_blocks, narrow_latin1, widen_u8};
use super::{is_reference, through_ucs4, Narrow, Taken, CHUNK, SHORT_BUF};
use crate::scalar::latin1 as reference;
use crate::scalar::sink::{CountSink, SliceSink};
use crate::{EncodePolicy, Engine, Latin1Policy, Policy, Progress, Status};

/// Latin-1 output: a buffer, or a count.
struct Latin1Out<'a> {
    engine: Engine,
    dst: Option<&'a mut [u8]>,
    written: usize,
    /// The byte for a character above U+00FF, or `None` to stop there.
    replacement: Option<u8>,
}

impl Narrow for Latin1Out<'_> {
    fn room(&self) -> usize {
        self.dst
            .as_ref()
            .map_or(usize::MAX, |d| d.len() - self.written)
    }

    fn take(&mut self, cps: &[u32]) -> Taken {
        // `through_ucs4` never hands over more code points than `room`.
        let fits = match self.dst.as_deref_mut() {
            Some(dst) => narrow_latin1(
                &self.engine,
                cps,
                &mut dst[self.written..],
                self.replacement,
            ),
            None if self.replacement.is_some() => cps.len(),
            None => cps.iter().position(|&c| c > 0xFF).unwrap_or(cps.len()),
        };
        self.written += fits;
        if fits < cps.len() {
            Taken::Unrepresentable(fits)
        } else {
            Taken::All
        }
    }

    fn written(&self) -> usize {
        self.written
    }

    fn take_ascii_blocks(&mut self, bytes: &[u8]) -> usize {
        let run = ascii_blocks(&self.engine, bytes);
        let Some(dst) = self.dst.as_deref_mut() else {
            self.written += run;
            return run;
        };
        let n = run.min(dst.len() - self.written);
        dst[self.written..self.written + n].copy_from_slice(&bytes[..n]);
        self.written += n;
        n
    }

    fn rejects(&self, scalar: u32) -> bool {
        self.replacement.is_none() && scalar > 0xFF
    }
}

/// The UCS-4 policy that gives the Latin-1 policy's output for ill-formed
/// input: the replacement byte as the character it stands for.
fn ucs4_policy(policy: Latin1Policy) -> (Policy, Option<u8>) {
    match policy {
        Latin1Policy::Strict => (Policy::Strict, None),
        Latin1Policy::Replace(b) => (Policy::Replace(char::from(b)), Some(b)),
    }
}

impl Engine {
    /// See [`crate::decode_latin1`].
    pub fn decode_latin1(
        &self,
        src: &[u8],
        dst: &mut [u8],
        policy: Latin1Policy,
        more_input: bool,
    ) -> Progress {
        if is_reference(self) {
            return reference::decode(src, &mut SliceSink::new(dst), policy, more_input);
        }
        if let Some(p) = self.decode_latin1_kernel(src, dst, policy, more_input) {
            return p;
        }
        let (ucs4, replacement) = ucs4_policy(policy);
        let mut out = Latin1Out {
            engine: *self,
            dst: Some(dst),
            written: 0,
            replacement,
        };
        through_ucs4(self, src, ucs4, more_input, &mut out)
    }

    /// See [`crate::decode_latin1_len`].
    pub fn decode_latin1_len(
        &self,
        src: &[u8],
        policy: Latin1Policy,
        more_input: bool,
    ) -> Progress {
        if is_reference(self) {
            return reference::decode(src, &mut CountSink::default(), policy, more_input);
        }
        let (ucs4, replacement) = ucs4_policy(policy);
        if replacement.is_some() {
            // Every code point becomes one byte: the UCS-4 count is the size.
            return self.count(src, ucs4, more_input);
        }
        let mut out = Latin1Out {
            engine: *self,
            dst: None,
            written: 0,
            replacement,
        };
        through_ucs4(self, src, ucs4, more_input, &mut out)
    }

    /// See [`crate::encode_latin1`].
    pub fn encode_latin1(&self, src: &[u8], dst: &mut [u8]) -> Progress {
        if is_reference(self) {
            return reference::encode(src, &mut SliceSink::new(dst));
        }
        if let Some(p) = self.encode_latin1_kernel(src, dst) {
            return p;
        }
        // Bytes widen to code points, which the tier's encoder writes.
        let (mut small, mut large);
        let buf: &mut [u32] = if src.len() <= SHORT_BUF {
            small = [0u32; SHORT_BUF];
            &mut small
        } else {
            large = [0u32; CHUNK];
            &mut large
        };
        let mut read = 0;
        let mut written = 0;
        while read < src.len() {
            // ASCII runs are copied.
            let run = ascii_blocks(self, &src[read..]).min(dst.len() - written);
            dst[written..written + run].copy_from_slice(&src[read..read + run]);
            (read, written) = (read + run, written + run);
            if read == src.len() {
                break;
            }
            // No more bytes than the output can take (but at least one),
            // so that a small buffer costs a small chunk.
            let limit = (dst.len() - written).clamp(1, buf.len());
            let chunk = &src[read..src.len().min(read + limit)];
            widen_u8(self, chunk, buf);
            let p = self.encode(
                &buf[..chunk.len()],
                &mut dst[written..],
                EncodePolicy::Strict,
            );
            read += p.read;
            written += p.written;
            if p.status != Status::Done {
                return Progress {
                    status: p.status,
                    read,
                    written,
                };
            }
        }
        Progress {
            status: Status::Done,
            read,
            written,
        }
    }

    /// See [`crate::encode_latin1_len`].
    pub fn encode_latin1_len(&self, src: &[u8]) -> usize {
        src.len() + src.iter().filter(|&&b| b >= 0x80).count()
    }
}
