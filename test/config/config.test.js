'use strict'

// buildConfig: the user's options in, one frozen config out. Each target
// parsed once (its address, Host, path, credentials as a Basic header and
// masked wherever it is shown, its proxy, its protocol); the checks made
// here option by option, each refusal in its words; the stages as the
// run's length; this process's shard of the run, fitted to its workers.
// What the table of options checks by kind, and its defaults, are in
// test/config/values.test.js and test/core/options.test.js; the rules
// between options in test/config/rules.test.js.

const t = require('tap')
const { buildConfig } = require('../../lib/config/config')
const { share } = require('../../lib/core/share')
const { thrown } = require('../helpers/thrown')

const url = 'http://127.0.0.1:1'
const USER = 'bench'
const PASSWORD = 'S3cr3t-pr0xy-pw'
const basic = (user, pass) => 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64')
const sum = (list) => list.reduce((a, b) => a + b, 0)
const shards = (opts, count) => Array.from({ length: count }, (_, index) => buildConfig({ url, ...opts, shard: { index, count } }))

const refusal = (opts, options) => thrown(() => buildConfig(opts, options))

t.test('each target\'s protocol, decided once in the config (ALPN names)', async (t) => {
  t.same(buildConfig({ url: [url, 'https://127.0.0.1:2'] }).urls.map((u) => u.protocolName), ['http/1.1', 'http/1.1'])
  t.same(buildConfig({ url: [url, 'https://127.0.0.1:2'], http2: true }).urls.map((u) => u.protocolName), ['h2', 'h2'])
})

t.test('each target, field by field', async (t) => {
  const target = (raw, opts) => buildConfig({ url: raw, ...opts }).urls[0]
  const plain = { secure: false, protocolName: 'http/1.1', alpn: undefined, clearProxy: true, auth: undefined, socketPath: undefined, proxy: undefined, absoluteForm: undefined }
  const secure = { ...plain, secure: true }
  t.strictSame(target('http://example.com'), { ...plain, href: 'http://example.com/', origin: 'http://example.com', hostname: 'example.com', port: 80, path: '/', host: 'example.com' })
  t.strictSame(target('https://example.com/a/b?c=1&d=2#top'), { ...secure, href: 'https://example.com/a/b?c=1&d=2#top', origin: 'https://example.com', hostname: 'example.com', port: 443, path: '/a/b?c=1&d=2', host: 'example.com' },
    'https on 443; the path with its query, without the fragment')
  t.strictSame(target(' example.com:8080/x '), { ...plain, href: 'http://example.com:8080/x', origin: 'http://example.com:8080', hostname: 'example.com', port: 8080, path: '/x', host: 'example.com:8080' },
    'no scheme: http://, trimmed; a port not the default kept in Host')
  t.strictSame(target('https://Example.COM:443/'), { ...secure, href: 'https://example.com/', origin: 'https://example.com', hostname: 'example.com', port: 443, path: '/', host: 'example.com' },
    'the default port left out of Host, the name in lower case')
  t.strictSame(target('http://[::1]:3000/v6'), { ...plain, href: 'http://[::1]:3000/v6', origin: 'http://[::1]:3000', hostname: '::1', port: 3000, path: '/v6', host: '[::1]:3000' },
    'an IPv6 address dialled without brackets, with them in Host')
  t.strictSame(target('http://localhost/', { socketPath: '/tmp/app.sock' }), { ...plain, href: 'http://localhost/', origin: 'http://localhost', hostname: 'localhost', port: 80, path: '/', host: 'localhost', socketPath: '/tmp/app.sock' },
    'a Unix socket for every target')
  t.same(buildConfig({ url: ['http://a.test', 'http://b.test'], socketPath: '/tmp/s' }).urls.map((u) => u.socketPath), ['/tmp/s', '/tmp/s'])
})

