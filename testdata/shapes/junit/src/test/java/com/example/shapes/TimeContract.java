package com.example.shapes;

import org.junit.jupiter.api.Test;

/** TimeContract is a test interface: implementing classes inherit its default test methods. */
interface TimeContract {
    @Test
    default void timeFlows() {
    }
}
