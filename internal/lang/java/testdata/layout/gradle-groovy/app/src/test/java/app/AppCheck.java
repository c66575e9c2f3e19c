package app;

import org.junit.jupiter.api.Test;

public class AppCheck {
    @Test
    public void works() {}
}
