/// Doubles.
///
/// ```
/// assert_eq!(member::double(2), 4);
/// ```
pub fn double(x: i32) -> i32 {
    x * 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn doubles() {
        assert_eq!(super::double(3), 6);
    }
}