t.test('credentials in a URL: masked in url and href, kept in auth', async (t) => {
  const config = buildConfig({ url: `http://${USER}:${PASSWORD}@127.0.0.1:1/x` })
  t.equal(config.url, `http://${USER}:***@127.0.0.1:1/x`)
  t.equal(config.urls[0].href, `http://${USER}:***@127.0.0.1:1/x`)
  t.equal(config.urls[0].auth, basic(USER, PASSWORD))
  t.equal(config.urls[0].origin, 'http://127.0.0.1:1', 'none in the origin')
  t.equal(config.urls[0].host, '127.0.0.1:1', 'none in Host')
  const several = buildConfig({ url: ['tok@a.test/p', 'https://u%40x:p%3Aw@b.test'] })
  t.same(several.url, ['http://***@a.test/p', 'https://u%40x:***@b.test'], 'each of a list; a user name alone masked: it may be a token')
  t.same(several.urls.map((u) => u.href), ['http://***@a.test/p', 'https://u%40x:***@b.test/'])
  t.same(several.urls.map((u) => u.auth), [basic('tok', ''), basic('u@x', 'p:w')], 'decoded for the header')
  t.notMatch(JSON.stringify(buildConfig({ url: `http://${USER}:${PASSWORD}@127.0.0.1:1/x` })), PASSWORD, 'nowhere in the config but the header')
})

t.test('targets: absolute form for http through a proxy only', async (t) => {
  const config = buildConfig({ url: ['http://a.test:81/x', 'https://b.test/y'], proxy: `http://${USER}:${PASSWORD}@127.0.0.1:3128` })
  t.same(config.urls[0].absoluteForm, { origin: 'http://a.test:81', proxyAuthorization: basic(USER, PASSWORD) })
  t.equal(config.urls[1].absoluteForm, undefined, 'https is tunnelled: its requests stay in origin form')
  t.equal(config.urls[1].proxy.port, 3128)
  t.equal(config.proxy, `http://${USER}:***@127.0.0.1:3128`)
  const direct = buildConfig({ url: 'http://a.test' })
  t.equal(direct.urls[0].proxy, undefined)
  t.equal(direct.urls[0].absoluteForm, undefined)
  t.equal(direct.proxy, undefined)
})

t.test('the proxy option: none, or each target\'s', async (t) => {
  for (const off of [undefined, null, false]) t.equal(buildConfig({ url, proxy: off }).proxy, undefined, `${off}: no proxy`)
  t.equal(buildConfig({ url, proxy: '127.0.0.1:3128' }).urls[0].proxy.port, 3128, 'http:// is assumed, as for the URL')
  t.equal(buildConfig({ url, proxy: 'http://h' }).urls[0].proxy.port, 80)
  const proxied = buildConfig({ url: ['http://a.test', 'https://b.test'], proxy: 'http://127.0.0.1:3128' })
  t.equal(proxied.urls[0].proxy, proxied.urls[1].proxy, 'one proxy for all targets')
  t.strictSame(proxied.urls[0].absoluteForm, { origin: 'http://a.test', proxyAuthorization: undefined }, 'a proxy without credentials')
  // "env": this process's environment, read per target.
  const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY }
  t.teardown(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })
  process.env.HTTP_PROXY = 'http://10.9.9.9:3128'
  process.env.NO_PROXY = '127.0.0.1'
  const env = buildConfig({ url: ['http://a.test', 'http://127.0.0.1:9'], proxy: 'env' })
  t.equal(env.proxy, 'env', 'shown as "env"')
  t.same(env.urls.map((u) => u.proxy && `${u.proxy.hostname}:${u.proxy.port}`), ['10.9.9.9:3128', undefined], 'HTTP_PROXY, except what NO_PROXY lists')
  t.same(env.urls.map((u) => u.absoluteForm && u.absoluteForm.origin), ['http://a.test', undefined], 'absolute form only through the proxy')
})

