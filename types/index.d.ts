// Types for the cannonade package (autocannon's API, drop-in), shipped with
// it so that they follow its options, events and result as they change (the
// community's types on DefinitelyTyped kept falling behind). test/types/
// checks them with tsd. For Node.js 22 and 24, the versions it supports and
// is tested on (package.json engines: >=22).

/// <reference types="node" />

import { EventEmitter } from 'events'
import { ConnectionOptions } from 'tls'

/**
 * Runs a benchmark against `options.url`.
 *
 * Returns an EventEmitter (see {@link autocannon.Instance} for its events)
 * that is also awaitable: it resolves to the result, or rejects with the
 * error that stopped the run (an invalid option, a worker that failed…).
 * With a callback, the callback gets that outcome instead and the
 * instance is not awaitable ({@link autocannon.RunEmitter}), as
 * autocannon's; nor is it with `forever`, whose rounds never end.
 *
 * @example
 * const result = await autocannon({ url: 'http://127.0.0.1:3000', connections: 10, duration: 10 })
 * console.log(autocannon.printResult(result))
 */
declare function autocannon (
  options: autocannon.Options & { skipAggregateResult: true },
  callback: autocannon.Callback<autocannon.RawResults>
): autocannon.RunEmitter<autocannon.RawResults>
declare function autocannon (
  options: autocannon.Options,
  callback: autocannon.Callback<autocannon.Result>
): autocannon.RunEmitter<autocannon.Result>
declare function autocannon (
  options: autocannon.Options & { forever: true },
  callback?: undefined
): autocannon.RunEmitter<autocannon.Result>
declare function autocannon (
  options: autocannon.Options & { skipAggregateResult: true },
  callback?: undefined
): autocannon.Instance<autocannon.RawResults>
declare function autocannon (
  options: autocannon.Options,
  callback?: undefined
): autocannon.Instance<autocannon.Result>

declare namespace autocannon {
  // \`require('autocannon').default\` is autocannon too, so that a default
  // import compiles to it even without esModuleInterop. (An export list in a
  // namespace makes every other member need its own \`export\`.)
  export { autocannon as default }

  // ---------------------------------------------------------------- options

  /** The HTTP methods editors suggest; any other token (e.g. `PURGE`) is accepted too. */
  export type HttpMethod =
    | 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS' | 'TRACE' | 'CONNECT'
    | (string & {})

  /**
   * Request headers, by name as they go on the wire. A number is sent as
   * its text, an array as one header line per value, and `null` or
   * `undefined` leaves the header out. `Content-Length` is always computed
   * from the body; `Transfer-Encoding: chunked` sends the body as one chunk.
   */
  export type RequestHeaders = Record<string, string | number | ReadonlyArray<string | number> | null | undefined>

  /**
   * Response headers, with the names as the server sent them (each one is
   * also readable in lower case); a header sent more than once is an array.
   */
  export type ResponseHeaders = Record<string, string | string[]>

  /** A request body: text (sent as UTF-8) or bytes. */
  export type Body = string | Buffer | Uint8Array

  /**
   * The state a connection keeps while it goes through `requests`: a fresh
   * deep copy of `initialContext` (or `{}`) each time the sequence starts
   * over from its first entry.
   */
  export type RequestContext = Record<string, any>

  /** The request as `setupRequest` receives it: a copy of its own to change. */
  export interface RawRequest {
    method: HttpMethod
    path: string
    headers: RequestHeaders
    body: Body | null | undefined
    /** The Host header value (`host[:port]`). */
    host: string
  }

  /**
   * Changes or replaces the request about to be sent. Returning a falsy
   * value starts the sequence over from the first entry (a "reset",
   * counted in `result.resets`); returning a promise sends the request when
   * it settles. A hook that throws, rejects, or returns something that
   * cannot be sent ends that request as an error (`AC_HOOK_ERROR`).
   */
  export type SetupRequest = (request: RawRequest, context: RequestContext) =>
    SetupRequestResult | PromiseLike<SetupRequestResult>

  /** What `setupRequest` returns: fields left out fall back to GET, `/` and the target's host. */
  export type SetupRequestResult = Partial<RawRequest> | null | undefined | false

  /**
   * Called with each response to its entry. `body` is the body as text,
   * kept up to `maxBodySize` bytes. A hook that throws counts that
   * response as a mismatch.
   */
  export type OnResponse = (status: number, body: string, context: RequestContext, headers: ResponseHeaders) => void

  /**
   * One entry of `requests`. Fields left out come from the run's options
   * (`method`, the URL's path, `headers`, `body`).
   */
  export interface Request {
    method?: HttpMethod
    path?: string
    /** Added to (and overriding) the run's `headers`. */
    headers?: RequestHeaders
    /** This entry's body; `null` sends none, whatever the run's `body` is. */
    body?: Body | null
    /**
     * A function, or the path of a module exporting one (as its
     * `module.exports` or `default`). With `workers`, it must be a path:
     * functions cannot be sent to a worker thread.
     */
    setupRequest?: SetupRequest | string
    /** A function, or the path of a module exporting one; a path with `workers`. */
    onResponse?: OnResponse | string
  }

  /** One field of a multipart form (`form`). */
  export type FormField =
    | { type: 'text', value: string | number | boolean | object }
    | {
        type: 'file'
        /** Relative paths are tried against the working directory, then the form file's directory. */
        path: string
        /** Passed to form-data's `append`, e.g. `{ filename, contentType }`. */
        options?: { filename?: string, contentType?: string, [key: string]: unknown }
      }

  /** A multipart/form-data body described by field name. */
  export type Form = Record<string, FormField>

  /** The parts of a HAR (HTTP Archive) file that are replayed. */
  export interface Har {
    log: {
      entries: Array<{
        request: {
          method: string
          url: string
          headers?: Array<{ name: string, value: string, [key: string]: unknown }>
          postData?: {
            text?: string
            params?: Array<{ name: string, value?: string, [key: string]: unknown }>
            [key: string]: unknown
          }
          [key: string]: unknown
        }
        [key: string]: unknown
      }>
      [key: string]: unknown
    }
    [key: string]: unknown
  }

  /**
   * The options of `autocannon(options)`. Numbers are also accepted as
   * numeric strings at run time (as a CLI or a JSON file hands them); for
   * the optional limits, `0` or `null` means "not set".
   */
  export interface Options {
    /**
     * The target, or several (connections are spread over them in turn).
     * `http://` is assumed without a scheme; `http://user:pass@host` sends
     * basic auth, and the password is masked in every output.
     */
    url: string | string[]

    /** A Unix domain socket to connect to; `url` still gives the Host header and the path. */
    socketPath?: string

    /**
     * Worker threads to run the connections in, each its part of the run
     * (as `shard` splits it: `connections`, `amount` and
     * `maxOverallRequests` divided exactly, `overallRate` and the `stages`
     * rates evenly). At most `connections` and `amount`. Hooks (`setupClient`, `verifyBody`, `setupRequest`,
     * `onResponse`) must then be file paths, and the `response` event is
     * not emitted: the clients live in other threads.
     * @default 0 (none: the run is in this thread)
     */
    workers?: number

    /**
     * Concurrent connections.
     * @default 10
     */
    connections?: number

    /**
     * Seconds to run, or a timestring such as `'10s'`, `'2m'` or `'1h30m'`.
     * Ignored when `amount` is set.
     * @default 10
     */
    duration?: number | string

    /**
     * Stop after exactly this many requests have ended, answered or not
     * (errors and timeouts count, so a run against a dead target ends too).
     */
    amount?: number

    /**
     * Milliseconds between two samples of Req/Sec and Bytes/Sec.
     * @default 1000
     */
    sampleInt?: number

    /**
     * Seconds to wait for a response (or for the connection to open) before
     * the connection is closed; its requests in flight count as timeouts.
     * @default 10
     */
    timeout?: number

