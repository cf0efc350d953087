fn main() {
    let name = std::env::args().nth(1).unwrap_or("Arabic".into());
    let src = std::fs::read(format!("../shared/corpus/lipsum/{name}-Lipsum.utf8.txt")).unwrap();
    let s = String::from_utf8(src.clone()).unwrap();
    let units: Vec<u16> = s.encode_utf16().collect();
    let n = 20000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(u8x::utf8_len_valid_utf16(
            std::hint::black_box(&units),
            u8x::ByteOrder::Little,
        ));
    }
    println!(
        "utf8len {:.2} GB/s",
        src.len() as f64 * n as f64 / t.elapsed().as_secs_f64() / 1e9
    );
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(u8x::classify(std::hint::black_box(&src), false));
    }
    println!(
        "classify {:.2} GB/s",
        src.len() as f64 * n as f64 / t.elapsed().as_secs_f64() / 1e9
    );
}
