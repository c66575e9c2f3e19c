package run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RunTest has tests known to pass, fail and be skipped, and (opted in
 * through TESTDEX_FIXTURE_HANG, _LEAK and _LOUD) to hang, leak a child
 * process and print megabytes.
 */
class RunTest {
    @Test
    void pass() {}

    @Test
    void fail() {
        System.out.println("some context");
        assertEquals(2, 1, "got 1, want 2");
    }

    @Test
    @Disabled("not today")
    void skipped() {}

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void rows(int n) {
        assertTrue(n < 2, "row failed");
    }

    @Test
    void hang() throws InterruptedException {
        assumeTrue(System.getenv("TESTDEX_FIXTURE_HANG") != null, "set TESTDEX_FIXTURE_HANG to hang");
        Thread.sleep(3_600_000);
    }

    @Test
    void leak() throws java.io.IOException {
        assumeTrue(System.getenv("TESTDEX_FIXTURE_LEAK") != null, "set TESTDEX_FIXTURE_LEAK to leak a process");
        new ProcessBuilder("sleep", "300").start();
    }

    @Test
    void loud() {
        assumeTrue(System.getenv("TESTDEX_FIXTURE_LOUD") != null, "set TESTDEX_FIXTURE_LOUD to print megabytes");
        String line = "x".repeat(1023);
        for (int i = 0; i < 2048; i++) {
            System.out.println(line);
        }
    }

    /** Inner is a nested class, which Surefire runs through RunTest. */
    @Nested
    class Inner {
        @Test
        void inner() {}
    }
}
