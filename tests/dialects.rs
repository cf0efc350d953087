//! The dialects against oracles nobody here wrote: the `cesu8` and
//! `simd_cesu8` crates (CESU-8, Java's Modified UTF-8), the `wtf8` crate
//! (WTF-8), CPython's `surrogatepass` (generalized UTF-8), and for the
//! legacy 31-bit UTF-8 the table of RFC 2044 and utf-8(7) in
//! `../shared/seeds` and the 5- and 6-byte sections of Kuhn's stress test.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::Rng;
use u8x::{ByteOrder, Dialect, EncodePolicy, ErrorKind, Policy, Status, REPLACE};

/// Decodes all of `src` strictly in `d`: the code points, or the error.
fn decode(d: Dialect, src: &[u8]) -> Result<Vec<u32>, u8x::Utf8Error> {
    let mut out = vec![0; src.len()];
    let p = u8x::decode_ucs4_in(d, src, &mut out, Policy::Strict, false);
    match p.status {
        Status::Done => Ok(out[..p.written].to_vec()),
        Status::IllFormed(e) => Err(e),
        s => panic!("{s:?}"),
    }
}

fn decode16(d: Dialect, src: &[u8]) -> Option<Vec<u16>> {
    let mut out = vec![0; 2 * src.len()];
    let p = u8x::decode_utf16_in(d, src, &mut out, Policy::Strict, ByteOrder::Native, false);
    (p.status == Status::Done).then(|| out[..p.written].to_vec())
}

fn encode16(d: Dialect, src: &[u16]) -> Option<Vec<u8>> {
    let mut out = vec![0; 3 * src.len()];
    let p = u8x::encode_utf16_in(
        d,
        src,
        Some(&mut out),
        EncodePolicy::Strict,
        ByteOrder::Native,
        false,
    );
    (p.status == Status::Done).then(|| out[..p.written].to_vec())
}

fn encode(d: Dialect, src: &[u32]) -> Result<Vec<u8>, Status> {
    let mut out = vec![0; 6 * src.len()];
    let p = u8x::encode_in(d, src, Some(&mut out), EncodePolicy::Strict);
    match p.status {
        Status::Done => Ok(out[..p.written].to_vec()),
        s => Err(s),
    }
}

/// Random strings rich in what the dialects write differently: U+0000,
/// supplementary characters, every length of UTF-8.
fn random_strings(n: usize) -> Vec<String> {
    let mut rng = Rng::new(0xD1A1EC7);
    let pools: [&[u32]; 5] = [
        &[0, 0x41, 0x7F],
        &[0x80, 0xE9, 0x7FF],
        &[0x800, 0x20AC, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF],
        &[0x1_0000, 0x1_F600, 0x2_0000, 0x10_FFFF],
        &[0x61, 0x62, 0x63],
    ];
    (0..n)
        .map(|_| {
            let len = (rng.next_u64() % 40) as usize;
            (0..len)
                .map(|_| {
                    let pool = pools[(rng.next_u64() % 5) as usize];
                    let base = pool[(rng.next_u64() % pool.len() as u64) as usize];
                    let jitter = (rng.next_u64() % 3) as u32;
                    char::from_u32(base + jitter)
                        .filter(|c| (*c as u32) < 0x11_0000)
                        .unwrap_or('x')
                })
                .collect()
        })
        .collect()
}

/// Byte strings that are almost CESU-8: valid ones cut, spliced and
/// flipped.
fn mangled(strings: &[String], enc: impl Fn(&str) -> Vec<u8>) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0x5EED);
    let mut out = Vec::new();
    for s in strings {
        let good = enc(s);
        out.push(good.clone());
        for _ in 0..4 {
            let mut b = good.clone();
            if b.is_empty() {
                continue;
            }
            let i = (rng.next_u64() as usize) % b.len();
            match rng.next_u64() % 4 {
                0 => b[i] ^= 1 << (rng.next_u64() % 8),
                1 => b.truncate(i),
                2 => {
                    b.remove(i);
                }
                _ => b.insert(i, [0x00, 0x80, 0xC0, 0xED, 0xF0, 0xA0, 0xB0][i % 7]),
            }
            out.push(b);
        }
    }
    out
}

fn scalars(s: &str) -> Vec<u32> {
    s.chars().map(|c| c as u32).collect()
}

