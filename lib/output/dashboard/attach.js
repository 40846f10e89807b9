'use strict'

// The `dashboard` option: a server (server.js) of one page that follows
// the run live (live-state.js, live-page.js), started before the run's
// first request and closed when it is over (or kept until the process
// ends, with keepOpen). attach(instance, config) → { listening: a promise
// of the URL, once printed on stderr as `dashboard: URL`, or of the
// error that kept it from listening }. It listens to the instance's
// events only: 'start', 'sample' (one per interval), 'done', and a
// search's 'probe', 'stepStart', 'stepProgress' and 'step'. watch() is
// what the package's entry and the CLI call on each instance they make:
// the engine and the search know nothing of it.

const fs = require('fs')
const path = require('path')
const { DashboardServer } = require('./server')
const { LiveState } = require('./live-state')
const { shell } = require('./shell')
const { renderHtml } = require('../html/report')
const { raise } = require('../../core/errors')
const { maskSecrets } = require('../../core/redact')
const { WARNINGS, warningLine, printWarning } = require('../../core/warnings')
const { LOOPBACK } = require('../../config/dashboard')

const VERSION = require('../../../package.json').version
const UPLOT_DIR = path.join(path.dirname(require.resolve('uplot/package.json')), 'dist')
const LOOPBACKS = new Set([LOOPBACK, 'localhost', '::1', '[::1]'])

function file (name) {
  let text = null
  // Read at the first request for it, then kept.
  return () => {
    if (text === null) text = fs.readFileSync(name, 'utf8')
    return text
  }
}

function routes (heading) {
  const js = 'text/javascript; charset=utf-8'
  const css = 'text/css; charset=utf-8'
  const page = shell({ heading, version: VERSION })
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

function headingOf (config, kind) {
  const url = maskSecrets(Array.isArray(config.url) ? config.url.join(', ') : String(config.url))
  const what = config.title ? maskSecrets(String(config.title)) : url
  return `cannonade: live ${kind === 'search' ? 'capacity search of' : 'run of'} ${what}`
}

// options: { kind: 'run' | 'search', slos, stream }.
function attach (instance, config, { kind = 'run', slos, stream = process.stderr } = {}) {
  const { host, port, keepOpen } = config.dashboard
  if (!LOOPBACKS.has(host)) {
    printWarning('AC_DASHBOARD_NOT_LOOPBACK', `the dashboard listens on ${host}, not on loopback: anyone who reaches its port sees the run (its URLs and figures)`, stream)
  }
  const state = new LiveState(config, { kind, slos })
  const server = new DashboardServer({ host, port, routes: routes(headingOf(config, kind)), state: () => state.state() })

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
    // A new round (-f): its own samples.
    state.reset()
    state.round++
    server.broadcast('state', state.state())
  })
  state.warmUp()
  instance.on('sample', (sample) => {
    const first = state.start === null
    state.sample(sample)
    // Nothing more to do for no page (or none that reads).
    if (!server.readers()) return
    // The first sample makes the charts: a page gets them whole.
    if (first) server.broadcast('state', state.state())
    else server.broadcast('sample', state.sampleEvent())
  })
  if (kind === 'search') {
    instance.on('probe', (probe) => server.broadcast('search', state.probe(probe)))
    instance.on('stepStart', (step) => server.broadcast('search', state.stepStart(step)))
    instance.on('stepProgress', (progress) => server.broadcast('search', state.stepProgress(progress)))
    instance.on('step', (entry) => server.broadcast('search', state.step(entry)))
  }
  // Our warnings, as the CLI prints them, as they happen.
  const onWarning = (w) => {
    if (w && Object.prototype.hasOwnProperty.call(WARNINGS, w.code)) server.broadcast('warning', state.warning(warningLine(w)))
  }
  process.on('warning', onWarning)
  const finish = (value) => {
    let html = null
    try {
      html = renderHtml([value])
    } catch {
      // A raw result (skipAggregateResult) has no report.
    }
    server.finish('done', state.done(html))
    if (keepOpen) stream.write(`dashboard: the report stays at ${server.url} until the process ends (Ctrl-C)\n`)
  }
  // A round of -f is not the end: another follows, until the run stops.
  if (!forever) instance.on('done', finish)

  const close = (value) => {
    process.removeListener('warning', onWarning)
    if (forever && state.final === null && value !== undefined) finish(value)
    if (!keepOpen) return server.close()
  }
  const listening = server.listen().then((url) => {
    stream.write(`dashboard: ${url}\n`)
    instance.emit('dashboard', { url })
    // settled(): an instance given a callback (and -f's) is no promise.
    instance.settled().then(close, () => close())
    return url
  }, (err) => {
    process.removeListener('warning', onWarning)
    throw raise('AC_DASHBOARD_LISTEN', `the dashboard cannot listen on ${host}:${port}`, err.code || err.message)
  })
  return { listening, server, state }
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