    /**
     * Requests in flight per connection (HTTP pipelining).
     * @default 1
     */
    pipelining?: number

    /**
     * Speak HTTP/2: ALPN h2 over TLS for https targets (refused before the
     * run when the server does not offer it), h2c with prior knowledge for
     * http ones. `pipelining` is then the streams per connection.
     * @default false
     */
    http2?: boolean

    /**
     * Make gRPC unary calls (over HTTP/2: h2c for http://, ALPN h2 for
     * https://) instead of HTTP requests; the flags --proto, --call… are
     * the same options at the top level (this object wins). See docs/grpc.md.
     */
    grpc?: GrpcOptions
    /** The gRPC call's method, package.Service/Method (CLI --call): makes the run gRPC. */
    call?: string
    /** The .proto file of the call (CLI --proto); without it and protoset, the server's reflection defines the call. */
    proto?: string
    /** Directories the .proto's imports are looked for in (CLI --protoPath). */
    protoPath?: string[]
    /** A FileDescriptorSet instead of proto (CLI --protoset). */
    protoset?: string
    /** The request message as JSON, or @file.json (CLI --data); {{…}} templates filled per call. */
    data?: string
    /** Metadata of each call, as 'key: value' (CLI --metadata). */
    metadata?: string[]
    /** The deadline of each call, seconds or a timestring (CLI --grpcTimeout). */
    grpcTimeout?: number | string
    /** Compression of the request message (CLI --grpcCompression). @default 'off' */
    grpcCompression?: 'off' | 'gzip'

    /** Stop after this many errors, or this many mismatches. */
    bailout?: number

    /**
     * The request method.
     * @default 'GET' ('POST' with `form`)
     */
    method?: HttpMethod

    /** A name for the run, copied into the result. */
    title?: string

    /**
     * The request body. With `idReplacement`, each `[<id>]` in it becomes a
     * fresh id per request. Cannot be used together with `form`.
     */
    body?: Body

    /**
     * A multipart/form-data body: the fields as an object, as a JSON
     * string, or the path of a JSON file describing them. Sets the
     * Content-Type (with its boundary) and makes the method POST unless
     * `method` says otherwise.
     */
    form?: Form | string

    /**
     * Headers sent with every request.
     * @default {}
     */
    headers?: RequestHeaders

    /** What each connection's `context` starts as (deep-copied) for `setupRequest` and `onResponse`. */
    initialContext?: Record<string, any>

    /**
     * Called with each connection's {@link Client} as it is created, to give
     * it its own headers, body or requests. A function, or the path of a
     * module exporting one (a path with `workers`).
     */
    setupClient?: ((client: Client) => void) | string

    /**
     * Called with each response body as text; a response for which it
     * returns false is counted in `mismatches`. Takes precedence over
     * `expectBody`. A function, or the path of a module exporting one (a
     * path with `workers`).
     */
    verifyBody?: ((body: string) => boolean) | string

    /** Requests per connection, after which it stops. `amount` takes precedence. */
    maxConnectionRequests?: number

    /** Requests overall, after which the run stops. `maxConnectionRequests` and `amount` take precedence. */
    maxOverallRequests?: number

    /**
     * Requests per second from each connection, evenly spaced by a plan;
     * latency is then measured from each request's planned send time.
     */
    connectionRate?: number

    /**
     * Requests per second from all connections together, evenly spaced by
     * a plan; latency is then measured from each request's planned send time.
     */
    overallRate?: number

    /**
     * Load stages: the overall rate ramps linearly from each stage's start
     * (the previous stage's rate; `overallRate` or 0 for the first) to its
     * `rate` over its `duration` (seconds or a timestring). The stages set
     * the run's length. As a string: `'30s:100,2m:5000,30s:0'`. Not with
     * `connectionRate` or `amount`.
     */
    stages?: ReadonlyArray<{ duration: number | string, rate: number }> | string

    /**
     * Connection stages: the number of open connections ramps linearly
     * from each stage's start (the previous stage's count, 0 for the
     * first) to its `connections` over its `duration` (seconds or a
     * timestring; 0 for a step). The stages set the run's length and its
     * connections. As a string: `'30s:100,1m:1000,30s:0'`. Not with a
     * rate or `amount`.
     */
    connectionStages?: ReadonlyArray<{ duration: number | string, connections: number }> | string

    /**
     * How the sends of a rate (`overallRate`, `connectionRate` or `stages`)
     * are spaced: `'uniform'`, evenly, or `'poisson'`, exponential gaps
     * drawn from `seed` (a Poisson process; latency still counts from each
     * request's planned time). @default 'uniform'
     */
    arrivals?: 'uniform' | 'poisson'

    /**
     * The seed of the random choices (the gaps of `arrivals: 'poisson'`),
     * an integer from 0 to 4294967295: the same seed sends at the same
     * times. Random when not given; `result.rate.seed` gives it.
     */
    seed?: number

    /**
     * An HTTP proxy, `http://[user:pass@]host:port`: requests in absolute
     * form for http targets, a CONNECT tunnel for https ones. `'env'` reads
     * HTTP_PROXY / HTTPS_PROXY / NO_PROXY; the environment is never read
     * otherwise. Credentials are masked in every output.
     */
    proxy?: string

    /**
     * Under a rate, report latency from the actual write rather than from
     * the planned send time. Refused without `connectionRate`, `overallRate` or `stages`.
     * @default false
     */
    ignoreCoordinatedOmission?: boolean

    /** Each connection reconnects after sending this many requests. */
    reconnectRate?: number

    /**
     * The requests each connection sends, in order, round and round. Each
     * entry's fields override the run's `method`, `headers`, `body` and the
     * URL's path.
     */
    requests?: Request[]

    /**
     * Requests replayed from a HAR: the parsed object, its JSON text (or
     * bytes), or the path of a `.har` file. Only entries whose origin is one
     * of the `url`s are sent (the others are skipped with a warning);
     * `method`, `body`, `form` and `requests` are then ignored.
     */
    har?: Har | string | Buffer

    /**
     * The path of a request file in vegeta's plain format (`METHOD URL`,
     * header lines, an optional `@body-file` line, a blank line between
     * requests), replayed as `har` is: only the requests to the `url`s'
     * origins; not with `har` or `requests`.
     */
    targets?: string

    /**
     * The order `targets` are sent in: `'sequential'`, the file's, across
     * all connections (each worker has its own), or `'random'`, drawn from
     * `seed`.
     * @default 'sequential'
     */
    order?: 'sequential' | 'random'

    /**
     * Replace each `[<id>]` in the path, header values and body with a fresh
     * id per request.
     * @default false
     */
    idReplacement?: boolean

    /**
     * Run round after round, emitting `done` after each, until `stop()`.
     * Refused with a callback and with `workers`.
     * @default false
     */
    forever?: boolean

    /**
     * The TLS server name (SNI).
     * @default the URL's host name, unless it is an IP address
     */
    servername?: string

    /**
     * Leave non-2xx responses out of latency and throughput.
     * @default false
     */
    excludeErrorStats?: boolean

    /** The expected response body; a response with any other body is counted in `mismatches`. */
    expectBody?: string

    /**
     * Options for `tls.connect` (certificates, keys, CAs…). Certificates
     * are not verified unless `rejectUnauthorized` is `true`.
     */
    tlsOptions?: ConnectionOptions

    /**
     * Resolve with the raw, mergeable data of the run (one per worker with
     * `workers`) instead of the result, for {@link aggregateResult}.
     * @default false
     */
    skipAggregateResult?: boolean
    /**
     * A warm-up run before the measured one, as in autocannon: the run's
     * options with these over them (`connections`, `duration`…). Its
     * events are not the instance's; its result is `result.warmup`.
     */
    warmup?: Partial<Omit<Options, 'warmup' | 'forever' | 'startAt'>>

