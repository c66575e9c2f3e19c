// No `mod orphan;` anywhere: cargo never compiles this file.
#[test]
fn never_built() {}
