package p;

import junit.framework.TestCase;

// Not included by name: runs because AllSuite adds it.
public class Listed extends TestCase {
    public void testListed() {}
}
