//! Reached through #[path = "other/p.rs"].

#[test]
fn by_path() {}
