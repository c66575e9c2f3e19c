def total(items):
    """Sum price * qty; a non-positive quantity is an error."""
    if any(qty <= 0 for _, qty in items):
        raise ValueError("quantity must be positive")
    return sum(price * qty for price, qty in items)
