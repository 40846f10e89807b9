'use strict'

// Runs a script in a child process and returns what it wrote on stdout and
// stderr, its exit code, and what it passed to report(value): the unit
// runner's own stdout and stderr cannot be replaced, so code that prints
// is watched from outside. The script may be async; the child ends when
// it is done.

const { spawnSync } = require('child_process')

const PRELUDE = "const report = (value) => require('fs').writeSync(3, JSON.stringify({ value: value === undefined ? '(undefined)' : value }))\n"

function inChild (source, { timeout = 30000 } = {}) {
  const res = spawnSync(process.execPath, ['-e', PRELUDE + source], {
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout
  })
  const reported = res.output[3] ? JSON.parse(res.output[3]).value : null
  return { stdout: res.stdout, stderr: res.stderr, code: res.status, value: reported === '(undefined)' ? undefined : reported }
}

module.exports = { inChild }
