'use strict'

// require('autocannon/lib/<name>') for every file of autocannon 9's lib/,
// autocannon beside us, each reached as 'autocannon' from a project folder:
// every path resolves (with and without .js); the public ones export what
// autocannon's do (the same names, kinds and arities) and return what
// autocannon's return for the same arguments; the internal ones throw one
// error, AC_INTERNAL_MODULE, naming what to use instead, as they are
// required (never MODULE_NOT_FOUND). A file autocannon adds to its lib/
// fails the first test until it is listed here.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { UPSTREAM, project, capturingServer } = require('../../helpers/dropin')
const { makeHar } = require('../../helpers/har')

const PUBLIC = ['aggregateResult', 'defaultOptions', 'format', 'histUtil', 'httpMethods', 'init', 'multipart', 'noop', 'parseHAR', 'printResult', 'progressTracker', 'run', 'runTracker', 'subargAliases', 'url', 'util', 'worker_threads']
const INTERNAL = ['httpClient', 'httpRequestBuilder', 'manager', 'pipelinedRequestsQueue', 'requestIterator', 'validate', 'worker', 'preload/autocannonDetectPort']

function libFiles (dir, under = '') {
  return fs.readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((e) => e.isDirectory()
    ? libFiles(dir, path.posix.join(under, e.name))
    : e.name.endsWith('.js') ? [path.posix.join(under, e.name.slice(0, -3))] : [])
}

// What a module exports, as a script sees it: its kind, a function's
// arity, an object's keys and their kinds.
function shape (m) {
  if (typeof m === 'function') return { kind: 'function', length: m.length }
  if (Array.isArray(m)) return { kind: 'array', length: m.length }
  if (m && typeof m === 'object') return { kind: 'object', keys: Object.fromEntries(Object.keys(m).map((k) => [k, typeof m[k]])) }
  return { kind: typeof m }
}

