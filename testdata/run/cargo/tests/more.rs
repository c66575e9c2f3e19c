//! A second integration target with a test named as one of tests/it.rs.

#[test]
fn integration() {
    assert_eq!(runfixture::ext::double(2), 4);
}
