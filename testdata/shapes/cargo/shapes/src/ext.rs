// Never compiled (feature "ext" is off): attribute macros from crates.io.
use rstest::rstest;
use test_case::test_case;

#[tokio::test]
async fn async_tokio() {}

#[async_std::test]
async fn async_std_test() {}

#[test_case(1, 2 ; "one and two")]
#[test_case(3, 4)]
#[test_case(5, 6 => 11)]
fn sums(a: i32, b: i32) -> i32 {
    a + b
}

#[test_case(1 => panics "x")]
fn keyword_expectation(_a: i32) {}

#[rstest]
#[case(1)]
#[case::two(2)]
fn cases(#[case] n: i32) {
    assert!(n > 0);
}

#[rstest]
fn matrix(#[values(1, 2)] n: i32) {
    assert!(n > 0);
}

proptest::proptest! {
    #[test]
    fn prop_roundtrip(x in 0..10i32) {
        assert!(x < 10);
    }
}
