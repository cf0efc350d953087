fn main() {
    let name = std::env::args().nth(1).unwrap_or("Emoji".into());
    let src = std::fs::read(format!("../shared/corpus/lipsum/{name}-Lipsum.utf8.txt")).unwrap();
    let s = String::from_utf8(src.clone()).unwrap();
    let units: Vec<u16> = s.encode_utf16().collect();
    let cps: Vec<u32> = s.chars().map(u32::from).collect();
    let mut out = vec![0u8; units.len() * 3];
    let n = 5000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(u8x::encode_utf16(
            std::hint::black_box(&units),
            &mut out,
            u8x::EncodePolicy::Strict,
            u8x::ByteOrder::Little,
            false,
        ));
    }
    println!(
        "encode16 {:.2} GB/s",
        src.len() as f64 * n as f64 / t.elapsed().as_secs_f64() / 1e9
    );
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(u8x::encode(
            std::hint::black_box(&cps),
            &mut out,
            u8x::EncodePolicy::Strict,
        ));
    }
    println!(
        "encode32 {:.2} GB/s",
        src.len() as f64 * n as f64 / t.elapsed().as_secs_f64() / 1e9
    );
}
