package com.example.shapes.legacy;

import static org.junit.Assert.assertEquals;

import org.junit.Ignore;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** LegacyTestCase is JUnit 4, run through the vintage engine. */
public class LegacyTestCase {
    public interface Slow {
    }

    @Test
    public void plain() {
        assertEquals(2, 1 + 1);
    }

    @Test(expected = ArithmeticException.class)
    public void throwsArithmetic() {
        int zero = 0;
        System.out.println(1 / zero);
    }

    @Ignore("flaky")
    @Test
    public void ignored() {
    }

    @Category(Slow.class)
    @Test
    public void categorized() {
    }

    public void notATest() {
    }
}
