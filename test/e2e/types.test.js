'use strict'

// The shipped TypeScript types (types/index.d.ts), checked by tsd against
// test/types/*.test-d.{ts,mts}: valid uses compile, invalid ones (a wrong
// option type, an unknown event name, a wrong listener) do not. A fixture
// of deliberately wrong tests is compiled in the same program and must
// fail exactly as written, so a tsd that silently checked nothing would
// not pass.

const t = require('tap')
const path = require('path')

const root = path.join(__dirname, '..', '..')
const MUST_FAIL = path.join(__dirname, '..', 'fixtures', 'types-must-fail.test-d.ts')

function show (d) {
  return `${path.relative(root, d.fileName)}:${d.line}:${d.column}: ${d.message}`
}

t.test('the types compile for valid uses and refuse invalid ones', async (t) => {
  const tsd = require('tsd').default
  const started = Date.now()
  const diagnostics = await tsd({
    cwd: root,
    testFiles: ['test/types/*.test-d.ts', 'test/types/*.test-d.mts', path.relative(root, MUST_FAIL)]
  })
  t.comment(`tsd took ${((Date.now() - started) / 1000).toFixed(1)} s`)

  const unexpected = diagnostics.filter((d) => d.fileName !== MUST_FAIL)
  t.same(unexpected.map(show), [], 'no type errors in the type tests')

  const fromFixture = diagnostics.filter((d) => d.fileName === MUST_FAIL).sort((a, b) => a.line - b.line)
  t.same(fromFixture.map((d) => d.line), [9, 13], 'the deliberately wrong tests fail, and only they: ' +
    fromFixture.map(show).join('; '))
  t.match(fromFixture.map((d) => d.message), [/Expected an error, but found none/, /number.*string|string.*number/])
})

// The types fell behind the options before (on DefinitelyTyped): every
// option the library takes must be in the Options interface, and every
// field there must be an option.
t.test('Options in the types has every option of the library, and no other', async (t) => {
  const fs = require('fs')
  const { DEFAULTS } = require('../../lib/core/options')
  const dts = fs.readFileSync(path.join(root, 'types', 'index.d.ts'), 'utf8')
  const start = dts.indexOf('export interface Options {')
  t.not(start, -1, 'types/index.d.ts declares Options')
  const body = dts.slice(start, dts.indexOf('\n  }\n', start))
  const typed = [...body.matchAll(/^ {4}(\w+)\??:/gm)].map((m) => m[1]).sort()
  // Typed ahead of the branch that adds it to the library.
  const pending = ['thresholds'].filter((name) => !(name in DEFAULTS))
  t.same(typed, [...Object.keys(DEFAULTS), ...pending].sort())
})
