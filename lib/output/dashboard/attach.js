'use strict'

// The `dashboard` option: a server of one page that follows the run live,
// on a thread of its own (thread.js: server.js, live-state.js,
// live-page.js), started before the run's first request and closed when
// it is over (or kept until the process ends, with keepOpen). What the
// dashboard does with a sample (its charts, its JSON, its writes, their
// garbage) is thus never a pause of the thread that sends the requests:
// that thread posts each event, nothing more.
//
// attach(instance, config) → { listening: a promise of the URL, once
// printed on stderr as `dashboard: URL`, or of the error that kept it
// from listening; stats(): a promise of the thread's { clients,
// mostBuffered (the most bytes that waited for one page), heapUsed (its
// heap) }, as it last told them once it has ended; worker }. It listens
// to the instance's events only: 'start', 'sample' (one per interval),
// 'done', and a search's 'probe', 'stepStart', 'stepProgress' and 'step'.
// watch() is what the package's entry and the CLI call on each instance
// they make: the engine and the search know nothing of it.

const path = require('path')
const { Worker } = require('worker_threads')
const { renderHtml } = require('../html/report')
const { raise } = require('../../core/errors')
const { maskSecrets } = require('../../core/redact')
const { WARNINGS, warningLine, printWarning } = require('../../core/warnings')
const { LOOPBACK } = require('../../config/dashboard')

const VERSION = require('../../../package.json').version
const THREAD_FILE = path.join(__dirname, 'thread.js')
const LOOPBACKS = new Set([LOOPBACK, 'localhost', '::1', '[::1]'])
// What live-state.js reads of the run's config: plain values, which the
// thread gets a copy of (the config's functions stay here).
const LIVE_KEYS = ['url', 'title', 'overallRate', 'connectionRate', 'stages', 'connectionStages', 'ignoreCoordinatedOmission', 'amount', 'forever', 'duration', 'sampleInt']

function headingOf (config, kind) {
  const url = maskSecrets(Array.isArray(config.url) ? config.url.join(', ') : String(config.url))
  const what = config.title ? maskSecrets(String(config.title)) : url
  return `cannonade: live ${kind === 'search' ? 'capacity search of' : 'run of'} ${what}`
}

function liveSettings (config) {
  const live = {}
  for (const key of LIVE_KEYS) if (config[key] !== undefined) live[key] = config[key]
  // A copy of plain data: what cannot be copied (a function) is left out.
  return JSON.parse(JSON.stringify(live))
}

// An event's data to the thread: as it is, or (should it hold what a
// thread cannot be given, a function) its JSON.
function post (worker, type, data) {
  try {
    worker.postMessage({ type, data })
  } catch {
    worker.postMessage({ type, data: JSON.parse(JSON.stringify(data)) })
  }
}

// options: { kind: 'run' | 'search', slos, stream }.
function attach (instance, config, { kind = 'run', slos, stream = process.stderr } = {}) {
  const { host, port, keepOpen } = config.dashboard
  if (!LOOPBACKS.has(host)) {
    printWarning('AC_DASHBOARD_NOT_LOOPBACK', `the dashboard listens on ${host}, not on loopback: anyone who reaches its port sees the run (its URLs and figures)`, stream)
  }
  const worker = new Worker(THREAD_FILE, {
    workerData: { live: liveSettings(config), kind, slos: slos === undefined ? undefined : JSON.parse(JSON.stringify(slos)), heading: headingOf(config, kind), host, port, version: VERSION },
    stdout: false,
    stderr: false
  })
  let gone = false
  let failure = null
  const asked = []
  // The thread's figures as it last told them (it tells them as it ends).
  let told = { clients: 0, mostBuffered: 0, heapUsed: 0 }
  worker.on('message', (message) => {
    if (message.type !== 'stats') return
    told = { clients: message.clients, mostBuffered: message.mostBuffered, heapUsed: message.heapUsed }
    asked.splice(0).forEach((resolve) => resolve(told))
  })
  const send = (type, data) => {
    if (!gone) post(worker, type, data)
  }

  // -f: round after round until the run is stopped, each a 'start' and a
  // 'done'. The page follows each; the report at the end is the last
  // round's, the run's result.
  const forever = kind === 'run' && !!config.forever
  let started = false
  instance.on('start', () => {
    if (kind !== 'run') return
    if (!started) {
      started = true
      return
    }
    send('round')
  })
  instance.on('sample', (sample) => send('sample', sample))
  if (kind === 'search') {
    for (const name of ['probe', 'stepStart', 'stepProgress', 'step']) instance.on(name, (data) => send(name, data))
  }
  // Our warnings, as the CLI prints them, as they happen.
  const onWarning = (w) => {
    if (!gone && w && Object.prototype.hasOwnProperty.call(WARNINGS, w.code)) worker.postMessage({ type: 'warning', line: warningLine(w) })
  }
  process.on('warning', onWarning)
  let finished = false
  let url = null
  const finish = (value) => {
    finished = true
    let html = null
    let histograms = {}
    try {
      html = renderHtml([value])
      histograms = value.histograms || {}
    } catch {
      // A raw result (skipAggregateResult) has no report.
    }
    if (!gone) worker.postMessage({ type: 'done', html, latency: histograms.latency, latencyUncorrected: histograms.latencyUncorrected })
    if (keepOpen) stream.write(`dashboard: the report stays at ${url} until the process ends (Ctrl-C)\n`)
  }
  // A round of -f is not the end: another follows, until the run stops.
  if (!forever) instance.on('done', finish)

  const close = (value) => {
    process.removeListener('warning', onWarning)
    if (forever && !finished && value !== undefined) finish(value)
    if (!keepOpen && !gone) worker.postMessage({ type: 'close' })
  }
  const listening = new Promise((resolve, reject) => {
    worker.on('message', (message) => {
      if (message.type === 'listening') resolve(message.url)
      if (message.type === 'failed') {
        failure = message.code
        worker.terminate()
        reject(new Error(message.code))
      }
    })
    // The thread's own failure is the dashboard's end, never the run's.
    worker.on('error', (err) => {
      failure = failure || err.code || err.message
      if (url !== null) stream.write(`dashboard: stopped (${maskSecrets(String(err.message))}); the run goes on\n`)
      reject(err)
    })
    worker.on('exit', () => {
      gone = true
      asked.splice(0).forEach((resolve) => resolve(told))
      reject(new Error(failure || 'the dashboard\'s thread ended'))
    })
  }).then((at) => {
    url = at
    stream.write(`dashboard: ${url}\n`)
    instance.emit('dashboard', { url })
    // settled(): an instance given a callback (and -f's) is no promise.
    instance.settled().then(close, () => close())
    return url
  }, (err) => {
    process.removeListener('warning', onWarning)
    throw raise('AC_DASHBOARD_LISTEN', `the dashboard cannot listen on ${host}:${port}`, failure || err.code || err.message)
  })
  const stats = () => new Promise((resolve) => {
    if (gone) return resolve(told)
    asked.push(resolve)
    worker.postMessage({ type: 'stats' })
  })
  return { listening, stats, worker }
}

// The dashboard of a run (autocannon()'s instance) or of a search
// (findMaxRate()'s), when its options ask for one: attached, and the run
// held until it listens. → attach()'s answer, or null.
function watch (instance, kind = 'run') {
  const opts = instance.opts
  const config = opts === null ? null : kind === 'search' ? opts.watched : opts
  if (!config || !config.dashboard) return null
  const watched = attach(instance, config, { kind, slos: opts.slos })
  instance.startAfter.push(watched.listening)
  return watched
}

module.exports = { attach, watch }