#[test]
fn cesu8_and_modified_utf8_against_both_crates() {
    let strings = random_strings(if common::sampled() { 300 } else { 3000 });
    for s in &strings {
        let units: Vec<u16> = s.encode_utf16().collect();
        // Encoding: both crates agree with us, from code points and UTF-16.
        let cesu = cesu8::to_cesu8(s).into_owned();
        assert_eq!(simd_cesu8::encode(s).as_ref(), cesu.as_slice());
        assert_eq!(encode(Dialect::Cesu8, &scalars(s)).unwrap(), cesu, "{s:?}");
        assert_eq!(encode16(Dialect::Cesu8, &units).unwrap(), cesu, "{s:?}");
        let java = cesu8::to_java_cesu8(s).into_owned();
        assert_eq!(simd_cesu8::mutf8::encode(s).as_ref(), java.as_slice());
        assert_eq!(encode(Dialect::Mutf8, &scalars(s)).unwrap(), java, "{s:?}");
        assert_eq!(encode16(Dialect::Mutf8, &units).unwrap(), java, "{s:?}");
        assert_eq!(decode16(Dialect::Mutf8, &java).unwrap(), units);
    }
    // Decoding: the same verdict as both crates on valid and damaged bytes,
    // and the same text when valid.
    for (d, bytes) in [
        (
            Dialect::Cesu8,
            mangled(&strings, |s| cesu8::to_cesu8(s).into_owned()),
        ),
        (
            Dialect::Mutf8,
            mangled(&strings, |s| cesu8::to_java_cesu8(s).into_owned()),
        ),
    ] {
        for b in &bytes {
            let (theirs, simd) = if d == Dialect::Cesu8 {
                (cesu8::from_cesu8(b).ok(), simd_cesu8::decode_strict(b).ok())
            } else {
                (
                    cesu8::from_java_cesu8(b).ok(),
                    simd_cesu8::mutf8::decode_strict(b).ok(),
                )
            };
            let ours = decode(d, b).ok();
            if d == Dialect::Mutf8 && b.contains(&0) {
                // Both crates read a raw 00 byte as U+0000, as Java's
                // DataInputStream does; JNI's Modified UTF-8, which u8x
                // follows, never has one (U+0000 is C0 80).
                assert_eq!(ours, None, "{b:02X?}");
                continue;
            }
            let theirs = theirs.map(|t| scalars(&t));
            assert_eq!(ours, theirs, "{d:?} {b:02X?}");
            assert_eq!(ours, simd.map(|t| scalars(&t)), "{d:?} simd {b:02X?}");
        }
    }
}

