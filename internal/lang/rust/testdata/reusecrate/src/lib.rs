//! Crate docs.
//!
#![cfg_attr(feature = "extra", doc = "```")]
#![cfg_attr(not(feature = "extra"), doc = "```ignore")]
//! assert_eq!(1, 1);
//! ```
#![cfg_attr(feature = "other", doc = "Only with other.\n\n```\nassert!(true);\n```")]
#![doc = "Raw lines.\n\n```"]
//! assert!(true);
//! ```

#[cfg(test)]
use rstest_reuse;

/// Adds.
///
#[doc = "```"]
/// assert_eq!(reusecrate::add(1, 1), 2);
/// ```
#[doc = r#"
    assert_eq!(2, 2); // indented: a code block
"#]
pub fn add(a: u32, b: u32) -> u32 {
    a + b
}

/// A type.
pub struct S;

impl S {
    /// Method.
    ///
    #[cfg_attr(feature = "extra", doc = "```")]
    #[cfg_attr(not(feature = "extra"), doc = "```text")]
    /// let _x = 1;
    /// ```
    pub fn m(&self) {}
}

#[cfg(test)]
mod templates;

#[cfg(test)]
mod tests {
    use rstest::rstest;
    use rstest_reuse::{apply, template};

    #[template]
    #[rstest(a, b, case::one(1, 1), case::two(2, 2))]
    fn pairs(a: u32, b: u32) {}

    #[apply(pairs)]
    fn equal(a: u32, b: u32) {
        assert_eq!(a, b)
    }

    #[template]
    #[rstest]
    #[case(2, 2)]
    #[case::half(4 / 2, 2)]
    fn attr_cases(#[case] a: u32, #[case] b: u32) {}

    #[apply(attr_cases)]
    #[case::more(3, 3)]
    fn with_more(#[case] a: u32, #[case] b: u32) {
        assert_eq!(a, b)
    }

    #[apply(attr_cases)]
    fn with_values(#[case] a: u32, #[case] b: u32, #[values(1, 2)] v: u32) {
        assert_eq!(a * v, b * v)
    }

    #[apply(super::templates::ten)]
    fn cross_file(#[case] x: u32) {
        assert!(x > 0)
    }
}

/// Sugared only.
///
///     assert_eq!(3, 3);
pub fn sugared() {}

/// Raw without a leading newline.
#[doc = "\n    assert_eq!(4, 4);"]
pub fn raw_plain() {}

/// Before the readme.
#[doc = include_str!("../README.md")]
/// After the readme.
///
/// ```
/// assert!(true);
/// ```
pub fn included() {}

#[doc = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))]
pub fn included_from_manifest_dir() {}
