// Not a test file: shared data for the tests.
export const baseUrl = "https://books.example.test";
