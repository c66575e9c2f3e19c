package shop;

/** A tiny shopping cart. */
public final class Cart {
    private Cart() {}

    /** Sums price times quantity; a non-positive quantity is an error. */
    public static int total(int[][] items) {
        int sum = 0;
        for (int[] item : items) {
            if (item[1] <= 0) {
                throw new IllegalArgumentException("quantity must be positive");
            }
            sum += item[0] * item[1];
        }
        return sum;
    }
}
