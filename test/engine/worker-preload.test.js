'use strict'

// What a process asks its worker threads to start first (the CLI: its
// code cache): the library asks for nothing. That it runs in every worker
// before the worker loads the config, the run or any protocol code, with
// the data the main thread gave, on real threads of a run against a
// server: test/e2e/worker-preload-threads.test.js.

const t = require('tap')
const { workerPreload } = require('../../lib/engine/worker-preload')

t.test('the library preloads nothing in its workers', async (t) => {
  t.equal(workerPreload(), null)
})
