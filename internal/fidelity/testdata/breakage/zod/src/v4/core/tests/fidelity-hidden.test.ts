// Added to a copy of zod by internal/fidelity: a test declared through an
// alias the static listing cannot see, beside one it can.
import { expect, test } from "vitest";

const t = process.env.FIDELITY_NEVER ? test.skip : test;

t("declared through an alias fails", () => {
  expect(1).toBe(2);
});

test("a listed test passes", () => {});
