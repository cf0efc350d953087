//! The ignore policy and the `handled` count against CPython's codecs
//! (`tests/py_oracle.py`: `errors="ignore"`, and an error handler that counts
//! its calls, one per maximal subpart) and against `std`; on every tier, with
//! room enough, with small buffers resumed until done, and measuring. Then
//! the byte order mark: `strip_bom` and the C flag `U8X_SKIP_BOM`.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{damaged_text, long_input, mixed_input, random_bytes, Rng};
use u8x::{ByteOrder, EncodePolicy, Engine, Latin1Policy, Policy, Progress, Status, Tier, REPLACE};

fn engines() -> Vec<Engine> {
    Tier::ALL.iter().filter_map(|&t| Engine::new(t)).collect()
}

fn inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0x1690_0001);
    let mut v: Vec<Vec<u8>> = (0..3_000)
        .map(|i| match i % 4 {
            0 => mixed_input(&mut rng, 48),
            1 => damaged_text(&mut rng, 16),
            2 => random_bytes(&mut rng, 24),
            _ => long_input(&mut rng, 600),
        })
        .collect();
    let classics: [&[u8]; 8] = [
        b"",
        b"\xEF\xBB\xBF\xEF\xBF\xBD\x80",
        b"a\xF1\x80\x80\xE1\x80\xC2b\x80c\x80\xBFd",
        b"\xED\xA0\x80\xED\xBF\xBF",
        b"\xF0\x9F\x98",
        b"\xE2\x82\xAC\xC4\x80\xFF",
        b"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80",
        b"\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8A\x8B\x8C\x8D\x8E\x8F\x90\x9D",
    ];
    v.splice(0..0, classics.iter().map(|c| c.to_vec()));
    v
}

/// What CPython makes of a UTF-8 input.
struct PyDecode {
    ignore: Vec<u32>,
    utf16: Vec<u16>,
    latin1: Vec<u8>,
    subparts: usize,
    above_ff: usize,
}

/// What CPython makes of UTF-16 units under `errors="ignore"`.
struct PyEncode {
    utf8: Vec<u8>,
    dropped: usize,
}

fn unhex(h: &str) -> Vec<u8> {
    if h == "-" {
        return Vec::new();
    }
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
        .collect()
}

fn hex(b: &[u8]) -> String {
    if b.is_empty() {
        return "-".into();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Runs the oracle on `lines`, or `None` without python3.
fn python(lines: &[String]) -> Option<Vec<String>> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/py_oracle.py");
    let mut child = match Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            println!("skipped: python3 unavailable ({e})");
            return None;
        }
    };
    let mut stdin = child.stdin.take().unwrap();
    let text = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "py_oracle.py failed");
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(got.len(), lines.len());
    Some(got)
}

fn python_decode(inputs: &[Vec<u8>]) -> Option<Vec<PyDecode>> {
    let lines: Vec<String> = inputs.iter().map(|s| format!("d {}", hex(s))).collect();
    let got = python(&lines)?;
    Some(
        got.iter()
            .map(|l| {
                let f: Vec<&str> = l.split(' ').collect();
                let utf8 = String::from_utf8(unhex(f[0])).unwrap();
                let u16le = unhex(f[1]);
                PyDecode {
                    ignore: utf8.chars().map(|c| c as u32).collect(),
                    utf16: u16le
                        .chunks(2)
                        .map(|p| u16::from_le_bytes([p[0], p[1]]))
                        .collect(),
                    latin1: unhex(f[2]),
                    subparts: f[3].parse().unwrap(),
                    above_ff: f[4].parse().unwrap(),
                }
            })
            .collect(),
    )
}

