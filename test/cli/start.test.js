'use strict'

// autocannon.start (lib/cli/start.js): nothing for no options; an error
// as its message on stderr, no exit code, undefined returned. Runs against
// servers and --on-port, beside autocannon's: test/e2e/dropin/start.test.js.
// Each case runs in a child process, whose stdout, stderr and exit code
// are its own.

const t = require('tap')
const path = require('path')
const { inChild } = require('../helpers/child-output')

const START = JSON.stringify(path.join(__dirname, '..', '..', 'lib', 'cli', 'start.js'))

t.test('no options (help or version was printed): nothing', async (t) => {
  const out = inChild(`const { start } = require(${START})
report([start(undefined), start(null), start(false)].map((v) => v === undefined))`)
  t.same(out.value, [true, true, true], 'undefined each time')
  t.same([out.stdout, out.stderr, out.code], ['', '', 0])
})

t.test('an error: its message on stderr, no exit code, undefined', async (t) => {
  const out = inChild(`const { start } = require(${START})
const returned = start({ url: 'http://127.0.0.1:1', connections: 0 })
setImmediate(() => setImmediate(() => report({ undefined: returned === undefined, exitCode: process.exitCode === undefined ? null : process.exitCode })))`)
  t.same(out.value, { undefined: true, exitCode: null }, 'undefined, and the exit code is the script\'s to set')
  t.equal(out.stderr, 'connections can not be less than 1\n', 'autocannon\'s message alone')
  t.equal(out.stdout, '')
  t.equal(out.code, 0)
})