t.test('what it was not given: the config\'s own fields', async (t) => {
  const config = buildConfig({ url })
  t.same([config.workerIndex, config.workersOfShard, config.shardIndex], [0, 0, 0], 'the whole run, sent from one place')
  t.equal(config.connectionShares, undefined, 'no ramp, no share of one')
  t.equal(config.startAt, undefined)
  t.equal(config.shard, undefined)
  t.equal(config.method, 'GET')
  t.equal(config.title, undefined)
  t.ok(Number.isInteger(config.seed) && config.seed >= 0 && config.seed <= 0xffffffff, `a seed drawn (${config.seed})`)
  t.equal(buildConfig({ url, form: { a: { type: 'text', value: 'b' } } }).method, 'POST', 'a form is POSTed')
  t.equal(buildConfig({ url, form: { a: { type: 'text', value: 'b' } }, method: 'PUT' }).method, 'PUT', 'unless a method is given')
  t.equal(buildConfig({ url, title: 42 }).title, '42', 'a title is text')
  t.equal(buildConfig({ url, seed: ' 7 ' }).seed, 7, 'a seed as the CLI hands it')
  t.equal(buildConfig({ url, seed: 0xffffffff }).seed, 0xffffffff)
  t.equal(buildConfig({ url, abortAfter: '2s' }).abortAfter, 2)
  t.equal(buildConfig({ url, abortAfter: 0 }).abortAfter, 0)
  t.equal(buildConfig({ url: url + '/p' }).url, url + '/p', 'a url as given')
})

t.test('frozen: the config and what it holds, but the user\'s own objects', async (t) => {
  const headers = { 'x-a': '1' }
  const initialContext = { n: { m: 1 } }
  const tlsOptions = { rejectUnauthorized: false }
  const form = { a: { type: 'text', value: 'b' } }
  const config = buildConfig({
    url: [url, 'http://127.0.0.1:2'],
    headers,
    requests: [{ path: '/a', headers: { 'x-b': '2' } }],
    stages: '1s:10',
    thresholds: ['p99 < 1s'],
    initialContext,
    tlsOptions,
    form
  })
  const frozen = [['config', config], ['url', config.url], ['urls', config.urls], ['a target', config.urls[1]], ['headers', config.headers],
    ['requests', config.requests], ['a request', config.requests[0]], ['a request\'s headers', config.requests[0].headers],
    ['stages', config.stages], ['a stage', config.stages[0]], ['thresholds', config.thresholds]]
  for (const [what, value] of frozen) t.ok(Object.isFrozen(value), `${what} frozen`)
  t.not(config.headers, headers, 'the headers copied, not the caller\'s object frozen')
  t.notOk(Object.isFrozen(headers))
  t.equal(config.initialContext, initialContext, 'the initial context as given')
  t.notOk(Object.isFrozen(initialContext.n), 'and not frozen: hooks may change their copy of it')
  t.equal(config.tlsOptions, tlsOptions)
  t.equal(config.form, form)
  t.ok(Object.isFrozen(buildConfig({ url }).headers), 'the default headers too')
  t.ok(Object.isFrozen(buildConfig({ url, connectionStages: '1s:2' }).connectionStages))
})

t.test('requests: each checked, copied and frozen', async (t) => {
  const setupRequest = (req) => req
  const config = buildConfig({ url, requests: [{ method: 'POST', path: '/a', body: 'x', setupRequest }, { body: null }, { onResponse: '/abs/hook.js' }] })
  t.equal(config.requests[0].setupRequest, setupRequest, 'a hook as given')
  t.equal(config.requests[1].body, null, 'null: no body, whatever the run\'s')
  t.notOk('headers' in config.requests[1], 'no headers of its own: none added')
  t.equal(buildConfig({ url, workers: 2, connections: 2, requests: [{ setupRequest: '/abs/hook.js' }] }).requests[0].setupRequest, '/abs/hook.js', 'a file path with workers')
  t.equal(buildConfig({ url, requests: null }).requests, undefined)
})

