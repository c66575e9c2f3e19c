//! A crate whose tests each execute one function: testdex's Rust coverage
//! test checks that test_a's lines hold a's body and not b's.

/// Returns one more than x.
///
/// ```
/// assert_eq!(cover::a(1), 2);
/// ```
pub fn a(x: i32) -> i32 {
    let y = x + 1;
    y
}

pub fn b(x: i32) -> i32 {
    let y = x * 2;
    y
}

pub struct S;

impl S {
    pub fn m(&self) -> i32 {
        b(3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_a() {
        assert_eq!(a(1), 2);
    }

    #[test]
    fn test_b() {
        assert_eq!(S.m(), 6);
    }

    #[test]
    fn test_fails() {
        assert_eq!(a(1), 3, "a is not 3");
    }

    #[test]
    #[ignore = "slow"]
    fn test_ignored() {}
}
