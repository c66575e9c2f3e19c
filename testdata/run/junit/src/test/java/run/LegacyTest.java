package run;

import org.junit.Ignore;
import org.junit.Test;

/** LegacyTest is a JUnit 4 class, run through the vintage engine. */
public class LegacyTest {
    @Test
    public void plain() {}

    @Test
    @Ignore("old")
    public void ignored() {}
}
