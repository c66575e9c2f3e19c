package com.example.shapes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Tags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import com.example.support.TwiceProvider;

/** Every JUnit 5 shape testdex lists statically. */
@Tag("fast")
class CalculatorTest {
    private final Calculator calc = new Calculator();

    enum Op { PLUS, TIMES }

    @Test
    void add() {
        assertEquals(4, calc.add(2, 2));
    }

    @Test
    @DisplayName("adds with a test info")
    void withInfo(TestInfo info) {
        assertEquals("withInfo(TestInfo)", info.getTestMethod().get().getName() + "(TestInfo)");
    }

    @Test
    @Disabled("not yet")
    void disabled() {
    }

    @Test
    @Tags({@Tag("slow"), @Tag("db")})
    void tagged() {
    }

    @RepeatedTest(3)
    void repeated() {
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void square(int n) {
        assertEquals(n * n, calc.square(n));
    }

    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource({"1, 1, 2", "2, 3, 5"})
    void addRows(int a, int b, int sum) {
        assertEquals(sum, calc.add(a, b));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "b"})
    void strings(String s) {
    }

    @ParameterizedTest
    @MethodSource("lists")
    void fromMethod(List<String> list) {
    }

    static Stream<Arguments> lists() {
        return Stream.of(Arguments.of(List.of("x")), Arguments.of(List.of("y", "z")));
    }

    @ParameterizedTest
    @EnumSource(Op.class)
    void ops(Op op) {
    }

    @Test
    void arrays(String[] names, int... counts) {
    }

    @TestFactory
    Stream<DynamicTest> factory() {
        return Stream.of("p", "q").map(s -> DynamicTest.dynamicTest(s, () -> { }));
    }

    @TestTemplate
    @ExtendWith(TwiceProvider.class)
    void template() {
    }

    void helper() {
    }

    @Nested
    class WhenNegative {
        @Test
        void addsNegatives() {
            assertEquals(-2, calc.add(-1, -1));
        }

        @Nested
        @Disabled
        class Deeper {
            @Test
            void deepest() {
            }
        }
    }

    static class NotNested {
        @Test
        void notRunByMaven() {
        }
    }
}
