package p;

import junit.framework.Test;
import junit.framework.TestSuite;

// A suite() built in a way not read statically: one dynamic record.
public class MoreCheck {
    public static Test suite() {
        TestSuite suite = new TestSuite();
        for (Class<?> c : new Class<?>[] {J4.class}) {
            suite.addTestSuite(c);
        }
        return suite;
    }
}
