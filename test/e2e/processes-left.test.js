'use strict'

// The suite's last test (test/helpers/processes-left.js, tap's `after`)
// can fail: run here on a run id of this test's own, with a process
// planted under that id and left running, it fails and names it (and
// ends it); one that exits within the grace is not named; with nothing
// left it passes.

const t = require('tap')
const path = require('path')
const { spawn, spawnSync } = require('child_process')
const { VAR } = require('../helpers/suite-run')
const { gone } = require('../helpers/processes')

const CHECK = path.join(__dirname, '..', 'helpers', 'processes-left.js')

function plant (t, id, script) {
  const child = spawn(process.execPath, ['-e', script], { detached: true, stdio: 'ignore', env: { ...process.env, [VAR]: id } })
  child.unref()
  t.teardown(() => { try { process.kill(child.pid, 'SIGKILL') } catch {} })
  return child.pid
}

t.test('a process left running fails the check, named; one that ends in the grace does not', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc')
  const id = `planted-${process.pid}-${Date.now()}`
  const left = plant(t, id, 'setInterval(() => {}, 1000)')
  const leaving = plant(t, id, 'setTimeout(() => {}, 500)')
  const out = spawnSync(process.execPath, [CHECK, id], { encoding: 'utf8', timeout: 20000 })
  t.equal(out.status, 1, 'it fails')
  t.match(out.stderr, new RegExp(`^not ok - 1 process the suite started still running .*\\n#   pid ${left}: .*setInterval`), 'naming the process left')
  t.notMatch(out.stderr, `pid ${leaving}:`, 'not the one that ended within the grace')
  t.ok(gone(left), 'and ends it')
})

t.test('nothing left: it passes', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc')
  const out = spawnSync(process.execPath, [CHECK, `none-${process.pid}-${Date.now()}`], { encoding: 'utf8', timeout: 20000 })
  t.equal(out.status, 0)
  t.equal(out.stdout, '# processes left by the suite: none\n')
})
