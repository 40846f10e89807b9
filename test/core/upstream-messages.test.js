'use strict'

// autocannon to the letter: its users compare err.message with ===. Every
// message of lib/core/upstream-messages.js is autocannon's own (checked
// against autocannon's source, installed as autocannon-upstream for the
// bench) and is in the error table of docs/errors.md. That the library and the CLI
// give them: test/e2e/upstream-messages.test.js.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { UPSTREAM, UPSTREAM_VERSION, upstream } = require('../../lib/core/upstream-messages')

const ROOT = path.join(__dirname, '..', '..')

function upstreamSources () {
  let dir
  try {
    dir = path.dirname(require.resolve('autocannon-upstream/package.json', { paths: [ROOT] }))
  } catch {
    return null
  }
  const files = [path.join(dir, 'autocannon.js'), ...fs.readdirSync(path.join(dir, 'lib')).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, 'lib', f))]
  // As the strings read once parsed: \' is '.
  return files.map((f) => fs.readFileSync(f, 'utf8')).join('\n').replace(/\\'/g, '\'')
}

function escape (text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

t.test('every message is autocannon\'s own, found in its source', async (t) => {
  const source = upstreamSources()
  if (source === null) return t.skip('autocannon-upstream is not installed (npm install installs it)')
  for (const [code, messages] of Object.entries(UPSTREAM)) {
    for (const [name, message] of Object.entries(messages)) {
      // A hole is a ${…} there; "X can not be less than 1" is built by
      // lessThanOneError('X'), "X must be greater than 0" by greaterThanZeroError('X').
      const less = /^(.+) can not be less than 1$/.exec(message)
      const greater = /^(.+) must be greater than 0$/.exec(message)
      const pattern = less
        ? new RegExp(`lessThanOneError\\('${escape(less[1])}'\\)`)
        : greater
          ? new RegExp(`greaterThanZeroError\\('${escape(greater[1])}'\\)`)
          : new RegExp(escape(message).replace(/<\w+>/g, '(?:\\$\\{[^}]+\\}|\\w+)'))
      t.match(source, pattern, `${code} ${name}: ${message}`)
    }
  }
})

t.test('the error table of docs/errors.md gives each message beside its code', async (t) => {
  const page = fs.readFileSync(path.join(ROOT, 'docs', 'errors.md'), 'utf8')
  const section = page.slice(page.indexOf('## Raised'))
  for (const [code, messages] of Object.entries(UPSTREAM)) {
    const row = section.split('\n').find((line) => line.startsWith(`| \`${code}\` |`))
    t.ok(row, `${code} has a row`)
    const last = row.split(' | ').pop()
    for (const message of Object.values(messages)) {
      t.ok(last.includes(message.replace(/^Could not parse HAR content: <reason>$/, 'Could not parse HAR content: <reason>')), `${code}: ${message}`)
    }
  }
})

t.test('upstream() fills the holes', async (t) => {
  t.equal(upstream('hook', { hook: 'verifyBody' }), 'Invalid option verifyBody, please provide a function (or file path when in workers mode)')
  t.equal(upstream('harHeader', { i: 2, j: 1 }), 'invalid name or value in header #1 of entry #2')
  t.throws(() => upstream('nope'), /no upstream message nope/)
})

t.test('UPSTREAM_VERSION, which --version names, is the autocannon installed to check against', async (t) => {
  const installed = require('autocannon-upstream/package.json').version
  t.equal(UPSTREAM_VERSION, installed)
  t.match(UPSTREAM_VERSION, /^\d+\.\d+\.\d+$/)
})
