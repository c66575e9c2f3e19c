package p;

// A project base class: its subclasses are JUnit 3 tests too.
public abstract class BaseSupport extends junit.framework.TestCase {
    public void testShared() {}
    public void testOverridden() {}
}
