'use strict'

// lib/config: the user's options become one frozen config before anything
// runs. This file checks every option against the table (core/options.js);
// besides it, what the machine allows (limits.js), certificates and keys
// (tls-check.js), the proxy option (proxy.js), and the work done once per
// run before a connection opens (prepare.js: hook files, a form's body,
// a HAR's or a targets file's requests, from form.js, har.js, targets.js
// and by-origin.js).
//
// The one place where options are checked, against the one table of
// options (lib/core/options.js). User options go in once; a frozen config comes
// out, and nothing downstream mutates it or re-derives a default.

const { InvalidOptionError, raise } = require('../core/errors')
const { isToken, checkBody } = require('../core/http-syntax')
const { withScheme, checkUrl, basicAuth, unbracket, hostHeader } = require('../core/url')
const { maskSecrets } = require('../core/redact')
const { UPSTREAM, upstream } = require('../core/upstream-messages')

// Defaults, kinds and help of every option: lib/core/options.js.
const { OPTIONS, DEFAULTS } = require('../core/options')

// How the sends of a rate may be spaced (lib/engine/arrivals.js).
const ARRIVALS = Object.freeze(['uniform', 'poisson'])
const MAX_SEED = 0xffffffff

// An option autocannon also refuses is refused in its words (its users
// compare them); ours follow in err.detail.
const SAID = UPSTREAM.AC_INVALID_OPTION

function fail (option, value, expected, message = SAID[option]) {
  throw new InvalidOptionError(option, value, expected, message)
}

// Accepts numbers and numeric strings ("10"), as the CLI and JSON configs
// hand both; anything else is reported with the option's name.
function toNumber (option, value) {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && value.trim() !== '' && !isNaN(Number(value))) return Number(value)
  return fail(option, value, 'must be a number', option === 'sampleInt' ? SAID.sampleIntFormat : SAID[option])
}

function integer (opts, option, min) {
  const value = opts[option]
  if (value === undefined || value === null) return OPTIONS[option].default
  const n = toNumber(option, value)
  if (!Number.isInteger(n) || n < min) fail(option, value, `must be an integer >= ${min}`)
  return n
}

// 0 means "not set" for the optional limits, as in autocannon.
// (also "0": the CLI and JSON configs hand numbers as strings).
function optionalPositiveInteger (opts, option) {
  const value = opts[option]
  if (value === undefined || value === null || value === false) return 0
  const n = toNumber(option, value)
  if (n === 0) return 0
  if (!Number.isInteger(n) || n < 1) fail(option, value, 'must be a positive integer')
  return n
}

function positiveNumber (opts, option) {
  const value = opts[option]
  if (value === undefined || value === null) return OPTIONS[option].default
  const n = toNumber(option, value)
  if (option === 'sampleInt' && !isFinite(n)) fail(option, value, 'must be a number > 0', SAID.sampleIntFormat)
  if (option === 'sampleInt' && n < 0) fail(option, value, 'must be a number > 0', SAID.sampleIntNegative)
  if (!(n > 0) || !isFinite(n)) fail(option, value, 'must be a number > 0')
  return n
}

function optionalRate (opts, option) {
  const value = opts[option]
  if (value === undefined || value === null || value === false) return 0
  const n = toNumber(option, value)
  if (n === 0) return 0
  if (!(n > 0) || !isFinite(n)) fail(option, value, 'must be a number of requests per second > 0')
  return n
}

