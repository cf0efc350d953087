//! The CESU-8 and Modified UTF-8 encoders of UTF-16 on every tier: the
//! whole conversion against the scalar tier, and each tier's kernel alone
//! against the reference core, on random units of every kind (ASCII, 0, 2-
//! and 3-byte BMP units, pairs, lone and reversed surrogates) at every
//! alignment, in both byte orders, under every policy, with every output
//! size.

use crate::dialect::encode;
use crate::reference::sink::SliceSink;
use crate::{ByteOrder, Dialect, EncodePolicy, Engine, Progress, Status, Tier};

const POLICIES: [EncodePolicy; 5] = [
    EncodePolicy::Strict,
    EncodePolicy::Replace('\u{10348}'),
    EncodePolicy::Replace('\0'),
    EncodePolicy::Escape,
    EncodePolicy::Ignore,
];

/// A xorshift generator: the same inputs on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The kinds of units mixed: `weights` says how often each comes.
fn units(rng: &mut Rng, len: usize, weights: &[u64; 9]) -> Vec<u16> {
    let total: u64 = weights.iter().sum();
    let mut v = Vec::with_capacity(len + 1);
    while v.len() < len {
        let mut pick = rng.below(total);
        let mut kind = 0;
        while pick >= weights[kind] {
            pick -= weights[kind];
            kind += 1;
        }
        let r = rng.next() as u16;
        match kind {
            0 => v.push(0x20 + r % 0x5F),
            1 => v.push(0),
            2 => v.push(0x80 + r % 0x780),
            3 => v.push(0x800 + r % 0xD000),
            4 => v.push(0xE000 + r % 0x2000),
            5 => v.extend([0xD800 | (r & 0x3FF), 0xDC00 | (r >> 6 & 0x3FF)]),
            6 => v.push(0xD800 | (r & 0x3FF)),
            7 => v.push(0xDC00 | (r & 0x3FF)),
            _ => v.extend([0xDC00 | (r & 0x3FF), 0xD800 | (r >> 6 & 0x3FF)]),
        }
    }
    v.truncate(len);
    v
}

/// Mixes: mostly well-formed text of each script with a few odd units, all
/// pairs, everything at once, and ASCII runs that a rare 0 breaks (one
/// unit in Modified UTF-8 that is two bytes).
const MIXES: [[u64; 9]; 7] = [
    // ASCII, 0, 2-byte, 3-byte, E000.., pair, high, low, reversed
    [40, 2, 5, 5, 2, 40, 1, 1, 1],
    [300, 1, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 1, 0, 0, 0],
    [0, 0, 0, 1, 0, 20, 0, 0, 0],
    [10, 10, 10, 10, 10, 10, 10, 10, 10],
    [50, 1, 50, 0, 0, 0, 0, 0, 0],
    [5, 0, 5, 80, 5, 5, 0, 0, 1],
];

fn in_order(units: &[u16], order: ByteOrder) -> Vec<u16> {
    if order.swaps() {
        units.iter().map(|u| u.swap_bytes()).collect()
    } else {
        units.to_vec()
    }
}

/// `e` against the scalar tier on `src` in `d`, every policy, both ways of
/// ending; with `caps`, at every smaller output size too.
fn check(e: &Engine, scalar: &Engine, d: Dialect, src: &[u16], order: ByteOrder, caps: bool) {
    let mut want = vec![0u8; 6 * src.len() + 8];
    let mut out = vec![0u8; 6 * src.len() + 8];
    for policy in POLICIES {
        for more in [false, true] {
            let p = scalar.encode_utf16_in(d, src, Some(&mut want), policy, order, more);
            // The scalar tier is the reference core over the whole input.
            let sink = &mut SliceSink::new(&mut out);
            assert_eq!(encode::encode_utf16(d, src, sink, policy, order, more), p);
            assert_eq!(&out[..p.written], &want[..p.written]);
            let got = e.encode_utf16_in(d, src, Some(&mut out), policy, order, more);
            assert_eq!(
                (got, &out[..got.written]),
                (p, &want[..p.written]),
                "{e:?} {d:?} {policy:?} {order:?} more {more} {src:X?}"
            );
            if !caps {
                continue;
            }
            // Every capacity in the full suite; in a sampled run every
            // stride-th and the last eight (where a character is cut).
            let caps = (0..p.written)
                .step_by(crate::samples::stride())
                .chain(p.written.saturating_sub(8)..p.written);
            for cap in caps {
                let mut small = vec![0u8; cap];
                let w = scalar.encode_utf16_in(d, src, Some(&mut small), policy, order, more);
                let mut out = vec![0u8; cap];
                let got = e.encode_utf16_in(d, src, Some(&mut out), policy, order, more);
                assert_eq!(
                    (got, &out[..got.written]),
                    (w, &small[..w.written]),
                    "{e:?} {d:?} {policy:?} {order:?} cap {cap} {src:X?}"
                );
            }
        }
    }
}

fn engines() -> Vec<Engine> {
    Tier::ALL.into_iter().filter_map(Engine::new).collect()
}