// Every key path of a value, for "ours has at least autocannon's".
function keyPaths (value, prefix = '') {
  if (!value || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return []
  return Object.keys(value).flatMap((k) => [prefix + k, ...keyPaths(value[k], `${prefix}${k}.`)])
}

// What a call returns, or the message it throws.
function outcome (fn) {
  try {
    return { value: fn() }
  } catch (err) {
    return { thrown: err.message }
  }
}

// Lines of the tables as they read with every number taken out (ours
// shows latency in hundredths of a ms: docs/differences.md).
const textLines = (text) => text.split('\n').map((l) => l.replace(/\d+(\.\d+)?/g, 'N').replace(/[\s│┌┐└┘├┤┬┴┼─]+/g, ' ').trim()).filter(Boolean)

const sides = (t) => ({ upstream: project(t, 'upstream').require, ours: project(t, 'ours').require })

t.test('every file of autocannon\'s lib/ is listed here, public or internal', async (t) => {
  t.same(libFiles(path.join(UPSTREAM, 'lib')).sort(), [...PUBLIC, ...INTERNAL].sort())
})

t.test('the public paths: autocannon\'s exports, by both names', async (t) => {
  const { upstream, ours } = sides(t)
  for (const name of PUBLIC) {
    for (const spec of [`autocannon/lib/${name}`, `autocannon/lib/${name}.js`]) {
      const theirs = shape(upstream(spec))
      const mine = shape(ours(spec))
      t.equal(mine.kind, theirs.kind, `${spec}: a ${theirs.kind}`)
      if (theirs.length !== undefined) t.equal(mine.length, theirs.length, `${spec}: length ${theirs.length}`)
      // Ours may export more (init is the package's entry, with its helpers).
      if (theirs.keys) for (const [k, kind] of Object.entries(theirs.keys)) t.equal(mine.keys[k], kind, `${spec}: .${k} is a ${kind}`)
    }
    t.ok(ours.resolve(`autocannon/lib/${name}`).startsWith(path.join(__dirname, '..', '..', '..', 'lib')), `${name}: this package's file`)
  }
})

t.test('the internal paths: AC_INTERNAL_MODULE as they are required, naming what to use', async (t) => {
  const { upstream, ours } = sides(t)
  for (const name of INTERNAL) {
    if (name !== 'preload/autocannonDetectPort') upstream(`autocannon/lib/${name}`) // autocannon's loads (its preload would dial its socket)
    for (const spec of [`autocannon/lib/${name}`, `autocannon/lib/${name}.js`]) {
      t.throws(() => ours(spec), { code: 'AC_INTERNAL_MODULE', message: new RegExp(`^require\\('autocannon/lib/${name}'\\): .+ internal to autocannon, .+; \\w+`) }, spec)
    }
  }
})

t.test('the small ones return what autocannon\'s return', async (t) => {
  const { upstream, ours } = sides(t)
  const both = (name) => [upstream(`autocannon/lib/${name}`), ours(`autocannon/lib/${name}`)]
  const [upDefaults, ourDefaults] = both('defaultOptions')
  t.same(ourDefaults, upDefaults, 'defaultOptions')
  t.same(...both('httpMethods').reverse(), 'httpMethods')
  const [upFormat, ourFormat] = both('format')
  for (const n of [0, 1, 999, 1000, 1499, 1500, 10500, 999999, 1e6, 2.5e6, 1.5e9]) t.equal(ourFormat(n), upFormat(n), `format(${n})`)
  const [upUrl, ourUrl] = both('url')
  for (const u of ['http://a', ['http://a', 'http://b'], '', undefined, 'x']) {
    // ofURL(u) is a thing with map(fn), fn called on each URL.
    const mapped = (ofURL, asArray) => outcome(() => ofURL(u, asArray).map((x) => `<${x}>`))
    t.same(mapped(ourUrl.ofURL), mapped(upUrl.ofURL), `ofURL(${JSON.stringify(u)}).map`)
    t.same(mapped(ourUrl.ofURL, true), mapped(upUrl.ofURL, true), `ofURL(${JSON.stringify(u)}, true).map`)
    t.same(outcome(() => ourUrl.checkURL(u)), outcome(() => upUrl.checkURL(u)), `checkURL(${JSON.stringify(u)})`)
  }
  const [upUtil, ourUtil] = both('util')
  t.equal(ourUtil.hasWorkerSupport, upUtil.hasWorkerSupport)
  for (const key of ['content-type', 'Content-Type', 'x']) t.equal(ourUtil.getPropertyCaseInsensitive({ 'Content-TYPE': 'a' }, key), upUtil.getPropertyCaseInsensitive({ 'Content-TYPE': 'a' }, key), `getPropertyCaseInsensitive(…, ${key})`)
  const args = { c: 3, d: 2, warmup: { c: 1, d: 5 }, url: 'http://a' }
  t.same(both('subargAliases')[1](args), both('subargAliases')[0](args), 'subargAliases')
  t.equal(both('noop')[1](), both('noop')[0]())
  t.equal(both('worker_threads')[1], both('worker_threads')[0], 'node:worker_threads')
  const har = makeHar('http://127.0.0.1:3000')
  t.same(both('parseHAR')[1].parseHAR(har), both('parseHAR')[0].parseHAR(har), 'parseHAR')
  t.throws(() => both('parseHAR')[1].parseHAR({}), { message: /^Could not parse HAR content: / })
  const form = { name: { type: 'text', value: 'jane' } }
  const [upForm, ourForm] = both('multipart').map((multipart) => multipart(form))
  const normal = (f) => f.getBuffer().toString().replace(/-{26}[0-9a-f]{24}/g, '<boundary>')
  t.equal(normal(ourForm), normal(upForm), 'multipart: the same body')
  t.same(Object.keys(ourForm.getHeaders()), Object.keys(upForm.getHeaders()), 'multipart: the same headers')
})

t.test('histUtil and aggregateResult together, as autocannon\'s are used', async (t) => {
  const { upstream, ours } = sides(t)
  const results = {}
  for (const [side, req] of Object.entries({ upstream, ours })) {
    const hist = req('autocannon/lib/histUtil')
    const aggregateResult = req('autocannon/lib/aggregateResult')
    // A harness's own raw result (autocannon's units: latencies in ms).
    const h = hist.getHistograms()
    for (const ms of [5, 5, 5, 9]) h.latencies.recordValue(ms)
    h.requests.recordValue(10)
    h.requests.recordValue(30)
    h.throughput.recordValue(2000)
    const raw = {
      latencies: hist.encodeHist(h.latencies),
      requests: hist.encodeHist(h.requests),
      throughput: hist.encodeHist(h.throughput),
      totalCompletedRequests: 40,
      totalRequests: 40,
      totalBytes: 4000,
      samples: 2,
      errors: 0,
      timeouts: 0,
      mismatches: 0,
      non2xx: 0,
      resets: 0,
      '1xx': 0,
      '2xx': 40,
      '3xx': 0,
      '4xx': 0,
      '5xx': 0,
      statusCodeStats: { 200: { count: 40 } },
      duration: 2,
      start: new Date(0),
      finish: new Date(2000)
    }
    results[side] = {
      histograms: aggregateResult([raw], { title: 't', connections: 3 }, h),
      raw: aggregateResult([raw], { title: 't', connections: 3 }),
      decoded: hist.decodeHist(raw.latencies).getValueAtPercentile(50)
    }
  }
  const pick = (r) => ({ title: r.title, connections: r.connections, latency: r.latency, requests: r.requests, throughput: r.throughput, samples: r.samples, '2xx': r['2xx'] })
  for (const form of ['histograms', 'raw']) {
    const theirs = pick(results.upstream[form])
    const mine = pick(results.ours[form])
    for (const key of Object.keys(theirs)) {
      if (theirs[key] && typeof theirs[key] === 'object') {
        for (const [k, v] of Object.entries(theirs[key])) t.equal(mine[key][k], v, `${form}: ${key}.${k}`)
      } else {
        t.equal(mine[key], theirs[key], `${form}: ${key}`)
      }
    }
  }
  t.equal(results.ours.decoded, results.upstream.decoded, 'decodeHist reads ms on both sides')
})

t.test('a raw result (skipAggregateResult) in autocannon\'s units, each side\'s aggregated by the other', async (t) => {
  const { upstream, ours } = sides(t)
  const server = await capturingServer(t)
  const raw = {}
  for (const [side, req] of Object.entries({ upstream, ours })) {
    raw[side] = await req('autocannon')({ url: server.url, connections: 1, amount: 20, skipAggregateResult: true })
  }
  for (const side of ['upstream', 'ours']) {
    for (const key of ['latencies', 'requests', 'throughput']) t.type(raw[side][key], 'string', `${side}: raw.${key} is an encoded histogram`)
  }
  for (const [reader, req] of Object.entries({ upstream, ours })) {
    const { decodeHist } = req('autocannon/lib/histUtil')
    const aggregateResult = req('autocannon/lib/aggregateResult')
    for (const side of ['upstream', 'ours']) {
      const p99 = decodeHist(raw[side].latencies).getValueAtPercentile(99)
      t.ok(p99 >= 0 && p99 < 1000, `${reader}'s decodeHist of ${side}'s latencies: ms (${p99})`)
      const result = aggregateResult([raw[side]], { url: server.url, connections: 1 })
      t.ok(result.latency.max >= 0 && result.latency.max < 1000, `${reader}'s aggregateResult of ${side}'s raw result: latency in ms (${result.latency.max})`)
      t.equal(result.requests.total, 20, `${reader}'s aggregateResult of ${side}'s raw result: 20 requests`)
    }
  }
})

t.test('run, runTracker, init and progressTracker: a run as autocannon\'s report it', async (t) => {
  const { upstream, ours } = sides(t)
  const server = await capturingServer(t)
  const upDefaults = upstream('autocannon/lib/defaultOptions')
  const results = {}
  for (const [side, req] of Object.entries({ upstream, ours })) {
    for (const name of ['run', 'runTracker']) {
      const run = req(`autocannon/lib/${name}`)
      // autocannon's run takes options already checked: its defaults in.
      const opts = { ...upDefaults, url: server.url, connections: 1, amount: 5 }
      const events = new Set()
      const result = await new Promise((resolve, reject) => {
        const tracker = run(opts, undefined, (err, result) => err ? reject(err) : resolve(result))
        t.type(tracker.stop, 'function', `${side} ${name}: tracker.stop`)
        for (const e of ['start', 'response', 'tick', 'done']) tracker.on(e, () => events.add(e))
      })
      t.ok(events.has('response'), `${side} ${name}: 'response' on the tracker`)
      t.notOk(events.has('done'), `${side} ${name}: no 'done' without forever`)
      results[`${side} ${name}`] = result
    }
    const instance = req('autocannon/lib/init')({ url: server.url, connections: 1, amount: 5 }, () => {})
    const out = []
    const stream = { write: (s) => out.push(String(s)), isTTY: false, columns: 80, on () {}, once () {}, removeListener () {} }
    req('autocannon/lib/progressTracker')(instance, { outputStream: stream, renderProgressBar: false })
    await new Promise((resolve) => instance.on('done', resolve))
    await new Promise((resolve) => setImmediate(resolve))
    results[`${side} progressTracker`] = out.join('')
    results[`${side} printResult`] = req('autocannon/lib/printResult')(results[`${side} run`], { outputStream: stream })
  }
  for (const name of ['run', 'runTracker']) {
    const missing = keyPaths(results[`upstream ${name}`]).filter((k) => !keyPaths(results[`ours ${name}`]).includes(k))
    t.same(missing, [], `${name}'s result has every key of autocannon's`)
  }
  for (const name of ['progressTracker', 'printResult']) {
    t.match(results[`upstream ${name}`], /Latency[^]*Req\/Sec[^]*5 requests in /, `autocannon's ${name}: its tables`)
    t.same(textLines(results[`ours ${name}`]), textLines(results[`upstream ${name}`]), `${name}: the same lines, but for the numbers`)
  }
})