// [options, option named, message, detail]: autocannon's message where it
// has one (its users compare it), ours in the detail.
const REFUSED = [
  [null, 'opts', 'invalid option "opts": null must be an object with at least a url', 'null must be an object with at least a url'],
  [5, 'opts', 'invalid option "opts": 5 must be an object with at least a url', '5 must be an object with at least a url'],
  [{}, 'url', 'url or socketPath option required', 'undefined is required (a string or an array of strings)'],
  [{ url: '' }, 'url', 'url or socketPath option required', '"" is required (a string or an array of strings)'],
  [{ url: [] }, 'url', 'url or socketPath option required', '[] is required (a string or an array of strings)'],
  [{ url: [url, 5] }, 'url', 'url should only be a string or an array of string', '["http://127.0.0.1:1",5] must be a string or an array of strings'],
  [{ url: [url, 'ftp://h/'] }, 'url', 'invalid option "url": "ftp://h/" has an unsupported protocol "ftp:" (use http: or https:)', '"ftp://h/" has an unsupported protocol "ftp:" (use http: or https:)'],
  [{ url, socketPath: '' }, 'socketPath', 'invalid option "socketPath": "" must be a path string', '"" must be a path string'],
  [{ url, socketPath: 5 }, 'socketPath', 'invalid option "socketPath": 5 must be a path string', '5 must be a path string'],
  [{ url, method: 'GE T' }, 'method', 'GE T HTTP method is not supported', '"GE T" must be an HTTP method such as GET or POST'],
  [{ url, method: 5 }, 'method', '5 HTTP method is not supported', '5 must be an HTTP method such as GET or POST'],
  [{ url, headers: 'x' }, 'headers', 'invalid option "headers": "x" must be an object of header names to values', '"x" must be an object of header names to values'],
  [{ url, headers: [] }, 'headers', 'invalid option "headers": [] must be an object of header names to values', '[] must be an object of header names to values'],
  [{ url, body: 5 }, 'body', 'body must be either a string or a buffer', '5 must be a string or a Buffer'],
  [{ url, requests: [] }, 'requests', 'invalid option "requests": [] must be a non-empty array of request objects', '[] must be a non-empty array of request objects'],
  [{ url, requests: 'x' }, 'requests', 'invalid option "requests": "x" must be a non-empty array of request objects', '"x" must be a non-empty array of request objects'],
  [{ url, requests: [{}, null] }, 'requests[1]', 'invalid option "requests[1]": null must be an object', 'null must be an object'],
  [{ url, requests: [{ setupRequest: 5 }] }, 'requests[0].setupRequest', 'Invalid option setupRequest, please provide a function (or file path when in workers mode)', '5 must be a function (or a file path)'],
  [{ url, workers: 2, connections: 2, requests: [{ onResponse: () => {} }] }, 'requests[0].onResponse', 'Invalid option onResponse, please provide a function (or file path when in workers mode)', 'a function must be an absolute file path when workers are used (functions cannot be sent to a worker)'],
  [{ url, requests: [{ headers: 'x' }] }, 'requests[0].headers', 'invalid option "requests[0].headers": "x" must be an object of header names to values', '"x" must be an object of header names to values'],
  [{ url, requests: [{ body: 5 }] }, 'requests[0].body', 'body must be either a string or a buffer', '5 must be a string or a Buffer'],
  [{ url, requests: [{ method: 5 }] }, 'requests[0].method', 'invalid option "requests[0].method": 5 must be a string', '5 must be a string'],
  [{ url, requests: [{ method: 'GE T' }] }, 'requests[0].method', 'invalid option "requests[0].method": "GE T" must be an HTTP method such as GET or POST', '"GE T" must be an HTTP method such as GET or POST'],
  [{ url, headers: { 'x-a': 'b\r\nx-b: c' } }, 'headers', 'invalid option "headers": "x-a" header value must not contain CR, LF or other control characters', '"x-a" header value must not contain CR, LF or other control characters'],
  [{ url, headers: { 'x-a': ['ok', 'b\n'] } }, 'headers', 'invalid option "headers": "x-a" header value must not contain CR, LF or other control characters', '"x-a" header value must not contain CR, LF or other control characters'],
  [{ url, headers: { x: { a: 1 } } }, 'headers', 'invalid option "headers": "x" header value must be a string (or a number), not an object, which would be sent as [object Object]', '"x" header value must be a string (or a number), not an object, which would be sent as [object Object]'],
  [{ url, headers: { x: () => 1 } }, 'headers', 'invalid option "headers": "x" header value must be a string (or a number), not a function', '"x" header value must be a string (or a number), not a function'],
  [{ url, headers: { 'bad name': 'v' } }, 'headers', 'invalid option "headers": "bad name" is not a valid header name (an HTTP token: letters, digits and !#$%&\'*+-.^_`|~)', '"bad name" is not a valid header name (an HTTP token: letters, digits and !#$%&\'*+-.^_`|~)'],
  [{ url, requests: [{ headers: { authorization: 'Bearer s3cret\r\n' } }] }, 'requests[0].headers', 'invalid option "requests[0].headers": "authorization" header value must not contain CR, LF or other control characters', '"authorization" header value must not contain CR, LF or other control characters'],
  [{ url, requests: [{ path: 5 }] }, 'requests[0].path', 'invalid option "requests[0].path": 5 must be a string', '5 must be a string'],
  [{ url, setupClient: 5 }, 'setupClient', 'Invalid option setupClient, please provide a function (or file path when in workers mode)', '5 must be a function (or a file path)'],
  [{ url, workers: 2, connections: 2, verifyBody: () => true }, 'verifyBody', 'Invalid option verifyBody, please provide a function (or file path when in workers mode)', 'a function must be an absolute file path when workers are used (functions cannot be sent to a worker)'],
  [{ url, targets: '' }, 'targets', 'invalid option "targets": "" must be the path of a targets file', '"" must be the path of a targets file'],
  [{ url, targets: 5 }, 'targets', 'invalid option "targets": 5 must be the path of a targets file', '5 must be the path of a targets file'],
  [{ url, order: 'shuffled' }, 'order', 'invalid option "order": "shuffled" must be sequential or random', '"shuffled" must be sequential or random'],
  [{ url, arrivals: 'bursty' }, 'arrivals', 'invalid option "arrivals": "bursty" must be uniform or poisson', '"bursty" must be uniform or poisson'],
  [{ url, seed: -1 }, 'seed', 'invalid option "seed": -1 must be an integer from 0 to 4294967295', '-1 must be an integer from 0 to 4294967295'],
  [{ url, seed: 2 ** 32 }, 'seed', 'invalid option "seed": 4294967296 must be an integer from 0 to 4294967295', '4294967296 must be an integer from 0 to 4294967295'],
  [{ url, seed: 1.5 }, 'seed', 'invalid option "seed": 1.5 must be an integer from 0 to 4294967295', '1.5 must be an integer from 0 to 4294967295'],
  [{ url, seed: '1.5' }, 'seed', 'invalid option "seed": "1.5" must be an integer from 0 to 4294967295', '"1.5" must be an integer from 0 to 4294967295'],
  [{ url, servername: 5 }, 'servername', 'invalid option "servername": 5 must be a string', '5 must be a string'],
  [{ url, tlsOptions: null }, 'tlsOptions', 'invalid option "tlsOptions": null must be an object of tls.connect options', 'null must be an object of tls.connect options'],
  [{ url, tlsOptions: 5 }, 'tlsOptions', 'invalid option "tlsOptions": 5 must be an object of tls.connect options', '5 must be an object of tls.connect options'],
  [{ url, expectBody: 5 }, 'expectBody', 'invalid option "expectBody": 5 must be a string', '5 must be a string'],
  [{ url, initialContext: 5 }, 'initialContext', 'invalid option "initialContext": 5 must be an object', '5 must be an object'],
  [{ url, abortAfter: 'soon' }, 'abortAfter', 'invalid option "abortAfter": "soon" must be a number of seconds (0 or more) or a timestring such as "10s"', '"soon" must be a number of seconds (0 or more) or a timestring such as "10s"'],
  [{ url, abortAfter: -1 }, 'abortAfter', 'invalid option "abortAfter": -1 must be a number of seconds (0 or more) or a timestring such as "10s"', '-1 must be a number of seconds (0 or more) or a timestring such as "10s"'],
  [{ url, duration: 0 }, 'duration', 'invalid option "duration": 0 must be a number of seconds > 0 (or set amount to run a number of requests)', '0 must be a number of seconds > 0 (or set amount to run a number of requests)'],
  [{ url, connections: 20, amount: 5 }, 'connections', 'connections cannot be greater than amount', '20 is more than amount (5): each connection makes at least one request']
]