/// Every UTF-16 string of one and two units goes to WTF-8 and back
/// unchanged, and (for every surrogate first unit and every 16th other)
/// to WTF-8 as the `wtf8` crate writes it, and to Modified UTF-8 as the
/// `cesu8` crate writes it where it is well-formed UTF-16 (CESU-8 writes
/// no unpaired surrogate).
#[test]
fn every_one_and_two_unit_utf16_string_through_wtf8_and_modified_utf8() {
    // A sampled run takes every 61st first unit; under an emulator every
    // 509th (at 61, 113 s of the aarch64 lane), the surrogates' edges always.
    let firsts: Vec<u16> = if common::sampled() {
        (0..=0xFFFFu16)
            .step_by(if common::emulated() { 509 } else { 61 })
            .chain([0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF])
            .collect()
    } else {
        (0..=0xFFFF).collect()
    };
    // Each string [u, v] is followed by 'A', so the strings of one call
    // cannot pair with each other.
    let mut batch = Vec::with_capacity(3 * 0x10001);
    let mut out = vec![0u8; 3 * 3 * 0x10001];
    let mut back = vec![0u16; 3 * 0x10001];
    let mut valid: Vec<u16> = Vec::with_capacity(3 * 0x10001);
    for u in firsts {
        batch.clear();
        batch.extend([u, 0x41]);
        for v in 0..=0xFFFF {
            batch.extend([u, v, 0x41]);
        }
        let p = u8x::encode_utf16_in(
            Dialect::Wtf8,
            &batch,
            Some(&mut out),
            EncodePolicy::Strict,
            ByteOrder::Native,
            false,
        );
        assert_eq!(p.status, Status::Done);
        let wtf_bytes = out[..p.written].to_vec();
        let bytes = &wtf_bytes[..];
        let q = u8x::decode_utf16_in(
            Dialect::Wtf8,
            bytes,
            &mut back,
            Policy::Strict,
            ByteOrder::Native,
            false,
        );
        assert_eq!(q.status, Status::Done);
        assert!(
            back[..q.written] == batch[..],
            "WTF-8 round trip of strings starting {u:04X}"
        );
        // The strings [u, v] that are well-formed UTF-16, each followed by
        // 'A': through Modified UTF-8 and back.
        let surrogate = |x: u32| (0xD800..0xE000).contains(&x);
        valid.clear();
        valid.extend([u, 0x41]);
        for v in 0..=0xFFFFu32 {
            let ok = match u32::from(u) {
                0xD800..=0xDBFF => (0xDC00..0xE000).contains(&v),
                0xDC00..=0xDFFF => false,
                _ => !surrogate(v),
            };
            if ok {
                valid.extend([u, v as u16, 0x41]);
            }
        }
        if surrogate(u32::from(u)) {
            valid.drain(..2); // [u, 'A'] is not well-formed
        }
        let m = u8x::encode_utf16_in(
            Dialect::Mutf8,
            &valid,
            Some(&mut out),
            EncodePolicy::Strict,
            ByteOrder::Native,
            false,
        );
        assert_eq!(m.status, Status::Done, "{u:04X}");
        let q = u8x::decode_utf16_in(
            Dialect::Mutf8,
            &out[..m.written],
            &mut back,
            Policy::Strict,
            ByteOrder::Native,
            false,
        );
        assert_eq!(q.status, Status::Done);
        assert!(back[..q.written] == valid[..], "{u:04X}");
        // The whole batch, with its unpaired surrogates (measuring): the
        // error is at the first one.
        let p = u8x::encode_utf16_in(
            Dialect::Mutf8,
            &batch,
            None,
            EncodePolicy::Strict,
            ByteOrder::Native,
            false,
        );
        assert!(matches!(p.status, Status::IllFormed(e) if e.kind == ErrorKind::Surrogate));
        assert_eq!(p.read, first_unpaired(&batch), "{u:04X}");

        // The oracles are slower than u8x: every surrogate first unit (where
        // the dialects differ) and every 16th other one.
        if u & 0xF800 != 0xD800 && u % 16 != 0 {
            continue;
        }
        let java = cesu8::to_java_cesu8(&String::from_utf16(&valid).unwrap()).into_owned();
        assert!(
            out[..m.written] == java[..],
            "Modified UTF-8 of strings starting {u:04X}"
        );
        let want = wtf8::Wtf8Buf::from_ill_formed_utf16(&batch);
        // The crate keeps its bytes to itself: compare their length and the
        // code points they hold (a WTF-8 string is the unique encoding of
        // its code points).
        let bytes = &wtf_bytes[..];
        assert_eq!(bytes.len(), want.len(), "WTF-8 of strings starting {u:04X}");
        let mut cps = vec![0u32; bytes.len()];
        let c = u8x::decode_ucs4_in(Dialect::Wtf8, bytes, &mut cps, Policy::Strict, false);
        assert_eq!(c.status, Status::Done);
        assert!(
            want.code_points()
                .map(|c| c.to_u32())
                .eq(cps[..c.written].iter().copied()),
            "{u:04X}"
        );
        let theirs: Vec<u16> = want.to_ill_formed_utf16().collect();
        assert!(theirs == batch);
    }
}

fn first_unpaired(units: &[u16]) -> usize {
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        if (0xD800..0xDC00).contains(&u)
            && units
                .get(i + 1)
                .is_some_and(|v| (0xDC00..0xE000).contains(v))
        {
            i += 2;
        } else if (0xD800..0xE000).contains(&u) {
            return i;
        } else {
            i += 1;
        }
    }
    units.len()
}

