//! Macros that declare tests, invoked from other files: lib.rs keeps them
//! in scope for the modules after it with `#[macro_use] mod macros;`.

/// One test per name, inside a `generated` module of the invoking module.
macro_rules! tests_in_mod {
    ($($name:ident),* $(,)?) => {
        mod generated {
            $(
                #[test]
                fn $name() {}
            )*
        }
    };
}

/// A test named by its second argument. The first is a closure whose
/// `|a, b|` testdex does not split, so this expansion is dynamic.
macro_rules! closure_test {
    ($f:expr, $name:ident) => {
        #[test]
        fn $name() {
            assert_eq!(($f)(1, 2), 3);
        }
    };
}

/// Exported: crate::exported_tests! anywhere in the crate, and
/// shapes::exported_tests! in the integration tests. Its first rule
/// forwards to the second, as memchr's quickcheck macros do.
#[macro_export]
macro_rules! exported_tests {
    ($name:ident) => {
        $crate::exported_tests!($name, ignored_too);
    };
    ($name:ident, $other:ident) => {
        #[test]
        fn $name() {}

        #[test]
        #[ignore]
        fn $other() {}
    };
}
