'use strict'

// buildConfig(opts): the user's options → one frozen config. Every option
// is checked against the one table of options (lib/core/options.js): each
// value by its kind (values.js), the stages (stages.js), the start time
// (start-at.js), the rules between options (rules.js); each target is
// parsed once, its protocol decided once; then the part of the run this
// process sends is taken (split.js: a shard's, then the workers'). Nothing
// downstream mutates the config or re-derives a default.

const { InvalidOptionError } = require('../core/errors')
const { isToken, headerProblem, checkBody } = require('../core/http-syntax')
const { withScheme, checkUrl, basicAuth, unbracket, hostHeader } = require('../core/url')
const { maskSecrets } = require('../core/redact')
const { upstream } = require('../core/upstream-messages')
const { OPTIONS, DEFAULTS } = require('../core/options')
const { SAID, fail, checkByTable, checkOption, parseDuration, checkExpressions } = require('./values')
const { checkRules, checkRefusals } = require('./rules')
const { SCHEMES, chooseProtocol } = require('../protocols/registry')
const { lazy } = require('../core/lazy')
// Lazy: each only when its option (at the right) is given, which most
// runs do not.
const shard = lazy(() => require('./shard')) // shard
const split = lazy(() => require('./split')) // shard or workers
const proxy = lazy(() => require('./proxy')) // proxy
const stages = lazy(() => require('./stages')) // stages, connectionStages
const startAt = lazy(() => require('./start-at')) // startAt
const tlsCheck = lazy(() => require('./tls-check')) // tlsOptions
const templates = lazy(() => require('../client/templates')) // a URL with {{…}}
const dashboard = lazy(() => require('./dashboard')) // dashboard

// How the sends of a rate may be spaced (lib/engine/arrivals.js).
const ARRIVALS = Object.freeze(['uniform', 'poisson'])
const MAX_SEED = 0xffffffff

// proxyFor(url): the target's proxy (proxy.js), or undefined to go
// direct. protocol: the descriptor of what its connections speak
// (lib/protocols/registry.js), decided here once for the transport, the
// check before the run and the run's client alike: the target keeps its
// name (protocolName, which the registry gives back the descriptor by),
// the ALPN ids its TLS connections offer, and whether its requests may go
// to an HTTP proxy in clear text.
function parseTarget (raw, socketPath, proxyFor, protocol) {
  const url = checkUrl(raw, SCHEMES)
  const secure = url.protocol === 'https:'
  // Brackets belong in the Host header and URL, not in the address we dial.
  const hostname = unbracket(url.hostname)
  const proxy = proxyFor ? proxyFor(url) : undefined
  return Object.freeze({
    href: maskSecrets(url.href),
    origin: url.origin,
    secure,
    protocolName: protocol.name,
    alpn: protocol.tlsAlpn,
    clearProxy: protocol.clearProxy,
    hostname,
    port: Number(url.port) || (secure ? 443 : 80),
    path: raw.includes('{{') ? templates().urlPath(withScheme(raw)) : (url.pathname || '/') + url.search,
    host: hostHeader(url),
    auth: basicAuth(url),
    socketPath,
    proxy,
    // An http target through a proxy: its requests are built in absolute
    // form, with the proxy's credentials (an https one is tunnelled).
    absoluteForm: proxy !== undefined && !secure
      ? Object.freeze({ origin: url.origin, proxyAuthorization: proxy.auth })
      : undefined
  })
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
  // Named, never shown: a header's value may be a credential.
  for (const name of Object.keys(headers)) {
    const problem = headerProblem(name, headers[name])
    if (problem !== null) fail(option, name, problem)
  }
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
    if (r.method !== undefined && !isToken(r.method)) fail(`requests[${i}].method`, r.method, 'must be an HTTP method such as GET or POST')
    if (r.path !== undefined && typeof r.path !== 'string') fail(`requests[${i}].path`, r.path, 'must be a string')
    return Object.freeze(out)
  }))
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
// randomInt: a seed needs no more, and a plain run loads no crypto.
function checkSeed (value) {
  if (value === undefined || value === null) return Math.floor(Math.random() * (MAX_SEED + 1))
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value
  if (!Number.isInteger(n) || n < 0 || n > MAX_SEED) fail('seed', value, `must be an integer from 0 to ${MAX_SEED}`)
  return n
}

