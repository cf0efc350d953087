//! UTF-16 validation a block at a time, surrogate pairs included.
//!
//! UTF-16 is well-formed exactly when every low surrogate (DC00..DFFF)
//! follows a high one (D800..DBFF) and every high one is followed by a low
//! one. Both halves of that rule are one comparison per unit: unit `k` is
//! a low surrogate if and only if unit `k - 1` is a high surrogate. So a
//! block of 64 units is checked against the same block read one unit
//! earlier (two overlapping loads), lane by lane, with no branch and no
//! carry between lanes, so text full of pairs (emoji) takes a block a
//! step as text without a surrogate does. Blocks without surrogates (most
//! text) take a cheaper test first, four blocks a test along a run of
//! them. The loops are plain Rust that the
//! compiler vectorises; each vector tier compiles them again with its
//! features.
//!
//! Like every fast kernel, it runs over a *valid prefix* and stops before
//! the block where it saw an error; the reference core reads the few units
//! from there and reports the error (or a pair cut by the end of a chunk)
//! exactly.

/// Units checked per step.
const BLOCK: usize = 64;
/// Units a test skips in a run without surrogates.
const RUN: usize = 4 * BLOCK;

/// The length of a prefix of `src` that is well-formed UTF-16 (in `SWAP`ped
/// byte order with `SWAP`) and does not end between the halves of a pair:
/// all of `src` but at most one block and a unit before the first error or
/// the end. Only the rest needs the reference core.
#[inline(always)]
pub(crate) fn valid_prefix<const SWAP: bool>(src: &[u16]) -> usize {
    // The tests on units as they are in memory: a swapped unit's high byte
    // is its second.
    let order = |u: u16| if SWAP { u.swap_bytes() } else { u };
    let (mask, high, low) = (order(0xFC00), order(0xD800), order(0xDC00));
    let Some(&first) = src.first() else {
        return 0;
    };
    if first & mask == low {
        return 0;
    }
    // Unit `k` is checked against unit `k - 1`, from `k` = 1. A block
    // without surrogates needs only that test: one subtraction and one
    // signed minimum a unit (`u - 0x5800` takes D800..DFFF, and only them,
    // to the least 0x800 values of an `i16`; SSE2 has a signed 16-bit
    // minimum, not an unsigned one). While blocks hold surrogates, the
    // pairs' test runs at once.
    let mut pairs = false;
    let mut k = 1;
    while let (Some(now), Some(before)) = (src.get(k..k + BLOCK), src.get(k - 1..k - 1 + BLOCK)) {
        if !pairs {
            let least = now.iter().fold(i16::MAX, |m, &u| {
                m.min(order(u).wrapping_sub(0x5800) as i16)
            });
            if least >= i16::MIN + 0x800 && before[0] & mask != high {
                k += BLOCK;
                // A run without surrogates, four blocks a test: the
                // minimum's reduction across a vector's lanes is paid once
                // for 256 units, not once a block (on AVX-512 a block is
                // two vectors, and the reduction cost as much as their
                // test). Unit `k - 1` is no surrogate: the block's last.
                k = skip_runs::<SWAP>(src, k);
                continue;
            }
        }
        let (bad, any) = now
            .iter()
            .zip(before)
            .fold((false, false), |(bad, any), (&u, &p)| {
                let h = p & mask == high;
                (bad | ((u & mask == low) != h), any | h)
            });
        if bad {
            break;
        }
        pairs = any;
        k += BLOCK;
    }
    // Every unit before `k` is in place; the last may be a high surrogate
    // whose low half was not checked.
    k - usize::from(src[k - 1] & mask == high)
}

/// The end of the runs of [`RUN`] units without a surrogate from `k`.
#[inline(always)]
fn skip_runs<const SWAP: bool>(src: &[u16], mut k: usize) -> usize {
    let order = |u: u16| if SWAP { u.swap_bytes() } else { u };
    while let Some(run) = src.get(k..k + RUN) {
        let least = run.iter().fold(i16::MAX, |m, &u| {
            m.min(order(u).wrapping_sub(0x5800) as i16)
        });
        if least < i16::MIN + 0x800 {
            break;
        }
        k += RUN;
    }
    k
}

/// [`valid_prefix`] in either byte order.
#[inline(always)]
pub(crate) fn valid_prefix_in(src: &[u16], swap: bool) -> usize {
    if swap {
        valid_prefix::<true>(src)
    } else {
        valid_prefix::<false>(src)
    }
}

