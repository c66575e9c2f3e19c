package com.example.shapes.legacy;

import java.util.Arrays;
import java.util.Collection;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/** RowsTest is a JUnit 4 parameterized class: its rows are known only at run time. */
@RunWith(Parameterized.class)
public class RowsTest {
    private final int value;

    public RowsTest(int value) {
        this.value = value;
    }

    @Parameters
    public static Collection<Object[]> data() {
        return Arrays.asList(new Object[][] {{1}, {2}});
    }

    @Test
    public void positive() {
        if (value <= 0) {
            throw new AssertionError(value);
        }
    }
}
