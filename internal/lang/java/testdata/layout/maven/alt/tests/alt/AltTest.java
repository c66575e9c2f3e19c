package alt;

import org.junit.jupiter.api.Test;

public class AltTest {
    @Test
    public void works() {}
}
