'use strict'
// A Mocha reporter (--reporter /path/to/fidelity_mocha.js) that records each
// test's outcome: one JSON object a line, {"scope": FILE relative to the
// current folder, "name": titles joined by " > ", "outcome"}, written to
// the file named by FIDELITY_OUT when the run ends. A failing hook is
// recorded under its own title path ("before all" hook for "x").
const fs = require('fs')
const path = require('path')

module.exports = function FidelityReporter (runner) {
  const recs = []
  const add = (test, outcome) => recs.push({
    scope: test.file ? path.relative(process.cwd(), test.file).split(path.sep).join('/') : '',
    name: test.titlePath().join(' > '),
    outcome
  })
  runner.on('pass', (test) => add(test, 'pass'))
  runner.on('fail', (test) => add(test, 'fail'))
  runner.on('pending', (test) => add(test, 'skip'))
  runner.once('end', () => {
    fs.writeFileSync(process.env.FIDELITY_OUT, recs.map((r) => JSON.stringify(r) + '\n').join(''))
  })
}
