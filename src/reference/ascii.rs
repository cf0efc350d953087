//! ASCII runs, a word at a time: what every reference loop skips first.

const WORD: usize = core::mem::size_of::<usize>();
const HIGH_BITS: usize = usize::from_ne_bytes([0x80; WORD]);

/// How far the decoders look for the end of an ASCII run at once.
pub(crate) const ASCII_LOOK_AHEAD: usize = 4096;

/// Length of the all-ASCII prefix of `src`, a word at a time.
#[inline]
pub fn ascii_prefix_len(src: &[u8]) -> usize {
    let mut i = 0;
    for word in src.chunks_exact(WORD) {
        let w = usize::from_ne_bytes(word.try_into().unwrap_or([0xFF; WORD]));
        if w & HIGH_BITS != 0 {
            break;
        }
        i += WORD;
    }
    i + src[i..].iter().take_while(|b| b.is_ascii()).count()
}
