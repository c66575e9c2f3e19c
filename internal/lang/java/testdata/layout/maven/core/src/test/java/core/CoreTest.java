package core;

import org.junit.jupiter.api.Test;

public class CoreTest {
    @Test
    public void works() {}
}
