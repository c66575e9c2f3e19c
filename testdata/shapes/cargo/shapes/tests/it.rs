mod common;

#[test]
fn integration() {
    common::setup();
}

#[test]
#[ignore = "needs a network"]
fn ignored_with_reason() {}

macro_rules! make_test {
    ($($name:ident),*) => {
        $(
            #[test]
            fn $name() {}
        )*
    };
}

make_test!(made_one, made_two);

shapes::exported_tests!(from_lib);
