// Type tests (tsd), for a CommonJS TypeScript project: valid uses compile,
// and the mistakes the types exist to catch do not. The package is
// imported by name, through package.json's "exports", as users import it.

import autocannon = require('cannonade')
import { EventEmitter } from 'events'
import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'

const url = 'http://127.0.0.1:3000'

// --- options -------------------------------------------------------------

expectType<autocannon.Instance<autocannon.Result>>(autocannon({ url }))
expectAssignable<autocannon.Options>({ url: [url, 'http://127.0.0.1:3001/x'] })

const everyOption: autocannon.Options = {
  url,
  socketPath: '/tmp/server.sock',
  workers: 2,
  connections: 100,
  duration: '30s',
  amount: 1000,
  sampleInt: 500,
  timeout: 5,
  pipelining: 10,
  http2: false,
  bailout: 3,
  method: 'POST',
  title: 'checkout',
  body: Buffer.from('{}'),
  headers: { 'content-type': 'application/json', 'x-n': 1, 'x-many': ['a', 'b'], 'x-none': undefined },
  initialContext: { user: null },
  setupClient: '/abs/path/setup-client.js',
  verifyBody: (body) => body.includes('ok'),
  maxConnectionRequests: 10,
  maxOverallRequests: 100,
  connectionRate: 10,
  overallRate: 1000,
  arrivals: 'poisson',
  seed: 42,
  ignoreCoordinatedOmission: true,
  reconnectRate: 50,
  requests: [
    { method: 'GET', path: '/' },
    { method: 'PURGE', path: '/cache', body: null },
    {
      path: '/login',
      setupRequest: (req, context) => ({ ...req, body: JSON.stringify({ user: context.user }) }),
      onResponse: (status, body, context, headers) => {
        expectType<number>(status)
        expectType<string>(body)
        expectType<autocannon.ResponseHeaders>(headers)
        context.token = headers['x-token']
      }
    },
    { setupRequest: async (req) => (req.path === '/' ? null : req) },
    { setupRequest: '/abs/path/setup-request.js', onResponse: '/abs/path/on-response.js' }
  ],
  idReplacement: true,
  forever: false,
  servername: 'example.com',
  excludeErrorStats: true,
  expectBody: 'ok',
  tlsOptions: { rejectUnauthorized: true, ca: ['-----BEGIN CERTIFICATE-----'] },
  skipAggregateResult: false,
  maxBodySize: 1024,
  debug: false,
  thresholds: ['p99 < 200ms', 'errors < 1%', 'rps > 5000'],
  shard: { index: 0, count: 4 },
  startAt: new Date()
}
expectAssignable<autocannon.Options>(everyOption)
expectAssignable<autocannon.Options>({ url, form: { name: { type: 'text', value: 'x' }, file: { type: 'file', path: 'a.png', options: { filename: 'b.png' } } } })
expectAssignable<autocannon.Options>({ url, form: './form.json' })
expectAssignable<autocannon.Options>({ url, har: { log: { entries: [{ request: { method: 'GET', url, headers: [] }, response: {} }], version: '1.2' } } })
expectAssignable<autocannon.Options>({ url, duration: 10, setupClient: (client) => client.setHeaders({ a: 'b' }) })

// A wrong option type, a missing url, a misspelt option.
expectError(autocannon({ url, connections: true }))
expectError(autocannon({ url, duration: [10] }))
expectError(autocannon({ url: 42 }))
expectError(autocannon({ connections: 10 }))
expectError(autocannon({ url, conections: 10 }))
expectError(autocannon({ url, method: 42 }))
expectError(autocannon({ url, requests: [{ path: 1 }] }))
expectError(autocannon({ url, requests: [{ setupRequest: (req: autocannon.RawRequest) => 'GET /' }] }))
expectError(autocannon({ url, requests: [{ onResponse: (status: string) => {} }] }))
// verifyBody's answer decides mismatches: one that returns nothing would count them all.
expectError(autocannon({ url, verifyBody: (body: string) => { console.log(body) } }))
expectError(autocannon({ url, tlsOptions: { rejectUnauthorized: 'yes' } }))
expectError(autocannon({ url, thresholds: 'p99 < 200ms' }))
expectAssignable<autocannon.Options>({ url, shard: '1/4', startAt: '2030-01-01T12:00:00Z' })
expectAssignable<autocannon.Options>({ url, startAt: Date.now() + 60000 })
expectError(autocannon({ url, shard: { index: 0 } }))
expectError(autocannon({ url, startAt: true }))

