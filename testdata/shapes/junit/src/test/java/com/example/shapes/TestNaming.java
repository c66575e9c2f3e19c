package com.example.shapes;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** TestNaming matches Surefire's Test* pattern; the whole class is disabled. */
@Disabled("whole class")
class TestNaming {
    @Test
    void first() {
    }

    @Test
    void second() {
    }
}
