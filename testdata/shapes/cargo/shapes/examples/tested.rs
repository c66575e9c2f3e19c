fn main() {}

#[test]
fn example_test() {}
