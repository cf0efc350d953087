//! Counts the characters of a UTF-8 string with `std`, or returns -1 if it
//! is not UTF-8: the same answer a C program can get from u8x.

/// # Safety
/// `ptr` must point to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn other_rust_count_chars(ptr: *const u8, len: usize) -> i64 {
    // SAFETY: the caller's promise.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    match std::str::from_utf8(bytes) {
        Ok(s) => s.chars().count() as i64,
        Err(_) => -1,
    }
}