fn python_encode(inputs: &[Vec<u16>]) -> Option<Vec<PyEncode>> {
    let lines: Vec<String> = inputs
        .iter()
        .map(|u| {
            let bytes: Vec<u8> = u.iter().flat_map(|x| x.to_le_bytes()).collect();
            format!("e {}", hex(&bytes))
        })
        .collect();
    let got = python(&lines)?;
    Some(
        got.iter()
            .map(|l| {
                let (utf8, n) = l.split_once(' ').unwrap();
                PyEncode {
                    utf8: unhex(utf8),
                    dropped: n.parse().unwrap(),
                }
            })
            .collect(),
    )
}

/// Calls `call(read, room)` from `read` on with `cap` units of room at a time
/// (4 after a call that could not write a whole character) until it is
/// done: the output, the last progress, and the sum of `handled` over the
/// calls.
fn resumed<T: Copy + Default>(
    len: usize,
    cap: usize,
    mut call: impl FnMut(usize, &mut [T]) -> Progress,
) -> (Vec<T>, Progress, usize) {
    let (mut out, mut read, mut handled, mut stuck) = (Vec::new(), 0, 0, false);
    let mut buf = vec![T::default(); cap.max(4)];
    for _ in 0..=4 * len + 4 {
        let room = if stuck { 4 } else { cap };
        let p = call(read, &mut buf[..room]);
        out.extend_from_slice(&buf[..p.written]);
        read += p.read;
        handled += p.handled;
        if p.status != Status::OutputFull {
            return (out, p, handled);
        }
        stuck = p.written == 0;
    }
    panic!("no progress");
}

/// The policies that never stop inside a maximal subpart: summed over
/// resumed calls, their count is exact.
const WHOLE: [Policy; 3] = [Policy::Ignore, REPLACE, Policy::Replace('\u{10FFFF}')];

