package inner;

import org.junit.jupiter.api.Test;

public class InnerTest {
    @Test
    public void works() {}
}
