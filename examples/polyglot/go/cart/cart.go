// Package cart is a tiny shopping cart used to show what testdex finds.
package cart

import "errors"

// Item is a line of the cart.
type Item struct {
	SKU   string
	Price int // cents
	Qty   int
}

// ErrQty reports a non-positive quantity.
var ErrQty = errors.New("quantity must be positive")

// Total sums the cart, rejecting bad quantities.
func Total(items []Item) (int, error) {
	sum := 0
	for _, it := range items {
		if it.Qty <= 0 {
			return 0, ErrQty
		}
		sum += it.Price * it.Qty
	}
	return sum, nil
}