    /**
     * Bytes of a response body kept for `expectBody`, `verifyBody`,
     * `onResponse` or a `body` listener; a larger body makes that request an
     * error (`AC_BODY_TOO_LARGE`) and the run goes on.
     * @default 10485760 (10 MiB)
     */
    maxBodySize?: number

    /**
     * Print each connection error on stderr as it happens.
     * @default false
     */
    debug?: boolean

    /**
     * Serve a live dashboard of the run (docs/dashboard.md): `true` for a
     * free port on 127.0.0.1, a port, or `{ port, host, keepOpen }`. Its
     * URL is printed on stderr as `dashboard: URL`, and emitted as the
     * instance's 'dashboard' event.
     */
    dashboard?: boolean | number | { port?: number, host?: string, keepOpen?: boolean }

    /**
     * Pass/fail criteria checked on the result, in the style of k6:
     * `'p99 < 200ms'`, `'errors < 1%'`, `'rps > 5000'`. The outcome is in
     * `result.thresholds`.
     */
    thresholds?: string[]

    /**
     * Stop the run as soon as a threshold fails on what it has measured so
     * far (checked at every sample), as k6's abortOnFail: the result says
     * so in `aborted`, after an `'abort'` event. Needs `thresholds`; with
     * `workers`, all workers' figures together are checked. `generator.*`
     * terms are judged on the whole run only.
     * @default false
     */
    abortOnFail?: boolean

    /**
     * With `abortOnFail`: seconds (or a timestring) before the first check.
     * @default 0
     */
    abortAfter?: number | string

    /**
     * This process sends part `index` of `count` of the load (0-based, as a
     * Kubernetes Indexed Job numbers its pods; `'I/N'` works too):
     * `connections`, `amount` and `maxOverallRequests` are divided exactly
     * as workers divide them, `overallRate` and the `stages` rates evenly.
     * The result says which shard it is, for `autocannon merge`.
     */
    shard?: { index: number, count: number } | string

    /**
     * Wait until this time, then start: samples then end at this time + 1,
     * 2… intervals on every machine. A `Date`, epoch milliseconds, or ISO
     * 8601 with a zone. More than one `sampleInt` in the past is refused.
     */
    startAt?: Date | number | string
  }

  /**
   * The callback of `autocannon(options, callback)`: an error, or `null`
   * and the result (`result` is `undefined` when there is an error).
   */
  export type Callback<R = Result> = (err: AutocannonError | null, result: R) => void

  // ----------------------------------------------------------------- result

  /** The statistics of a histogram. Latency in milliseconds; counts per sample interval for requests and bytes. */
  export interface Histogram {
    /** The mean. */
    average: number
    /** The mean (the same as `average`). */
    mean: number
    stddev: number
    min: number
    max: number
    p0_001: number
    p0_01: number
    p0_1: number
    p1: number
    p2_5: number
    p10: number
    p25: number
    p50: number
    p75: number
    p90: number
    p97_5: number
    p99: number
    p99_9: number
    p99_99: number
    p99_999: number
  }

  /** Latency in milliseconds, with microsecond precision. */
  export interface LatencyHistogram extends Histogram {
    /** The number of latencies recorded. */
    totalCount: number
  }

  /** `result.timings`: each phase's times in milliseconds, as latency's. */
  export interface Timings {
    dns: LatencyHistogram
    connect: LatencyHistogram
    proxyConnect: LatencyHistogram
    tls: LatencyHistogram
    ttfb: LatencyHistogram
    transfer: LatencyHistogram
  }

  /** Responses per sample interval. */
  export interface RequestsHistogram extends Histogram {
    /** Responses received (any status). */
    total: number
    /** Requests started: `sent = total + errors + inFlight`. */
    sent: number
    /** Requests started but not ended when the run stopped. */
    inFlight: number
  }

  /** Bytes per sample interval. */
  export interface ThroughputHistogram extends Histogram {
    /** Bytes received. */
    total: number
  }

  /** The causes `errors` are split by (as wrk counts socket errors, plus failing hooks). */
  export type ErrorCause = 'connect' | 'read' | 'write' | 'timeout' | 'parse' | 'hook'

  /** Codes autocannon raises: the `code` of the error a run rejects with. */
  /** A gRPC call: the library's grpc option. */
  export interface GrpcOptions {
    /** package.Service/Method */
    call: string
    /** Without proto and protoset, the server's reflection defines the call. */
    proto?: string | string[]
    protoPath?: string | string[]
    protoset?: string
    /** The request message: an object, its JSON, or @file.json; {{…}} templates filled per call. */
    data?: object | string
    /** 'key: value' lines, or an object of them. */
    metadata?: string[] | Record<string, string>
    /** The deadline of each call: seconds, or a timestring ('500ms'). */
    timeout?: number | string
    compression?: 'off' | 'gzip'
  }

  /** gRPC's status names (doc/statuscodes.md). */
  export type GrpcStatusName = 'OK' | 'CANCELLED' | 'UNKNOWN' | 'INVALID_ARGUMENT' | 'DEADLINE_EXCEEDED' | 'NOT_FOUND' | 'ALREADY_EXISTS' | 'PERMISSION_DENIED' | 'RESOURCE_EXHAUSTED' | 'FAILED_PRECONDITION' | 'ABORTED' | 'OUT_OF_RANGE' | 'UNIMPLEMENTED' | 'INTERNAL' | 'UNAVAILABLE' | 'DATA_LOSS' | 'UNAUTHENTICATED'

  export type RaisedErrorCode =
    | 'AC_INVALID_OPTION'
    | 'AC_INVALID_ARGUMENT'
    | 'AC_CONFLICTING_OPTIONS'
    | 'AC_FILE_UNREADABLE'
    | 'AC_FILE_UNWRITABLE'
    | 'AC_INVALID_TLS_FILE'
    | 'AC_TOO_MANY_CONNECTIONS'
    | 'AC_TOO_MANY_SHARDS'
    | 'AC_TOO_MANY_WORKERS'
    | 'AC_WORKER_FAILED'
    | 'AC_NOT_A_RESULT'
    | 'AC_DASHBOARD_LISTEN'
    | 'AC_CANNOT_MERGE'
    | 'AC_DIFFERENT_RUNS'
    | 'AC_HOST_NOT_FOUND'
    | 'AC_NO_RESPONSE'
    | 'AC_COMMAND_FAILED'
    | 'AC_H2_NOT_OFFERED'
    | 'AC_H2C_NOT_SPOKEN'
    | 'AC_INTERNAL_MODULE'
    | 'AC_GRPC_OPTION'
    | 'AC_GRPC_PROTO'
    | 'AC_GRPC_METHOD'
    | 'AC_GRPC_DATA'
    | 'AC_GRPC_NO_REFLECTION'
    | 'AC_GRPC_NOT_SPOKEN'

