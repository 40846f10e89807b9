'use strict'

// The report of `npm run test:unit` (node --test-reporter): a dot for
// each test file that passes and an X for each that fails, as they end;
// then each failure at its file:line with its message, the last lines a
// failing file wrote to stderr, the slowest files, and one line of
// counts. Node's own dot reporter prints a dot for every assertion (tens
// of thousands here, as tap's output reports each), spec a line for each.

const path = require('path')

const WIDTH = 80
const STDERR_LINES = 40
const SLOWEST = 3

const where = (file) => path.relative(process.cwd(), file)
const indent = (text) => String(text).replace(/\s+$/, '').split('\n').map((line) => `    ${line}`).join('\n')
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

module.exports = async function * unitReporter (source) {
  const files = []
  const failures = []
  const stderr = new Map()
  let dots = 0
  let summary = null
  for await (const { type, data } of source) {
    // A test file ends: its own test, at the top, without an entry file.
    if (type === 'test:complete' && data.nesting === 0 && data.entryFile === undefined) {
      const error = data.details.error || {}
      files.push({ file: data.file, passed: data.details.passed, ms: data.details.duration_ms, ended: error.signal ? `killed by ${error.signal}` : `exit code ${error.exitCode}` })
      yield (data.details.passed ? '.' : 'X') + (++dots % WIDTH === 0 ? '\n' : '')
    } else if (type === 'test:fail' && data.details.error && data.details.error.failureType !== 'subtestsFailed' && !('exitCode' in data.details.error)) {
      // An assertion or a test that failed (not a file's exit, nor a
      // subtest's parent).
      failures.push(data)
    } else if (type === 'test:stderr' && (data.entryFile || data.file)) {
      // (Node 22 names no file for some: those cannot be told apart.)
      const file = path.resolve(data.entryFile || data.file)
      stderr.set(file, (stderr.get(file) || '') + data.message)
    } else if (type === 'test:summary' && data.file === undefined) {
      summary = data
    }
  }
  yield dots % WIDTH === 0 ? '' : '\n'

  // Each failing file: its failed assertions (those tap reported), or that
  // it failed as a whole (it threw, or exited with a code), and its stderr.
  const failed = files.filter((f) => !f.passed)
  for (const f of failed) {
    const own = failures.filter((x) => path.resolve(x.entryFile || x.file) === f.file)
    if (own.length === 0) yield `\n✖ ${where(f.file)}: the file failed (${f.ended})\n`
    for (const x of own) yield `\n✖ ${where(x.file)}:${x.line}:${x.column} ${x.name}\n${indent(x.details.error.message)}\n`
    const text = stderr.get(f.file)
    if (text) yield `  ${where(f.file)} wrote on stderr (the last lines):\n${indent(text.split('\n').slice(-STDERR_LINES).join('\n'))}\n`
  }

  const slowest = [...files].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST)
  yield `\nslowest: ${slowest.map((f) => `${where(f.file)} ${seconds(f.ms)}`).join(', ')}\n`
  if (summary) {
    const c = summary.counts
    yield `${files.length} files (${failed.length} failed), ${c.tests} tests: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped` +
      `${c.todo ? `, ${c.todo} todo` : ''}${c.cancelled ? `, ${c.cancelled} cancelled` : ''}, in ${seconds(summary.duration_ms)}\n`
  }
}
