#[test]
fn helper_test() {}
