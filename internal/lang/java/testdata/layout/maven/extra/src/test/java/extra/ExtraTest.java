package extra;

import org.junit.Test;

public class ExtraTest {
    @Test
    public void works() {}
}
