package org.junit.platform.launcher;

/** A compile-time stand-in. */
public class TestPlan {}
