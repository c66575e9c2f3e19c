package p;

import org.junit.Test;

// Named as Surefire's default includes want, but the POM's includes leave it out.
public class PlainTest {
    @Test
    public void notRun() {}
}