// Seconds: a number, a numeric string or a timestring ("10s", "2m",
// "1h30m"). The CLI hands its -d here as typed, so both doors accept and
// refuse the same durations.
function parseDuration (value) {
  if (value === undefined || value === null) return DEFAULTS.duration
  if (typeof value === 'number') {
    if (value < 0) fail('duration', value, 'must be a number of seconds > 0', SAID.durationNegative)
    if (!(value >= 0) || !isFinite(value)) fail('duration', value, 'must be a number of seconds > 0', SAID.durationFormat)
    return value
  }
  if (typeof value === 'string') {
    const s = value.trim()
    if (/^\d+(\.\d+)?$/.test(s)) return Number(s)
    if (/^[\d.]+\s*[a-zA-Z]+(\s*[\d.]+\s*[a-zA-Z]+)*$/.test(s)) {
      try {
        const seconds = require('timestring')(s)
        if (seconds >= 0 && isFinite(seconds)) return seconds
      } catch {}
    }
  }
  const negative = typeof value === 'string' && /^\s*-\d/.test(value)
  return fail('duration', value, 'must be a number of seconds > 0 or a timestring such as "10s" or "2m"',
    negative ? SAID.durationNegative : SAID.durationFormat)
}

// proxyFor(url): the target's proxy (proxy.js), or undefined to go
// direct.
function parseTarget (raw, socketPath, credentials, proxyFor) {
  const url = checkUrl(raw)
  const secure = url.protocol === 'https:'
  // credentials: the Authorization of a URL whose password was redacted
  // (a worker rebuilding its config from the main thread's).
  const auth = credentials || basicAuth(url)
  // Brackets belong in the Host header and URL, not in the address we dial.
  const hostname = unbracket(url.hostname)
  const proxy = proxyFor ? proxyFor(url) : undefined
  return Object.freeze({
    href: maskSecrets(url.href),
    origin: url.origin,
    secure,
    hostname,
    port: Number(url.port) || (secure ? 443 : 80),
    path: (url.pathname || '/') + url.search,
    host: hostHeader(url),
    auth,
    socketPath,
    proxy,
    // An http target through a proxy: its requests are built in absolute
    // form, with the proxy's credentials (an https one is tunnelled).
    absoluteForm: proxy !== undefined && !secure
      ? Object.freeze({ origin: url.origin, proxyAuthorization: proxy.auth })
      : undefined
  })
}

// The checks the table names for options of one kind; the others are
// done below, option by option.
const CHECKS = {
  integer: (opts, option) => integer(opts, option, OPTIONS[option].min),
  count: optionalPositiveInteger,
  positive: positiveNumber,
  rate: optionalRate,
  duration: (opts, option) => parseDuration(opts[option]),
  flag: (opts, option) => !!opts[option],
  fraction,
  slos: (opts, option) => checkExpressions(option, opts[option], { required: true })
}

function byKind (opts, option) {
  return CHECKS[OPTIONS[option].check](opts, option)
}

// One option's value, checked as the table says; its default when it is
// not given and not required. For options checked apart from buildConfig
// (findMaxRate's).
function checkOption (option, value) {
  if ((value === undefined || value === null) && !OPTIONS[option].required) return OPTIONS[option].default
  return byKind({ [option]: value }, option)
}

function fraction (opts, option) {
  const value = opts[option]
  if (value === undefined || value === null) return OPTIONS[option].default
  const n = toNumber(option, value)
  if (!(n > 0 && n < 1)) fail(option, value, 'must be a fraction between 0 and 1, such as 0.02 for 2%')
  return n
}

// The URL as results and output show it: never with its credentials.
function normaliseUrl (raw) {
  return typeof raw === 'string' ? maskSecrets(withScheme(raw)) : raw
}

function isFunctionOrPath (value) {
  return value === undefined || value === null || typeof value === 'function' || typeof value === 'string'
}

function checkHeaders (option, headers) {
  if (headers === undefined || headers === null) return DEFAULTS.headers
  if (typeof headers !== 'object' || Array.isArray(headers)) fail(option, headers, 'must be an object of header names to values')
  return Object.freeze({ ...headers })
}