t.test('each check of its own: the option named, autocannon\'s message or ours, ours in the detail', async (t) => {
  for (const [opts, option, message, detail] of REFUSED) {
    const label = JSON.stringify(opts, (k, v) => typeof v === 'function' ? 'a function' : v)
    const err = refusal(opts)
    if (!t.ok(err, `${label}: refused`)) continue
    t.equal(err.name, 'InvalidOptionError', label)
    t.equal(err.code, 'AC_INVALID_OPTION')
    t.equal(err.option, option, `${label}: names ${option}`)
    t.equal(err.message, message, `${label}: ${message}`)
    t.equal(err.detail, detail)
  }
})

t.test('forever with a callback: refused, the done event said instead', async (t) => {
  const err = refusal({ url, forever: true }, { callbackGiven: true })
  t.match(err, { code: 'AC_INVALID_OPTION', option: 'forever', message: 'should not use the callback parameter when the `forever` option is set to true. Use the `done` event on this event emitter', detail: 'true cannot be used with a callback: listen to the "done" event instead' })
  t.equal(buildConfig({ url, forever: true }).forever, true, 'without a callback it runs')
  t.equal(buildConfig({ url }, { callbackGiven: true }).forever, false, 'a callback without forever')
})

t.test('a run of no length: refused unless an amount or stages set it', async (t) => {
  t.same([buildConfig({ url, duration: 0, amount: 5, connections: 5 }).duration, buildConfig({ url, duration: 0, amount: 5, connections: 5 }).amount], [0, 5])
  t.equal(buildConfig({ url, duration: 0, stages: '2s:10' }).duration, 2, 'the stages are its length')
  t.equal(buildConfig({ url, connections: 5, amount: 5 }).connections, 5, 'as many connections as requests')
})