// --- the instance: awaitable, an EventEmitter, stop() --------------------

async function awaitable () {
  const instance = autocannon({ url })
  expectAssignable<EventEmitter>(instance)
  expectAssignable<PromiseLike<autocannon.Result>>(instance)
  expectType<void>(instance.stop())
  expectType<autocannon.Result>(await instance)
  expectType<autocannon.Result>(await autocannon({ url, skipAggregateResult: false }))
  expectType<autocannon.RawResults>(await autocannon({ url, skipAggregateResult: true }))
  expectType<Promise<number>>(instance.then((result) => result.requests.total))
  expectType<Promise<autocannon.Result | undefined>>(instance.catch(() => undefined))
  expectType<Promise<autocannon.Result>>(instance.finally(() => {}))
  expectType<Readonly<autocannon.Options> | null>(instance.opts)
}

// The callback form: an EventEmitter that is not awaitable, as autocannon's.
expectType<autocannon.RunEmitter>(autocannon({ url }, (err, result) => {
  expectType<autocannon.AutocannonError | null>(err)
  expectType<autocannon.Result>(result)
}))
autocannon({ url }, (err: Error | null, result: autocannon.Result) => {})
autocannon({ url, skipAggregateResult: true }, (err, raw) => expectType<autocannon.RawResults>(raw))
expectError(autocannon({ url }, (err: Error | null, result: string) => {}))
expectError(autocannon({ url }, () => {}).then)
// forever: its rounds never end, so no promise either.
expectType<autocannon.RunEmitter>(autocannon({ url, forever: true }))
expectError(autocannon({ url, forever: true }).then)

// --- events --------------------------------------------------------------

const instance = autocannon({ url })
expectType<typeof instance>(instance.on('start', () => {}))
instance.on('tick', (tick) => expectType<autocannon.Tick>(tick))
instance.on('tick', ({ counter, bytes }) => expectType<number>(counter + bytes))
instance.on('response', (client, statusCode, resBytes, responseTime) => {
  expectType<autocannon.Client>(client)
  expectType<number>(statusCode + resBytes + responseTime)
})
instance.on('reqError', (err) => expectAssignable<string | undefined>(err.code))
instance.on('reqMismatch', (body) => expectType<string>(body))
instance.on('done', (result) => expectType<autocannon.Result>(result))
instance.on('error', (err) => expectType<autocannon.AutocannonError>(err))
instance.once('done', (result) => expectType<number>(result.requests.sent))
instance.once('error', (err) => expectType<string | undefined>(err.option))
instance.off('done', (result) => {})
instance.removeListener('tick', (tick) => {})
autocannon({ url, skipAggregateResult: true }).on('done', (raw) => expectType<autocannon.RawResults>(raw))

// An unknown event name, a wrong listener signature.
expectError(instance.on('finish', () => {}))
expectError(instance.once('respone', () => {}))
expectError(instance.off('end', () => {}))
expectError(instance.on('tick', (tick: string) => {}))
expectError(instance.on('done', (result: autocannon.Result, extra: number) => {}))
expectError(instance.on('response', (statusCode: number) => {}))
expectError(instance.once('error', (err: string) => {}))

// --- the result ----------------------------------------------------------

