mod part;

fn main() {}

#[test]
fn in_multi() {}
