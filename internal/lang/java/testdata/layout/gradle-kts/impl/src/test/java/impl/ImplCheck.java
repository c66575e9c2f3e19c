package impl;

import org.junit.jupiter.api.Test;

public class ImplCheck {
    @Test
    public void works() {}
}
