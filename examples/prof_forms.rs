fn main() {
    let src = std::fs::read("../shared/corpus/lipsum/Latin-Lipsum.utf8.txt").unwrap();
    let mut out = vec![0u16; src.len()];
    let mut out32 = vec![0u32; 1024];
    let t = std::time::Instant::now();
    for _ in 0..200 {
        std::hint::black_box(u8x::decode_utf16(
            &src,
            &mut out,
            u8x::Policy::Strict,
            u8x::ByteOrder::Little,
            false,
        ));
    }
    println!("utf16 {:?}", t.elapsed() / 200);
    let t = std::time::Instant::now();
    for _ in 0..200 {
        let mut read = 0;
        while read < src.len() {
            let p = u8x::decode_ucs4(&src[read..], &mut out32, u8x::Policy::Strict, false);
            read += p.read;
        }
    }
    println!("ucs4 chunks {:?}", t.elapsed() / 200);
}