/// Generalized UTF-8 decodes as CPython does with `surrogatepass`: the
/// same code points, or the same first error (offset and maximal subpart).
#[test]
fn generalized_utf8_against_python_surrogatepass() {
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    let step = common::stride();
    for n in (0..=0xFFFFu32).step_by(step) {
        inputs.push(n.to_be_bytes()[2..].to_vec());
    }
    for lead in [0xE0, 0xED, 0xEE, 0xF0, 0xF4] {
        for n in (0..=0xFFFFu32).step_by(step) {
            let [_, _, b1, b2] = n.to_be_bytes();
            inputs.push(vec![lead, b1, b2]);
        }
    }
    for a in [0xD800u32, 0xDBFF, 0xDC00, 0xDFFF, 0x41, 0x1F600] {
        for b in [0xD800u32, 0xDBFF, 0xDC00, 0xDFFF, 0x41, 0x1F600] {
            let mut v = Vec::new();
            for c in [a, b] {
                let mut buf = [0; 4];
                match char::from_u32(c) {
                    Some(ch) => v.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes()),
                    None => v.extend([
                        0xED,
                        0xA0 | ((c >> 6) & 0x1F) as u8,
                        0x80 | (c & 0x3F) as u8,
                    ]),
                }
            }
            inputs.push(v);
        }
    }
    let lines: Vec<String> = inputs.iter().map(|b| hex(b)).collect();
    let answers = surrogatepass("decode", &lines);
    for (b, answer) in inputs.iter().zip(&answers) {
        let ours = decode(Dialect::Generalized, b);
        let f: Vec<&str> = answer.split(' ').filter(|s| !s.is_empty()).collect();
        match f[0] {
            "ok" => {
                let want: Vec<u32> = f[1..]
                    .iter()
                    .map(|h| u32::from_str_radix(h, 16).unwrap())
                    .collect();
                assert_eq!(ours, Ok(want), "{b:02X?}");
            }
            _ => {
                let (start, end): (usize, usize) = (f[1].parse().unwrap(), f[2].parse().unwrap());
                let e = ours.expect_err(&format!("{b:02X?} is ill-formed"));
                let ours = (e.valid_up_to, e.valid_up_to + e.len as usize);
                // CPython's one difference: a surrogate cut short (ED A0..BF
                // then the end or a non-continuation byte) is reported as
                // RFC 3629 cuts it, ED alone, though ED A0 is a prefix of a
                // well-formed generalized sequence; u8x reports the prefix.
                let cut_surrogate = b[start] == 0xED
                    && b.get(start + 1)
                        .is_some_and(|b1| (0xA0..=0xBF).contains(b1))
                    && e.len == 2;
                if cut_surrogate {
                    assert_eq!((start, end), (ours.0, ours.0 + 1), "{b:02X?} {e:?}");
                } else {
                    assert_eq!(ours, (start, end), "{b:02X?} {e:?}");
                }
            }
        }
    }
}

/// CPython's `surrogatepass` (`tests/dialects/surrogatepass.py`) in `mode`
/// on each line: its answer to each.
fn surrogatepass(mode: &str, lines: &[String]) -> Vec<String> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/dialects/surrogatepass.py"
    );
    let mut child = Command::new("python3")
        .args([script, mode])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs the oracle");
    let mut stdin = child.stdin.take().unwrap();
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success());
    let answers: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(answers.len(), lines.len());
    answers
}

/// Generalized UTF-8 written from code points and from UTF-16 against
/// CPython's encoder with `surrogatepass`: every code point alone, and
/// every string of one and two units (or code points) from a set of
/// surrogates and their neighbours, paired and not.
#[test]
fn generalized_utf8_encoding_against_python_surrogatepass() {
    let step = common::stride();
    let mut strings: Vec<Vec<u32>> = (0..=0x10_FFFFu32).step_by(step).map(|c| vec![c]).collect();
    let edges = [
        0u32, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDC80, 0xDFFF,
        0xE000, 0xFFFF,
    ];
    for a in edges {
        for b in edges {
            strings.push(vec![a, b]);
            strings.push(vec![a, 0x1_F600, b]);
        }
    }
    let lines: Vec<String> = strings.iter().map(|s| hex_values(s)).collect();
    for (s, answer) in strings.iter().zip(surrogatepass("encode", &lines)) {
        let want = answer.strip_prefix("ok ").expect("CPython encodes it");
        let ours = encode(Dialect::Generalized, s);
        assert_eq!(ours.map(|b| hex(&b)).as_deref(), Ok(want), "{s:X?}");
    }
    // UTF-16: CPython joins the pairs first, as u8x does.
    let units: Vec<Vec<u16>> = strings
        .iter()
        .filter(|s| s.iter().all(|&c| c <= 0xFFFF))
        .map(|s| s.iter().map(|&c| c as u16).collect())
        .collect();
    let lines: Vec<String> = units.iter().map(|s| hex_values(s)).collect();
    for (s, answer) in units.iter().zip(surrogatepass("encode-utf16", &lines)) {
        let want = answer.strip_prefix("ok ").expect("CPython encodes it");
        let ours = encode16(Dialect::Generalized, s).expect("every unit is written");
        assert_eq!(hex(&ours), want, "{s:X?}");
    }
}

