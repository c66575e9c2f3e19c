package core;

import org.junit.jupiter.api.Test;

public class CoreHelper {
    @Test
    public void works() {}
}
