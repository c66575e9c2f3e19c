package leaf;

import org.junit.Test;

public class LeafTest {
    @Test
    public void works() {}
}