/// Code points or UTF-16 units as the oracle reads them: hex, spaced.
fn hex_values<T: std::fmt::LowerHex>(values: &[T]) -> String {
    values.iter().map(|v| format!("{v:x} ")).collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// RFC 2044's table, written from the seed (000_cc38f6c4ea97ddfb.txt,
/// section 2): the bit layout of each length, independently of u8x.
fn rfc2044(v: u32) -> Vec<u8> {
    let rows: [(u32, u8); 6] = [
        (0x7F, 0),
        (0x7FF, 0xC0),
        (0xFFFF, 0xE0),
        (0x1F_FFFF, 0xF0),
        (0x3FF_FFFF, 0xF8),
        (0x7FFF_FFFF, 0xFC),
    ];
    let n = rows.iter().position(|&(max, _)| v <= max).unwrap() + 1;
    if n == 1 {
        return vec![v as u8];
    }
    let mut out = vec![rows[n - 1].1 | (v >> (6 * (n - 1))) as u8];
    for i in (0..n - 1).rev() {
        out.push(0x80 | ((v >> (6 * i)) & 0x3F) as u8);
    }
    out
}

#[test]
fn legacy_table_rows_of_the_seeds() {
    // The boundaries of each row of RFC 2044 / utf-8(7).
    let rows: &[(u32, &[u8])] = &[
        (0x7F, b"\x7F"),
        (0x80, b"\xC2\x80"),
        (0x7FF, b"\xDF\xBF"),
        (0x800, b"\xE0\xA0\x80"),
        (0xFFFF, b"\xEF\xBF\xBF"),
        (0x1_0000, b"\xF0\x90\x80\x80"),
        (0x1F_FFFF, b"\xF7\xBF\xBF\xBF"),
        (0x20_0000, b"\xF8\x88\x80\x80\x80"),
        (0x3FF_FFFF, b"\xFB\xBF\xBF\xBF\xBF"),
        (0x400_0000, b"\xFC\x84\x80\x80\x80\x80"),
        (0x7FFF_FFFF, b"\xFD\xBF\xBF\xBF\xBF\xBF"),
    ];
    for &(v, bytes) in rows {
        assert_eq!(rfc2044(v), bytes, "the reference itself, {v:X}");
        assert_eq!(encode(Dialect::Legacy, &[v]).unwrap(), bytes, "{v:X}");
        assert_eq!(decode(Dialect::Legacy, bytes), Ok(vec![v]), "{v:X}");
    }
    // RFC 2044's worked examples (section 4 of the seed), which are also
    // RFC 3629 text.
    for text in [
        "A\u{2262}\u{391}.",
        "\u{D55C}\u{AD6D}\u{C5B4}",
        "\u{65E5}\u{672C}\u{8A9E}",
    ] {
        assert_eq!(
            encode(Dialect::Legacy, &scalars(text)).unwrap(),
            text.as_bytes()
        );
    }
    // Beyond 31 bits, and surrogates (the documented choice: ill-formed).
    assert!(
        matches!(encode(Dialect::Legacy, &[0x8000_0000]), Err(Status::IllFormed(e)) if e.kind == ErrorKind::AboveMax)
    );
    assert!(
        matches!(encode(Dialect::Legacy, &[0xD800]), Err(Status::IllFormed(e)) if e.kind == ErrorKind::Surrogate)
    );
    let e = decode(Dialect::Legacy, b"\xED\xA0\x80").unwrap_err();
    assert_eq!((e.kind, e.len), (ErrorKind::Surrogate, 1));
    for b in [0xFEu8, 0xFF] {
        let e = decode(Dialect::Legacy, &[b, 0x80, 0x80]).unwrap_err();
        assert_eq!(
            (e.valid_up_to, e.kind, e.len),
            (0, ErrorKind::InvalidByte, 1)
        );
    }
}

/// Every value 0..=0x7FFFFFFF encodes to the reference's shortest form and
/// decodes back; every overlong 5- and 6-byte form is refused.
#[test]
fn every_31_bit_value_round_trips_in_legacy_utf8() {
    let step: u64 = if common::sampled() { 4099 } else { 1 };
    const BATCH: u64 = 1 << 16;
    // Two threads, each a half of the values: the full suite's 2^31
    // values are its longest test, and nothing else runs beside it.
    let half = 0x4000_0000u64;
    std::thread::scope(|scope| {
        for (from, to) in [(0, half), (half, 0x8000_0000)] {
            scope.spawn(move || round_trip_legacy(from, to, step, BATCH));
        }
    });
    overlong_legacy_forms_are_refused(BATCH);
}

/// [`every_31_bit_value_round_trips_in_legacy_utf8`] for the values
/// `from..to`, every `step`th from `from`, `batch` values a call.
fn round_trip_legacy(from: u64, to: u64, step: u64, batch: u64) {
    let mut cps = Vec::with_capacity(batch as usize);
    let mut bytes = vec![0u8; 6 * batch as usize];
    let mut back = vec![0u32; 6 * batch as usize];
    let mut start = from;
    while start < to {
        cps.clear();
        // Surrogates are refused by design (legacy_table_rows_of_the_seeds).
        let values = (start..(start + batch * step).min(to)).step_by(step as usize);
        cps.extend(
            values
                .map(|v| v as u32)
                .filter(|v| !(0xD800..0xE000).contains(v)),
        );
        start += batch * step;
        let p = u8x::encode_in(
            Dialect::Legacy,
            &cps,
            Some(&mut bytes),
            EncodePolicy::Strict,
        );
        assert_eq!(p.status, Status::Done);
        // The reference for a sample of each batch (it is slow), and the
        // lengths of all.
        let mut at = 0;
        for (i, &v) in cps.iter().enumerate() {
            let n = match v {
                0..=0x7F => 1,
                0x80..=0x7FF => 2,
                0x800..=0xFFFF => 3,
                0x1_0000..=0x1F_FFFF => 4,
                0x20_0000..=0x3FF_FFFF => 5,
                _ => 6,
            };
            if i % 251 == 0 || n >= 5 && i % 17 == 0 {
                assert_eq!(bytes[at..at + n], rfc2044(v)[..], "{v:X}");
            }
            at += n;
        }
        assert_eq!(at, p.written);
        let q = u8x::decode_ucs4_in(
            Dialect::Legacy,
            &bytes[..p.written],
            &mut back,
            Policy::Strict,
            false,
        );
        assert_eq!(q.status, Status::Done);
        assert!(back[..q.written] == cps[..], "batch from {:X}", cps[0]);
    }
}

/// Overlong 5-byte forms: every value below 0x200000; 6-byte: below
/// 0x4000000 (2^26 of them, `batch` a call).
fn overlong_legacy_forms_are_refused(batch: u64) {
    for (len, below) in [(5u32, 0x20_0000u32), (6, 0x400_0000)] {
        let mut src = Vec::with_capacity(len as usize * batch as usize);
        let mut v = 0u32;
        let step = if common::sampled() { 997 } else { 1 };
        while v < below {
            src.clear();
            for _ in 0..batch {
                if v >= below {
                    break;
                }
                let lead = if len == 5 { 0xF8 } else { 0xFC };
                src.push(lead | (v >> (6 * (len - 1))) as u8);
                for i in (0..len - 1).rev() {
                    src.push(0x80 | ((v >> (6 * i)) & 0x3F) as u8);
                }
                v += step;
            }
            // Under replace, each overlong form is its lead (one U+FFFD)
            // and len - 1 stray continuation bytes.
            let p = u8x::count_in(Dialect::Legacy, &src, REPLACE, false);
            assert_eq!(p.written, src.len(), "all replaced, one per byte");
            assert_eq!(
                decode(Dialect::Legacy, &src).unwrap_err().kind,
                ErrorKind::Overlong
            );
        }
    }
}

/// Kuhn's stress test: the 5- and 6-byte sequences of sections 2 (decoded
/// to the values the file names), 3 (cut short) and 4 (overlong).
#[test]
fn kuhn_five_and_six_byte_sections_in_legacy_utf8() {
    let data: &[u8] = include_bytes!("data/UTF-8-test.txt");
    let line = |id: &str| -> &[u8] {
        let l = data
            .split(|&b| b == b'\n')
            .find(|l| l.starts_with(id.as_bytes()) && l.get(id.len()) == Some(&b' '))
            .unwrap_or_else(|| panic!("section {id}"));
        let open = l.iter().position(|&b| b == b'"').unwrap();
        let close = l.iter().rposition(|&b| b == b'"').unwrap();
        &l[open + 1..close]
    };
    for (id, value) in [
        ("2.1.5", 0x20_0000),
        ("2.1.6", 0x400_0000),
        ("2.2.5", 0x3FF_FFFF),
        ("2.2.6", 0x7FFF_FFFF),
        ("2.3.5", 0x11_0000),
        ("2.1.4", 0x1_0000),
        ("2.2.4", 0x1F_FFFF),
    ] {
        assert_eq!(decode(Dialect::Legacy, line(id)), Ok(vec![value]), "{id}");
        assert_eq!(
            decode(Dialect::Standard, line(id)).is_err(),
            value > 0x10_FFFF,
            "{id}"
        );
    }
    for id in ["3.3.9", "3.3.10"] {
        let b = line(id);
        let e = decode(Dialect::Legacy, b).unwrap_err();
        assert_eq!(
            (e.valid_up_to, e.kind, e.len as usize),
            (0, ErrorKind::EndOfInput, b.len()),
            "{id}"
        );
    }
    for id in [
        "3.3.4", "3.3.5", "4.1.4", "4.1.5", "4.2.4", "4.2.5", "4.3.4", "4.3.5",
    ] {
        let e = decode(Dialect::Legacy, line(id)).unwrap_err();
        assert_eq!(
            (e.valid_up_to, e.kind, e.len),
            (0, ErrorKind::Overlong, 1),
            "{id}"
        );
    }
    for id in ["3.5.1", "3.5.2"] {
        let e = decode(Dialect::Legacy, line(id)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidByte, "{id}");
    }
    // 3.3.8: a 4-byte form cut at the end, which legacy UTF-8 reads up to
    // F7 (RFC 3629 stops at F4).
    let e = decode(Dialect::Legacy, line("3.3.8")).unwrap_err();
    assert_eq!((e.kind, e.len), (ErrorKind::EndOfInput, 3));
    // 3.2.4 and 3.2.5: every 5- and 6-byte lead alone before a space, each
    // its own maximal subpart (one U+FFFD, then the space).
    for (id, leads) in [("3.2.4", 0xF8..=0xFBu8), ("3.2.5", 0xFC..=0xFD)] {
        let heading = data
            .split(|&b| b == b'\n')
            .position(|l| l.starts_with(id.as_bytes()))
            .unwrap_or_else(|| panic!("section {id}"));
        let l = data
            .split(|&b| b == b'\n')
            .skip(heading)
            .find(|l| l.contains(&b'"'))
            .unwrap();
        let open = l.iter().position(|&b| b == b'"').unwrap();
        let close = l.iter().rposition(|&b| b == b'"').unwrap();
        let b = &l[open + 1..close];
        let want: Vec<u8> = leads.clone().flat_map(|l| [l, b' ']).collect();
        assert_eq!(b, want, "{id}");
        let e = decode(Dialect::Legacy, b).unwrap_err();
        assert_eq!(
            (e.valid_up_to, e.kind, e.len),
            (0, ErrorKind::TruncatedSequence, 1)
        );
        let mut out = vec![0; b.len()];
        let p = u8x::decode_ucs4_in(Dialect::Legacy, b, &mut out, REPLACE, false);
        let marks: Vec<u32> = leads.flat_map(|_| [0xFFFD, 0x20]).collect();
        assert_eq!(
            (&out[..p.written], p.handled),
            (&marks[..], marks.len() / 2),
            "{id}"
        );
    }
}

/// The forms each dialect adds, and what the others call them.
#[test]
fn each_dialect_reads_its_own_forms() {
    use Dialect::*;
    let pair = b"\xED\xA0\xBD\xED\xB8\x80"; // U+1F600 in CESU-8
    assert_eq!(decode(Cesu8, pair), Ok(vec![0x1F600]));
    assert_eq!(decode(Mutf8, pair), Ok(vec![0x1F600]));
    assert_eq!(decode(Generalized, pair), Ok(vec![0xD83D, 0xDE00]));
    let e = decode(Wtf8, pair).unwrap_err();
    assert_eq!((e.valid_up_to, e.kind, e.len), (0, ErrorKind::Surrogate, 3));
    assert_eq!(
        decode(Wtf8, b"\xED\xA0\xBDx\xED\xB8\x80"),
        Ok(vec![0xD83D, 0x78, 0xDE00])
    );
    let four = "\u{1F600}".as_bytes();
    for d in [Cesu8, Mutf8] {
        let e = decode(d, four).unwrap_err();
        assert_eq!((e.kind, e.len), (ErrorKind::InvalidByte, 1));
    }
    assert_eq!(decode(Mutf8, b"a\xC0\x80b"), Ok(vec![0x61, 0, 0x62]));
    assert_eq!(
        decode(Mutf8, b"a\x00").unwrap_err().kind,
        ErrorKind::InvalidByte
    );
    assert_eq!(
        decode(Cesu8, b"a\xC0\x80").unwrap_err().kind,
        ErrorKind::InvalidByte
    );
    // A lone high surrogate in CESU-8 is one maximal subpart of 3 bytes; a
    // lone low one is its ED alone, as in RFC 3629.
    let e = decode(Cesu8, b"\xED\xA0\x80x").unwrap_err();
    assert_eq!((e.kind, e.len), (ErrorKind::Surrogate, 3));
    let e = decode(Cesu8, b"\xED\xB0\x80x").unwrap_err();
    assert_eq!((e.kind, e.len), (ErrorKind::Surrogate, 1));
    // Streaming: a high surrogate at the end of a chunk waits for the next.
    let mut out = [0u32; 4];
    for d in [Cesu8, Wtf8] {
        let p = u8x::decode_ucs4_in(d, b"a\xED\xA0\xBD\xED", &mut out, Policy::Strict, true);
        assert_eq!(
            (p.status, p.read),
            (
                Status::Incomplete {
                    len: if d == Wtf8 { 3 } else { 4 }
                },
                1
            ),
            "{d:?}"
        );
    }
    // WTF-8 from code points: a high surrogate before a low one is refused.
    assert!(
        matches!(encode(Wtf8, &[0xD83D, 0xDE00]), Err(Status::IllFormed(e)) if e.valid_up_to == 0)
    );
    assert_eq!(encode(Generalized, &[0xD83D, 0xDE00]).unwrap(), pair);
    assert_eq!(
        encode(Wtf8, &[0xDE00, 0xD83D]).unwrap(),
        b"\xED\xB8\x80\xED\xA0\xBD"
    );
    // Legacy into UTF-16: above U+10FFFF there is no UTF-16 form.
    let mut units = [0u16; 4];
    let p = u8x::decode_utf16_in(
        Legacy,
        b"\xF4\x90\x80\x80",
        &mut units,
        Policy::Strict,
        ByteOrder::Native,
        false,
    );
    assert!(
        matches!(p.status, Status::IllFormed(e) if e.kind == ErrorKind::NotRepresentable && e.len == 4)
    );
    // Boundaries: never between a CESU-8 pair's halves.
    assert_eq!(u8x::next_boundary_in(Cesu8, pair, 3), Some(6));
    assert_eq!(u8x::next_boundary_in(Generalized, pair, 3), Some(3));
    assert_eq!(
        u8x::prev_boundary_in(Legacy, b"\xFD\xBF\xBF\xBF\xBF\xBF", 5),
        Some(0)
    );
}

/// Under every lossy policy a dialect reports how many ill-formed
/// subsequences it handled: as many as the U+FFFD that replace writes (the
/// inputs hold none of their own), the same for every policy, and ignore
/// writes what replace writes without them.
#[test]
fn every_policy_counts_what_it_handled_in_every_dialect() {
    let strings = random_strings(if common::sampled() { 100 } else { 600 });
    let inputs = [
        mangled(&strings, |s| cesu8::to_cesu8(s).into_owned()),
        mangled(&strings, |s| cesu8::to_java_cesu8(s).into_owned()),
        mangled(&strings, |s| s.as_bytes().to_vec()),
    ];
    for d in Dialect::ALL {
        for b in inputs.iter().flatten() {
            if b.windows(3).any(|w| w == "\u{FFFD}".as_bytes()) {
                continue;
            }
            let mut out = vec![0u32; b.len()];
            let r = u8x::decode_ucs4_in(d, b, &mut out, REPLACE, false);
            let replaced: Vec<u32> = out[..r.written].to_vec();
            let marks = replaced.iter().filter(|&&c| c == 0xFFFD).count();
            assert_eq!(r.handled, marks, "{d:?} {b:02X?}");
            let i = u8x::decode_ucs4_in(d, b, &mut out, Policy::Ignore, false);
            let kept: Vec<u32> = replaced.iter().copied().filter(|&c| c != 0xFFFD).collect();
            assert_eq!((i.handled, &out[..i.written]), (marks, &kept[..]), "{d:?}");
            for policy in [Policy::Escape, Policy::Latin1, Policy::Cp1252] {
                assert_eq!(
                    u8x::count_in(d, b, policy, false).handled,
                    marks,
                    "{d:?} {policy:?}"
                );
            }
            // In UTF-16, legacy values above U+10FFFF are handled too.
            let mut units = vec![0u16; 2 * b.len()];
            let r = u8x::decode_utf16_in(d, b, &mut units, REPLACE, ByteOrder::Native, false);
            let marks16 = units[..r.written].iter().filter(|&&u| u == 0xFFFD).count();
            assert!(marks16 == marks || d == Dialect::Legacy && marks16 > marks);
            let p =
                u8x::decode_utf16_in(d, b, &mut units, Policy::Ignore, ByteOrder::Native, false);
            assert_eq!((r.handled, p.handled), (marks16, marks16), "{d:?} UTF-16");
        }
    }
}
