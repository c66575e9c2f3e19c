// Benches are not tested by cargo test unless test = true.
fn main() {}

#[test]
fn bench_not_run() {}