#[test]
fn decoding_agrees_with_python() {
    let inputs = inputs();
    let Some(oracle) = python_decode(&inputs) else {
        return;
    };
    let mut rng = Rng::new(0x1690_0002);
    let (mut subparts, mut cases) = (0, 0);
    for (s, py) in inputs.iter().zip(&oracle) {
        subparts += py.subparts;
        let done = |written, handled| Progress {
            status: Status::Done,
            read: s.len(),
            written,
            handled,
        };
        for e in engines() {
            let t = e.tier();
            // UCS-4, room enough, then measured.
            let mut dst = vec![0u32; s.len()];
            let p = e.decode_ucs4(s, &mut dst, Policy::Ignore, false);
            assert_eq!(p, done(py.ignore.len(), py.subparts), "{t:?} {s:02X?}");
            assert_eq!(dst[..p.written], py.ignore[..], "{t:?} {s:02X?}");
            assert_eq!(e.count(s, Policy::Ignore, false), p, "{t:?} {s:02X?}");
            // Every other policy counts the same subparts, once each.
            for policy in [
                REPLACE,
                Policy::Replace('?'),
                Policy::Escape,
                Policy::Latin1,
                Policy::Cp1252,
            ] {
                let p = e.decode_ucs4(s, &mut vec![0; s.len()], policy, false);
                assert_eq!(p.handled, py.subparts, "{t:?} {policy:?} {s:02X?}");
                assert_eq!(e.count(s, policy, false).handled, py.subparts);
                let p = e.decode_utf16(s, &mut vec![0; 2 * s.len()], policy, ByteOrder::Big, false);
                assert_eq!(p.handled, py.subparts, "{t:?} {policy:?} {s:02X?}");
                assert_eq!(e.decode_utf16_len(s, policy, false).handled, py.subparts);
            }
            assert_eq!(e.count(s, Policy::Strict, false).handled, 0);
            // UTF-16 and Latin-1.
            let mut d16 = vec![0u16; 2 * s.len()];
            let p = e.decode_utf16(s, &mut d16, Policy::Ignore, ByteOrder::Little, false);
            assert_eq!(p, done(py.utf16.len(), py.subparts), "{t:?} {s:02X?}");
            let got: Vec<u16> = d16[..p.written].iter().map(|&u| u16::from_le(u)).collect();
            assert_eq!(got, py.utf16, "{t:?} {s:02X?}");
            assert_eq!(e.decode_utf16_len(s, Policy::Ignore, false), p);
            let lost = py.subparts + py.above_ff;
            let mut d8 = vec![0u8; s.len()];
            let p = e.decode_latin1(s, &mut d8, Latin1Policy::Ignore, false);
            assert_eq!(p, done(py.latin1.len(), lost), "{t:?} {s:02X?}");
            assert_eq!(d8[..p.written], py.latin1[..], "{t:?} {s:02X?}");
            assert_eq!(e.decode_latin1_len(s, Latin1Policy::Ignore, false), p);
            let replaced = Latin1Policy::Replace(b'?');
            let p = e.decode_latin1(s, &mut d8, replaced, false);
            assert_eq!(p.handled, lost, "{t:?} {s:02X?}");
            assert_eq!(e.decode_latin1_len(s, replaced, false), p, "{t:?} {s:02X?}");
            // Small buffers, resumed: the same output, and the counts add
            // up to the same total.
            for cap in [1, 2, 3, 5, rng.range(1, 70) as usize] {
                for policy in WHOLE {
                    let (_, last, n) = resumed(s.len(), cap, |r, d: &mut [u32]| {
                        e.decode_ucs4(&s[r..], d, policy, false)
                    });
                    assert_eq!(
                        (last.status, n),
                        (Status::Done, py.subparts),
                        "{t:?} {policy:?} cap {cap}"
                    );
                    let (_, last, n) = resumed(s.len(), cap + 1, |r, d: &mut [u16]| {
                        e.decode_utf16(&s[r..], d, policy, ByteOrder::Native, false)
                    });
                    assert_eq!(
                        (last.status, n),
                        (Status::Done, py.subparts),
                        "{t:?} {policy:?} cap {cap}"
                    );
                }
                let (out, _, n) = resumed(s.len(), cap, |r, d: &mut [u32]| {
                    e.decode_ucs4(&s[r..], d, Policy::Ignore, false)
                });
                assert_eq!(
                    (out, n),
                    (py.ignore.clone(), py.subparts),
                    "{t:?} cap {cap}"
                );
                for policy in [Latin1Policy::Ignore, replaced] {
                    let (out, last, n) = resumed(s.len(), cap, |r, d: &mut [u8]| {
                        e.decode_latin1(&s[r..], d, policy, false)
                    });
                    assert_eq!(
                        (last.status, n),
                        (Status::Done, lost),
                        "{t:?} {policy:?} cap {cap}"
                    );
                    if policy == Latin1Policy::Ignore {
                        assert_eq!(out, py.latin1, "{t:?} cap {cap}");
                    }
                }
                cases += 1;
            }
        }
    }
    eprintln!(
        "python: {} inputs, {subparts} maximal subparts, {cases} resumed runs",
        inputs.len()
    );
    assert!(subparts > 5_000, "the corpus lost its damage");
}

