fn main() {}

#[test]
fn in_tool() {}