  /**
   * Codes of requests that ended in an error (in `result.errorCodes` and on
   * `reqError`), besides the system's (`ECONNREFUSED`, `ECONNRESET`…) and
   * the HTTP parser's (`HPE_*`).
   */
  export type CountedErrorCode =
    | 'AC_TIMEOUT'
    | 'AC_CONNECT_TIMEOUT'
    | 'AC_SOCKET_HANG_UP'
    | 'AC_UNEXPECTED_RESPONSE'
    | 'AC_BODY_TOO_LARGE'
    | 'AC_HOOK_ERROR'
    | 'AC_PROXY_REFUSED'
    | 'AC_H2_PROTOCOL_ERROR'
    | 'AC_H2_FRAME_SIZE_ERROR'
    | 'AC_H2_FLOW_CONTROL_ERROR'
    | 'AC_H2_COMPRESSION_ERROR'
    | 'AC_H2_ENHANCE_YOUR_CALM'
    | 'AC_H2_RST_NO_ERROR'
    | 'AC_H2_RST_PROTOCOL_ERROR'
    | 'AC_H2_RST_INTERNAL_ERROR'
    | 'AC_H2_RST_FLOW_CONTROL_ERROR'
    | 'AC_H2_RST_SETTINGS_TIMEOUT'
    | 'AC_H2_RST_STREAM_CLOSED'
    | 'AC_H2_RST_FRAME_SIZE_ERROR'
    | 'AC_H2_RST_REFUSED_STREAM'
    | 'AC_H2_RST_CANCEL'
    | 'AC_H2_RST_COMPRESSION_ERROR'
    | 'AC_H2_RST_CONNECT_ERROR'
    | 'AC_H2_RST_ENHANCE_YOUR_CALM'
    | 'AC_H2_RST_INADEQUATE_SECURITY'
    | 'AC_H2_RST_HTTP_1_1_REQUIRED'
    | 'AC_H2_RST_UNKNOWN'
    | 'AC_H2_GOAWAY'
    | 'AC_H2_NOT_OFFERED'
    | 'AC_H2C_NOT_SPOKEN'
    | 'AC_H2_NO_SETTINGS'
    | 'AC_GRPC_DATA_FILL'
    | 'AC_GRPC_CANCELLED'
    | 'AC_GRPC_UNKNOWN'
    | 'AC_GRPC_INVALID_ARGUMENT'
    | 'AC_GRPC_DEADLINE_EXCEEDED'
    | 'AC_GRPC_NOT_FOUND'
    | 'AC_GRPC_ALREADY_EXISTS'
    | 'AC_GRPC_PERMISSION_DENIED'
    | 'AC_GRPC_RESOURCE_EXHAUSTED'
    | 'AC_GRPC_FAILED_PRECONDITION'
    | 'AC_GRPC_ABORTED'
    | 'AC_GRPC_OUT_OF_RANGE'
    | 'AC_GRPC_UNIMPLEMENTED'
    | 'AC_GRPC_INTERNAL'
    | 'AC_GRPC_UNAVAILABLE'
    | 'AC_GRPC_DATA_LOSS'
    | 'AC_GRPC_UNAUTHENTICATED'
    | 'AC_UNKNOWN'

  /**
   * Codes of warnings: process warnings (`process.on('warning')`), lines
   * on stderr, or entries of `result.merge.warnings`. The run goes on.
   */
  export type WarningCode =
    | 'AC_WORKERS_OVER_CORES'
    | 'AC_WORKERS_OVER_CONNECTIONS'
    | 'AC_WORKERS_OVER_AMOUNT'
    | 'AC_SHARD_PARTIAL'
    | 'AC_NOT_WITH_WORKERS'
    | 'AC_UNKNOWN_OPTION'
    | 'AC_HAR_OTHER_ORIGIN'
    | 'AC_HAR_NO_ENTRY'
    | 'AC_TARGETS_OTHER_ORIGIN'
    | 'AC_TARGETS_NO_ENTRY'
    | 'AC_SHARD_MISSING'
    | 'AC_SHARD_DUPLICATE'
    | 'AC_SHARD_MISMATCH'
    | 'AC_SHARD_EMPTY'
    | 'AC_SHARD_GAP'
    | 'AC_GENERATOR_DISTORTED'
    | 'AC_RESPONSES_TO_NO_REQUEST'
    | 'AC_OPTION_COERCED'
    | 'AC_DASHBOARD_NOT_LOOPBACK'
    | 'AC_KUBE_LOCAL_FILES'

  /** Rate plan figures, under `connectionRate` or `overallRate`. */
  export interface RateResult {
    /** The rate asked for, requests per second. */
    target: number
    /** Responses per second over the run. */
    achieved: number
    /** Requests the plan made due over the run (a Poisson plan's count is its draw). */
    planned: number
    /** Requests that left more than 5 ms after their planned time. */
    late: number
    /** How far behind the plan those requests left, in milliseconds. */
    lateness: Histogram | undefined
    /** How the sends were spaced (`'mixed'`: a merge of results spaced differently). */
    arrivals: 'uniform' | 'poisson' | 'mixed'
    /** The seed that replays the Poisson gaps (`seed`); absent for uniform arrivals. */
    seed?: number
  }

  /** The load generator's own health over the run (docs/latency.md: Generator health). */
  export interface GeneratorHealth {
    /** How late the sending threads' event loops ran a 10 ms timer, in ms (all threads' samples); null in a result merged from ones that lack it. */
    loopDelay: { p50: number, p99: number, max: number } | null
    /** The busiest sending thread's busy share (event-loop utilisation), 0 to 1. */
    cpu: number
    /** Requests that left more than 5 ms after their planned time. */
    late: number
    /** How late requests left against the plan, in ms; null without a rate. */
    lateness: { p99: number, max: number } | null
    /** Of `late`: every connection was busy (or at its pipelining limit) when they were due. */
    lateNoConnection: number
    /** Of `late`: the thread was late in a pause that was mostly its own work. */
    lateOwn: number
    /** Of `late`: the thread was late in a pause while it was not running (other processes had the CPU). */
    lateStarved: number
    /** The event-loop pauses (samples 1 ms late or more), split by whose they were: the thread's own work (its CPU time advanced) or not running; null where no thread's CPU time could be read. */
    pauses: { own: PauseTotals, starved: PauseTotals } | null
  }

  /** One cause's part of the generator's pauses. */
  export interface PauseTotals {
    /** Pauses that were mostly this cause. */
    count: number
    /** This cause's part of all pauses, in ms. */
    ms: number
    /** Its longest part of one pause, in ms. */
    max: number
  }

  /** One `thresholds` expression, checked on the result. */
  export interface ThresholdResult {
    /** The expression as given, e.g. `'p99 < 200ms'`. */
    expression: string
    /** What it measures, e.g. `'p99'`. */
    metric: string
    /** The comparison, e.g. `'<'`. */
    operator: string
    /** The limit, in the metric's unit. */
    limit: number
    /** The unit of `limit` and `value`: `'ms'`, `'%'`, `''` (a count), `'req/s'` or `'B/s'`. */
    unit: string
    /** The measured value, in the same unit. */
    value: number
    ok: boolean
  }

