#[test]
fn it_b() {
    assert_eq!(cover::b(2), 4);
}
