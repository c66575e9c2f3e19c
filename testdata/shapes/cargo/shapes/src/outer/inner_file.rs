#[test]
fn in_inner_file() {}