  /** The result of a run: what `done` passes, what the instance resolves to. */
  export interface Result {
    /** The `title` option. */
    title?: string
    /** The target(s), with credentials masked. */
    url: string | string[]
    socketPath?: string
    connections: number
    pipelining: number
    /** 'h2' when the run spoke HTTP/2 (`http2`); absent over HTTP/1.1; 'mixed' in a forced merge of both. */
    protocol?: 'h2' | 'grpc' | 'mixed'
    /** A gRPC run's calls by gRPC status name (OK, UNAVAILABLE, DEADLINE_EXCEEDED…): OK are its responses, the rest its AC_GRPC_<STATUS> errors. */
    grpcStatus?: Partial<Record<GrpcStatusName, number>>
    /** The `workers` option, when the run used workers. */
    workers?: number
    /** Milliseconds between two samples. */
    sampleInt: number
    /** The number of Req/Sec and Bytes/Sec samples. */
    samples: number
    /** The measured wall time of the run, in seconds. */
    duration: number
    /** When the run started (a string in a result read back from JSON). */
    start: Date
    /** When the run ended (a string in a result read back from JSON). */
    finish: Date
    /** Requests that ended in an error (`timeouts` among them). */
    errors: number
    /** Requests that timed out. */
    timeouts: number
    /** `errors`, split by cause. */
    errorsByCause: Record<ErrorCause, number>
    /** `errors`, split by code (`ECONNREFUSED`, `HPE_*`, {@link CountedErrorCode}…). */
    errorCodes: Record<string, number>
    /** Responses whose body failed `expectBody` or `verifyBody`, or whose check hook threw. */
    mismatches: number
    /** Responses with a status outside 2xx (responses, not errors). */
    non2xx: number
    /** Times a `setupRequest` restarted its sequence. */
    resets: number
    /**
     * Requests sent again on a new connection, counted once: the server
     * closed theirs before a byte of their response (announced, or after
     * answering on it before, for idempotent methods; RFC 9112 §9.3.1).
     */
    resent: number
    /**
     * Responses that came when no request was waiting for one (a server
     * that answers twice); each closed its connection, and the run warns
     * once after its end (`AC_RESPONSES_TO_NO_REQUEST`).
     */
    unexpectedResponses: number
    '1xx': number
    '2xx': number
    '3xx': number
    '4xx': number
    '5xx': number
    /** Responses by status code, e.g. `{ '200': { count: 500 } }`. */
    statusCodeStats: Record<string, { count: number }>
    /** Latency in milliseconds: under a rate, from each request's planned send time. */
    latency: LatencyHistogram
    /** Under a rate (without `ignoreCoordinatedOmission`): service time, from the actual write to the response. */
    latencyUncorrected?: LatencyHistogram
    /** Responses per sample, plus the totals. */
    requests: RequestsHistogram
    /** Bytes per sample, plus the total. */
    throughput: ThroughputHistogram
    /** Under a rate: the plan and how well it was kept. */
    rate?: RateResult
    /** The generator's own health: what tells its pauses from the server's. */
    generator: GeneratorHealth
    /**
     * Where the time went, in milliseconds (results saved by older versions
     * lack it). Per connection opened: `dns` (the name lookup; 0 for an
     * address), `connect` (TCP, to the proxy when there is one),
     * `proxyConnect` (a proxy's answer to CONNECT) and `tls` (the
     * handshake). Per response: `ttfb` (from the write of its request to
     * the first byte of its head) and `transfer` (the rest of it). A phase
     * no connection took has a `totalCount` of 0.
     */
    timings?: Timings
    /**
     * The histograms themselves, as compressed base64 HdrHistograms, so a
     * saved result can be rendered or merged again (results saved by older
     * versions lack them).
     */
    histograms?: {
      latency: string
      latencyUncorrected?: string
      /** Under a rate: how late requests left against the plan (µs). */
      lateness?: string
      /** The generator's event-loop delay (µs). */
      loopDelay?: string
      requests: string
      throughput: string
      /** The phases' histograms (µs), as `timings` names them. */
      timings?: Record<keyof Timings, string>
    }
    /**
     * Figures per sample interval, one array entry per interval (results
     * saved by older versions lack them).
     */
    series?: {
      /** Milliseconds per interval. */
      interval: number
      time: number[]
      requests: number[]
      bytes: number[]
      errors: number[]
      latencyP50: number[]
      latencyP99: number[]
      /** The generator's longest event-loop delay in each interval (ms; any thread's). */
      loopDelayMax: number[]
      /** Connections open at each interval's end (all threads'). */
      connections?: number[]
      /** Each interval's latency histogram, compressed base64. */
      latency: string[]
      /** Each interval's mean time to first byte and transfer (ms), and how many responses they are of. */
      ttfbMean?: number[]
      transferMean?: number[]
      timed?: number[]
    }
    /** The outcome of each of the `thresholds` option's expressions. */
    thresholds?: ThresholdResult[]
    /** With the `connectionStages` option: the ramp the run followed. */
    connectionStages?: Array<{ duration: number, connections: number }>
    /**
     * With the `shard` option: which part of the run this is (0-based),
     * and the whole run's options that divide the load, which `merge`
     * holds every shard to.
     */
    shard?: { index: number, count: number, run?: ShardRun }
    /** CLI: the run was cut short by this signal (printed and written all the same). In a merge: how many results were, which shards, by which signals. */
    partial?: { signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP' } | { results: number, shards: number[], signals: string[] }
    /** With `abortOnFail`: the threshold that stopped the run. */
    aborted?: Aborted
    /** With the `warmup` option: the warm-up's own result. */
    warmup?: Result
    /** With the `startAt` option: the time the run waited for (a string when read back from JSON). */
    startAt?: Date
    /** In a result made by `autocannon merge`: what was merged. */
    merge?: {
      /** Results merged. */
      results: number
      /** Shards among them (0 when the results were run without `shard`), and how many there should be. */
      shards: number
      expected: number
      /** Indexes of the shards with no result: a merge of part of the run (the CLI exits 3 unless `--allowMissing`). */
      missing: number[]
      /** Indexes that had more than one result (only the first was merged). */
      duplicates: number[]
      /** The latest start minus the earliest, as each machine's clock read it. */
      startSkewMs: number
      /** What the results disagreed on (merged only with `force`): each option, with each value and the results that had it. */
      differences: Array<{ option: string, flag: string, values: Array<{ value: unknown, results: string[] }> }>
      warnings: Array<{ code: Extract<WarningCode, 'AC_SHARD_MISSING' | 'AC_SHARD_DUPLICATE' | 'AC_SHARD_MISMATCH' | 'AC_SHARD_PARTIAL' | 'AC_SHARD_EMPTY' | 'AC_SHARD_GAP'>, message: string }>
    }
  }

  /** A shard's record of the whole run it is part of (before its part was taken). */
  export interface ShardRun {
    connections: number
    /** 0: not set. */
    amount: number
    maxOverallRequests: number
    overallRate: number
    connectionRate: number
    /** Seconds (the stages' sum when staged). */
    duration: number
    stages: Array<{ duration: number, rate: number }> | null
    connectionStages: Array<{ duration: number, connections: number }> | null
  }

  /**
   * The raw, mergeable data of one run (or one worker), as
   * `skipAggregateResult` gives it. Plain JSON-safe data: save it, send it
   * elsewhere, and merge it with {@link aggregateResult}. Every key of
   * autocannon's own ({@link UpstreamRawResult}), and more.
   */
  export interface RawResult extends UpstreamRawResult {
    /** Latency histogram in whole ms, as autocannon's (`lib/histUtil`'s `decodeHist` reads it), compressed base64. */
    latencies: string
    /** Latency histogram in µs, compressed base64: what {@link aggregateResult} merges (lossless). */
    latenciesUs?: string
    /** Responses per sample, as autocannon's: a histogram, compressed base64. */
    requests?: string
    /** Bytes per sample, as autocannon's: a histogram, compressed base64. */
    throughput?: string
    latenciesUncorrected?: string
    /** `[sample end (epoch ms), responses, bytes]` per sample interval. */
    series: Array<[number, number, number]>
    inFlight: number
    errorsByCause: Record<ErrorCause, number>
    errorCodes: Record<string, number>
    resent?: number
    unexpectedResponses?: number
    targetRate: number
    late: number
    /** Of `late`, by cause (see GeneratorHealth); absent in raw results from older versions. */
    lateNoConnection?: number
    lateOwn?: number
    lateStarved?: number
    /** The thread's pauses by cause, in µs; null where its CPU time could not be read. */
    pauses?: { own: { count: number, us: number, maxUs: number }, starved: { count: number, us: number, maxUs: number } } | null
    lateness?: string
    /** The sending thread's event-loop delay (µs), compressed base64. */
    loopDelay: string
    /** The phases' histograms (µs), compressed base64. */
    timings?: Record<keyof Timings, string>
    /** The share of the run the sending thread was busy, 0 to 1. */
    busy: number
  }

  /**
   * autocannon's own raw result (its `skipAggregateResult`'s, or one built
   * with its `lib/histUtil`): histograms in compressed base64, latency in ms.
   */
  export interface UpstreamRawResult {
    latencies: string
    requests?: string
    throughput?: string
    totalCompletedRequests: number
    totalRequests: number
    totalBytes: number
    samples: number
    errors: number
    timeouts: number
    mismatches: number
    non2xx: number
    resets: number
    '1xx': number
    '2xx': number
    '3xx': number
    '4xx': number
    '5xx': number
    statusCodeStats: Record<string, { count: number }>
    duration: number
    start: Date | string | number
    finish: Date | string | number
  }