function checkShard (value) {
  if (value === undefined || value === null) return undefined
  const parsed = shard().parseShard(value)
  if (parsed === null) fail('shard', value, 'must be { index, count } (or "I/N") with 0 <= index < count: indexes are 0-based, as a Kubernetes Indexed Job numbers its pods')
  return Object.freeze(parsed)
}

// Options whose value is only checked for its type.
const TYPED = [
  ['servername', (v) => typeof v === 'string', 'must be a string'],
  ['tlsOptions', (v) => v !== null && typeof v === 'object', 'must be an object of tls.connect options'],
  ['expectBody', (v) => typeof v === 'string', 'must be a string'],
  ['initialContext', (v) => v !== null && typeof v === 'object', 'must be an object']
]

function checkTyped (opts) {
  for (const [option, ok, expected] of TYPED) {
    if (opts[option] !== undefined && !ok(opts[option])) fail(option, opts[option], expected)
  }
}

function checkUrls (opts) {
  const rawUrls = Array.isArray(opts.url) ? opts.url : (opts.url === undefined ? [] : [opts.url])
  if (rawUrls.length === 0 || opts.url === '') fail('url', opts.url, 'is required (a string or an array of strings)', SAID.urlMissing)
  if (rawUrls.some((u) => typeof u !== 'string')) fail('url', opts.url, 'must be a string or an array of strings', SAID.urlType)
  return rawUrls
}

function checkMethod (opts) {
  const method = opts.method === undefined ? (opts.form ? 'POST' : DEFAULTS.method) : opts.method
  if (typeof method !== 'string' || !isToken(method)) {
    fail('method', method, 'must be an HTTP method such as GET or POST', upstream('method', { method }))
  }
  return method
}

function checkHooks (opts, workers) {
  for (const hook of ['setupClient', 'verifyBody']) {
    if (!isFunctionOrPath(opts[hook])) fail(hook, opts[hook], 'must be a function (or a file path)', upstream('hook', { hook }))
    if (workers && typeof opts[hook] === 'function') {
      fail(hook, opts[hook], 'must be an absolute file path when workers are used (functions cannot be sent to a worker)', upstream('hook', { hook }))
    }
  }
}

