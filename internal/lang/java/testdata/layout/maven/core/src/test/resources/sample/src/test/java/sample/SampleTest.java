package sample;

import org.junit.jupiter.api.Test;

public class SampleTest {
    @Test
    public void fixture() {}
}