  /** An HdrHistogram as `lib/histUtil`'s `getHistograms` builds them (hdr-histogram-js's). */
  export interface HdrHistogram {
    totalCount: number
    getValueAtPercentile (percentile: number): number
    recordValue (value: number): void
  }

  /** What a `skipAggregateResult` run gives: one raw result, or one per worker. */
  export type RawResults = RawResult | RawResult[]

  // ----------------------------------------------------------------- events

  /** Counted once per second (summed over workers). */
  /** A sample interval as it ends: the 'sample' event, emitted only to its listeners. */
  export interface Sample {
    /** Seconds since the start at the interval's end. */
    elapsed: number
    /** Epoch milliseconds of the interval's end. */
    time: number
    /** The sample interval (ms). */
    interval: number
    /** Responses in the interval. */
    requests: number
    bytes: number
    errors: number
    latencyP50: number
    latencyP99: number
    loopDelayMax: number
    connections: number
    ttfbSum: number
    transferSum: number
    timed: number
    /** The interval's latency histogram, packed. */
    latency: Uint8Array
    /** The run's so far. */
    totals: { responses: number, sent: number, errors: number, timeouts: number, late: number, statusCodes: Record<string, number> }
  }

  export interface Tick {
    /** Responses since the last tick. */
    counter: number
    /** Bytes since the last tick. */
    bytes: number
  }

  /** Why `abortOnFail` stopped a run: the threshold, when (s since the start), its value then. */
  export interface Aborted {
    threshold: string
    at: number
    value: number
    unit: string
  }

  /** An error autocannon raises (invalid options, a worker that failed…). */
  export interface AutocannonError extends Error {
    /** A {@link RaisedErrorCode}; an error thrown by your own hook keeps its own code, if any. */
    code?: RaisedErrorCode | (string & {})
    /** With `AC_INVALID_OPTION`, and `AC_FILE_UNREADABLE` for a file an option names: the option at fault, e.g. `'connections'`, `'requests[2].setupRequest'` or `'form'`. */
    option?: string
    /**
     * Ours, when `message` is autocannon's own wording (which scripts
     * compare with `===`): the value and what is accepted, or the file.
     */
    detail?: string
  }

  /** A failed connection or request: a system error (`ECONNREFUSED`…), a parser error (`HPE_*`) or a {@link CountedErrorCode}. */
  export interface RequestError extends Error {
    code?: CountedErrorCode | (string & {})
    /** With `'request timed out'` (autocannon's message): what timed out. */
    detail?: string
  }

  /** The events of an {@link Instance}, with their arguments. */
  export interface InstanceEvents<R = Result> {
    start: []
    tick: [tick: Tick]
    sample: [sample: Sample]
    dashboard: [dashboard: { url: string }]
    response: [client: Client, statusCode: number, resBytes: number, responseTime: number]
    reqError: [err: RequestError]
    abort: [aborted: Aborted]
    reqMismatch: [body: string]
    done: [result: R]
    error: [err: AutocannonError]
  }

  /**
   * A running benchmark: an EventEmitter that can also be awaited (it
   * resolves to the result, or rejects with the error that stopped it).
   */
  export interface Instance<R = Result> extends RunEmitter<R>, PromiseLike<R> {
    then<T1 = R, T2 = never> (
      onfulfilled?: ((value: R) => T1 | PromiseLike<T1>) | null,
      onrejected?: ((reason: any) => T2 | PromiseLike<T2>) | null
    ): Promise<T1 | T2>
    catch<T = never> (onrejected?: ((reason: any) => T | PromiseLike<T>) | null): Promise<R | T>
    finally (onfinally?: (() => void) | null): Promise<R>
  }

  /**
   * A running benchmark as an EventEmitter that is not awaitable: what
   * `autocannon()` returns with a callback, or with `forever`, as
   * autocannon's does (`await` gives the instance itself).
   */
  export interface RunEmitter<R = Result> extends EventEmitter {
    /** The options as validated, with their defaults; `null` when they were refused. */
    readonly opts: Readonly<Options> | null

    /** Ends the run now; the result gathered so far is still delivered. */
    stop (): void

    /** Emitted when the run (each round, with `forever`) has started: requests begin to go (with `workers`, once every worker is ready). */
    on (event: 'start', listener: () => void): this
    /** Emitted every second, and once at the end, with what arrived since the last tick. */
    on (event: 'tick', listener: (tick: Tick) => void): this
    /** Emitted as each sample interval ends (workers' merged), to its listeners only. */
    on (event: 'sample', listener: (sample: Sample) => void): this
    /** Emitted once the dashboard listens, with its URL. */
    on (event: 'dashboard', listener: (dashboard: { url: string }) => void): this
    /**
     * Emitted for each response, with the connection's client, the status,
     * the bytes of the response and its latency in milliseconds. Not
     * emitted with `workers`.
     */
    on (event: 'response', listener: (client: Client, statusCode: number, resBytes: number, responseTime: number) => void): this
    /**
     * Emitted once per failed connection (not once per request lost with
     * it), and once per run for a hook that throws.
     */
    on (event: 'reqError', listener: (err: RequestError) => void): this
    /** Emitted for each response whose body failed `expectBody` or `verifyBody`, with that body. */
    on (event: 'reqMismatch', listener: (body: string) => void): this
    /** Emitted with the result when the run (each round, with `forever`) is over. */
    on (event: 'done', listener: (result: R) => void): this
    /**
     * Emitted when a `forever` run without a callback cannot start or goes
     * wrong as a whole; otherwise that error goes to the callback or the
     * promise's rejection.
     */
    on (event: 'error', listener: (err: AutocannonError) => void): this

    /** Emitted when the run (each round, with `forever`) has started. */
    once (event: 'start', listener: () => void): this
    /** Emitted every second, and once at the end, with what arrived since the last tick. */
    once (event: 'tick', listener: (tick: Tick) => void): this
    /** Emitted for each response. Not emitted with `workers`. */
    once (event: 'response', listener: (client: Client, statusCode: number, resBytes: number, responseTime: number) => void): this
    /** Emitted once per failed connection, and once per run for a hook that throws. */
    once (event: 'reqError', listener: (err: RequestError) => void): this
    /** Emitted for each response whose body failed `expectBody` or `verifyBody`, with that body. */
    once (event: 'reqMismatch', listener: (body: string) => void): this
    /** Emitted with the result when the run (each round, with `forever`) is over. */
    once (event: 'done', listener: (result: R) => void): this
    /** Emitted when a `forever` run without a callback cannot start or goes wrong as a whole. */
    once (event: 'error', listener: (err: AutocannonError) => void): this

    addListener<E extends keyof InstanceEvents<R>> (event: E, listener: (...args: InstanceEvents<R>[E]) => void): this
    prependListener<E extends keyof InstanceEvents<R>> (event: E, listener: (...args: InstanceEvents<R>[E]) => void): this
    prependOnceListener<E extends keyof InstanceEvents<R>> (event: E, listener: (...args: InstanceEvents<R>[E]) => void): this
    off<E extends keyof InstanceEvents<R>> (event: E, listener: (...args: InstanceEvents<R>[E]) => void): this
    removeListener<E extends keyof InstanceEvents<R>> (event: E, listener: (...args: InstanceEvents<R>[E]) => void): this
  }

  // ------------------------------------------------------------ Client API

  /** The events of a {@link Client}, with their arguments. */
  export interface ClientEvents {
    headers: [headers: ResponseHeaders]
    body: [body: Buffer]
    response: [statusCode: number, resBytes: number, responseTime: number]
    reset: []
  }

