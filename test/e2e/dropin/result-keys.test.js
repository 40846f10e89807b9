'use strict'

// The result and the command's -j line beside autocannon 9's for the same
// run: every key path of autocannon's is in ours with the same type (ours
// adds keys); `workers` as autocannon gives it. With workers, autocannon's
// `samples` adds up the threads' samples: a row of docs/differences.md.

const t = require('tap')
const { bothScripts, bothClis, shape, missingFrom } = require('../../helpers/side-by-side')
const { okServer } = require('../../helpers/dropin')

// The results of `opts` runs, as JSON with the types of the values that
// JSON would turn into strings.
const SCRIPT = `
  const { shape } = require(ARGS.helper)
  ;(async () => {
    const out = []
    for (const opts of ARGS.runs) {
      const result = await autocannon({ url: ARGS.url, ...opts })
      out.push({ shape: shape(result), workers: result.workers === undefined ? 'absent' : result.workers, samples: result.samples })
    }
    console.log(JSON.stringify(out))
  })()`

t.test('the result: every key of autocannon\'s, with its type; workers as given', async (t) => {
  const url = await okServer(t)
  const runs = [{ amount: 200, connections: 2 }, { amount: 100, connections: 2, workers: 0 }, { amount: 100, connections: 2, workers: 2 }]
  const { upstream, ours } = await bothScripts(SCRIPT, { args: { url, runs, helper: require.resolve('../../helpers/side-by-side') } })
  t.equal(upstream.code, 0, upstream.stderr)
  t.equal(ours.code, 0, ours.stderr)
  const theirs = JSON.parse(upstream.stdout)
  const mine = JSON.parse(ours.stdout)
  for (let i = 0; i < runs.length; i++) {
    t.same(missingFrom(theirs[i].shape, mine[i].shape), [], `${JSON.stringify(runs[i])}: nothing of autocannon's missing`)
  }
  t.same(mine.map((r) => r.workers), theirs.map((r) => r.workers), 'workers: absent when not given, else as given (0 too)')
  t.same(mine.map((r) => r.workers), ['absent', 0, 2])

  // With workers, autocannon's samples are each thread's added up (2 for
  // a run of under a second on 2 threads); here the run's sample intervals.
  t.equal(theirs[2].samples, 2 * theirs[1].samples, 'autocannon: one per thread')
  t.equal(mine[2].samples, mine[1].samples, 'here: as without workers')
})

t.test('the -j line: every key of autocannon\'s, with its type, workers 0 included', async (t) => {
  const url = await okServer(t)
  const { upstream, ours } = await bothClis(['-j', '-a', '200', '-c', '2', url])
  t.equal(upstream.code, 0, upstream.stderr)
  t.equal(ours.code, 0, ours.stderr)
  const theirs = JSON.parse(upstream.stdout)
  const mine = JSON.parse(ours.stdout)
  t.same(missingFrom(shape(theirs), shape(mine)), [], 'nothing of autocannon\'s missing')
  t.equal(mine.workers, 0, 'workers: 0, as autocannon\'s command gives it')
  t.equal(theirs.workers, 0)
})
