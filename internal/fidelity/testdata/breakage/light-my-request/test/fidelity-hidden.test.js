'use strict'
// Added to a copy of light-my-request by internal/fidelity: a test
// declared through an alias, one through a helper, and rows built from data.
const { test, describe } = require('node:test')
const assert = require('node:assert')

const t = process.env.FIDELITY_NEVER ? test.skip : test

function check (title, fn) {
  test(title, fn)
}

t('declared through an alias fails', () => {
  assert.strictEqual(1, 2)
})

check('declared through a helper passes', () => {})

describe('fidelity rows', () => {
  const rows = [1, 2, 3].map((n) => ({ n, square: n === 2 ? 5 : n * n }))
  for (const row of rows) {
    test(`squares ${row.n}`, () => {
      assert.strictEqual(row.n * row.n, row.square)
    })
  }
})