t.test('the stages are the run\'s length; a start time changes it not', async (t) => {
  const rated = buildConfig({ url, duration: 100, stages: '10s:100, 1m:200' })
  t.equal(rated.duration, 70, 'the rate stages\' sum, over -d')
  t.equal(rated.connections, 10, 'connections as given')
  t.same(rated.stages, [{ duration: 10, rate: 100 }, { duration: 60, rate: 200 }])
  const now = Date.now()
  const at = buildConfig({ url, duration: 3, startAt: now + 60000 })
  t.equal(at.startAt, now + 60000, 'the start time, in epoch ms')
  t.equal(at.duration, 3, 'the run as long after it')
  t.equal(buildConfig({ url, startAt: new Date(now + 5000).toISOString() }).startAt, now + 5000)
  // One sample interval late is allowed: the option's own, not 1 s.
  t.equal(buildConfig({ url, sampleInt: 3000, startAt: now - 1500 }).startAt, now - 1500, 'late by less than -L 3000')
  t.match(refusal({ url, sampleInt: 1000, startAt: now - 1500 }), { code: 'AC_INVALID_OPTION', option: 'startAt', message: /is 1\.5 s in the past, more than one sample interval \(1000 ms\)/ })
})

t.test('config: stages as a string or array; length and connections from them; conflicts refused', async (t) => {
  const url = 'http://127.0.0.1:1'
  const config = buildConfig({ url, connectionStages: '30s:100, 1m:1000 ,0s:20, 30s:0', duration: 5, connections: 3 })
  t.same(config.connectionStages, [{ duration: 30, connections: 100 }, { duration: 60, connections: 1000 }, { duration: 0, connections: 20 }, { duration: 30, connections: 0 }])
  t.equal(config.duration, 120, 'the stages are the run\'s length')
  t.equal(config.connections, 1000, 'and its most connections')
  t.same(buildConfig({ url, connectionStages: [{ duration: '2s', connections: 4 }] }).connectionStages, [{ duration: 2, connections: 4 }])
  const refused = (opts, code, pattern) => {
    const err = (() => { try { buildConfig({ url, ...opts }) } catch (e) { return e } })()
    t.ok(err, `${JSON.stringify(opts)} refused`)
    t.equal(err.code, code)
    t.match(err.message, pattern)
  }
  refused({ connectionStages: '1s:5', overallRate: 10 }, 'AC_CONFLICTING_OPTIONS', /connectionStages and overallRate \(-R\) cannot be used together/)
  refused({ connectionStages: '1s:5', connectionRate: 10 }, 'AC_CONFLICTING_OPTIONS', /connectionRate \(-r\)/)
  refused({ connectionStages: '1s:5', stages: '1s:10' }, 'AC_CONFLICTING_OPTIONS', /connectionStages and stages/)
  refused({ connectionStages: '1s:5', amount: 100 }, 'AC_CONFLICTING_OPTIONS', /connectionStages and amount \(-a\)/)
  for (const bad of ['1s', '1s:5:6', 'x:5', '1s:-1', '1s:2.5', '-1s:5', '', []]) refused({ connectionStages: bad }, 'AC_INVALID_OPTION', /connectionStages/)
  refused({ connectionStages: '1s:0,2s:0' }, 'AC_INVALID_OPTION', /no connection at all/)
  refused({ connectionStages: '0s:5' }, 'AC_INVALID_OPTION', /no time at all/)
})