  /**
   * One connection, as `setupClient` and the `response` event get it. The
   * setters change the request the connection is on (the last one sent,
   * or the first before any was sent).
   */
  export interface Client extends EventEmitter {
    /** Replaces the current request's own headers (the run's `headers` still apply beneath); `undefined` removes them. */
    setHeaders (headers?: RequestHeaders | null): void
    /** Replaces the current request's body; `undefined` removes it. */
    setBody (body?: Body | null): void
    /** Both of the above at once. */
    setHeadersAndBody (headers?: RequestHeaders | null, body?: Body | null): void
    /** Replaces the current request; fields left out come from the run's options. */
    setRequest (request: Request): void
    /** Replaces this connection's whole sequence of requests. */
    setRequests (requests: Request[]): void

    /** Emitted with the headers of each response (decoded only while someone listens). */
    on (event: 'headers', listener: (headers: ResponseHeaders) => void): this
    /** Emitted with the body of each response (kept only while someone listens, up to `maxBodySize`). */
    on (event: 'body', listener: (body: Buffer) => void): this
    /** Emitted for each response: status, bytes and latency in milliseconds. */
    on (event: 'response', listener: (statusCode: number, resBytes: number, responseTime: number) => void): this
    /** Emitted when a `setupRequest` restarted the sequence. */
    on (event: 'reset', listener: () => void): this

    /** Emitted with the headers of the next response. */
    once (event: 'headers', listener: (headers: ResponseHeaders) => void): this
    /** Emitted with the body of the next response. */
    once (event: 'body', listener: (body: Buffer) => void): this
    /** Emitted for the next response: status, bytes and latency in milliseconds. */
    once (event: 'response', listener: (statusCode: number, resBytes: number, responseTime: number) => void): this
    /** Emitted when a `setupRequest` restarts the sequence. */
    once (event: 'reset', listener: () => void): this

    addListener<E extends keyof ClientEvents> (event: E, listener: (...args: ClientEvents[E]) => void): this
    prependListener<E extends keyof ClientEvents> (event: E, listener: (...args: ClientEvents[E]) => void): this
    prependOnceListener<E extends keyof ClientEvents> (event: E, listener: (...args: ClientEvents[E]) => void): this
    off<E extends keyof ClientEvents> (event: E, listener: (...args: ClientEvents[E]) => void): this
    removeListener<E extends keyof ClientEvents> (event: E, listener: (...args: ClientEvents[E]) => void): this
  }

  // -------------------------------------------------------------- functions

  export interface PrintResultOptions {
    /**
     * The stream the text is meant for: colour is used only when it is a
     * terminal (and `NO_COLOR` is not set).
     * @default process.stderr
     */
    outputStream?: NodeJS.WritableStream
    /**
     * The Latency and Req/Sec tables (the summary lines are always there).
     * @default true
     */
    renderResultsTable?: boolean
    /**
     * The table of every latency percentile.
     * @default false
     */
    renderLatencyTable?: boolean
    /**
     * The table of where the time went (`result.timings`); `renderLatencyTable` does not print it.
     * @default false
     */
    renderTimings?: boolean
    /**
     * The table of responses by status code.
     * @default false
     */
    renderStatusCodes?: boolean
    /**
     * `false` leaves the tables out, as `renderResultsTable: false` does.
     * @default true
     */
    verbose?: boolean
  }

  export interface TrackOptions extends PrintResultOptions {
    /**
     * A progress bar while the run goes (on a terminal only).
     * @default true
     */
    renderProgressBar?: boolean
    /** The progress bar's format, as the `progress` package takes it. */
    progressBarString?: string
    /** Label the run as a warmup. */
    warmupRunning?: boolean
  }

  /**
   * Shows a run as the CLI does: a header and a progress bar while it
   * goes, the result tables when it is done (on `outputStream`).
   */
  export function track<I extends RunEmitter<any>> (instance: I, options?: TrackOptions): I

  /** The result as the text the CLI prints: tables and summary lines. */
  export function printResult (result: Result, options?: PrintResultOptions): string

  /**
   * Merges raw results (from `skipAggregateResult`, other processes or
   * machines) into one result, losslessly: histograms bucket by bucket,
   * and samples of runs that overlapped in time summed second by second.
   * `options` are the options the runs used (`url`, `title`,
   * `connections`, `sampleInt`…), copied into the result. Raw results may
   * also be autocannon's; `histograms` is autocannon's third argument, the
   * per-sample `requests` and `throughput` those stats are then taken from.
   */
  export function aggregateResult (results: RawResult | UpstreamRawResult | ReadonlyArray<RawResult | UpstreamRawResult>, options?: Partial<Options>, histograms?: { latencies?: HdrHistogram, requests?: HdrHistogram, throughput?: HdrHistogram }): Result

  /** `findMaxRate` options: a run's options (no rate, stages or amount) and the search's. */
  export interface FindMaxRateOptions extends Omit<Options, 'connections' | 'overallRate' | 'connectionRate' | 'stages' | 'amount' | 'forever'> {
    /** One search per connection count: a number, a list, or `'100,1000'`. @default 10 */
    connections?: number | ReadonlyArray<number> | string
    /** SLOs every step must meet, in the grammar of `thresholds`: `'p99 < 200ms'`, `'errors < 0.1%'`. */
    slos: ReadonlyArray<string> | string
    /** Stop when (lowest failing − highest passing) / highest passing is below this. @default 0.02 */
    precision?: number
    /** Seconds measured per step, after an unrecorded warm-up. @default 5 */
    stepDuration?: number
    /** Seconds of warm-up before each step. @default 1 */
    stepWarmup?: number
    /** The low rate that must pass first. @default 10% of the probe's ceiling */
    lowRate?: number
    /** The search always ends after this many steps. @default 25 */
    maxSteps?: number
    /** Seconds of the closed-loop probe that gives the ceiling. @default 3 */
    probeDuration?: number
  }

  /**
   * A pN whose confidence interval (order statistics, from the step's own
   * sample) held values on both sides of its bound: its verdict was chance.
   */
  export interface SearchUncertainty {
    /** The SLO, as given: `'p99<50ms'`. */
    expression: string
    metric: string
    /** The bound, ms. */
    limit: number
    /** pN's interval, ms; `high` null when no sample bounds it from above. */
    low: number
    high: number | null
    /** 0.99 */
    confidence: number
    samples: number
    /** The share of responses beyond the bound, 0 to 1. */
    aboveShare: number
    /** Median of the responses beyond the bound, and the slowest below it, ms. */
    slowMs: number | null
    restMs: number | null
    /** The interval spans a step of the latency distribution (a slow few, a fast rest): no step length settles it. */
    step: boolean
    /** "p99 sits on a step of the latency distribution: 1% of responses take ~80 ms, …" */
    text: string
  }

  /** One measured step of a search. */
  export interface SearchStep {
    connections: number
    kind: 'low' | 'upper' | 'bisect' | 'confirm'
    /** The planned rate, req/s. */
    target: number
    verdict: 'pass' | 'fail' | 'inconclusive' | 'generator-bound'
    reasons: string[]
    values: { target: number, achieved: number, p50: number, p99: number, p999: number, errors: number, errorRatio: number, [key: string]: number }
    /** Set when the step was stopped because its failure was already settled: seconds into the window, and why. */
    settled?: { at: number, reason: string }
    /** Each check of the step; an upper pN bound's carries pN's interval (ms, at `confidence`). */
    checks: Array<{ name: string, kind: string, ok: boolean | null, value: number, limit?: number, measured: string, reason: string, interval?: { low: number, high: number | null, confidence: number }, uncertain?: SearchUncertainty }>
    /** Set when a pN was within chance of its bound (the step is then run again, longer). */
    uncertain: SearchUncertainty | null
    /** The step's own window, with its histograms and the generator's load. */
    result: Result
  }

