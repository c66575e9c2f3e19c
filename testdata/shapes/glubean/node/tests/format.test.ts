// A Vitest file beside the Glubean ones, with a focused test and a table.
import { describe, expect, test } from "vitest";

describe("format", () => {
  test.only("pads", () => {
    expect("1".padStart(2, "0")).toBe("01");
  });
  test.each([
    [1, "1"],
    [2, "2"],
  ])("prints %i", (n, s) => {
    expect(String(n)).toBe(s);
  });
});