function checkRequests (requests, inWorkers) {
  if (requests === undefined || requests === null) return undefined
  if (!Array.isArray(requests) || requests.length === 0) fail('requests', requests, 'must be a non-empty array of request objects')
  return Object.freeze(requests.map((r, i) => {
    if (r === null || typeof r !== 'object') fail(`requests[${i}]`, r, 'must be an object')
    for (const hook of ['setupRequest', 'onResponse']) {
      if (!isFunctionOrPath(r[hook])) fail(`requests[${i}].${hook}`, r[hook], 'must be a function (or a file path)', upstream('hook', { hook }))
      if (inWorkers && typeof r[hook] === 'function') {
        fail(`requests[${i}].${hook}`, r[hook], 'must be an absolute file path when workers are used (functions cannot be sent to a worker)', upstream('hook', { hook }))
      }
    }
    const out = { ...r }
    if (r.headers !== undefined) out.headers = checkHeaders(`requests[${i}].headers`, r.headers)
    // null: this entry has no body, whatever the run's body is.
    if (r.body !== undefined) out.body = r.body === null ? null : checkBody(`requests[${i}].body`, r.body)
    if (r.method !== undefined && typeof r.method !== 'string') fail(`requests[${i}].method`, r.method, 'must be a string')
    if (r.path !== undefined && typeof r.path !== 'string') fail(`requests[${i}].path`, r.path, 'must be a string')
    return Object.freeze(out)
  }))
}

// Thresholds, and a search's SLOs, in one grammar: checked once here, so a
// malformed expression is bad input before the run, not a surprise after
// it. `required`: at least one.
function checkExpressions (option, value, { required = false } = {}) {
  const what = option === 'thresholds' ? 'threshold' : 'SLO'
  if ((value === undefined || value === null) && !required) return undefined
  const list = value === undefined || value === null ? [] : typeof value === 'string' ? [value] : value
  if (!Array.isArray(list)) fail(option, value, 'must be an array of expressions such as "p99 < 200ms"')
  if (list.length === 0 && required) fail(option, value, `must list at least one ${what}, such as "p99 < 200ms"`)
  const { parseThreshold } = require('../results/thresholds')
  for (const expression of list) {
    try {
      parseThreshold(expression)
    } catch (err) {
      fail(option, expression, `is not a${what === 'SLO' ? 'n' : ''} ${what}: ${err.why || err.message}`)
    }
  }
  return list.length === 0 ? undefined : Object.freeze(list.slice())
}

// Load stages: [{ duration, rate }], or the CLI's "30s:100,2m:5000,30s:0"
// (each stage ramps from the previous stage's rate to its own).
function checkStages (value) {
  return checkStageList('stages', value, {
    field: 'rate',
    expected: 'must be stages such as "30s:100,2m:5000,30s:0" or [{ duration: 30, rate: 100 }, …] (duration in seconds or a timestring, rate in req/s >= 0)',
    valid: (rate) => rate >= 0 && isFinite(rate),
    none: 'plan no request at all: give at least one stage a rate above 0'
  })
}

// Connection stages: [{ duration, connections }], or "30s:100,1m:1000,30s:0"
// (each stage ramps from the previous stage's count, the first from 0, to
// its own). A stage of 0s is a step: its count at once.
function checkConnectionStages (value) {
  return checkStageList('connectionStages', value, {
    field: 'connections',
    expected: 'must be stages such as "30s:100,1m:1000,30s:0" or [{ duration: 30, connections: 100 }, …] (duration in seconds or a timestring, 0s for a step; connections a whole number >= 0)',
    valid: (n) => Number.isInteger(n) && n >= 0,
    none: 'open no connection at all: give at least one stage a count above 0',
    steps: true
  })
}