#[test]
fn encoding_agrees_with_python() {
    let mut rng = Rng::new(0x1690_0003);
    let inputs: Vec<Vec<u16>> = (0..3_000)
        .map(|i| {
            let n = rng.below([20, 200, 2000][i % 3]);
            (0..n)
                .map(|_| match rng.below(10) {
                    0 => rng.range(0xD800, 0xDFFF) as u16,
                    1 => rng.range(0xDC80, 0xDCFF) as u16,
                    2..=4 => rng.range(0, 0x7F) as u16,
                    _ => rng.next_u32() as u16,
                })
                .collect()
        })
        .collect();
    let Some(oracle) = python_encode(&inputs) else {
        return;
    };
    let mut dropped = 0;
    for (u, py) in inputs.iter().zip(&oracle) {
        dropped += py.dropped;
        // The same units as code points, pairs combined.
        let cps: Vec<u32> = char::decode_utf16(u.iter().copied())
            .map(|r| r.map_or_else(|e| u32::from(e.unpaired_surrogate()), u32::from))
            .collect();
        let le: Vec<u16> = u.iter().map(|x| x.to_le()).collect();
        for e in engines() {
            let t = e.tier();
            let mut dst = vec![0u8; 4 * u.len()];
            let p = e.encode_utf16(
                &le,
                &mut dst,
                EncodePolicy::Ignore,
                ByteOrder::Little,
                false,
            );
            let want = Progress {
                status: Status::Done,
                read: u.len(),
                written: py.utf8.len(),
                handled: py.dropped,
            };
            assert_eq!(p, want, "{t:?} {u:04X?}");
            assert_eq!(dst[..p.written], py.utf8[..], "{t:?}");
            let len = e.encode_utf16_len(&le, EncodePolicy::Ignore, ByteOrder::Little, false);
            assert_eq!(len, p);
            let p = e.encode(&cps, &mut dst, EncodePolicy::Ignore);
            assert_eq!((p.written, p.handled), (py.utf8.len(), py.dropped), "{t:?}");
            assert_eq!(dst[..p.written], py.utf8[..], "{t:?}");
            assert_eq!(e.encoded_len(&cps, EncodePolicy::Ignore), p);
            // Replacing counts the same units; escaping only those it can.
            let p = e.encode_utf16(&le, &mut dst, REPLACE_ENC, ByteOrder::Little, false);
            assert_eq!(p.handled, py.dropped, "{t:?}");
            for cap in [1, 3, 4, 7] {
                for policy in [EncodePolicy::Ignore, REPLACE_ENC] {
                    let (out, last, n) = resumed(u.len(), cap, |r, d: &mut [u8]| {
                        e.encode_utf16(&le[r..], d, policy, ByteOrder::Little, false)
                    });
                    assert_eq!(
                        (last.status, n),
                        (Status::Done, py.dropped),
                        "{t:?} cap {cap}"
                    );
                    if policy == EncodePolicy::Ignore {
                        assert_eq!(out, py.utf8, "{t:?} cap {cap}");
                    }
                }
            }
        }
    }
    assert!(dropped > 1_000);
}

const REPLACE_ENC: EncodePolicy = EncodePolicy::Replace('\u{FFFD}');

/// Independent of Python: the replacements written, less the U+FFFD the
/// input holds as well-formed characters, are the count; and
/// `from_utf8_lossy` without its U+FFFD is the ignore decoding when the
/// input holds none.
#[test]
fn counts_agree_with_std() {
    let (mut with_fffd, mut without) = (0, 0);
    for s in inputs() {
        let lossy = String::from_utf8_lossy(&s);
        let in_input: usize = s
            .utf8_chunks()
            .map(|c| c.valid().chars().filter(|&c| c == '\u{FFFD}').count())
            .sum();
        let lossy_fffd = lossy.chars().filter(|&c| c == '\u{FFFD}').count();
        let ignored: Vec<u32> = lossy
            .chars()
            .filter(|&c| c != '\u{FFFD}')
            .map(u32::from)
            .collect();
        for e in engines() {
            let mut dst = vec![0u32; s.len()];
            let p = e.decode_ucs4(&s, &mut dst, REPLACE, false);
            let written = dst[..p.written].iter().filter(|&&c| c == 0xFFFD).count();
            assert_eq!(p.handled, written - in_input, "{:?} {s:02X?}", e.tier());
            assert_eq!(p.handled, lossy_fffd - in_input);
            let p = e.decode_ucs4(&s, &mut dst, Policy::Ignore, false);
            if in_input == 0 {
                assert_eq!(dst[..p.written], ignored[..], "{:?} {s:02X?}", e.tier());
            } else {
                // The input's own U+FFFD stay: lossy's output is not ignore's.
                assert_eq!(p.written, ignored.len() + in_input);
            }
        }
        if in_input == 0 {
            without += 1;
        } else {
            with_fffd += 1;
        }
    }
    assert!(with_fffd > 0 && without > 1_000, "{with_fffd} {without}");
}