#[test]
fn cesu_encoding_of_random_units_on_every_tier() {
    let scalar = Engine::new(Tier::Scalar).expect("scalar");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for mix in &MIXES {
        // One buffer, sliced at every alignment.
        let pool = units(&mut rng, 4096 + 64, mix);
        // (a sampled run takes the lengths past 64 every 5th)
        let sampled = crate::samples::stride() > 1;
        for len in (0..=200).filter(|&len| !sampled || len <= 64 || len % 5 == 0) {
            let at = rng.below(64) as usize;
            let src = &pool[at..at + len];
            for order in [ByteOrder::Little, ByteOrder::Big] {
                let src = in_order(src, order);
                for e in &engines() {
                    for d in [Dialect::Cesu8, Dialect::Mutf8] {
                        check(e, &scalar, d, &src, order, len % 8 == 0);
                    }
                }
            }
        }
        // Long ones: the vector loops run many steps.
        for (at, len) in [(0, 4096), (1, 3001), (7, 4000), (13, 2048), (31, 4033)] {
            let src = &pool[at..at + len];
            for order in [ByteOrder::Little, ByteOrder::Big] {
                let src = in_order(src, order);
                for e in &engines() {
                    for d in [Dialect::Cesu8, Dialect::Mutf8] {
                        check(e, &scalar, d, &src, order, false);
                    }
                }
            }
        }
    }
}

/// Every output size on long inputs whose vector paths stop for room at
/// every step: all pairs, CJK with pairs, and a mix.
#[test]
fn cesu_encoding_at_every_output_size() {
    let scalar = Engine::new(Tier::Scalar).expect("scalar");
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for mix in [MIXES[1], MIXES[2], MIXES[0], MIXES[3]] {
        let pool = units(&mut rng, 600, &mix);
        for at in [0, 1, 3] {
            let src = &pool[at..at + 500];
            for e in &engines() {
                for d in [Dialect::Cesu8, Dialect::Mutf8] {
                    check(e, &scalar, d, src, ByteOrder::Little, true);
                }
            }
        }
    }
}

/// The reference core on `src` with strict errors and more input to come:
/// where a kernel must stop, and what it must write before.
fn reference(d: Dialect, src: &[u16], order: ByteOrder) -> (Progress, Vec<u8>) {
    let mut want = vec![0u8; 6 * src.len()];
    let sink = &mut SliceSink::new(&mut want);
    let p = encode::encode_utf16(d, src, sink, EncodePolicy::Strict, order, true);
    want.truncate(p.written);
    (p, want)
}

/// Each tier's kernel alone: with room, it stops exactly where the scalar
/// core reports the first unpaired surrogate (or a high one that ends the
/// input), having written the same bytes; with less room, it writes a
/// prefix of them that ends between characters, and nothing past it.
#[test]
fn cesu_kernels_alone_match_the_scalar_core() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let kernels: Vec<Engine> = engines()
        .into_iter()
        .filter(|e| e.has_cesu_kernel())
        .collect();
    if cfg!(target_arch = "x86_64") && crate::Tier::Sse42.is_available() {
        assert!(!kernels.is_empty());
    }
    for mix in &MIXES {
        let pool = units(&mut rng, 4096 + 64, mix);
        let mut cases: Vec<(usize, usize)> = (0..=200).map(|len| (len % 37, len)).collect();
        cases.extend([(0, 4096), (5, 4000), (17, 3333)]);
        for (at, len) in cases {
            for order in [ByteOrder::Little, ByteOrder::Big] {
                let src = in_order(&pool[at..at + len], order);
                for d in [Dialect::Cesu8, Dialect::Mutf8] {
                    let (p, want) = reference(d, &src, order);
                    let mutf8 = d == Dialect::Mutf8;
                    for e in &kernels {
                        let mut out = vec![0xA5u8; want.len() + 64];
                        let room = out.len();
                        let stop = e
                            .encode_utf16_cesu_kernel(&src, &mut out, order.swaps(), mutf8)
                            .expect("kernel");
                        let what = || format!("{e:?} {d:?} {order:?} {src:X?}");
                        assert_eq!(stop.read, p.read, "{}", what());
                        assert_eq!(&out[..stop.written], &want[..], "{}", what());
                        assert!(out[stop.written..].iter().all(|&b| b == 0xA5), "{}", what());
                        match p.status {
                            Status::Done => assert_eq!(stop.flagged, None, "{}", what()),
                            // A high surrogate that ends the input: flagged
                            // or not, the reference core decides.
                            Status::Incomplete { .. } => {}
                            _ => assert_eq!(stop.flagged, Some(stop.read), "{}", what()),
                        }
                        assert!(stop.written <= room);
                        if len > 300 && len % 2 == 0 {
                            continue; // Every room below for the short ones.
                        }
                        for cap in (0..want.len()).step_by(1 + len / 64) {
                            let mut out = vec![0xA5u8; cap + 16];
                            let stop = e
                                .encode_utf16_cesu_kernel(
                                    &src,
                                    &mut out[..cap],
                                    order.swaps(),
                                    mutf8,
                                )
                                .expect("kernel");
                            let (q, prefix) = reference(d, &src[..stop.read], order);
                            assert_eq!(q.status, Status::Done, "{} cap {cap}", what());
                            assert_eq!(&out[..stop.written], &prefix[..], "{} cap {cap}", what());
                            assert!(
                                out[stop.written..].iter().all(|&b| b == 0xA5),
                                "{} cap {cap}",
                                what()
                            );
                            assert!(stop.read <= p.read);
                        }
                    }
                }
            }
        }
    }
}