#[cfg(test)]
mod tests {
    use super::valid_prefix;
    use crate::reference::utf16::validate;
    use crate::{ByteOrder, Status};

    /// Holds `valid_prefix` to its contract on `units` (native order) and
    /// their byte-swapped copy: a well-formed prefix, not ending on a high
    /// surrogate, short of the reference's stop by at most a block and a
    /// unit.
    fn check(units: &[u16]) {
        let swapped: Vec<u16> = units.iter().map(|u| u.swap_bytes()).collect();
        for (src, n, order) in [
            (units, valid_prefix::<false>(units), ByteOrder::Native),
            (
                &swapped[..],
                valid_prefix::<true>(&swapped),
                swapped_order(),
            ),
        ] {
            let whole = validate(src, order, false);
            let stop = match whole.status {
                Status::Done => src.len(),
                _ => whole.read,
            };
            assert!(n <= stop, "{n} > {stop} in {units:04X?}");
            assert!(stop - n <= 65, "{n} far short of {stop}");
            let prefix = validate(&src[..n], order, true);
            assert_eq!(prefix.status, Status::Done, "prefix {n} of {units:04X?}");
        }
    }

    fn swapped_order() -> ByteOrder {
        if cfg!(target_endian = "little") {
            ByteOrder::Big
        } else {
            ByteOrder::Little
        }
    }

    #[test]
    fn every_surrogate_shape_at_every_place_in_a_block() {
        // Pairs everywhere, with one unit changed or removed at each place:
        // lone highs, lone lows, reversed halves, a pair across blocks.
        let pairs: Vec<u16> = (0..300).flat_map(|i| [0xD800 + i, 0xDC00 + i]).collect();
        check(&pairs);
        let shapes: [&[u16]; 7] = [
            &[0xD800],
            &[0xDC00],
            &[0xDC00, 0xD800],
            &[0xD800, 0x41],
            &[0xDBFF, 0xD800, 0xDFFF],
            &[0xE000, 0xDFFF],
            &[0xD7FF, 0xDC00],
        ];
        for shape in shapes {
            for at in 0..200 {
                let mut text = pairs.clone();
                text.splice(at..at, shape.iter().copied());
                check(&text);
                let mut bmp = vec![0x4E2Du16; 200];
                bmp.splice(at..at, shape.iter().copied());
                check(&bmp);
            }
        }
        for cut in 0..pairs.len() {
            check(&pairs[..cut]);
            check(&pairs[cut..]);
        }
        // Runs without surrogates longer than a run test (256 units), with
        // each shape at every place of the first runs and past them, and
        // after pairs (the run test starts once a block has none).
        for shape in shapes {
            for at in 0..700 {
                let mut bmp = vec![0x4E2Du16; 700];
                bmp.splice(at..at, shape.iter().copied());
                check(&bmp);
                let mut after_pairs = pairs[..70].to_vec();
                after_pairs.extend_from_slice(&bmp);
                check(&after_pairs);
            }
        }
    }

    #[test]
    fn every_pair_of_units_with_a_surrogate() {
        // Every pair where either unit is a surrogate, at the end of a block
        // and straddling two, against the reference.
        let mut text = vec![0x61u16; 130];
        for a in (0xD800u16..0xE000)
            .step_by(7)
            .chain([0xDBFF, 0xDC00, 0xDFFF])
        {
            for b in [
                0x0, 0x7F, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000, 0xFFFF,
            ] {
                for at in [62, 63, 64, 65] {
                    text[at] = a;
                    text[at + 1] = b;
                    check(&text);
                    text[at] = 0x61;
                    text[at + 1] = 0x61;
                }
            }
        }
    }

    #[test]
    fn random_units() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..400 {
            let text: Vec<u16> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // Mostly pairs and BMP text, now and then a lone half.
                    match x % 97 {
                        0 => 0xD800 | (x >> 20) as u16 & 0x7FF,
                        1..=40 => 0x20 + (x >> 20) as u16 % 0x60,
                        _ => 0x4E00,
                    }
                })
                .collect();
            let paired: Vec<u16> = text
                .iter()
                .flat_map(|&u| match u {
                    0x4E00 => vec![0xD83D, 0xDE00],
                    u => vec![u],
                })
                .collect();
            check(&paired);
        }
    }
}
