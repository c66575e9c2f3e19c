package p;

import junit.framework.TestCase;
import org.junit.Test;

// A JUnit 3 test: its public void test*() methods of no arguments run.
public class OneCheck extends TestCase {
    public void testOne() {}
    public void testTwo() throws Exception {}
    public void testArgs(int x) {}
    public static void testStatic() {}
    protected void testProtected() {}
    public int testValue() { return 1; }
    @Test
    public void annotated() {} // JUnit 3's runner ignores @Test
}
