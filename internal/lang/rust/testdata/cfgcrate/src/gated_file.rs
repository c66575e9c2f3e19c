#[test]
fn needs_unicode_file() {}
