package com.example.shapes;

import org.junit.jupiter.api.Test;

/** ClockTests matches Surefire's *Tests pattern and implements a test interface. */
class ClockTests implements TimeContract {
    @Test
    <T extends Comparable<T>> void generic(T value) {
    }
}
