//! The shapes crate: every test shape testdex recognises.
//!
//! ```
//! assert_eq!(shapes::add(2, 2), 4);
//! ```

#[macro_use]
mod macros;
pub mod a;
pub mod m;
#[path = "other/p.rs"]
pub mod p;
pub mod outer {
    pub mod inner_file;
}
#[cfg(feature = "ext")]
mod ext;
#[cfg(feature = "extra")]
pub mod gated;

/// Adds two numbers.
///
/// ```
/// assert_eq!(shapes::add(1, 2), 3);
/// ```
///
/// ```ignore
/// this is not compiled
/// ```
///
/// ```no_run
/// loop {}
/// ```
///
/// ```text
/// not a test
/// ```
///
/// ```should_panic
/// panic!("boom");
/// ```
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

/// A shape.
pub struct Square(pub i32);

impl Square {
    /// The area.
    ///
    /// ```
    /// assert_eq!(shapes::Square(3).area(), 9);
    /// ```
    pub fn area(&self) -> i32 {
        self.0 * self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 1), 2);
    }

    #[test]
    #[ignore]
    fn slow() {}

    #[test]
    #[should_panic(expected = "boom")]
    fn panics() {
        panic!("boom");
    }

    #[test]
    #[cfg(feature = "extra")]
    fn with_extra() {}

    /// Helpers are not tests.
    fn helper() {}

    mod deeper {
        #[test]
        fn nested() {
            super::helper();
        }
    }
}
