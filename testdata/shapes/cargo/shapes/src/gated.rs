#[test]
fn gated_by_feature() {}