t.test('tlsOptions: their files checked before the run', async (t) => {
  t.match(refusal({ url: 'https://127.0.0.1:1', tlsOptions: { ca: 'junk' } }), { code: 'AC_INVALID_TLS_FILE', message: /^tlsOptions\.ca: no PEM certificate in it/ })
  t.same(buildConfig({ url, tlsOptions: { rejectUnauthorized: true } }).tlsOptions, { rejectUnauthorized: true }, 'nothing to check: as given')
})

t.test('workers: each at least one connection, and one request of an amount', async (t) => {
  const fitted = buildConfig({ url, workers: 4, connections: 2, amount: 3 })
  t.same([fitted.connections, fitted.connectionsAsked, fitted.amount, fitted.amountAsked], [4, 2, 4, 3])
  t.same([fitted.workerIndex, fitted.workersOfShard], [0, 0], 'the whole, before it is split')
  // A shard's part, then its workers: -c 4 over 2 shards is 2, raised to
  // the shard's 4 workers (fitted first, the shard's part would be 2).
  const shard = buildConfig({ url, workers: 4, connections: 4, shard: '1/2' })
  t.same([shard.connections, shard.connectionsAsked, shard.shardIndex], [4, 2, 1])
})

t.test('connections, amount and -O: the parts add up to the whole', async (t) => {
  t.same(shards({ connections: 10 }, 3).map((c) => c.connections), [4, 3, 3], '-c 10 over 3 shards')
  t.same(shards({ connections: 10, amount: 101 }, 2).map((c) => c.amount), [51, 50], '-a 101 over 2 shards')
  t.same(shards({ connections: 10, maxOverallRequests: 7 }, 3).map((c) => c.maxOverallRequests), [3, 2, 2])
  for (const count of [1, 2, 3, 4, 7, 16]) {
    for (const connections of [16, 17, 100, 1001]) {
      const parts = shards({ connections, amount: connections * 3 + 1 }, count)
      t.equal(sum(parts.map((c) => c.connections)), connections, `${connections} connections over ${count}`)
      t.equal(sum(parts.map((c) => c.amount)), connections * 3 + 1, `amount over ${count}`)
      parts.forEach((c, i) => t.equal(c.connections, share(connections, count, i)))
    }
  }
})

t.test('rates are divided; a per-connection rate is not', async (t) => {
  t.same(shards({ connections: 8, overallRate: 1000 }, 4).map((c) => c.overallRate), [250, 250, 250, 250])
  t.same(shards({ connections: 8, overallRate: 1000 }, 3).map((c) => c.overallRate * 3), [1000, 1000, 1000])
  t.same(shards({ connections: 8, connectionRate: 10 }, 4).map((c) => c.connectionRate), [10, 10, 10, 10], 'each connection keeps its rate')
  const [one] = shards({ connections: 8, overallRate: 100, stages: '10s:1000,20s:0' }, 4)
  t.same(one.stages.map((s) => s.rate), [250, 0])
  t.same(one.stages.map((s) => s.duration), [10, 20], 'durations stay')
  t.equal(one.overallRate, 25, 'the rate the first stage ramps from too')
  t.equal(one.duration, 30)
})

