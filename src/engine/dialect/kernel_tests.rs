//! The kernels the dialects add to each tier, alone against references:
//! the decoders that stop at CESU-8's and Modified UTF-8's forms, and the
//! CESU-8 pair runs.

use crate::contract::{FastStop, Stops};
use crate::dialect::pairs::{pair_at, scalar_of};
use crate::{ByteOrder, Engine, Tier};

fn engines() -> Vec<Engine> {
    Tier::ALL.into_iter().filter_map(Engine::new).collect()
}

/// A small xorshift generator: `next(n)` is in `0..n`.
fn generator(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// The stopping kernels alone (decoding, validating, counting) on every
/// tier, the scalar tier's loop over the portable core included: over RFC 3629
/// text without stops they take everything; with one stop at a character
/// boundary `p` they flag `p`, decode exactly the text before where they
/// stopped, and stop at most a character before `p`.
#[test]
fn stopping_kernels_flag_exactly_their_stops() {
    let plain = ["a", "bc ", "é", "€", "中", "\u{7FF}", "\u{FFFD}"];
    let stops = [
        (Stops::Fours, &["😀", "\u{10FFFF}", "\u{10000}"][..]),
        (Stops::FoursAndZero, &["😀", "\u{10FFFF}", "\0"][..]),
    ];
    let mut next = generator(0x2545_F491_4F6C_DD1D);
    let engines = engines();
    // Past 16 KiB too: where the AVX2 and SSE4.2 kernels cut their search.
    let long = [16383, 16384, 16385, 16386, 40_000];
    for len in (0..420).step_by(crate::samples::stride()).chain(long) {
        for (mode, forms) in stops {
            // Every other text is all ASCII, for the ASCII paths' stops.
            let ascii = len % 2 == 1;
            let mut text = String::new();
            while ascii && text.len() < len {
                text.push(if next(9) == 0 { ' ' } else { 'x' });
            }
            while text.len() < len {
                // Long ASCII runs now and then, for the ASCII loops.
                let piece = plain[next(plain.len())];
                text.push_str(if next(8) == 0 {
                    "0123456789abcdef"
                } else {
                    piece
                });
            }
            let p = text.len();
            let with_stop = [text.as_str(), forms[next(forms.len())], "xyz"].concat();
            for e in &engines {
                for (src, flag) in [(text.as_str(), None), (with_stop.as_str(), Some(p))] {
                    let ctx = (e.tier(), mode, len, flag);
                    let stopped_well = |stop: FastStop| {
                        assert_eq!(stop.flagged, flag, "{ctx:?}");
                        let read = stop.read;
                        let well = match flag {
                            None => read == src.len(),
                            Some(p) => read <= p && p - read <= 4 && src.is_char_boundary(read),
                        };
                        assert!(well, "read {read}: {ctx:?}");
                        &src[..read]
                    };
                    let stop = e.validate_stopping(src.as_bytes(), mode);
                    stopped_well(stop);
                    assert_eq!(stop.written, 0, "{ctx:?}");
                    for utf16 in [false, true] {
                        let stop = e.count_stopping(src.as_bytes(), mode, utf16);
                        let prefix = stopped_well(stop);
                        let n = if utf16 {
                            prefix.encode_utf16().count()
                        } else {
                            prefix.chars().count()
                        };
                        assert_eq!(stop.written, n, "{ctx:?}");
                    }
                    let mut ucs4 = vec![0u32; src.len() + 1];
                    let stop = e.decode_stopping(src.as_bytes(), &mut ucs4, mode);
                    let expect: Vec<u32> = stopped_well(stop).chars().map(u32::from).collect();
                    assert_eq!(&ucs4[..stop.written], &expect[..], "{ctx:?}");
                    for order in [ByteOrder::Native, ByteOrder::Big] {
                        let mut units = vec![0u16; 2 * src.len() + 1];
                        let stop = e.decode_utf16_stopping(src.as_bytes(), &mut units, order, mode);
                        let expect: Vec<u16> = stopped_well(stop)
                            .encode_utf16()
                            .map(|u| if order.swaps() { u.swap_bytes() } else { u })
                            .collect();
                        assert_eq!(&units[..stop.written], &expect[..], "{ctx:?}");
                    }
                }
            }
        }
    }
}

/// The pair kernels against the scalar loop over runs of pairs, whole or
/// with one byte changed anywhere to a value that breaks a pair (or keeps
/// it), at every length and output room: a kernel takes only leading whole
/// pairs, decodes them exactly, writes nothing past them, and leaves at
/// most the last 15 bytes of a run that fits.
#[test]
fn pair_kernels_take_exactly_the_leading_pairs() {
    let mut next = generator(0x9E37_79B9_7F4A_7C15);
    let bytes = [
        0x00, 0x7F, 0x80, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xEC, 0xED, 0xEE, 0xF0, 0xFF,
    ];
    for round in (0..3000).step_by(crate::samples::stride()) {
        let pairs = next(40);
        let mut src: Vec<u8> = (0..pairs)
            .flat_map(|_| {
                let c = 0x1_0000 + next(0x10_0000) as u32;
                let (h, l) = (0xD800 + ((c - 0x1_0000) >> 10), 0xDC00 + (c & 0x3FF));
                [h, l]
                    .into_iter()
                    .flat_map(|u| [0xED, 0x80 | (u >> 6 & 0x3F) as u8, 0x80 | (u & 0x3F) as u8])
            })
            .collect();
        if round % 2 == 1 && !src.is_empty() {
            let at = next(src.len());
            src[at] = bytes[next(bytes.len())];
        }
        src.extend((0..next(20)).map(|_| bytes[next(bytes.len())]));
        let mut whole = 0;
        while pair_at(&src[6 * whole..]).is_some() {
            whole += 1;
        }
        let units: Vec<u16> = (0..whole)
            .flat_map(|k| pair_at(&src[6 * k..]).unwrap())
            .collect();
        for e in engines() {
            for room in [2 * whole + 3, next(2 * whole + 1)] {
                let ctx = (e.tier(), round, room);
                let mut out = vec![0xFFFFu16; room + 4];
                let n = e.pairs_utf16_kernel(&src, &mut out[..room], false);
                let fits = room / 2;
                assert!(n <= whole.min(fits), "{ctx:?}");
                if e.tier() == Tier::Avx512 {
                    // Masked loads: every whole pair that fits.
                    assert_eq!(n, whole.min(fits), "{ctx:?}");
                } else if matches!(e.tier(), Tier::Sse42 | Tier::Avx2)
                    && whole.min(fits) * 6 + 15 <= src.len()
                {
                    // The two-pair steps of SSE4.1 (NEON has no pair kernel
                    // yet: it takes none, and the reference core takes them).
                    assert!(whole.min(fits) - n <= 2, "took {n} of {whole}: {ctx:?}");
                }
                assert_eq!(&out[..2 * n], &units[..2 * n], "{ctx:?}");
                assert!(out[2 * n..].iter().all(|&u| u == 0xFFFF), "{ctx:?}");
                let n = e.pairs_utf16_kernel(&src, &mut out[..room], true);
                let swapped: Vec<u16> = units[..2 * n].iter().map(|u| u.swap_bytes()).collect();
                assert_eq!(&out[..2 * n], &swapped[..], "{ctx:?}");
                let mut cps = vec![u32::MAX; room / 2 + 4];
                let n = e.pairs_kernel(&src, &mut cps[..room / 2]);
                assert!(n <= whole.min(room / 2), "{ctx:?}");
                if e.tier() == Tier::Avx512 {
                    assert_eq!(n, whole.min(room / 2), "{ctx:?}");
                }
                let expect: Vec<u32> = units
                    .chunks(2)
                    .take(n)
                    .map(|p| scalar_of([p[0], p[1]]))
                    .collect();
                assert_eq!(&cps[..n], &expect[..], "{ctx:?}");
                assert!(cps[n..].iter().all(|&c| c == u32::MAX), "{ctx:?}");
            }
        }
    }
}

/// Modified UTF-8's 00 amid long runs of 2-byte text, which the AVX-512
/// validator certifies with its pair test (groups of ASCII and 2-byte
/// characters only), and of 3-byte text, where AVX-512's BMP decoding loop
/// finds it through its lookup tables (the byte after a 00), at many
/// places: every stopping kernel flags it, to UTF-16 and to UCS-4.
#[test]
fn zero_amid_two_and_three_byte_text_is_flagged() {
    let lines = [
        "Съешь же ещё этих мягких французских булок, да выпей чаю. ",
        "いろはにほへと ちりぬるを わかよたれそ つねならむ 色は匂へど散りぬるを、",
    ];
    for line in lines {
        let text = line.repeat(12_000 / line.len() + 1);
        for e in engines() {
            let mut p = 0;
            while p < text.len() {
                if text.is_char_boundary(p) {
                    let src = [&text.as_bytes()[..p], b"\0", &text.as_bytes()[p..]].concat();
                    let stop = e.validate_stopping(&src, Stops::FoursAndZero);
                    assert_eq!(stop.flagged, Some(p), "{:?} {p}", e.tier());
                    let mut units = vec![0u16; src.len()];
                    let stop = e.decode_utf16_stopping(
                        &src,
                        &mut units,
                        ByteOrder::Native,
                        Stops::FoursAndZero,
                    );
                    assert_eq!(stop.flagged, Some(p), "{:?} {p}", e.tier());
                    let mut cps = vec![0u32; src.len()];
                    let stop = e.decode_stopping(&src, &mut cps, Stops::FoursAndZero);
                    assert_eq!(stop.flagged, Some(p), "{:?} {p}", e.tier());
                }
                p += 1 + 97 * crate::samples::stride();
            }
        }
    }
}
