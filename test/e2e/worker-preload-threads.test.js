'use strict'

// What a process asks its worker threads to start first (the CLI: its
// code cache), on real threads of a run against a server: it runs in
// every worker before the worker loads the config, the run or any
// protocol code, with the data the main thread gave, and no longer once
// cleared. The library's default: test/engine/worker-preload.test.js.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const autocannon = require('../..')
const { preloadWorkers } = require('../../lib/engine/worker-preload')
const { httpServer } = require('../helpers/servers')

const LIB = path.join(__dirname, '..', '..', 'lib')

t.test('every worker starts the preload first, with its data', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-preload-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  // Each call writes down which of our modules were loaded at that moment.
  const file = path.join(dir, 'preload.js')
  fs.writeFileSync(file, `
    const fs = require('fs')
    const path = require('path')
    const { threadId } = require('worker_threads')
    exports.startInWorker = (data) => {
      const loaded = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(LIB + path.sep)}))
      fs.writeFileSync(path.join(data.dir, 'thread-' + threadId + '.json'), JSON.stringify({ data, loaded }))
    }
  `)
  const url = await httpServer(t)
  preloadWorkers(file, { dir, tag: 'from the main thread' })
  t.teardown(() => preloadWorkers(null))

  const result = await autocannon({ url, connections: 2, workers: 2, amount: 40 })
  t.equal(result['2xx'], 40)
  const calls = fs.readdirSync(dir).filter((f) => f.startsWith('thread-')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
  t.equal(calls.length, 2, 'once in each worker')
  for (const { data, loaded } of calls) {
    t.same(data, { dir, tag: 'from the main thread' }, 'with the data given')
    t.same(loaded.map((f) => path.relative(LIB, f)), [path.join('engine', 'worker.js')], 'before anything of ours but the worker itself loads')
  }

  preloadWorkers(null)
  for (const f of fs.readdirSync(dir)) if (f.startsWith('thread-')) fs.rmSync(path.join(dir, f))
  const again = await autocannon({ url, connections: 2, workers: 2, amount: 20 })
  t.equal(again['2xx'], 20)
  t.same(fs.readdirSync(dir).filter((f) => f.startsWith('thread-')), [], 'cleared: no worker runs it')
})
