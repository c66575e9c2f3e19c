package stray;

import org.junit.jupiter.api.Test;

public class StrayTest {
    @Test
    public void works() {}
}
