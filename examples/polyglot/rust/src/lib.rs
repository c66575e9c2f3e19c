//! A tiny shopping cart.

/// Sums price times quantity.
///
/// ```
/// assert_eq!(shop::total(&[(250, 2)]), Some(500));
/// ```
pub fn total(items: &[(u32, i32)]) -> Option<u32> {
    items.iter().try_fold(0u32, |sum, &(price, qty)| {
        if qty <= 0 {
            None
        } else {
            Some(sum + price * qty as u32)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_cart_is_zero() {
        assert_eq!(total(&[]), Some(0));
    }

    #[test]
    fn rejects_zero_quantity() {
        assert_eq!(total(&[(1, 0)]), None);
    }

    #[test]
    #[ignore = "currencies are not supported yet"]
    fn currencies() {}
}
