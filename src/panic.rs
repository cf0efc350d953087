//! The C library's panic handler (feature `capi`).
//!
//! u8x is `no_std` so that the C libraries carry nothing of Rust's runtime:
//! no allocator, no unwinder, no formatting machinery, no `abort` import. A
//! panic would be a bug in u8x (every function is total and checks its
//! arguments), so the handler does the least that stops the program: a trap
//! instruction, which needs no library call and cannot unwind into C. It is
//! compiled only into the C libraries; a Rust program that uses the crate
//! brings `std`'s handler instead.

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    trap()
}

fn trap() -> ! {
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    // SAFETY: `ud2` raises SIGILL; it reads and writes no memory.
    unsafe {
        core::arch::asm!("ud2", options(noreturn, nomem, nostack))
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: `udf` raises SIGILL; it reads and writes no memory.
    unsafe {
        core::arch::asm!("udf #0", options(noreturn, nomem, nostack))
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "x86", target_arch = "aarch64")))]
    loop {
        core::hint::spin_loop()
    }
}
