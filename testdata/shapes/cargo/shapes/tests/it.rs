mod common;

#[test]
fn integration() {
    common::setup();
}

#[test]
#[ignore = "needs a network"]
fn ignored_with_reason() {}
