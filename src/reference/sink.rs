//! Where decoded or encoded units go: a caller's buffer that must never be
//! overrun, or a counter when the caller only wants the size.

/// An output that accepts whole groups of units or none of them.
pub trait Sink<T: Copy> {
    /// Appends all of `units`, or nothing if they do not fit; says which.
    fn push_all(&mut self, units: &[T]) -> bool;
    /// Units accepted so far.
    fn written(&self) -> usize;
}

/// A code point output that can take a run of ASCII bytes at once.
pub trait AsciiSink {
    /// Appends as many of the ASCII `bytes` (as code points) as fit; returns
    /// how many.
    fn push_ascii(&mut self, bytes: &[u8]) -> usize;
}

impl AsciiSink for SliceSink<'_, u32> {
    #[inline]
    fn push_ascii(&mut self, bytes: &[u8]) -> usize {
        let room = &mut self.dst[self.len..];
        let n = bytes.len().min(room.len());
        for (slot, &b) in room[..n].iter_mut().zip(bytes) {
            *slot = u32::from(b);
        }
        self.len += n;
        n
    }
}

impl AsciiSink for CountSink {
    #[inline]
    fn push_ascii(&mut self, bytes: &[u8]) -> usize {
        self.len += bytes.len();
        bytes.len()
    }
}

/// Writes into a borrowed buffer.
pub struct SliceSink<'a, T> {
    dst: &'a mut [T],
    len: usize,
}

impl<'a, T> SliceSink<'a, T> {
    pub fn new(dst: &'a mut [T]) -> Self {
        SliceSink { dst, len: 0 }
    }
}

impl<T: Copy> Sink<T> for SliceSink<'_, T> {
    #[inline(always)]
    fn push_all(&mut self, units: &[T]) -> bool {
        match self.dst.get_mut(self.len..self.len + units.len()) {
            Some(slot) => {
                slot.copy_from_slice(units);
                self.len += units.len();
                true
            }
            None => false,
        }
    }
    #[inline(always)]
    fn written(&self) -> usize {
        self.len
    }
}

/// Counts what would be written. Cannot overflow: a count is bounded by four
/// times the length of an input slice, and slices of `u32` hold at most
/// `isize::MAX / 4` elements.
#[derive(Default)]
pub struct CountSink {
    len: usize,
}

impl<T: Copy> Sink<T> for CountSink {
    #[inline(always)]
    fn push_all(&mut self, units: &[T]) -> bool {
        self.len += units.len();
        true
    }
    #[inline(always)]
    fn written(&self) -> usize {
        self.len
    }
}
