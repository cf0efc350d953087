//! The portable decoder against the reference core.

use super::*;
use crate::portable::form::{Reference, Ucs4, Utf16};
use crate::samples::{alphabet_text, spaced_text, text, Rng};
use crate::Status;

/// A decoder of this module's shape, to run two on the same inputs.
type Run<F> = fn(&[u8], &mut [<F as Form>::Unit]) -> FastStop;

/// Every input of up to three bytes, and the four-byte inputs led by
/// F0..FF with every second byte and the edge values of the others,
/// against the reference: alone, and after a character of each length
/// (so that the loops over runs of one length see them too) or two
/// four-byte ones, each with and without an ASCII byte after it (those
/// loops read whole words).
/// Under an emulator the last byte takes the values of
/// `samples::inner_bytes`.
fn every_short_input<F: Reference>(fill: F::Unit)
where
    F::Unit: PartialEq + core::fmt::Debug,
{
    // After two three- or four-byte characters, the input is the
    // second of a pair that their loops take at once.
    let prefixes = [
        "",
        "\u{E9}",
        "\u{20AC}",
        "\u{20AC}\u{4E2D}",
        "\u{1F600}",
        "\u{1F600}\u{10FFFF}",
    ];
    for prefix in prefixes {
        // After one such character, and before another, it is the
        // first of such a pair.
        let afters: &[&[u8]] = match prefix {
            "\u{20AC}" => &[b"", b"A", "\u{FFFD}".as_bytes()],
            "\u{1F600}" => &[b"", b"A", "\u{10000}".as_bytes()],
            _ => &[b"", b"A"],
        };
        let check = |tail: &[u8]| {
            for after in afters {
                let mut src = [0u8; 16];
                let n = prefix.len() + tail.len();
                src[..prefix.len()].copy_from_slice(prefix.as_bytes());
                src[prefix.len()..n].copy_from_slice(tail);
                src[n..n + after.len()].copy_from_slice(after);
                let src = &src[..n + after.len()];
                let (p, want) = F::reference(src, 9, fill);
                // Short inputs take the loops that step two characters
                // at a time; `decode_runs::<F, false>` is the one for
                // spaced words.
                let runs: [Run<F>; 2] = [decode_valid::<F>, decode_runs::<F, false>];
                for run in runs {
                    let mut got = [fill; 9];
                    let stop = run(src, &mut got);
                    assert_eq!(
                        (stop.read, stop.written, &got[..]),
                        (p.read, p.written, &want[..]),
                        "{src:02X?}"
                    );
                }
            }
        };
        crate::samples::each_short_input(check);
    }
}

/// [`mixed::run`] on every input of [`every_short_input`]'s shapes
/// followed by four ASCII bytes: what it reads is well formed and
/// decodes (to the reference's units, nothing written past them) as
/// the reference decodes it, and it stops short of the last four bytes
/// only before an ill-formed character.
fn mixed_steps_on_every_short_input<F: Reference>(fill: F::Unit)
where
    F::Unit: PartialEq + core::fmt::Debug,
{
    let check = |tail: &[u8]| {
        let mut src = [b'A'; 8];
        src[..tail.len()].copy_from_slice(tail);
        let src = &src[..tail.len() + 4];
        let mut got = [fill; 12];
        let (read, written, _) = mixed::run::<F>(src, &mut got);
        let (p, want) = F::reference(&src[..read], 12, fill);
        assert_eq!(
            (p.status, p.read, p.written),
            (Status::Done, read, written),
            "{src:02X?}"
        );
        assert_eq!(got[..], want[..], "{src:02X?}");
        if read + 4 <= src.len() {
            let (rest, _) = F::reference(&src[read..], 12, fill);
            assert!(matches!(rest.status, Status::IllFormed(_)), "{src:02X?}");
            assert_eq!(rest.read, 0, "{src:02X?}");
        }
    };
    crate::samples::each_short_input(check);
}

#[test]
fn mixed_steps_on_every_short_input_to_ucs4_and_utf16() {
    mixed_steps_on_every_short_input::<Ucs4>(0xAAAA_AAAA);
    mixed_steps_on_every_short_input::<Utf16<false>>(0xAAAA);
    mixed_steps_on_every_short_input::<Utf16<true>>(0xAAAA);
}

#[test]
fn every_short_input_to_ucs4() {
    every_short_input::<Ucs4>(0xAAAA_AAAA);
}

#[test]
fn every_short_input_to_utf16_both_orders() {
    every_short_input::<Utf16<false>>(0xAAAA);
    every_short_input::<Utf16<true>>(0xAAAA);
}

