package com.example.shapes;

import org.junit.jupiter.api.Test;

/** NotATestName has a test but a name Surefire does not include: Maven never runs it. */
class NotATestName {
    @Test
    void ignoredByMaven() {
    }
}
