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

/// A square from its side: rustdoc names this impl's doc test after the
/// self type, `Square (line N)`.
///
/// ```
/// let s: shapes::Square = 4.into();
/// assert_eq!(s.area(), 16);
/// ```
impl From<i32> for Square {
    fn from(side: i32) -> Self {
        Square(side)
    }
}

impl Default for Square {
    /// The unit square; a method of a trait impl: `Square::default (line N)`.
    ///
    /// ```
    /// assert_eq!(shapes::Square::default().area(), 1);
    /// ```
    fn default() -> Self {
        Square(1)
    }
}

/// Two of a kind.
pub struct Pair<T>(pub T, pub T);

/// Both the same: `Pair<T> (line N)`, rustdoc's spelling without spaces.
///
/// ```
/// let p = shapes::Pair::from(7);
/// assert_eq!(p.0, p.1);
/// ```
impl<T: Clone> From<T> for Pair<T> {
    fn from(v: T) -> Self {
        Pair(v.clone(), v)
    }
}

/// Iterates a borrowed pair: `&'aPair<T> (line N)`.
///
/// ```
/// let p = shapes::Pair(1, 2);
/// assert_eq!((&p).into_iter().sum::<i32>(), 3);
/// ```
impl<'a, T> IntoIterator for &'a Pair<T> {
    type Item = &'a T;
    type IntoIter = std::array::IntoIter<&'a T, 2>;
    fn into_iter(self) -> Self::IntoIter {
        [&self.0, &self.1].into_iter()
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
