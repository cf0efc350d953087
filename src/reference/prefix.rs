//! The well-formed prefix of a short input, decoded or measured with as
//! little set-up as possible.
//!
//! Strings of a few bytes are the common case for C callers, and for them a
//! vector kernel's fixed latency (tens of cycles from load to store) and the
//! policy-aware reference decoder's set-up both cost more than the work. This
//! loop handles only whole, well-formed characters and stops at anything
//! else (an ill-formed or cut sequence, a full buffer), leaving it to the
//! reference decoder, so it needs no policy and no error reporting.

/// The character at the start of `s` (non-empty) and its length, if it is
/// whole and well-formed (Table 3-7).
#[inline(always)]
fn next_char(s: &[u8]) -> Option<(u32, usize)> {
    let b0 = s[0];
    if b0 < 0x80 {
        return Some((u32::from(b0), 1));
    }
    let tail = |k: usize| {
        s.get(k)
            .copied()
            .filter(|b| b & 0xC0 == 0x80)
            .map(|b| u32::from(b & 0x3F))
    };
    // The second byte's range depends on the lead (Table 3-7).
    let (low, high) = match b0 {
        0xE0 => (0xA0, 0xBF),
        0xED => (0x80, 0x9F),
        0xF0 => (0x90, 0xBF),
        0xF4 => (0x80, 0x8F),
        _ => (0x80, 0xBF),
    };
    let second = s
        .get(1)
        .copied()
        .filter(|b| (low..=high).contains(b))
        .map(|b| u32::from(b & 0x3F));
    match b0 {
        0xC2..=0xDF => Some((u32::from(b0 & 0x1F) << 6 | second?, 2)),
        0xE0..=0xEF => Some((u32::from(b0 & 0x0F) << 12 | second? << 6 | tail(2)?, 3)),
        0xF0..=0xF4 => Some((
            u32::from(b0 & 0x07) << 18 | second? << 12 | tail(2)? << 6 | tail(3)?,
            4,
        )),
        _ => None,
    }
}

/// Decodes the longest prefix of `src` made of whole, well-formed characters
/// that fits in `dst`. Returns the bytes read and the code points written.
pub(crate) fn decode_prefix(src: &[u8], dst: &mut [u32]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read < src.len() && written < dst.len() {
        let Some((scalar, len)) = next_char(&src[read..]) else {
            break;
        };
        dst[written] = scalar;
        read += len;
        written += 1;
    }
    (read, written)
}

/// The length of the longest well-formed prefix of `src` (whole characters
/// only) and the number of characters in it.
pub(crate) fn count_prefix(src: &[u8]) -> (usize, usize) {
    let (mut read, mut count) = (0, 0);
    while read < src.len() {
        let Some((_, len)) = next_char(&src[read..]) else {
            break;
        };
        read += len;
        count += 1;
    }
    (read, count)
}
