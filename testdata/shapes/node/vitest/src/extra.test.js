[
  {
    "name": "math > adds",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "math > concurrent",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "math > fails on purpose",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "math > skip if",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "math > in sequence > first",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "math > with options",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "a suite > template title",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > add(1, 2) -> 3",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > add(2, 3) -> 5",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > array 1,2 and x",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > primitive a #0 undefined",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > primitive b #1 undefined",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > object 1 is 'one', deep true",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > object 2 is 'two', deep false",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > tagged 1 'x' [ 1, 2 ]",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > for 1 squared is 1",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > for 2 squared is 4",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > block 'alpha' > inner",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > block 'beta' > inner",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "tables > float 1.5 neg 0 pct 50%",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "generated 0",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "generated 1",
    "file": "/work/main/testdata/shapes/node/vitest/src/math.test.ts"
  },
  {
    "name": "ui > builds an element",
    "file": "/work/main/testdata/shapes/node/vitest/test/ui.spec.tsx"
  }
]