package api;

import org.junit.jupiter.api.Test;

public class ApiCheck {
    @Test
    public void works() {}
}
