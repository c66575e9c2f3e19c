#[test]
fn in_sub() {}
