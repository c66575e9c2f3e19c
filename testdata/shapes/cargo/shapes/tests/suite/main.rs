mod helper;

#[test]
fn suite_test() {}
