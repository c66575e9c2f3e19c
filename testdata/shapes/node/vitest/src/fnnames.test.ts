import { test } from "vitest";

// Functions in .each rows: Vitest prints [Function name] where JavaScript
// names the function (a property key, its own name, a global); the rows
// it does not (a method read through a member, an async function, an
// anonymous one in an array) stay one dynamic record.
const M = { m(x) { return x } };
test.each([
  { f: function g() {} },
  { f: () => 1 },
  { f: encodeURI },
  { f: parseInt },
  { f: M.m },
])("own $f", () => {});
test.each([{ o: { encode: () => "s", e2: function () {}, e3: function named() {}, d: decodeURIComponent } }])("obj $o", () => {});
test.each([{ o: { m(x) { return x } } }])("meth $o", () => {});
test.each([{ o: { a: async () => 1 } }])("async $o", () => {});
const arr = [() => 1];
test.each([{ o: arr }])("arr $o", () => {});
test.each([{ path: "/x", options: { encode: () => "static" } }])("compile $path with $options", () => {});
