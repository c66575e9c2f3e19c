export function total(items) {
  return items.reduce((sum, [price, qty]) => {
    if (qty <= 0) throw new Error('quantity must be positive');
    return sum + price * qty;
  }, 0);
}
