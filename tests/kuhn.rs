//! Markus Kuhn's "UTF-8 decoder capability and stress test" (tests/data/
//! UTF-8-test.txt), line by line, against CPython's decoder (the counts in
//! tests/data/UTF-8-test.expected, made by tests/data/kuhn_expected.py) and
//! against `std`.

mod common;

use common::{classify, cp1252_table, oracle_decode, POLICIES};
use u8x::{Policy, Progress, Status, REPLACE};

const DATA: &[u8] = include_bytes!("data/UTF-8-test.txt");
const EXPECTED: &str = include_str!("data/UTF-8-test.expected");
const SHA256: &str = "b51cfe9a8d2689c90b10a13a3624092d546e0837c6ff835b6e5d713c5749c8c6";

/// A replacement character that the file does not contain, so that counting
/// it counts replacements (the file has one genuine U+FFFD).
const MARK: char = '\u{10FFFD}';

/// Lines as the generator splits them: on 0x0A, without the empty piece
/// after the final newline.
fn lines() -> Vec<&'static [u8]> {
    let mut v: Vec<&[u8]> = DATA.split(|&b| b == b'\n').collect();
    if v.last() == Some(&&b""[..]) {
        v.pop();
    }
    v
}

struct Expected {
    lines: usize,
    replacements: usize,
    /// (replacements, first error offset) per line.
    per_line: Vec<(usize, Option<usize>)>,
}

fn expected() -> Expected {
    let mut lines = None;
    let mut replacements = None;
    let mut per_line = Vec::new();
    for row in EXPECTED.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = row.split(' ').collect();
        match f[..] {
            ["lines", n] => lines = Some(n.parse().unwrap()),
            ["replacements", n] => replacements = Some(n.parse().unwrap()),
            [n, subs, first] => {
                assert_eq!(
                    n.parse::<usize>().unwrap(),
                    per_line.len() + 1,
                    "line numbers in order"
                );
                let first = (first != "-").then(|| first.parse().unwrap());
                per_line.push((subs.parse().unwrap(), first));
            }
            _ => panic!("bad row {row:?}"),
        }
    }
    Expected {
        lines: lines.expect("lines row"),
        replacements: replacements.expect("replacements row"),
        per_line,
    }
}

