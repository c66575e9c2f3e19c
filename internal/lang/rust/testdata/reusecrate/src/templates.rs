use rstest::rstest;
use rstest_reuse::template;

#[template]
#[rstest]
#[case(1)]
#[case(2)]
#[case(3)]
#[case(4)]
#[case(5)]
#[case(6)]
#[case(7)]
#[case(8)]
#[case(9)]
#[case::last(10)]
fn ten(#[case] x: u32) {}
