package org.junit.platform.launcher;

import org.junit.platform.engine.TestExecutionResult;

/** A compile-time stand-in: only the methods testdex's listener overrides. */
public interface TestExecutionListener {
    default void testPlanExecutionStarted(TestPlan testPlan) {}

    default void executionStarted(TestIdentifier testIdentifier) {}

    default void executionFinished(TestIdentifier testIdentifier, TestExecutionResult result) {}
}
