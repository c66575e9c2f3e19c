#[test]
fn in_part() {}