/// SHA-256 (FIPS 180-4), enough to check that the data file is the pristine
/// copy (no line-ending conversion, no re-encoding).
fn sha256(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes(word.try_into().unwrap());
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[test]
fn data_file_is_the_pristine_copy() {
    // The hash function itself, on the FIPS 180-4 examples.
    assert_eq!(
        sha256(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    assert_eq!(
        sha256(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
    assert_eq!(DATA.len(), 22_781);
    assert_eq!(
        sha256(DATA),
        SHA256,
        "tests/data/UTF-8-test.txt is not the pristine copy"
    );
    assert!(
        EXPECTED.contains(SHA256),
        "the expected counts were made from another file"
    );
}

#[test]
fn replacements_per_line_match_python_and_std() {
    let exp = expected();
    let lines = lines();
    assert_eq!(lines.len(), exp.lines);
    assert_eq!(exp.per_line.len(), exp.lines);
    let mut total = 0usize;
    let mut damaged_lines = 0usize;
    let mut buf = vec![0u32; DATA.len()];
    for (i, (line, &(want, _))) in lines.iter().zip(&exp.per_line).enumerate() {
        let n = i + 1;
        // With a replacement the file lacks, counting it counts replacements.
        let p = u8x::decode_ucs4(line, &mut buf, Policy::Replace(MARK), false);
        assert_eq!((p.status, p.read), (Status::Done, line.len()), "line {n}");
        let got = buf[..p.written]
            .iter()
            .filter(|&&c| c == MARK as u32)
            .count();
        assert_eq!(got, want, "line {n}: u8x vs Python, {:02X?}", line);
        let std_chunks = line
            .utf8_chunks()
            .filter(|c| !c.invalid().is_empty())
            .count();
        assert_eq!(got, std_chunks, "line {n}: u8x vs std utf8_chunks");
        // With U+FFFD, the text is exactly std's lossy decoding.
        let p = u8x::decode_ucs4(line, &mut buf, REPLACE, false);
        let lossy: Vec<u32> = String::from_utf8_lossy(line)
            .chars()
            .map(|c| c as u32)
            .collect();
        assert_eq!(buf[..p.written], lossy[..], "line {n}");
        assert_eq!(u8x::count(line, REPLACE, false), p, "line {n}");
        total += got;
        damaged_lines += (got > 0) as usize;
    }
    eprintln!(
        "kuhn: {} lines, {damaged_lines} with ill-formed bytes, {total} replacements (maximal subparts)",
        lines.len()
    );
    assert_eq!(total, exp.replacements);
    assert_eq!(
        exp.per_line.iter().map(|&(s, _)| s).sum::<usize>(),
        exp.replacements
    );
    // Newlines never belong to a maximal subpart: the whole file has as many
    // replacements as its lines together.
    let p = u8x::decode_ucs4(DATA, &mut buf, Policy::Replace(MARK), false);
    assert_eq!(p.status, Status::Done);
    assert_eq!(
        buf[..p.written]
            .iter()
            .filter(|&&c| c == MARK as u32)
            .count(),
        total
    );
    assert_eq!(lines.len(), 300);
}

#[test]
fn first_error_per_line_matches_python_and_std() {
    let exp = expected();
    let mut ill_formed = 0;
    for (i, (line, &(_, py_first))) in lines().iter().zip(&exp.per_line).enumerate() {
        let n = i + 1;
        let std_first = std::str::from_utf8(line)
            .err()
            .map(|e| (e.valid_up_to(), e.error_len()));
        assert_eq!(std_first.map(|f| f.0), py_first, "line {n}: std vs Python");
        match u8x::validate(line) {
            Ok(()) => assert_eq!(std_first, None, "line {n}"),
            Err(e) => {
                let (at, len) = std_first.expect("std finds an error");
                assert_eq!(e.valid_up_to, at, "line {n}");
                assert_eq!(
                    Some(e.len as usize).filter(|_| len.is_some()),
                    len,
                    "line {n}"
                );
                assert_eq!(
                    Some((e.kind, e.len as usize)),
                    classify(&line[at..]),
                    "line {n}"
                );
                ill_formed += 1;
            }
        }
    }
    let e = u8x::validate(DATA).unwrap_err();
    assert_eq!(
        e.valid_up_to,
        std::str::from_utf8(std::hint::black_box(DATA))
            .unwrap_err()
            .valid_up_to()
    );
    eprintln!(
        "kuhn: {ill_formed} ill-formed lines; first error of the file at byte {}",
        e.valid_up_to
    );
    assert_eq!(
        ill_formed,
        exp.per_line.iter().filter(|l| l.1.is_some()).count()
    );
}

#[test]
fn whole_file_under_every_policy_and_in_chunks() {
    let cp = cp1252_table();
    let mut checked = 0;
    for policy in POLICIES {
        let mut want = Vec::new();
        let exp = oracle_decode(DATA, policy, &cp, &mut want).last;
        let mut buf = vec![0u32; DATA.len()];
        let p = u8x::decode_ucs4(DATA, &mut buf, policy, false);
        assert_eq!(p, exp, "{policy:?}");
        assert_eq!(buf[..p.written], want[..], "{policy:?}");
        assert_eq!(u8x::count(DATA, policy, false), exp, "{policy:?}");
        if policy == Policy::Strict {
            continue;
        }
        // Streamed in chunks of 1..=17 bytes.
        for size in 1..=17 {
            let mut out = Vec::new();
            let mut handled = 0;
            let mut carry = Vec::new();
            let pieces: Vec<&[u8]> = DATA.chunks(size).collect();
            for (k, piece) in pieces.iter().enumerate() {
                let last = k + 1 == pieces.len();
                let mut input = std::mem::take(&mut carry);
                input.extend_from_slice(piece);
                let p = u8x::decode_ucs4(&input, &mut buf, policy, !last);
                out.extend_from_slice(&buf[..p.written]);
                handled += p.handled;
                match p.status {
                    Status::Done => {}
                    Status::Incomplete { len } => {
                        assert_eq!(p.read + len as usize, input.len());
                        carry = input[p.read..].to_vec();
                    }
                    st => panic!("{policy:?} chunk {size}: {st:?}"),
                }
            }
            assert_eq!(out, want, "{policy:?} in chunks of {size}");
            assert_eq!(handled, exp.handled, "{policy:?} in chunks of {size}");
            checked += 1;
        }
    }
    // The escape decoding encodes back to the file.
    let mut units = vec![0u32; DATA.len()];
    let p = u8x::decode_ucs4(DATA, &mut units, Policy::Escape, false);
    let mut back = vec![0u8; DATA.len()];
    let q = u8x::encode(&units[..p.written], &mut back, u8x::EncodePolicy::Escape);
    assert_eq!(
        q,
        Progress {
            status: Status::Done,
            read: p.written,
            written: DATA.len(),
            // One escape per ill-formed byte.
            handled: DATA.utf8_chunks().map(|c| c.invalid().len()).sum(),
        }
    );
    assert!(back == DATA);
    eprintln!(
        "kuhn: whole file under {} policies, {checked} chunked runs",
        POLICIES.len()
    );
    assert_eq!(checked, 5 * 17);
}
