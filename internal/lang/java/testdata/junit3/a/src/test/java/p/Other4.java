package p;

import org.junit.Test;

public class Other4 {
    @Test
    public void viaSuiteClasses() {}
}