function checkStageList (option, value, { field, expected, valid, none, steps = false }) {
  if (value === undefined || value === null) return undefined
  const list = typeof value === 'string'
    ? value.split(',').map((part) => {
      const [duration, target, extra] = part.split(':').map((x) => x.trim())
      if (extra !== undefined || target === undefined || target === '') fail(option, value, expected)
      return { duration, [field]: target }
    })
    : value
  if (!Array.isArray(list) || list.length === 0) fail(option, value, expected)
  const stages = list.map((stage) => {
    if (stage === null || typeof stage !== 'object' || stage.duration === undefined || stage.duration === null) fail(option, value, expected)
    let duration
    if (steps && (stage.duration === 0 || /^\s*0+(\.0*)?\s*(ms|s|m|h)?\s*$/.test(String(stage.duration)))) {
      duration = 0
    } else {
      try {
        duration = parseDuration(stage.duration)
      } catch {
        fail(option, value, expected)
      }
      if (!(duration > 0)) fail(option, value, expected)
    }
    const raw = stage[field]
    const target = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
    if (typeof target !== 'number' || !valid(target)) fail(option, value, expected)
    return Object.freeze({ duration, [field]: target })
  })
  if (stages.every((stage) => stage[field] === 0)) fail(option, value, none)
  if (stages.every((stage) => stage.duration === 0)) fail(option, value, 'last no time at all: give at least one stage a duration')
  return Object.freeze(stages)
}

// ISO 8601 with a zone, or epoch milliseconds: an instant every machine
// reads alike (a time without a zone would be each machine's local time).
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i

function parseStartAt (value, sampleInt, now = Date.now()) {
  if (value === undefined || value === null) return undefined
  const expected = 'must be a time in ISO 8601 with a zone (2030-01-01T12:00:00Z) or epoch milliseconds'
  let at
  if (value instanceof Date) at = value.getTime()
  else if (typeof value === 'number') at = value
  else if (typeof value === 'string' && /^\d+$/.test(value.trim())) at = Number(value.trim())
  else if (typeof value === 'string') {
    const text = value.trim()
    if (!ISO_WITH_ZONE.test(text)) {
      fail('startAt', value, /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(text)
        ? 'has no time zone: add Z (UTC) or an offset such as +02:00, so that every machine reads the same instant'
        : expected)
    }
    at = Date.parse(text)
  }
  if (!Number.isFinite(at)) fail('startAt', value, expected)
  // Allowed up to one interval late: the first sample is then short, but
  // the samples still fall where every other shard's do.
  const late = now - at
  if (late > sampleInt) {
    const seconds = late / 1000
    const ago = seconds < 120
      ? `${seconds.toFixed(1)} s`
      : seconds < 7200
        ? `${Math.round(seconds / 60)} min`
        : seconds < 172800 ? `${Math.round(seconds / 3600)} h` : `${Math.round(seconds / 86400)} days`
    // `date +%s` gives seconds: read as milliseconds, that is 1970.
    const hint = at < 1e11 && at * 1000 > now - sampleInt ? ' (epoch milliseconds are expected, not seconds)' : ''
    fail('startAt', value, `is ${ago} in the past${hint}, more than one sample interval (${sampleInt} ms): give a time in the future`)
  }
  return at
}

// abortAfter: seconds or a timestring, 0 allowed.
function parseAfter (value) {
  try {
    return parseDuration(value)
  } catch {
    return fail('abortAfter', value, 'must be a number of seconds (0 or more) or a timestring such as "10s"')
  }
}

function checkTargets (value) {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || value.trim() === '') fail('targets', value, 'must be the path of a targets file')
  return value
}

function checkOrder (value) {
  if (value === undefined || value === null) return OPTIONS.order.default
  if (value !== 'sequential' && value !== 'random') fail('order', value, 'must be sequential or random')
  return value
}

function checkArrivals (value) {
  if (value === undefined || value === null) return OPTIONS.arrivals.default
  if (!ARRIVALS.includes(value)) fail('arrivals', value, `must be ${ARRIVALS.join(' or ')}`)
  return value
}

// Chosen here when not given, once for the whole run: workers get it with
// the rest of the config, and the result gives it so a run can be replayed.
// Math.random (V8 seeds it from the OS's entropy) rather than crypto's
// randomInt: a seed needs no more, and loading crypto was ~1.5 ms of every
// start.
function checkSeed (value) {
  if (value === undefined || value === null) return Math.floor(Math.random() * (MAX_SEED + 1))
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value
  if (!Number.isInteger(n) || n < 0 || n > MAX_SEED) fail('seed', value, `must be an integer from 0 to ${MAX_SEED}`)
  return n
}

