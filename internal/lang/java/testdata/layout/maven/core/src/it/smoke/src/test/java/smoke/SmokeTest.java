package smoke;

import org.junit.jupiter.api.Test;

public class SmokeTest {
    @Test
    public void fixture() {}
}
