package root;

import org.junit.jupiter.api.Test;

public class RootCheck {
    @Test
    public void works() {}
}
