'use strict'

// A capacity search in a terminal (util-linux `script` gives the CLI a
// pseudo-TTY): each step on a line of its own as it starts, rewritten
// while it runs, then replaced by its row; out of a terminal, the rows
// alone, as before. A search: run under the shared timing lock.

const t = require('tap')
const { execFile } = require('child_process')
const { stripAnsi } = require('../helpers/tables')
const { BIN, env: cliEnv } = require('../helpers/cli')
const { childServer } = require('../helpers/servers')
const { hasScript, inTerminal: runInTerminal } = require('../helpers/terminal')

const inTerminal = (args) => runInTerminal(args, { flush: true, ms: 90000 })

t.setTimeout(240000)

t.test('a search in a terminal', { skip: hasScript() ? false : 'util-linux script is not installed' }, async (t) => {
  const server = await childServer(t, 'capacity-server.js', ['queue', '400'])
  // A coarse precision: the live lines are what is checked, not the rate found.
  const args = ['--findMaxRate', '--slo', 'p50<20ms', '-c', '4', '--stepDuration', '1', '--precision', '25', server.url]
  const { code, output } = await inTerminal(args)
  const text = stripAnsi(output)
  // 98: the machine could not run the search as planned (it says why):
  // no verdict, and the live lines are still what is checked.
  if (code === 98) t.comment(`in a terminal, the machine could not measure: ${text.trim().split('\n').pop()}`)
  else t.equal(code, 0, output)
  t.match(text, /\rstep 1 \(low\) at [\d,]+ req\/s: 0\.0\/[\d.]+ s, 0 responses, 0 errors/, 'the first step\'s line as it starts')
  t.match(text, /\rstep 1 \(low\) at [\d,]+ req\/s: [1-9][\d.]*\/[\d.]+ s, [1-9][\d,]* responses/, 'rewritten while it runs')
  t.match(text, /\r\s+1\s+low\s+[\d,]+\s+[\d,]+/, 'then replaced by its row')
  t.match(text, /\rstep 2 \(/, 'the next step on its line')

  const plain = await new Promise((resolve) => execFile(process.execPath, [BIN, ...args], { env: cliEnv({}) }, (err, stdout, stderr) => resolve({ err, stderr })))
  if (plain.err && plain.err.code === 98) t.comment(`out of a terminal, the machine could not measure: ${plain.stderr.trim().split('\n').pop()}`)
  else t.notOk(plain.err, `out of a terminal${plain.err ? `: ${plain.stderr.trim().split('\n').pop()}` : ''}`)
  t.notMatch(plain.stderr, /step 1 \(low\)/, 'no live line')
  t.notMatch(plain.stderr, /\r/, 'nothing rewritten')
  t.match(plain.stderr, /\n\s+1\s+low\s+[\d,]+/, 'the rows, as before')
})
