package p;

import org.junit.Test;

public class J4 {
    @Test
    public void adapted() {}
}