function checkShard (value) {
  if (value === undefined || value === null) return undefined
  const shard = require('../distributed/shard').parseShard(value)
  if (shard === null) fail('shard', value, 'must be { index, count } (or "I/N") with 0 <= index < count: indexes are 0-based, as a Kubernetes Indexed Job numbers its pods')
  return Object.freeze(shard)
}

function buildConfig (opts, { callbackGiven = false } = {}) {
  if (opts === null || typeof opts !== 'object') {
    throw new InvalidOptionError('opts', opts, 'must be an object with at least a url')
  }
  const rawUrls = Array.isArray(opts.url) ? opts.url : (opts.url === undefined ? [] : [opts.url])
  if (rawUrls.length === 0 || opts.url === '') fail('url', opts.url, 'is required (a string or an array of strings)', SAID.urlMissing)
  if (rawUrls.some((u) => typeof u !== 'string')) fail('url', opts.url, 'must be a string or an array of strings', SAID.urlType)
  const socketPath = opts.socketPath
  if (socketPath !== undefined && (typeof socketPath !== 'string' || socketPath === '')) {
    fail('socketPath', socketPath, 'must be a path string')
  }
  let proxy
  if (opts.proxy !== undefined && opts.proxy !== null && opts.proxy !== false) {
    if (socketPath !== undefined) {
      throw raise('AC_CONFLICTING_OPTIONS', 'socketPath and proxy cannot be used together: a proxy is reached over TCP (use one of them)')
    }
    proxy = require('./proxy').proxySetting(opts.proxy, opts.proxyCredentials || undefined)
  }
  const credentials = Array.isArray(opts.urlCredentials) ? opts.urlCredentials : []
  const urls = Object.freeze(rawUrls.map((u, i) => parseTarget(u, socketPath, credentials[i] || undefined, proxy && proxy.forTarget)))
  const url = Array.isArray(opts.url) ? Object.freeze(opts.url.map(normaliseUrl)) : normaliseUrl(opts.url)

  const workers = byKind(opts, 'workers')
  const method = opts.method === undefined ? (opts.form ? 'POST' : DEFAULTS.method) : opts.method
  if (typeof method !== 'string' || !isToken(method)) {
    fail('method', method, 'must be an HTTP method such as GET or POST', upstream('method', { method }))
  }

  for (const hook of ['setupClient', 'verifyBody']) {
    if (!isFunctionOrPath(opts[hook])) fail(hook, opts[hook], 'must be a function (or a file path)', upstream('hook', { hook }))
    if (workers && typeof opts[hook] === 'function') {
      fail(hook, opts[hook], 'must be an absolute file path when workers are used (functions cannot be sent to a worker)', upstream('hook', { hook }))
    }
  }

  const config = {
    url,
    urls,
    // Set only when a URL had credentials: what `url` no longer shows, for
    // workers that rebuild the targets from `url`.
    urlCredentials: rawUrls.some((u) => normaliseUrl(u) !== withScheme(u))
      ? Object.freeze(urls.map((u) => u.auth || null))
      : undefined,
    socketPath,
    workers,
    connections: byKind(opts, 'connections'),
    duration: byKind(opts, 'duration'),
    amount: byKind(opts, 'amount'),
    sampleInt: byKind(opts, 'sampleInt'),
    timeout: byKind(opts, 'timeout'),
    pipelining: byKind(opts, 'pipelining'),
    http2: byKind(opts, 'http2'),
    bailout: byKind(opts, 'bailout'),
    method,
    title: opts.title === undefined || opts.title === null ? undefined : String(opts.title),
    body: checkBody('body', opts.body),
    form: opts.form,
    headers: checkHeaders('headers', opts.headers),
    initialContext: opts.initialContext,
    setupClient: opts.setupClient || undefined,
    verifyBody: opts.verifyBody || undefined,
    maxConnectionRequests: byKind(opts, 'maxConnectionRequests'),
    maxOverallRequests: byKind(opts, 'maxOverallRequests'),
    connectionRate: byKind(opts, 'connectionRate'),
    overallRate: byKind(opts, 'overallRate'),
    stages: checkStages(opts.stages),
    connectionStages: checkConnectionStages(opts.connectionStages),
    // This thread's part of a ramp's connections: [index, count] of each
    // split (shards, then workers), applied in turn (connection-ramp.js).
    connectionShares: opts.connectionShares || undefined,
    arrivals: checkArrivals(opts.arrivals),
    seed: checkSeed(opts.seed),
    // Where this part of the run sends from (arrivals.js mixes them into
    // the seed): set for a worker by workers.js, and for a shard below.
    workerIndex: opts.workerIndex || 0,
    // How many workers share this part of the run (set in each worker): with
    // workerIndex, what makes {{seq}} unique across them.
    workersOfShard: opts.workersOfShard || 0,
    shardIndex: opts.shardIndex || 0,
    ignoreCoordinatedOmission: byKind(opts, 'ignoreCoordinatedOmission'),
    reconnectRate: byKind(opts, 'reconnectRate'),
    requests: checkRequests(opts.requests, workers > 0),
    har: opts.har,
    targets: checkTargets(opts.targets),
    order: checkOrder(opts.order),
    idReplacement: byKind(opts, 'idReplacement'),
    forever: byKind(opts, 'forever'),
    servername: opts.servername,
    excludeErrorStats: byKind(opts, 'excludeErrorStats'),
    expectBody: opts.expectBody,
    tlsOptions: opts.tlsOptions,
    skipAggregateResult: byKind(opts, 'skipAggregateResult'),
    maxBodySize: byKind(opts, 'maxBodySize'),
    thresholds: checkExpressions('thresholds', opts.thresholds),
    abortOnFail: byKind(opts, 'abortOnFail'),
    abortAfter: opts.abortAfter === undefined || opts.abortAfter === null ? 0 : parseAfter(opts.abortAfter),
    // As output shows it: credentials masked, or "env".
    proxy: proxy ? proxy.shown : undefined,
    // The masked password's Proxy-Authorization, for workers that rebuild
    // their config from this one (as urlCredentials).
    proxyCredentials: proxy ? proxy.credentials : undefined,
    shard: checkShard(opts.shard),
    startAt: undefined,
    debug: byKind(opts, 'debug')
  }
  config.startAt = parseStartAt(opts.startAt, config.sampleInt)

  if (config.servername !== undefined && typeof config.servername !== 'string') {
    fail('servername', config.servername, 'must be a string')
  }
  if (config.tlsOptions !== undefined && (config.tlsOptions === null || typeof config.tlsOptions !== 'object')) {
    fail('tlsOptions', config.tlsOptions, 'must be an object of tls.connect options')
  }
  if (config.expectBody !== undefined && typeof config.expectBody !== 'string') {
    fail('expectBody', config.expectBody, 'must be a string')
  }
  if (config.initialContext !== undefined && (config.initialContext === null || typeof config.initialContext !== 'object')) {
    fail('initialContext', config.initialContext, 'must be an object')
  }
  if (config.stages) {
    if (config.connectionRate) throw raise('AC_CONFLICTING_OPTIONS', 'stages and connectionRate (-r) cannot be used together: stages plan the overall rate (-R sets the rate the first stage ramps from)')
    if (config.amount) throw raise('AC_CONFLICTING_OPTIONS', 'stages and amount (-a) cannot be used together: the stages set how long the run lasts')
    // The stages are the run's length.
    config.duration = config.stages.reduce((total, stage) => total + stage.duration, 0)
  }
  if (config.connectionStages) {
    const rated = config.overallRate ? 'overallRate (-R)' : config.connectionRate ? 'connectionRate (-r)' : config.stages ? 'stages' : null
    if (rated) throw raise('AC_CONFLICTING_OPTIONS', `connectionStages and ${rated} cannot be used together: connection stages ramp a closed loop (each connection sends again when answered); ramp a rate with stages`)
    if (config.amount) throw raise('AC_CONFLICTING_OPTIONS', 'connectionStages and amount (-a) cannot be used together: the stages set how long the run lasts')
    config.duration = config.connectionStages.reduce((total, stage) => total + stage.duration, 0)
    // The most connections the ramp ever holds: what is built.
    if (!opts.connectionShares) config.connections = Math.max(...config.connectionStages.map((stage) => stage.connections))
  }
  // Before the checks of workers: a shard's workers divide its part.
  if (config.shard) Object.assign(config, require('../distributed/shard').shardPart(config, config.shard))
  if (config.shard) config.shardIndex = config.shard.index
  if (config.arrivals !== 'uniform' && !config.connectionRate && !config.overallRate && !config.stages) {
    fail('arrivals', config.arrivals, 'spaces the sends of a rate: give overallRate (-R), connectionRate (-r) or stages with it')
  }
  if (config.ignoreCoordinatedOmission && !config.connectionRate && !config.overallRate && !config.stages) {
    fail('ignoreCoordinatedOmission', true, 'makes no sense without connectionRate, overallRate or stages', SAID.ignoreCoordinatedOmission)
  }
  if (config.abortOnFail && !config.thresholds) {
    fail('abortOnFail', true, 'needs thresholds to hold the run to (--threshold \'p99 < 200ms\')')
  }
  if (config.forever && callbackGiven) {
    fail('forever', true, 'cannot be used with a callback: listen to the "done" event instead', SAID.foreverCallback)
  }
  if (config.forever && config.workers) {
    fail('forever', true, 'is not supported together with workers', SAID.foreverWorkers)
  }
  if (config.duration === 0 && !config.amount) {
    fail('duration', opts.duration, 'must be a number of seconds > 0 (or set amount to run a number of requests)')
  }
  if (config.targets !== undefined && (config.har || config.requests)) {
    throw raise('AC_CONFLICTING_OPTIONS', `targets and ${config.har ? 'har' : 'requests'} cannot be used together: each one is the requests to send (use one)`)
  }
  if (opts.body !== undefined && opts.body !== null && opts.form !== undefined && opts.form !== null) {
    throw raise('AC_CONFLICTING_OPTIONS', 'body and form cannot be used together: the form is the body (use one of them)')
  }
  if (config.amount && config.connections > config.amount) {
    fail('connections', config.connections, `is more than amount (${config.amount}): each connection makes at least one request`, SAID.connectionsOverAmount)
  }
  // As autocannon: each worker runs at least one connection, and at
  // least one request of an amount (limits.js warns of both).
  if (config.workers > config.connections) {
    config.connectionsAsked = config.connections
    config.connections = config.workers
  }
  if (config.workers && config.amount && config.amount < config.workers) {
    config.amountAsked = config.amount
    config.amount = config.workers
  }
  if (config.tlsOptions) require('./tls-check').checkTlsOptions(config.tlsOptions)
  if (config.http2) {
    // An HTTP proxy forwards HTTP/1.1 requests: h2c cannot go through one
    // (https targets tunnel through CONNECT, and h2 goes in the tunnel).
    const plainProxied = config.urls.find((u) => !u.secure && u.proxy !== undefined)
    if (plainProxied) throw raise('AC_CONFLICTING_OPTIONS', `http2 and proxy cannot be used together for ${plainProxied.origin}: HTTP/2 in clear text (h2c) cannot go through an HTTP proxy; use an https:// target, whose connections tunnel through the proxy with CONNECT`)
  }

  return Object.freeze(config)
}

module.exports = { buildConfig, checkOption, parseDuration, parseStartAt }