#[test]
fn strip_bom_takes_one_mark_at_the_start() {
    assert_eq!(u8x::strip_bom(b"\xEF\xBB\xBFa"), Some(&b"a"[..]));
    assert_eq!(
        u8x::strip_bom(b"\xEF\xBB\xBF\xEF\xBB\xBF"),
        Some(&b"\xEF\xBB\xBF"[..])
    );
    assert_eq!(u8x::strip_bom(b"\xEF\xBB\xBF"), Some(&b""[..]));
    for no in [
        &b""[..],
        b"\xEF",
        b"\xEF\xBB",
        b"a\xEF\xBB\xBF",
        b"\xFE\xFF",
        b"\xEF\xBB\xBE",
    ] {
        assert_eq!(u8x::strip_bom(no), None, "{no:02X?}");
    }
}

/// `U8X_SKIP_BOM` through the C entry points, for every split of inputs
/// that start with a mark (or a prefix of one) into a first chunk, passed
/// with the flag until something is read, and the rest.
#[test]
fn skip_bom_flag_in_chunks() {
    use u8x::ffi::*;
    let texts: [&[u8]; 6] = [
        b"\xEF\xBB\xBFab\xC3\xA9",
        b"\xEF\xBB\xBF\xEF\xBB\xBFx",
        b"\xEF\xBB\xBF",
        b"\xEF\xBBx",
        b"\xEF\xBB\xBF\x80\xE2\x82",
        b"a\xEF\xBB\xBF",
    ];
    for s in texts {
        let bom = u8x::strip_bom(s).is_some();
        let body = u8x::strip_bom(s).unwrap_or(s);
        let want: Vec<u32> = String::from_utf8_lossy(body)
            .chars()
            .map(u32::from)
            .collect();
        for k in 0..=s.len() {
            let mut out = Vec::new();
            let (mut read, mut skipped, mut first) = (0, 0, true);
            for (chunk_end, more) in [(k, U8X_MORE_INPUT), (s.len(), 0)] {
                let src = &s[read..chunk_end];
                let mut dst = vec![0u32; src.len()];
                let flags = more | if first { U8X_SKIP_BOM } else { 0 };
                // SAFETY: the slices are valid for their lengths.
                let r = unsafe {
                    u8x_decode_ucs4(
                        src.as_ptr(),
                        src.len(),
                        dst.as_mut_ptr(),
                        dst.len(),
                        u8x_policy::U8X_REPLACE as u32,
                        U8X_REPLACEMENT_CHARACTER,
                        flags,
                    )
                };
                // SAFETY: as above; a NULL output measures.
                let m = unsafe {
                    u8x_decode_ucs4(
                        src.as_ptr(),
                        src.len(),
                        std::ptr::null_mut(),
                        0,
                        u8x_policy::U8X_REPLACE as u32,
                        U8X_REPLACEMENT_CHARACTER,
                        flags,
                    )
                };
                assert_eq!(r, m, "measured {s:02X?} split at {k}");
                assert!(matches!(
                    r.status,
                    u8x_status::U8X_OK | u8x_status::U8X_INCOMPLETE
                ));
                out.extend_from_slice(&dst[..r.written]);
                skipped += r.bom_skipped;
                if r.bom_skipped == 3 {
                    assert!(first && read == 0 && r.read >= 3);
                }
                // The flag stays until the first byte is read.
                first = first && r.read == 0;
                read += r.read;
            }
            assert_eq!(read, s.len(), "{s:02X?} split at {k}");
            assert_eq!(out, want, "{s:02X?} split at {k}");
            assert_eq!(skipped, 3 * usize::from(bom), "{s:02X?} split at {k}");
        }
        // Without the flag the mark is a character.
        // SAFETY: the slice is valid for its length.
        let r = unsafe { u8x_count(s.as_ptr(), s.len(), u8x_policy::U8X_REPLACE as u32, 0) };
        assert_eq!(r.written, String::from_utf8_lossy(s).chars().count());
        assert_eq!(r.bom_skipped, 0);
    }
}
