package core;

import org.junit.Test;

public class CoreCheck {
    @Test
    public void works() {}
}
