package p;

import org.junit.Test;
import org.junit.experimental.runners.Enclosed;
import org.junit.runner.RunWith;

// Enclosed runs the public static member classes, not the outer class's tests.
@RunWith(Enclosed.class)
public class EnclosedCheck {
    @Test
    public void outer() {}

    public static class Inner {
        @Test
        public void inner() {}
    }

    static class Hidden {
        @Test
        public void hidden() {}
    }
}