t.test('too many shards, bad shards', async (t) => {
  t.throws(() => buildConfig({ url, connections: 3, shard: { index: 0, count: 4 } }), { code: 'AC_TOO_MANY_SHARDS', message: /4 shards need connections \(-c\) of at least 4.*it is 3/ })
  t.throws(() => buildConfig({ url, connections: 10, amount: 3, shard: { index: 3, count: 4 } }), { code: 'AC_TOO_MANY_SHARDS', message: /amount/ })
  t.throws(() => buildConfig({ url, connections: 10, maxOverallRequests: 3, shard: '0/4' }), { code: 'AC_TOO_MANY_SHARDS', message: /-O/ })
  for (const bad of [{ index: 4, count: 4 }, { index: -1, count: 4 }, { index: 0, count: 0 }, { index: 1.5, count: 4 }, '1/0', 'auto/4', 'x', 3]) {
    t.throws(() => buildConfig({ url, shard: bad }), { code: 'AC_INVALID_OPTION', option: 'shard', message: /0-based/ }, JSON.stringify(bad))
  }
  t.match(buildConfig({ url, shard: '2/4' }).shard, { index: 2, count: 4 }, '"I/N" in the library too')
  t.match(buildConfig({ url, shard: { index: '1', count: '4' } }).shard, { index: 1, count: 4 })
})

t.test('a shard records the whole run\'s load, for merge to hold the shards to', async (t) => {
  const config = buildConfig({ url, connections: 10, amount: 100, maxOverallRequests: 50, overallRate: 300, shard: '1/3' })
  t.same([config.connections, config.amount, config.overallRate], [3, 33, 100], 'the shard sends its part')
  t.same(config.shard.run, { connections: 10, amount: 100, maxOverallRequests: 50, overallRate: 300, connectionRate: 0, duration: 10, stages: null, connectionStages: null }, 'and records the whole')
  const staged = buildConfig({ url, stages: '2s:100,3s:0', shard: '0/2' }).shard.run
  t.same([staged.duration, staged.stages], [5, [{ duration: 2, rate: 100 }, { duration: 3, rate: 0 }]], 'stages at the whole run\'s rates')
  const ramp = buildConfig({ url, connectionStages: '1s:4,1s:8', connectionRate: 0, shard: '0/2' }).shard.run
  t.same([ramp.connections, ramp.connectionStages], [8, [{ duration: 1, connections: 4 }, { duration: 1, connections: 8 }]])
})

t.test('a shard\'s message, word for word', async (t) => {
  t.match(refusal({ url, shard: '4/4' }), {
    option: 'shard',
    message: 'invalid option "shard": "4/4" must be { index, count } (or "I/N") with 0 <= index < count: indexes are 0-based, as a Kubernetes Indexed Job numbers its pods'
  })
  t.ok(Object.isFrozen(buildConfig({ url, shard: '0/2' }).shard))
})

t.test('config: a search\'s objectives given to a run are refused, never ignored', async (t) => {
  const url = 'http://127.0.0.1:1'
  const why = /invalid option "slos": .*"p99<1ms".* is an objective of a capacity search; a run without one is not judged by it .*: give findMaxRate with it/
  t.match(refusal({ url, slos: ['p99<1ms'] }), { code: 'AC_INVALID_OPTION', option: 'slos', message: why })
  t.match(refusal({ url, slo: 'p99<1ms' }), { code: 'AC_INVALID_OPTION', option: 'slos', message: why }, 'by the flag\'s name too')
  t.equal(buildConfig({ url, slos: [] }).url, url, 'an empty list asks for nothing (parseArguments gives one)')
})
