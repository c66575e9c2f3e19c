mod sub;

#[test]
fn in_mod_rs() {}
