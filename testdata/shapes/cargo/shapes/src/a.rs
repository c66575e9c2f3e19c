//! Module a, with a child module in the a/ folder.
//!
//! ```
//! shapes::a::f();
//! ```

pub mod b;

/// ```
/// shapes::a::f();
/// ```
pub fn f() {}

#[test]
fn in_a() {}

crate::exported_tests!(exported_one);
