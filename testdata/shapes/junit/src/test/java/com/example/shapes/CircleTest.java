package com.example.shapes;

import org.junit.jupiter.api.Test;

/** CircleTest inherits from two levels of base classes and overrides one test. */
class CircleTest extends AbstractShapeTest {
    @Override
    protected double area() {
        return Math.PI;
    }

    @Override
    @Test
    protected void overridden() {
    }

    @Test
    void round() {
    }
}
