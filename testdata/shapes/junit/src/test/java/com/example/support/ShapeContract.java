package com.example.support;

import org.junit.jupiter.api.Test;

/** ShapeContract is a base class in a file Surefire does not include: its tests run in subclasses. */
public abstract class ShapeContract {
    protected abstract double area();

    @Test
    void areaIsPositive() {
        if (area() <= 0) {
            throw new AssertionError("area");
        }
    }

    @Test
    protected void overridden() {
    }
}
