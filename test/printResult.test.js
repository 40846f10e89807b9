'use strict'

// require('autocannon/lib/printResult') and
// require('autocannon/lib/aggregateResult'), autocannon's own paths, are
// the package's functions, and aggregate and print a run's result without
// loading the engine or any protocol: a script that only aggregates and
// prints saved results pays for that alone.

const t = require('tap')
const path = require('path')
const { execFileSync } = require('child_process')
const { Recorder } = require('../lib/engine/recorder')

const LIB = path.join(__dirname, '..', 'lib')
const RUN_SIDE = ['engine', 'http1', 'http2', 'client', 'transport', 'config'].map((folder) => path.join(LIB, folder) + path.sep)

// Twenty responses of 1 ms over two seconds, as a worker sends them.
function rawRun () {
  const recorder = new Recorder({})
  const start = Date.UTC(2024, 0, 2, 3, 4, 5)
  for (let second = 1; second <= 2; second++) {
    for (let i = 0; i < 10; i++) {
      recorder.started(1)
      recorder.response(200, 100, 1000)
    }
    recorder.sample(start + second * 1000)
  }
  return recorder.snapshot({ start, finish: start + 2000, form: 'encoded' })
}

// In a fresh process: what lib/ files are loaded once each path is
// required, and once the raw run is aggregated and printed.
function inFreshProcess (raw) {
  const script = `
    const lib = ${JSON.stringify(LIB + path.sep)}
    const loaded = () => Object.keys(require.cache).filter((f) => f.startsWith(lib)).map((f) => f.slice(lib.length))
    const aggregateResult = require(${JSON.stringify(path.join(LIB, 'aggregateResult'))})
    const printResult = require(${JSON.stringify(path.join(LIB, 'printResult'))})
    const onRequire = loaded()
    const result = aggregateResult([${JSON.stringify(raw)}])
    const text = printResult(result, { outputStream: { isTTY: false } })
    process.stdout.write(JSON.stringify({ onRequire, afterPrint: loaded(), text }))
  `
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }))
}

t.test('lib/aggregateResult and lib/printResult work without the engine or a protocol', async (t) => {
  const { onRequire, afterPrint, text } = inFreshProcess(rawRun())
  t.same(onRequire.sort(), ['aggregateResult.js', 'printResult.js'], 'requiring them loads nothing else of ours')
  const runSide = afterPrint.filter((f) => RUN_SIDE.some((dir) => path.join(LIB, f).startsWith(dir)))
  t.same(runSide, [], 'aggregating and printing load nothing of the run\'s side')
  t.ok(afterPrint.includes(path.join('output', 'print-result.js')), 'the tables themselves are loaded to print')
  t.match(text, /20 requests in 2s, /, 'the summary line')
  t.match(text, /│ Latency │ 1 ms/, 'the latency table')
})

t.test('they are the package\'s functions', async (t) => {
  t.equal(require('../lib/printResult'), require('..').printResult)
  t.equal(require('../lib/aggregateResult'), require('..').aggregateResult)
  // As autocannon's: options may be left out, or null.
  t.equal(require('../lib/aggregateResult')([rawRun()], null).requests.total, 20)
})
