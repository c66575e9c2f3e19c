// Glubean tests in a Node project that also runs Vitest: this file imports
// the SDK, so it is Glubean's.
import { test as apiTest } from "@glubean/sdk";

export const listUsers = apiTest({ id: "list-users", tags: ["users"] }, async () => {});

export const createUser = apiTest("create-user")
  .step("post", async () => {})
  .step("get", async () => {});
