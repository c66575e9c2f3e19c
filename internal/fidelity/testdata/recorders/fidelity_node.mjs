// A node:test reporter (--test-reporter=/path/to/fidelity_node.mjs) that
// records each test's outcome: one JSON object a line, {"scope": FILE
// relative to the current folder, "name": titles from the outermost
// describe or test joined by " > ", "outcome"}, written to the file named
// by FIDELITY_OUT when the run ends; a failed test node cancelled before
// it began to run (failureType cancelledByParent and no test:dequeue: the
// file's event loop emptied while another test hung) has "cancelled":
// true. A test that began and was cancelled (the one that hung) has not. Suites (describe) are not recorded,
// tests with subtests are: node counts them ("# tests"). It prints nothing.
//
// A test's pass or fail event comes after its subtests', at nesting N with
// theirs at N+1, so the records at N+1 collected since are its
// descendants: they get its title in front.
import { writeFileSync } from 'node:fs'
import { relative, sep } from 'node:path'

export default async function * fidelity (source) {
  const recs = []
  const started = new Set() // tests that began to run (test:dequeue)
  const pending = new Map() // file -> [records collected per nesting level]
  for await (const ev of source) {
    if (ev.type === 'test:dequeue') {
      started.add(ev.data.file + '\0' + ev.data.nesting + '\0' + ev.data.name)
      continue
    }
    if (ev.type !== 'test:pass' && ev.type !== 'test:fail') continue
    const d = ev.data
    const file = d.file ?? ''
    if (!pending.has(file)) pending.set(file, [])
    const levels = pending.get(file)
    const below = levels[d.nesting + 1] ?? []
    levels[d.nesting + 1] = []
    for (const r of below) r.titles.unshift(d.name)
    const rec = {
      scope: file ? relative(process.cwd(), file).split(sep).join('/') : '',
      titles: [d.name],
      outcome: ev.type === 'test:fail' ? 'fail' : (d.skip || d.todo ? 'skip' : 'pass'),
      suite: d.details?.type === 'suite',
      cancelled: (d.details?.error?.failureType === 'cancelledByParent' &&
        !started.has(file + '\0' + d.nesting + '\0' + d.name)) || undefined
    }
    levels[d.nesting] = [...(levels[d.nesting] ?? []), rec, ...below]
    recs.push(rec)
  }
  if (started.size === 0) for (const r of recs) r.cancelled = undefined // a node without test:dequeue cannot tell
  const lines = recs.filter((r) => !r.suite)
    .map((r) => JSON.stringify({ scope: r.scope, name: r.titles.join(' > '), outcome: r.outcome, cancelled: r.cancelled }) + '\n')
  writeFileSync(process.env.FIDELITY_OUT, lines.join(''))
}