/// The same units, and the same stopping point, as the reference
/// decoder in strict mode: at every output capacity for short inputs,
/// and on long inputs of every mix of ASCII, with and without damage.
/// (A surrogate pair that does not fit stops both before it.)
fn matches_the_reference<F: Reference>(fill: F::Unit)
where
    F::Unit: PartialEq + core::fmt::Debug,
{
    let mut rng = Rng(0x5EED);
    // The loops for spaced words (one three-byte character a step)
    // too, on every input.
    let runs: [Run<F>; 2] = [decode_valid::<F>, decode_runs::<F, false>];
    let check_one = |run: Run<F>, src: &[u8], cap: usize| {
        let (p, want) = F::reference(src, cap, fill);
        let mut got = vec![fill; cap];
        let stop = run(src, &mut got);
        assert_eq!(
            (stop.read, stop.written),
            (p.read, p.written),
            "{src:02X?} cap {cap}"
        );
        assert_eq!(got, want, "{src:02X?} cap {cap}");
        // A flag means the reference stops at an error there; no flag
        // short of the end means the output is full, or has one unit
        // of room that a pair does not fit in (the reference may still
        // see an error first: it needs no room to report one).
        let ill_formed = matches!(p.status, Status::IllFormed(_));
        match stop.flagged {
            Some(e) => {
                assert!(ill_formed, "{src:02X?} cap {cap}");
                assert_eq!(e, (stop.read + 3).min(src.len()), "{src:02X?} cap {cap}");
            }
            None if stop.read < src.len() => {
                let full =
                    stop.written == cap || (stop.written + 1 == cap && src[stop.read] >= 0xF0);
                assert!(full, "{src:02X?} cap {cap}")
            }
            None => assert_eq!(p.status, Status::Done, "{src:02X?} cap {cap}"),
        }
    };
    let check = |src: &[u8], cap: usize| {
        for run in runs {
            check_one(run, src, cap);
        }
    };
    for len in 0..80 {
        for ascii in [0, 50, 90, 100] {
            for damage in [0, 1, 3] {
                let src = text(&mut rng, len, ascii, damage);
                for cap in 0..=src.len() + 1 {
                    check(&src, cap);
                }
            }
        }
    }
    for _ in 0..300 {
        let ascii = rng.below(101);
        let damage = rng.below(3) as usize;
        let src = text(&mut rng, 2000, ascii, damage);
        check(&src, src.len());
        check(&src, rng.below(src.len() as u64) as usize);
    }
    // Text in an alphabet (the windows of `alphabets`), with longer
    // characters now and then (the loops per length take their
    // windows) or often (they take over), with and without damage.
    for _ in 0..600 {
        let ascii = [0, 20, 50, 90][rng.below(4) as usize];
        let longer = [0, 2, 20, 200][rng.below(4) as usize];
        let damage = rng.below(3) as usize;
        let len = 256 + rng.below(1500) as usize;
        let src = alphabet_text(&mut rng, len, ascii, longer, damage);
        check(&src, src.len());
        check(&src, rng.below(src.len() as u64) as usize);
    }
    // An alphabet, then ASCII alone for a while (the loops per length
    // take a stretch of it), then the alphabet again.
    for _ in 0..100 {
        let mut src = alphabet_text(&mut rng, 100, 10, 0, 0);
        let ascii = rng.below(3000) as usize;
        src.extend((0..ascii).map(|k| b' ' + (k % 95) as u8));
        let damage = rng.below(3) as usize;
        src.extend(alphabet_text(&mut rng, 500, 10, 10, damage));
        check(&src, src.len());
        check(&src, rng.below(src.len() as u64) as usize);
    }
    for len in [256, 300] {
        let src = alphabet_text(&mut rng, len, 20, 5, 0);
        for cap in 0..=src.len() + 1 {
            check(&src, cap);
        }
    }
    // Spaced words, whose loop takes `CHUNK` bytes at a time: every
    // capacity across the first chunks, and damage anywhere.
    for len in [60, 130, 200] {
        for damage in [0, 1, 2] {
            let src = spaced_text(&mut rng, len, damage);
            for cap in 0..=src.len() + 1 {
                check(&src, cap);
            }
        }
    }
    for _ in 0..500 {
        let damage = rng.below(3) as usize;
        let len = 60 + rng.below(2000) as usize;
        let src = spaced_text(&mut rng, len, damage);
        check(&src, src.len());
        check(&src, rng.below(src.len() as u64) as usize);
    }
}

#[test]
fn spaced_words_finds_korean_not_chinese_nor_japanese() {
    let korean = "사면·감형 및 복권에 관한 사항은 법률로 정한다. ".repeat(4);
    let chinese = "中华人民共和国是工人阶级领导的，以工农联盟为基础的。".repeat(4);
    let japanese = "日本国民は、正当に選挙された国会における代表者を通じて行動し、".repeat(4);
    let alphabet = "Съешь же ещё этих мягких французских булок ".repeat(4);
    assert!(spaced_words(korean.as_bytes()));
    assert!(!spaced_words(chinese.as_bytes()));
    assert!(!spaced_words(japanese.as_bytes()));
    assert!(!spaced_words(alphabet.as_bytes()));
    assert!(!spaced_words(&[b' '; 300]));
}

#[test]
fn matches_the_reference_to_ucs4() {
    matches_the_reference::<Ucs4>(0xAAAA_AAAA);
}

#[test]
fn matches_the_reference_to_utf16_both_orders() {
    matches_the_reference::<Utf16<false>>(0xAAAA);
    matches_the_reference::<Utf16<true>>(0xAAAA);
}
