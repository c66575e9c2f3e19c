package cov;

/** Calc has two methods that no test shares. */
public class Calc {
    public int a(int x) {
        int y = x + 1;
        return y * 2;
    }

    public int b(int x) {
        int y = x - 1;
        return y * 3;
    }
}
