fn main() {
    let name = std::env::args().nth(1).unwrap_or("Arabic".into());
    let src = std::fs::read(format!("../shared/corpus/lipsum/{name}-Lipsum.utf8.txt")).unwrap();
    let n = 20000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(u8x::classify(std::hint::black_box(&src), false));
    }
    println!(
        "classify {:.2} GB/s",
        src.len() as f64 * n as f64 / t.elapsed().as_secs_f64() / 1e9
    );
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(u8x::validate(std::hint::black_box(&src)).is_ok());
    }
    println!(
        "validate {:.2} GB/s",
        src.len() as f64 * n as f64 / t.elapsed().as_secs_f64() / 1e9
    );
}
