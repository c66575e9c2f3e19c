package util;

import org.junit.jupiter.api.Test;

public class UtilCheck {
    @Test
    public void works() {}
}
