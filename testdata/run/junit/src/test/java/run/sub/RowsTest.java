package run.sub;

import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** RowsTest is a JUnit 4 Parameterized class in a folder of its own. */
@RunWith(Parameterized.class)
public class RowsTest {
    @Parameters
    public static Collection<Object[]> data() {
        return Arrays.asList(new Object[][] {{1}, {2}});
    }

    private final int n;

    public RowsTest(int n) {
        this.n = n;
    }

    @Test
    public void positive() {
        assertTrue(n > 0);
    }
}