function buildConfig (opts, { callbackGiven = false } = {}) {
  if (opts === null || typeof opts !== 'object') {
    throw new InvalidOptionError('opts', opts, 'must be an object with at least a url')
  }
  // The run's protocol, chosen once from the options that choose one
  // (http2, a gRPC call): everything after asks its descriptor, by
  // protocolName. One that makes its requests from options of its own
  // (gRPC: the call) turns them into the run's requests first.
  const http2 = checkByTable(opts, 'http2')
  const protocol = chooseProtocol({ ...opts, http2 })
  if (protocol.prepare) opts = protocol.prepare(opts)
  const rawUrls = checkUrls(opts)
  const socketPath = opts.socketPath
  if (socketPath !== undefined && (typeof socketPath !== 'string' || socketPath === '')) {
    fail('socketPath', socketPath, 'must be a path string')
  }
  const proxied = opts.proxy !== undefined && opts.proxy !== null && opts.proxy !== false
    ? proxy().proxySetting(opts.proxy)
    : undefined
  const urls = Object.freeze(rawUrls.map((u) => parseTarget(u, socketPath, proxied && proxied.forTarget, protocol)))
  const workers = checkByTable(opts, 'workers')
  checkHooks(opts, workers)

  let config = {
    url: Array.isArray(opts.url) ? Object.freeze(opts.url.map(normaliseUrl)) : normaliseUrl(opts.url),
    urls,
    socketPath,
    workers,
    connections: checkByTable(opts, 'connections'),
    duration: checkByTable(opts, 'duration'),
    amount: checkByTable(opts, 'amount'),
    sampleInt: checkByTable(opts, 'sampleInt'),
    timeout: checkByTable(opts, 'timeout'),
    pipelining: checkByTable(opts, 'pipelining'),
    // What the run speaks: its descriptor's name.
    protocolName: protocol.name,
    bailout: checkByTable(opts, 'bailout'),
    method: checkMethod(opts),
    title: opts.title === undefined || opts.title === null ? undefined : String(opts.title),
    body: checkBody('body', opts.body),
    form: opts.form,
    headers: checkHeaders('headers', opts.headers),
    initialContext: opts.initialContext,
    setupClient: opts.setupClient || undefined,
    verifyBody: opts.verifyBody || undefined,
    maxConnectionRequests: checkByTable(opts, 'maxConnectionRequests'),
    maxOverallRequests: checkByTable(opts, 'maxOverallRequests'),
    connectionRate: checkByTable(opts, 'connectionRate'),
    overallRate: checkByTable(opts, 'overallRate'),
    stages: given(opts.stages) ? stages().checkStages(opts.stages) : undefined,
    connectionStages: given(opts.connectionStages) ? stages().checkConnectionStages(opts.connectionStages) : undefined,
    // This thread's part of a ramp's connections: [index, count] of each
    // split (shards, then workers), applied in turn (connection-ramp.js).
    connectionShares: undefined,
    arrivals: checkArrivals(opts.arrivals),
    seed: checkSeed(opts.seed),
    // Where this part of the run sends from (arrivals.js mixes them into
    // the seed, template.js makes {{seq}} unique with them): set by the
    // split into shards and workers (split.js).
    workerIndex: 0,
    workersOfShard: 0,
    shardIndex: 0,
    ignoreCoordinatedOmission: checkByTable(opts, 'ignoreCoordinatedOmission'),
    reconnectRate: checkByTable(opts, 'reconnectRate'),
    requests: checkRequests(opts.requests, workers > 0),
    har: opts.har,
    targets: checkTargets(opts.targets),
    order: checkOrder(opts.order),
    idReplacement: checkByTable(opts, 'idReplacement'),
    forever: checkByTable(opts, 'forever'),
    servername: opts.servername,
    excludeErrorStats: checkByTable(opts, 'excludeErrorStats'),
    expectBody: opts.expectBody,
    tlsOptions: opts.tlsOptions,
    skipAggregateResult: checkByTable(opts, 'skipAggregateResult'),
    maxBodySize: checkByTable(opts, 'maxBodySize'),
    thresholds: checkExpressions('thresholds', opts.thresholds),
    abortOnFail: checkByTable(opts, 'abortOnFail'),
    abortAfter: opts.abortAfter === undefined || opts.abortAfter === null ? 0 : parseAfter(opts.abortAfter),
    // As output shows it: credentials masked, or "env".
    proxy: proxied ? proxied.shown : undefined,
    shard: checkShard(opts.shard),
    startAt: undefined,
    debug: checkByTable(opts, 'debug'),
    dashboard: given(opts.dashboard) ? dashboard().checkDashboard(opts.dashboard) : undefined
  }
  config.startAt = given(opts.startAt) ? startAt().parseStartAt(opts.startAt, config.sampleInt) : undefined
  checkTyped(config)
  // The options that chose the protocol are the rules' too (h2c and a
  // proxy), as given: the config keeps only the protocol chosen. So are a
  // search's objectives given to a run, which judges nothing by them: never
  // ignored without a word (findMaxRate() takes them; its runs do not).
  checkRules({ ...config, http2, slos: objectives(opts) })
  const refusing = { given: opts, callback: callbackGiven }
  checkRefusals('given', config, refusing)
  // The stages are the run's length; a ramp of connections builds the
  // most it ever holds.
  const staged = config.stages || config.connectionStages
  if (staged) config.duration = staged.reduce((total, stage) => total + stage.duration, 0)
  if (config.connectionStages) config.connections = Math.max(...config.connectionStages.map((stage) => stage.connections))
  checkRefusals('length', config, refusing)
  // Before the workers' rules: a shard's workers divide its part.
  if (config.shard) {
    config.shard = Object.freeze({ ...config.shard, run: shard().runOf(config) })
    config = split().shardPart(config, config.shard)
  }
  checkRefusals('part', config, refusing)
  if (config.workers) config = split().fitToWorkers(config)
  if (config.tlsOptions) tlsCheck().checkTlsOptions(config.tlsOptions)
  return Object.freeze(config)
}

function given (value) {
  return value !== undefined && value !== null
}

// A search's objectives among a run's options (`slo` is the flag's name
// for them), or undefined: an empty list asks for nothing.
function objectives (opts) {
  const slos = given(opts.slos) ? opts.slos : opts.slo
  return given(slos) && !(Array.isArray(slos) && slos.length === 0) ? slos : undefined
}

module.exports = { buildConfig, checkOption, parseDuration }
