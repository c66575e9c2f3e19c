#[test]
fn integration() {
    assert_eq!(runfixture::add(2, 2), 4);
}

#[test]
#[should_panic(expected = "boom")]
fn panics() {
    panic!("no boom here");
}