declare const result: autocannon.Result
expectType<number>(result.requests.total)
expectType<number>(result.requests.sent)
expectType<number>(result.requests.inFlight)
expectType<number>(result.throughput.total)
expectType<number>(result.latency.p99)
expectType<number>(result.latency.totalCount)
expectType<number>(result.latency.p99_999)
expectType<autocannon.Timings | undefined>(result.timings)
if (result.timings) {
  expectType<number>(result.timings.ttfb.p99)
  expectType<number>(result.timings.tls.totalCount)
  expectType<number>(result.timings.proxyConnect.average)
  expectError(result.timings.waiting)
}
expectType<number>(result.errorsByCause.connect + result.errorsByCause.hook)
expectType<number>(result.errorCodes.ECONNREFUSED)
expectType<number>(result['2xx'] + result.non2xx + result.mismatches + result.resets + result.timeouts)
expectType<number>(result.statusCodeStats['200'].count)
expectType<Date>(result.start)
expectType<string | string[]>(result.url)
expectType<autocannon.LatencyHistogram | undefined>(result.latencyUncorrected)
if (result.rate) {
  expectType<number>(result.rate.target + result.rate.achieved + result.rate.planned + result.rate.late)
  expectType<autocannon.Histogram | undefined>(result.rate.lateness)
  expectType<'uniform' | 'poisson' | 'mixed'>(result.rate.arrivals)
  expectType<number | undefined>(result.rate.seed)
}
{
  const g: autocannon.GeneratorHealth = result.generator
  expectType<number>(g.cpu + g.late)
  if (g.loopDelay) expectType<number>(g.loopDelay.p50 + g.loopDelay.p99 + g.loopDelay.max)
  if (g.lateness) expectType<number>(g.lateness.p99 + g.lateness.max)
  expectType<number>(g.lateNoConnection + g.lateOwn + g.lateStarved)
  if (g.pauses) expectType<number>(g.pauses.own.count + g.pauses.own.ms + g.pauses.starved.max)
  if (result.series) expectType<number[]>(result.series.loopDelayMax)
}
if (result.histograms) {
  expectType<string>(result.histograms.latency)
  expectType<string | undefined>(result.histograms.latencyUncorrected)
  expectType<string>(result.histograms.requests + result.histograms.throughput)
}
if (result.series) {
  expectType<number>(result.series.interval)
  expectType<number[]>(result.series.latencyP99)
  expectType<string[]>(result.series.latency)
}
if (result.thresholds) {
  const [first] = result.thresholds
  expectType<boolean>(first.ok)
  expectType<number>(first.value - first.limit)
  expectType<string>(first.expression + first.metric + first.operator)
}
if (result.shard) expectType<number>(result.shard.index + result.shard.count)
if (result.merge) {
  expectType<number[]>(result.merge.missing)
  expectType<number>(result.merge.startSkewMs + result.merge.shards + result.merge.expected)
}
expectError(result.errorsByCause.dns)
expectError(result.latency.total)

// --- the Client API ------------------------------------------------------

declare const client: autocannon.Client
client.setHeaders({ authorization: 'Bearer x' })
client.setHeaders(undefined)
client.setBody('text')
client.setBody(Buffer.from('bytes'))
client.setBody(undefined)
client.setHeadersAndBody({ a: 'b' }, 'body')
client.setRequest({ method: 'POST', path: '/x', headers: {}, body: 'b' })
client.setRequests([{ path: '/a' }, { path: '/b', setupRequest: (req) => req }])
client.on('headers', (headers) => expectType<autocannon.ResponseHeaders>(headers))
client.on('body', (body) => expectType<Buffer>(body))
client.on('response', (statusCode, resBytes, responseTime) => expectType<number>(statusCode + resBytes + responseTime))
client.once('reset', () => {})
expectError(client.setBody(42))
expectError(client.setRequests({ path: '/a' }))
expectError(client.on('done', () => {}))
expectError(client.on('body', (body: string) => {}))

// --- track, printResult, aggregateResult, parseArguments -----------------

expectType<autocannon.Instance<autocannon.Result>>(autocannon.track(instance, {
  outputStream: process.stdout,
  renderProgressBar: false,
  renderResultsTable: true,
  renderLatencyTable: true,
  progressBarString: 'running [:bar] :percent'
}))
expectType<string>(autocannon.printResult(result))
expectType<string>(autocannon.printResult(result, { outputStream: process.stderr, renderLatencyTable: true, renderStatusCodes: true, verbose: false }))
expectError(autocannon.printResult(result, { renderLatencyTable: 'yes' }))
expectType<string>(autocannon.printResult(result, { renderTimings: true }))
expectError(autocannon.printResult(result, { renderTimings: 'yes' }))
expectError(autocannon.track(instance, { outputStream: 'stderr' }))
// The callback form's instance, as docs/library.md tracks it.
expectType<autocannon.RunEmitter>(autocannon.track(autocannon({ url }, () => {}), { renderProgressBar: false }))

declare const raw: autocannon.RawResult
expectType<autocannon.Result>(autocannon.aggregateResult([raw, raw], { url, connections: 10, sampleInt: 1000 }))
expectType<autocannon.Result>(autocannon.aggregateResult(raw))
expectError(autocannon.aggregateResult([result]))
declare const upstreamRaw: autocannon.UpstreamRawResult
declare const hist: autocannon.HdrHistogram
expectType<autocannon.Result>(autocannon.aggregateResult(upstreamRaw, { url, title: 't' }, { requests: hist, throughput: hist }))
expectType<autocannon.Result>(autocannon.aggregateResult([raw, upstreamRaw], { url }))
expectType<string>(raw.latencies)
// autocannon's keys, which RawResult has by extending UpstreamRawResult.
expectType<number>(raw.totalRequests)
expectType<Record<string, { count: number }>>(raw.statusCodeStats)
expectType<Date | string | number>(raw.finish)
expectError(autocannon.aggregateResult(raw, { url }, { requests: 'not a histogram' }))

