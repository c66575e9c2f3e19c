// Every export shape of the Glubean SDK, one each, as testdex lists them
// (testdata/shapes/glubean.expected.txt). The bodies do nothing: the file
// is read, not run.
import { test } from "@glubean/sdk";

const books = [
  { isbn: "0451524934", title: "nineteen-eighty-four" },
  { isbn: "0060850523", title: "brave-new-world" },
];

// A plain test whose id is the export's name.
export const ping = test("ping", async () => {});

// A meta object: the id differs from the export's name.
export const fetchCatalog = test(
  { id: "fetch-catalog", name: "Fetch the catalog", tags: ["smoke", "catalog"] },
  async () => {},
);

// A builder left unbuilt: the runner builds it; its steps are children.
export const checkout = test("checkout")
  .meta({ tags: "orders" })
  .step("add to cart", async () => {})
  .step("pay", async () => {});

// A builder built explicitly.
export const refund = test("refund")
  .step("request refund", async () => {})
  .build();

// test.each with a callback: one test a row, the id filled in per row.
export const bookPages = test.each(books)("book-$isbn", async () => {});

// test.each as a builder: each row has the steps.
export const bookReviews = test.each(books)({ id: "review-$title", tagFields: ["isbn"] })
  .step("post review", async () => {})
  .step("read it back", async () => {});

// test.pick: one test per example; a run picks one (or those --pick names).
export const search = test.pick({
  "by-author": { q: "orwell" },
  "by-title": { q: "brave" },
})("search-$_pick", async () => {});

// Focused and skipped, by meta and by method.
export const focused = test({ id: "focused-login", only: true }, async () => {});
export const parked = test({ id: "parked-export", skip: true }, async () => {});
export const focusedFlow = test.only("focused-flow").step("only step", async () => {});
export const parkedFlow = test("parked-flow").meta({ skip: true }).step("never runs", async () => {});

// An array of tests exported by hand.
export const health = [
  test("health-live", async () => {}),
  test("health-ready", async () => {}),
];

// The default export.
export default test({ id: "landing-page", name: "Landing page" }, async () => {});

// An id known only at run time.
const region = Deno.env.get("REGION");
export const regional = test(`region-${region}`, async () => {});
