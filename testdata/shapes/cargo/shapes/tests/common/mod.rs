pub fn setup() {}

#[test]
fn in_common() {}
