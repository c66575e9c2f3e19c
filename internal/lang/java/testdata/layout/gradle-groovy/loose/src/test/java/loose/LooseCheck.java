package loose;

import org.junit.jupiter.api.Test;

public class LooseCheck {
    @Test
    public void works() {}
}
