'use strict'

// The dashboard's own thread: its server (server.js) and what it knows of
// the run (live-state.js), apart from the thread that sends the
// requests. What a sample costs the dashboard (its chart rows, the
// latency by percentile, the JSON, the writes to each page, and the
// garbage of all that) is spent here, on this thread's own heap: the run's
// thread only posts each event (attach.js). workerData: { live (the
// run's settings live-state.js reads), kind, slos, heading, host, port,
// version }.
//
// Messages in: { type: 'round' } (a new round of -f), 'sample', 'probe',
// 'stepStart', 'stepProgress', 'step' (each with `data`), 'warning' (a
// line), 'done' (the report's HTML, or null), 'close' (end, once what
// was sent is taken or a grace has passed), 'stats'. Messages out:
// { type: 'listening', url }, { type: 'failed', code } (it could not
// listen), { type: 'stats', clients, mostBuffered, heapUsed (this
// thread's heap) } (when asked, and last of all).

const fs = require('fs')
const path = require('path')
const { parentPort, workerData } = require('worker_threads')
const { DashboardServer } = require('./server')
const { LiveState } = require('./live-state')
const { shell } = require('./shell')

const UPLOT_DIR = path.join(path.dirname(require.resolve('uplot/package.json')), 'dist')

function file (name) {
  let text = null
  // Read at the first request for it, then kept.
  return () => {
    if (text === null) text = fs.readFileSync(name, 'utf8')
    return text
  }
}

function routes (heading, version) {
  const js = 'text/javascript; charset=utf-8'
  const css = 'text/css; charset=utf-8'
  const page = shell({ heading, version })
  return {
    '/': { type: 'text/html; charset=utf-8', body: () => page },
    '/assets/uPlot.iife.min.js': { type: js, body: file(path.join(UPLOT_DIR, 'uPlot.iife.min.js')) },
    '/assets/uPlot.min.css': { type: css, body: file(path.join(UPLOT_DIR, 'uPlot.min.css')) },
    '/assets/page.js': { type: js, body: file(path.join(__dirname, '..', 'html', 'page.js')) },
    '/assets/page.css': { type: css, body: file(path.join(__dirname, '..', 'html', 'page.css')) },
    '/assets/live-page.js': { type: js, body: file(path.join(__dirname, 'live-page.js')) },
    '/assets/live-page.css': { type: css, body: file(path.join(__dirname, 'live-page.css')) }
  }
}

const { live, kind, slos, heading, host, port, version } = workerData
const state = new LiveState(live, { kind, slos })
const server = new DashboardServer({ host, port, routes: routes(heading, version), state: () => state.state() })
// The most bytes that waited for one page, at any event: what a page
// that does not read costs the process.
let mostBuffered = 0

function broadcast (name, data) {
  server.broadcast(name, data)
  for (const client of server.clients) mostBuffered = Math.max(mostBuffered, client.res.writableLength)
}

const handlers = {
  round () {
    // A new round (-f): its own samples.
    state.reset()
    state.round++
    broadcast('state', state.state())
  },
  sample ({ data }) {
    const first = state.start === null
    // (A packed histogram arrives as a Uint8Array, which it reads as is.)
    state.sample(data)
    // Nothing more to do for no page (or none that reads).
    if (!server.readers()) return
    // The first sample makes the charts: a page gets them whole.
    if (first) broadcast('state', state.state())
    else broadcast('sample', state.sampleEvent())
  },
  probe ({ data }) { broadcast('search', state.probe(data)) },
  stepStart ({ data }) { broadcast('search', state.stepStart(data)) },
  stepProgress ({ data }) { broadcast('search', state.stepProgress(data)) },
  step ({ data }) { broadcast('search', state.step(data)) },
  warning ({ line }) { broadcast('warning', state.warning(line)) },
  done ({ html, latency, latencyUncorrected }) {
    // The latency by percentile of the whole run, then the report.
    const end = server.readers() ? state.endEvent(latency, latencyUncorrected) : null
    if (end !== null) broadcast('percentiles', end)
    server.finish('done', state.done(html))
  },
  close () {
    // The thread ends once its server has (the port closed), its last
    // figures told.
    server.close().then(() => {
      stats()
      parentPort.close()
    })
  },
  stats
}

function stats () {
  parentPort.postMessage({ type: 'stats', clients: server.clients.size, mostBuffered, heapUsed: process.memoryUsage().heapUsed })
}

parentPort.on('message', (message) => handlers[message.type](message))
server.listen().then(
  (url) => parentPort.postMessage({ type: 'listening', url }),
  (err) => parentPort.postMessage({ type: 'failed', code: err.code || err.message })
)
