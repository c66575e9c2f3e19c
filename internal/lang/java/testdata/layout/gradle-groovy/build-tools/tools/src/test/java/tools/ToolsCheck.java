package tools;

import org.junit.jupiter.api.Test;

public class ToolsCheck {
    @Test
    public void works() {}
}
