#[cfg(feature = "unicode-case")]
mod gated_file;

#[cfg(feature = "unicode-case")]
mod unicode {
    #[cfg(test)]
    mod tests {
        #[test]
        fn needs_unicode_mod() {}
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn always() {}

    #[test]
    #[cfg(feature = "std")]
    fn default_std() {}

    #[test]
    #[cfg(feature = "alloc")]
    fn default_alloc_transitive() {}

    #[test]
    #[cfg(feature = "unicode-case")]
    fn needs_unicode() {}

    #[test]
    #[cfg(not(feature = "unicode-case"))]
    fn without_unicode() {}

    #[test]
    #[cfg(feature = "serde")]
    fn never_serde_feature() {}

    #[test]
    #[cfg(feature = "regex")]
    fn needs_regex() {}

    #[test]
    #[cfg(unix)]
    fn on_unix() {}

    #[test]
    #[cfg(windows)]
    fn on_windows() {}

    #[test]
    #[cfg(all(target_family = "unix", not(target_os = "windows")))]
    fn on_unix_family() {}

    #[test]
    #[cfg(some_custom_cfg)]
    fn unknown_kept() {}

    #[test]
    #[cfg(not(some_custom_cfg))]
    fn not_unknown_kept() {}

    #[test]
    #[cfg(any(feature = "unicode-case", debug_assertions))]
    fn debug_assertions_on() {}

    #[test]
    #[cfg(all(test, not(miri)))]
    fn not_miri() {}
}
