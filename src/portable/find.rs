//! A byte search: the first byte in a set given as a wrapping range.

/// The index of the first byte `b` of `src` with `b + bias >= threshold`
/// (wrapping), or `src.len()`. Blocks with no branch inside, which the
/// compiler vectorises.
pub(crate) fn find_byte(src: &[u8], bias: u8, threshold: u8) -> usize {
    let hit = |b: u8| b.wrapping_add(bias) >= threshold;
    let mut i = 0;
    for block in src.chunks_exact(64) {
        if block.iter().fold(false, |any, &b| any | hit(b)) {
            break;
        }
        i += 64;
    }
    i + src[i..]
        .iter()
        .position(|&b| hit(b))
        .unwrap_or(src.len() - i)
}
