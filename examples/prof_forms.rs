fn main() {
    let name = std::env::args().nth(1).unwrap_or("Arabic".into());
    let src = std::fs::read(format!("../shared/corpus/lipsum/{name}-Lipsum.utf8.txt")).unwrap();
    let mut out = vec![0u16; src.len()];
    let mut out32 = vec![0u32; src.len()];
    let n = 2000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(u8x::decode_utf16(
            &src,
            &mut out,
            u8x::Policy::Strict,
            u8x::ByteOrder::Little,
            false,
        ));
    }
    println!(
        "utf16 {:.2} GB/s",
        src.len() as f64 * n as f64 / t.elapsed().as_secs_f64() / 1e9
    );
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(u8x::decode_ucs4(
            &src,
            &mut out32,
            u8x::Policy::Strict,
            false,
        ));
    }
    println!(
        "ucs4 {:.2} GB/s",
        src.len() as f64 * n as f64 / t.elapsed().as_secs_f64() / 1e9
    );
}
