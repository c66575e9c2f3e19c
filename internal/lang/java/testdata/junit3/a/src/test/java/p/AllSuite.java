package p;

import junit.framework.JUnit4TestAdapter;
import junit.framework.Test;
import junit.framework.TestSuite;

// A JUnit 3 suite: the classes it adds run, not its own methods.
public class AllSuite {
    public static Test suite() {
        TestSuite suite = new TestSuite();
        suite.addTestSuite(Listed.class);
        suite.addTest(new JUnit4TestAdapter(J4.class));
        return suite;
    }

    public void testNotRun() {}
}
