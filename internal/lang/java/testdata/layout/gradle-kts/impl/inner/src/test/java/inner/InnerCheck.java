package inner;

import org.junit.Test;

public class InnerCheck {
    @Test
    public void works() {}
}