const parsed = autocannon.parseArguments(['-c', '100', '-d', '5', url])
expectType<autocannon.ParsedOptions | undefined>(parsed)
if (parsed !== undefined) {
  expectType<string | string[]>(parsed.url)
  expectType<boolean>(parsed.renderProgressBar)
  expectType<string[]>(parsed._)
  expectType<string[]>(parsed['--'])
  expectType<boolean>(parsed.json)
  expectType<unknown>(parsed.c)
  autocannon(parsed)
}
expectError(autocannon(autocannon.parseArguments(['-h'])))
expectType<undefined>(autocannon.start(autocannon.parseArguments(['-c', '100', url])))
expectType<undefined>(autocannon.start({ url }))
expectError(autocannon.start(['-c', '100', url]))
expectError(autocannon.parseArguments('-c 100'))

// require('autocannon').default is autocannon too (a default import without esModuleInterop reads it).
expectType<typeof autocannon>(autocannon.default)

// findMaxRate: SLOs required, steps typed, awaitable.
{
  const search = autocannon.findMaxRate({ url: 'http://localhost:3000', connections: [100, 1000], slos: ['p99 < 200ms'] })
  search.on('step', (step) => {
    expectType<number>(step.target)
    expectType<'pass' | 'fail' | 'inconclusive' | 'generator-bound'>(step.verdict)
    expectType<{ at: number, reason: string } | undefined>(step.settled)
    expectType<number | null | undefined>(step.checks[0].interval?.high)
    expectType<string | undefined>(step.uncertain?.text)
  })
  search.stop()
  ;(async () => {
    const out = await search
    expectType<string>(out.searches[0].sentence)
    expectType<boolean | undefined>(out.searches[0].uncertain?.step)
  })()
  expectError(autocannon.findMaxRate({ url: 'http://localhost:3000' }))
  expectError(autocannon({ url, overallRate: 10, arrivals: 'bursty' }))
  expectError(autocannon.findMaxRate({ url: 'http://localhost:3000', slos: ['p99<1s'], overallRate: 100 }))
  expectError(search.on('stepp', () => {}))
}

// renderHtml: one result or several, a page as a string.
expectType<string>(autocannon.renderHtml(result))
expectType<string>(autocannon.renderHtml([result, result], { title: 'before vs after', names: ['before.json', 'after.json'] }))
expectError(autocannon.renderHtml(result, { names: 'before.json' }))

// mergeResults: shards' results into one, with what was merged.
const mergedResult = autocannon.mergeResults([result, result], { expect: 2, thresholds: ['rps > 1000'] })
expectType<number[]>(mergedResult.merge.missing)
expectType<number>(mergedResult.requests.total)
expectError(autocannon.mergeResults(result))
const forced = autocannon.mergeResults([result, result], { force: true })
expectType<string[]>(forced.merge.differences.map((d) => d.flag))
expectType<'h2' | 'grpc' | 'mixed' | undefined>(forced.protocol)
if (result.shard && result.shard.run) expectType<number>(result.shard.run.connections)

// gRPC: the library's object or the flags' keys; the result's statuses.
const grpcRun = autocannon({ url: 'http://127.0.0.1:50051', grpc: { proto: 'echo.proto', call: 'bench.Echo/Say', data: { name: 'x' }, metadata: ['x-user: ann'], timeout: '500ms', compression: 'gzip' } })
grpcRun.then((r) => expectType<number | undefined>(r.grpcStatus?.UNAVAILABLE))
autocannon({ url: 'http://127.0.0.1:50051', call: 'bench.Echo/Say', proto: 'echo.proto', protoPath: ['protos'], data: '{}', metadata: ['k: v'], grpcTimeout: 0.5, grpcCompression: 'off' })
expectError(autocannon({ url: 'http://127.0.0.1:50051', grpc: { call: 'bench.Echo/Say', compression: 'br' } }))

// compare: two results in, verdicts out.
{
  const r = {} as autocannon.Result
  const cmp = autocannon.compare(r, r, { alpha: 0.01 })
  expectType<string>(cmp.metrics[0].verdict)
  expectError(autocannon.compare(r))
}
