// Titles built from literal data: every one must be named statically
// exactly as Mocha prints it (see ../README.md to regenerate the golden).
var TESTS = [
  {description: 'one', input: 'a,b'},
  {description: 'two', input: 'c'},
  {input: 'no description'},
];

describe('generated', function () {
  function generateTest(test) {
    it(test.description || test.input, function () {});
  }
  for (var i = 0; i < TESTS.length; i++) {
    generateTest(TESTS[i]);
  }
});

describe('iife', function () {
  for (var i = 0; i < TESTS.length; i++) {
    (function (t) {
      it(String(t.label || t.input) + ' #' + i, function () {});
    })(TESTS[i]);
  }
});

(typeof window !== 'undefined' ? describe : describe.skip)('browser only', function () {
  it('needs a window', function () {});
});

context('forEach', function () {
  [1, 2, 3].forEach(function (n) {
    specify('square ' + n * n, function () {});
  });
});
