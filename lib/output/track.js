'use strict'

// track(instance, opts): the "Running ... test @ URL" header, a progress
// bar while the run goes (terminals only), and the result tables when it is
// done. The bar follows the instance's 'tick' events: seconds elapsed for a
// duration run, responses counted for an amount run, workers included, so
// it never needs a per-response listener; on a terminal it carries each
// interval's figures after its percentage (live-line.js, from the
// 'sample' events).

const { raise } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')
const printResult = require('./print-result')
const { protocolOfRun } = require('../protocols/registry')
const { lazy } = require('../core/lazy')
// Lazy: only a bar on a terminal needs them, not a log or CI.
const progress = lazy(() => require('progress'))
const liveLine = lazy(() => require('./live-line'))

const DEFAULTS = {
  outputStream: process.stderr,
  renderProgressBar: true,
  renderResultsTable: true,
  renderLatencyTable: false,
  progressBarString: undefined
}

// The bar's resolution: it moves in hundredths of the run.
const STEPS = 100

function header (config, label) {
  const target = Array.isArray(config.url) ? config.url.join(', ') : config.url
  const socketPath = config.socketPath ? ` (${config.socketPath})` : ''
  const what = config.amount ? `${config.amount} requests` : `${config.duration}s`
  let text = `Running ${what} ${label === 'warmup' ? 'warmup' : 'test'} @ ${target}${socketPath}\n`
  text += config.connectionStages ? `connections ramped by stages: ${rampText(config.connectionStages)}` : `${config.connections} connections`
  const protocol = protocolOfRun(config)
  if (protocol.streams) text += ` over ${protocol.label}${config.pipelining > 1 ? `, ${config.pipelining} streams each` : ''}`
  else if (config.pipelining > 1) text += ` with ${config.pipelining} pipelining factor`
  if (config.workers) text += `\n${config.workers} workers`
  if (config.proxy) text += `\n${proxyLine(config)}`
  return text + '\n'
}

// "30s to 100, 1m to 1000, 30s to 0"
function rampText (stages) {
  return stages.map(({ duration, connections }) => `${duration}s to ${connections}`).join(', ')
}

// Said up front: a run through a proxy measures the proxy too.
function proxyLine (config) {
  const proxies = [...new Set((config.urls || []).filter((t) => t.proxy).map((t) => t.proxy.href))]
  if (proxies.length > 0) return `through proxy ${proxies.join(', ')}`
  return 'no proxy: --proxy env found none for these targets (HTTP_PROXY, HTTPS_PROXY, NO_PROXY)'
}

// progress sizes the bar from `columns`, which is 0 on a terminal of
// unknown size (e.g. under `script`): fall back to 80.
function barStream (stream) {
  return {
    isTTY: true,
    get columns () { return stream.columns || 80 },
    write: (s) => stream.write(s),
    cursorTo: (x) => stream.cursorTo(x),
    clearLine: (dir) => stream.clearLine(dir)
  }
}

function track (instance, opts) {
  if (!instance) throw raise('AC_INVALID_ARGUMENT', upstream('track'))
  opts = Object.assign({}, DEFAULTS, opts)
  const stream = opts.outputStream
  const label = opts.warmupRunning ? 'warmup' : 'running'
  // Taken here, before the run starts, and only for a bar on a terminal (a
  // bar on anything else would just be noise in a log): loaded at 'start',
  // it would delay the run's first requests.
  const ProgressBar = opts.renderProgressBar && stream.isTTY ? progress() : null
  // The bar's figures of the last interval (the run's 'sample' events,
  // which it makes only for a listener): terminals only.
  const progressText = ProgressBar === null ? null : liveLine().progressText
  let live = ''

  let bar = null
  let startedAt = 0
  let responses = 0

  function stopBar () {
    if (bar && !bar.complete) {
      bar.update(1, { live: '' })
    }
    bar = null
  }

  instance.on('start', () => {
    if (!opts.renderProgressBar || !instance.opts) return
    stream.write(header(instance.opts, label) + '\n')
    startedAt = Date.now()
    responses = 0
    if (ProgressBar === null) return
    live = ''
    const format = opts.progressBarString ||
      `${printResult.colorsFor(stream).green(label)} [:bar] :percent:live`
    bar = new ProgressBar(format, {
      width: 20,
      incomplete: ' ',
      total: STEPS,
      clear: true,
      renderThrottle: 0,
      stream: barStream(stream)
    })
    bar.tick(0, { live })
  })

  if (progressText !== null) {
    instance.on('sample', (sample) => {
      if (!bar || !instance.opts) return
      // Its own space before it: the bar's last frame (100%, without
      // it) ends at the percentage.
      live = ` ${progressText(sample, instance.opts)}`
      bar.update(Math.min(ratioNow(), (STEPS - 1) / STEPS), { live })
    })
  }

  // How far the run is: seconds elapsed of its duration, or responses of
  // its amount.
  function ratioNow () {
    const config = instance.opts
    return config.amount ? responses / config.amount : (Date.now() - startedAt) / (config.duration * 1000)
  }

  instance.on('tick', (tick) => {
    if (!bar) return
    if (instance.opts.amount) responses += (tick && tick.counter) || 0
    // Never reach 100% before 'done': a complete bar clears itself.
    bar.update(Math.min(ratioNow(), (STEPS - 1) / STEPS), { live })
  })

  instance.on('done', (result) => {
    stopBar()
    if (opts.renderResultsTable === false) return
    stream.write(printResult(result, opts))
  })

  return instance
}

module.exports = track
module.exports.track = track
module.exports.header = header
