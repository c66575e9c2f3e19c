package p;

public class TwoCheck extends BaseSupport {
    public void testOwn() {}
    @Override
    public void testOverridden() {}
}
