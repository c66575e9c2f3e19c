package cov;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void testA() {
        assertEquals(4, new Calc().a(1));
    }

    @Test
    void testB() {
        assertEquals(1, new Calc().b(1), "b fails by design");
    }
}
