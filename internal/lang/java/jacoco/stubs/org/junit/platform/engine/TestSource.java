package org.junit.platform.engine;

/** A compile-time stand-in. */
public interface TestSource {}
