mod sub;

#[test]
fn in_mod_rs() {}

tests_in_mod!(gen_one, gen_two);

closure_test!(|a, b| a + b, closure_adds);
