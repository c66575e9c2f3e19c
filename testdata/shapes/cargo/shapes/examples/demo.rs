// cargo test builds examples but runs their tests only with test = true.
fn main() {}

#[test]
fn not_run() {}