  /** The search at one connection count. */
  export interface ConnectionSearch {
    connections: number
    /** req/s of the closed-loop probe. */
    ceiling: number
    status: 'found' | 'below-low' | 'generator-bound' | 'at-ceiling' | 'unconfirmed' | 'max-steps' | null
    /** rate: the step's target, or what a Poisson plan drew below it in the window (target). */
    best: { rate: number, target: number, confirmed: boolean, summary: Record<string, unknown> } | null
    failed: { rate: number, reason: string, summary: Record<string, unknown> } | null
    bracket: [number | null, number | null]
    /** The lowest failure was chance (a pN within chance of its bound over the longest step allowed); the sentence says so. */
    uncertain: SearchUncertainty | null
    /** The answer in words: "Sustains 18,500 req/s at 100 connections with p99 < 200 ms …". */
    sentence: string
    wallSeconds: number
    steps: SearchStep[]
  }

  export interface SearchOutcome {
    slos: string[]
    precision: number
    /** How every step's sends were spaced (`arrivals`). */
    arrivals: 'uniform' | 'poisson'
    /** The one seed of every step's Poisson gaps; absent for uniform arrivals. */
    seed?: number
    searches: ConnectionSearch[]
  }

  export interface SearchInstance extends EventEmitter, PromiseLike<SearchOutcome> {
    on (event: 'probe', listener: (probe: { connections: number, ceiling: number, result: Result }) => void): this
    on (event: 'step', listener: (step: SearchStep) => void): this
    on (event: 'done', listener: (outcome: SearchOutcome) => void): this
    on (event: 'error', listener: (err: AutocannonError) => void): this
    once (event: 'probe', listener: (probe: { connections: number, ceiling: number, result: Result }) => void): this
    once (event: 'step', listener: (step: SearchStep) => void): this
    once (event: 'done', listener: (outcome: SearchOutcome) => void): this
    once (event: 'error', listener: (err: AutocannonError) => void): this
    catch<T = never> (onRejected?: ((reason: any) => T | PromiseLike<T>) | null): Promise<SearchOutcome | T>
    /** Ends the search after the current step; what was found so far is reported. */
    stop (): void
  }

  /**
   * The highest rate at which every SLO holds, per connection count: a
   * closed-loop probe, then steps of one rated run (bracket, bisect,
   * confirm). See docs/capacity-search.md.
   */
  export function findMaxRate (options: FindMaxRateOptions): SearchInstance

  /** `renderHtml` options. */
  export interface RenderHtmlOptions {
    /** The page's title; by default `autocannon: ` and the results' titles (or URLs). */
    title?: string
    /** A name per result, for those without a `title` (the CLI passes file names). */
    names?: ReadonlyArray<string>
  }

  /**
   * The HTML report of one or several results (live, or read back from
   * `-j` output) as one self-contained page: charts and tables, nothing
   * fetched. Each result needs its `histograms` and `series`, else it
   * throws an {@link AutocannonError} with code `AC_NOT_A_RESULT`.
   */
  export function renderHtml (results: Result | ReadonlyArray<Result>, options?: RenderHtmlOptions): string

  /** `mergeResults` options. */
  export interface MergeOptions {
    /** How many shards there should be, when the results do not say it (or to hold them to it). */
    expect?: number
    /** Expressions held to the merged result, as the `thresholds` option. */
    thresholds?: string[]
    /**
     * Merge results that are not of one run (different targets, protocol,
     * shard count, start time, or options that divide the load), with an
     * `AC_SHARD_MISMATCH` warning for each difference; without it they are
     * refused with `AC_DIFFERENT_RUNS`. @default false
     */
    force?: boolean
  }

  /**
   * The results of one run's shards (live, or read back from `-j`/`--out`
   * output) as the result of the whole run: latency histograms added bucket
   * by bucket, requests and bytes summed per wall-clock second (Req/Sec
   * from those sums), counts summed; `merge` says what was merged and what
   * is missing. Each result needs its `histograms` and `series`.
   */
  export function mergeResults (results: ReadonlyArray<Result>, options?: MergeOptions): Result & { merge: NonNullable<Result['merge']> }

  export interface CompareOptions {
    /** Significance level of the tests. @default 0.05 */
    alpha?: number
    /** Relative changes inside this are `~` even when significant. @default 0.02 */
    noise?: number
    /** Confidence of the bootstrap intervals. @default 0.95 */
    confidence?: number
    /** Bootstrap resamples. @default 2000 */
    resamples?: number
    /** Seed of the resampling, so the same inputs give the same verdicts. */
    seed?: number
    /** Names of the two sides in the table. @default ['a', 'b'] */
    names?: [string, string]
  }

  export interface ComparedMetric {
    key: string
    label: string
    unit: string
    higherIsBetter: boolean
    a: number
    b: number
    /** (b − a) / a. */
    change: number
    test: string
    p?: number
    ci?: [number, number]
    n: [number, number]
    significant: boolean
    /** `'better'`, `'worse'`, `'~'` (no change beyond noise) or `'too few samples'`. */
    verdict: string
    note?: string
  }

  export interface Comparison {
    alpha: number
    noise: number
    names: [string, string]
    a: { runs: number, intervals: number, requests: number, duration: number }
    b: { runs: number, intervals: number, requests: number, duration: number }
    metrics: ComparedMetric[]
  }

  /**
   * Two saved results side by side: req/s and errors by a Mann–Whitney U
   * test over the per-second samples (n is the number of samples, not of
   * requests), latency percentiles by a block bootstrap over whole
   * intervals' histograms. A single result or an array of runs per side.
   */
  export function compare (a: Result | ReadonlyArray<Result>, b: Result | ReadonlyArray<Result>, options?: CompareOptions): Comparison

  /** The options the command line adds to the library's. */
  export interface CliOptions {
    /** `-j`: print the result as one JSON line on stdout (the library prints it too, once the run is done). */
    json?: boolean
    renderProgressBar: boolean
    renderResultsTable: boolean
    renderLatencyTable?: boolean
    renderTimings?: boolean
    renderStatusCodes?: boolean
    verbose: boolean
    /** `--warmup [ -c N -d S ]`: a run before the measured one. */
    warmup?: { connections?: number, duration?: number }
    /** `--on-port`: benchmark the port the command after `--` listens on. */
    onPort?: boolean
    /** The command after `--`. */
    spawn?: string[]
  }

  /**
   * What `parseArguments` returns for a command line that asks for a run,
   * in the shape of autocannon's parser: the options, each alias beside
   * its option with the same value (`c`, `d`, `latency`…), and the words.
   */
  export interface ParsedOptions extends Omit<Options, 'warmup'>, Omit<CliOptions, 'warmup'> {
    url: string | string[]
    /** The words that are not flags (the URLs). */
    _: string[]
    /** The words after `--`. */
    '--': string[]
    json: boolean
    help: false
    version?: undefined
    /** `--warmup [ -c N -d S ]`, each word under the name typed, and `-c`/`-d` under their options' names too. */
    warmup?: { _: string[], connections?: number, duration?: number | string, [word: string]: unknown }
    tlsOptions: ConnectionOptions
    /** The aliases (`c`, `d`, `H`, `latency`…), as autocannon's parser gives them. */
    [alias: string]: unknown
  }

  /**
   * Reads an autocannon command line (without `node` and the script) into
   * options, in the shape autocannon's parser gives them. With `-h`, `-v`
   * or no URL, prints the help (on stderr) or the version (on stdout) and
   * returns `undefined`, as autocannon's. Bad input throws an
   * {@link AutocannonError} whose message is one line.
   */
  export function parseArguments (argv: ReadonlyArray<string>): ParsedOptions | undefined

  /**
   * What the command does with `parseArguments`' options, as autocannon's
   * `start`: the run, shown as the command shows it (the header and tables
   * on stderr; with `-j`, the JSON line on stdout), against the command
   * after `--` with `--on-port`. Nothing for `undefined`. An error is
   * printed on stderr as its message; no exit code is set.
   */
  export function start (options: ParsedOptions | Options | undefined | null): undefined
}

export = autocannon
