package com.example.shapes;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.example.support.ShapeContract;

/** AbstractShapeTest is abstract: JUnit lists its tests only under concrete subclasses. */
public abstract class AbstractShapeTest extends ShapeContract {
    @Test
    @Tag("inherited")
    void hasName() {
    }
}
