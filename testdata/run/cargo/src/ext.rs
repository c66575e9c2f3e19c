//! More functions: a doc test on the same line as lib.rs's, one that
//! must not compile, and unit tests of a module file (whose module path
//! holds "tests::" like lib.rs's).

/// Doubles a number.
///
/// ```
/// assert_eq!(runfixture::ext::double(2), 4);
/// ```
///
/// ```compile_fail
/// let s: String = runfixture::ext::double(2);
/// ```
pub fn double(a: i32) -> i32 {
    a * 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn doubles() {
        assert_eq!(super::double(3), 6);
    }
}
