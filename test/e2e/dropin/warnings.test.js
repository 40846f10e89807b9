'use strict'

// Options as harnesses build them for autocannon(): from autocannon's own
// parseArguments (its aliases, `_`, `--`, the booleans), from ours, with
// the keys autocannon's code reads (harRequests, histograms,
// warmupRunning), autocannon's instance's opts passed in, and keys of the
// script's own (`all`). autocannon warns about none, nor do we. A near
// miss of an option (`conections`) is the one warning, ours only (a row
// of docs/differences.md: warnings of ours).

const t = require('tap')
const { bothScripts } = require('../../helpers/side-by-side')
const { okServer } = require('../../helpers/dropin')

// Each warning the process got, one JSON line on stdout, then 'end'.
const SCRIPT = `
  const upstream = require(ARGS.upstream)
  process.on('warning', (w) => console.log(JSON.stringify({ code: w.code, message: w.message })))
  const url = ARGS.url
  const quiet = (o) => ({ ...o, renderProgressBar: false, renderResultsTable: false })
  ;(async () => {
    const cli = ['-a', '20', '-c', '2', '-p', '1', '-t', '3', '-L', '1000', '-m', 'GET', '-H', 'x-a=1', '-T', 'tt', '-x', '--debug', '-l', '--statusCodes', url]
    await autocannon(quiet(upstream.parseArguments(cli)))
    await autocannon(quiet(autocannon.parseArguments(cli)))
    const letters = {}
    for (const k of 'abBcCdDEfFhHiIjlLmMOprRsStTvVwWx') letters[k] = undefined
    await autocannon({ url, amount: 20, connections: 2, ...letters, _: [url], '--': [], latency: false, progress: true, statusCodes: false, header: [], 'on-port': false,
      json: false, renderStatusCodes: false, all: true, harRequests: new Map(), histograms: undefined, warmupRunning: false })
    // autocannon's instance's own opts (its defaults filled in,
    // harRequests, requests): autocannon itself refuses them back
    // (connectionRate: 0 "can not be less than 1"), ours takes them.
    const first = upstream({ url, amount: 20, connections: 2 })
    await first
    if (autocannon !== upstream) await autocannon({ ...first.opts })
    await new Promise((resolve) => setImmediate(resolve))
    console.log('end')
  })()`

t.test('no warning for the keys autocannon\'s parser, code and instances give', async (t) => {
  const url = await okServer(t)
  const { upstream, ours } = await bothScripts(SCRIPT, { args: { url, upstream: require.resolve('autocannon-upstream') } })
  t.equal(upstream.code, 0, upstream.stderr)
  t.equal(ours.code, 0, ours.stderr)
  t.equal(upstream.stdout, 'end\n', 'autocannon: none')
  t.equal(ours.stdout, 'end\n', 'here: none')
  t.notMatch(ours.stderr, /warning/i, 'nothing on stderr either')
})

t.test('a near miss of an option: one warning here, none there', async (t) => {
  const url = await okServer(t)
  const script = `
    process.on('warning', (w) => console.log(JSON.stringify({ code: w.code, message: w.message })))
    ;(async () => {
      await autocannon({ url: ARGS.url, amount: 20, connections: 2, conections: 5 })
      await autocannon({ url: ARGS.url, amount: 20, connections: 2, conections: 5 })
      await new Promise((resolve) => setImmediate(resolve))
      console.log('end')
    })()`
  const { upstream, ours } = await bothScripts(script, { args: { url } })
  t.equal(upstream.stdout, 'end\n', 'autocannon ignores it without a word')
  t.same(ours.stdout.trim().split('\n').map((l) => l === 'end' ? l : JSON.parse(l)), [
    { code: 'AC_UNKNOWN_OPTION', message: 'unknown option "conections" is ignored: did you mean "connections"?' },
    'end'
  ], 'once per process, with the option meant')
})
