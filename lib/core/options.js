'use strict'

// Every option, once: its name, command-line alias and flag, how the
// command line reads it (kind), how the library checks it (check), its
// default and a line of help. The CLI parser (lib/cli/args.js) and the
// library's checks (lib/config/config.js) both read this table; help.txt stays
// written by hand, and test/e2e/help.test.js holds it to the table; an unknown
// key passed to autocannon() is named with the closest one here.
//
//   kind     how the CLI turns its text into a value: integer, number,
//            duration (seconds or a timestring), boolean, string, list
//            (repeatable), port (a flag alone, or with a port number after
//            it). Absent: not a flag (cli: false).
//   check    how lib/config/config.js checks the library's value: integer
//            (>= min), count (0 means not set, else a positive integer),
//            positive (a number > 0), rate (0 means not set, else req/s >
//            0), duration, flag (a boolean), fraction (0 < x < 1), slos, or
//            the name of an option-specific check in config.js. Absent: not
//            a library option (library: false), kept by the CLI for itself.
//   search   an option of findMaxRate() rather than of autocannon().
//   required an option that must be given (findMaxRate's slos).
//   flagScale  the flag's value is the option's times this (--precision
//            is in percent, precision a fraction).
//   default  the value when the option is not given.
//   random   not given, it is drawn once per run (the seed), not defaulted.
//   protocol  an option that chooses the run's protocol (its descriptor's
//            chooses(opts)): the config keeps the protocol chosen
//            (protocolName), not the option.
//   argDefault  parseArguments fills the default in, as autocannon's does.
//   flag     the flag's name when it is not the option's (--threshold).
//   help     the first sentence of its entry in help.txt.
//   conflicts  the options it cannot be used with, each with the reason
//            (a string), or { why, when, upstream }: when(value, given) says
//            whether the rule applies (or for what: a string the message
//            names), upstream the name of autocannon's own message for it.
//   requires { any, why, when, upstream }: one of the options `any` must
//            be given with it (when when(value, given) says so).
//   refuses  { after, when, why, upstream, shown }: a value refused for
//            the rest of the config, checked once buildConfig has come to
//            the step `after` names (as some values are computed): 'given'
//            (the options as given, their conflicts and requirements
//            checked), 'length' (the stages have set the duration and a
//            ramp's connections), 'part' (a shard has taken its part of
//            the load). when(value, config, { callback }) says whether it
//            is refused (callback: whether autocannon() was given one);
//            why the words after the value (or (value, config) → them);
//            shown 'given' to show the value as the user gave it.
// lib/config/rules.js checks every conflict and requirement in one loop,
// and each step's refusals.

const { emitWarning } = require('./warnings')

// Reasons and lists the rules below share.
const REQUEST_BODY = 'each one is the request body (use one)'
const REQUEST_LIST = 'each one is the requests to send (use one)'
const STAGED_LENGTH = 'the stages set how long the run lasts'
const CLOSED_LOOP = 'connection stages ramp a closed loop (each connection sends again when answered); ramp a rate with stages'
const SEARCHED = 'a search sets the rate and length of its runs itself'
const RATED = ['overallRate', 'connectionRate', 'stages']

// When the refusals below (refuses) apply: values the rest of the config
// leaves no sense in.
function refusedWithCallback (forever, config, { callback }) {
  return forever && callback
}

function noLength (duration, config) {
  return duration === 0 && !config.amount
}

function moreThanAmount (connections, config) {
  return config.amount > 0 && connections > config.amount
}

// An http:// target sent HTTP/2 through a proxy (its protocol's requests
// cannot go to a proxy in clear text: the target's clearProxy, from its
// protocol's descriptor): its origin, or false.
function plainH2Proxied (http2, given) {
  const target = (given.urls || []).find((u) => !u.clearProxy && !u.secure && u.proxy !== undefined)
  return target ? target.origin : false
}

const OPTIONS = {
  // The target, the load and its length
  url: { check: 'url', cli: false, help: 'The target URL, or an array of them: the connections are spread over them' },
  connections: { alias: 'c', kind: 'integer', check: 'integer', min: 1, default: 10, argDefault: true, help: 'The number of concurrent connections to use', refuses: { after: 'part', when: moreThanAmount, why: (connections, config) => `is more than amount (${config.amount}): each connection makes at least one request`, upstream: 'connectionsOverAmount' } },
  pipelining: { alias: 'p', kind: 'integer', check: 'integer', min: 1, default: 1, argDefault: true, help: 'The number of pipelined requests to use' },
  http2: { kind: 'boolean', check: 'flag', default: false, protocol: true, help: 'Speak HTTP/2: over TLS with ALPN h2 for https:// targets, in clear text with prior knowledge (h2c) for http:// ones', conflicts: { proxy: { when: plainH2Proxied, why: 'HTTP/2 in clear text (h2c) cannot go through an HTTP proxy; use an https:// target, whose connections tunnel through the proxy with CONNECT' } } },
  duration: { alias: 'd', kind: 'duration', check: 'duration', default: 10, argDefault: true, help: 'The number of seconds to run the autocannon, or a timestring such as 30s or 2m', refuses: { after: 'length', when: noLength, why: 'must be a number of seconds > 0 (or set amount to run a number of requests)', shown: 'given' } },
  amount: { alias: 'a', kind: 'integer', check: 'count', default: 0, help: 'The number of requests to make before exiting the benchmark' },
  sampleInt: { alias: 'L', kind: 'number', check: 'positive', default: 1000, argDefault: true, help: 'The number of milliseconds to elapse between taking samples' },
  socketPath: { alias: 'S', kind: 'string', check: 'socketPath', help: 'A path to a Unix Domain Socket or a Windows Named Pipe', conflicts: { proxy: 'a proxy is reached over TCP (use one of them)' } },
  workers: { alias: 'w', kind: 'integer', check: 'count', default: 0, argDefault: true, help: 'Number of worker threads to use to fire requests' },
  warmup: { alias: 'W', kind: 'boolean', check: 'warmup', help: 'Use a warm up interval before starting sampling' },
  onPort: { alias: 'on-port', kind: 'boolean', library: false, help: 'Start the command listed after -- on the command line' },
  // The requests
  method: { alias: 'm', kind: 'string', check: 'method', default: 'GET', argDefault: true, help: 'The HTTP method to use' },
  timeout: { alias: 't', kind: 'number', check: 'positive', default: 10, argDefault: true, help: 'The number of seconds before timing out and resetting a connection' },
  title: { alias: 'T', kind: 'string', check: 'text', help: 'The title to place in the results for identification' },
  body: { alias: 'b', kind: 'string', check: 'body', help: 'The body of the request', conflicts: { input: REQUEST_BODY, form: REQUEST_BODY } },
  form: { alias: 'F', kind: 'string', check: 'form', help: 'Upload a form (multipart/form-data)' },
  input: { alias: 'i', kind: 'string', library: false, help: 'The body of the request, read from a file', conflicts: { form: REQUEST_BODY } },
  headers: { alias: ['H', 'header'], kind: 'list', check: 'headers', default: Object.freeze({}), help: 'A request header, as K=V or "K' },
  har: { kind: 'string', check: 'har', help: 'When provided, Autocannon will use requests from the HAR file' },
  targets: { kind: 'string', check: 'targets', help: 'Replay the requests of FILE, in vegeta\'s plain format', conflicts: { har: REQUEST_LIST, requests: REQUEST_LIST } },
  order: { kind: 'string', check: 'order', default: 'sequential', help: 'The order --targets are sent in: sequential (the file\'s, across all connections) or random (seeded by --seed)' },
  bailout: { alias: 'B', kind: 'integer', check: 'count', default: 0, help: 'The number of failures before initiating a bailout' },
  maxConnectionRequests: { alias: 'M', kind: 'integer', check: 'count', default: 0, help: 'The max number of requests to make per connection to the server' },
  maxOverallRequests: { alias: 'O', kind: 'integer', check: 'count', default: 0, help: 'The max number of requests to make overall to the server' },
  connectionRate: { alias: 'r', kind: 'number', check: 'rate', default: 0, help: 'The max number of requests to make per second from an individual connection' },
  overallRate: { alias: 'R', kind: 'number', check: 'rate', default: 0, help: 'The max number of requests to make per second from all connections' },
  stages: { kind: 'string', check: 'stages', help: 'Load stages', conflicts: { connectionRate: 'stages plan the overall rate (-R sets the rate the first stage ramps from)', amount: STAGED_LENGTH } },
  connectionStages: { kind: 'string', check: 'connectionStages', help: 'Ramp the number of open connections along stages such as 30s:100,1m:1000,30s:0 (the first ramps from 0), as k6\'s ramping-vus', conflicts: { overallRate: CLOSED_LOOP, connectionRate: CLOSED_LOOP, stages: CLOSED_LOOP, amount: STAGED_LENGTH } },
  arrivals: { kind: 'string', check: 'arrivals', default: 'uniform', help: 'How the sends of a rate are spaced: uniform (evenly, the default) or poisson (independent arrivals, exponential gaps)', requires: { any: RATED, when: (arrivals) => arrivals !== 'uniform', why: 'spaces the sends of a rate' } },
  seed: { kind: 'integer', check: 'seed', random: true, help: 'The seed of the random choices (the gaps of --arrivals poisson): the same seed sends at the same times' },
  ignoreCoordinatedOmission: { alias: 'C', kind: 'boolean', check: 'flag', default: false, help: 'Ignore the coordinated omission issue when requests should be sent at a fixed rate using \'connectionRate\' or \'overallRate\'', requires: { any: RATED, why: 'times latency from each write instead of its planned send, which only a rate plans', upstream: 'ignoreCoordinatedOmission' } },
  reconnectRate: { alias: 'D', kind: 'integer', check: 'count', default: 0, help: 'The number of requests to make before resetting a connections connection to the' },
  idReplacement: { alias: 'I', kind: 'boolean', check: 'flag', default: false, help: 'Enable replacement of [<id>] with a randomly generated ID within the request body' },
  forever: { alias: 'f', kind: 'boolean', check: 'flag', default: false, help: 'Run the benchmark forever', conflicts: { workers: { why: 'autocannon refuses it too (run without workers, or the command in a loop)', upstream: 'foreverWorkers' } }, refuses: { after: 'given', when: refusedWithCallback, why: 'cannot be used with a callback: listen to the "done" event instead', upstream: 'foreverCallback' } },
  servername: { alias: 's', kind: 'string', check: 'servername', help: 'Server name for the SNI (Server Name Indication) TLS extension' },
  excludeErrorStats: { alias: 'x', kind: 'boolean', check: 'flag', default: false, help: 'Exclude error statistics (non-2xx HTTP responses) from the final latency and bytes per second averages' },
  expectBody: { alias: 'E', kind: 'string', check: 'expectBody', help: 'Ensure the body matches this value' },
  maxBodySize: { kind: 'integer', check: 'integer', min: 1, default: 10 * 1024 * 1024, help: 'The largest response body kept for -E, verifyBody or an onResponse hook' },
  thresholds: { alias: 'threshold', flag: 'threshold', kind: 'list', check: 'thresholds', help: 'Fail the run (exit code 99) unless the result meets EXPR, in the style of k6' },
  abortOnFail: { kind: 'boolean', check: 'flag', default: false, help: 'Stop the run as soon as a threshold fails on what it has measured so far (checked every sample interval), as k6\'s abortOnFail', requires: { any: ['thresholds'], why: 'stops the run once a threshold fails (such as --threshold \'p99 < 200ms\')' } },
  abortAfter: { kind: 'duration', check: 'duration', default: 0, help: 'With --abortOnFail: the seconds (or a timestring) before the first check, so that a warm-up does not abort the run' },
  shard: { kind: 'string', check: 'shard', help: 'Send part I of N of the load (I from 0 to N-1, as a Kubernetes Indexed Job numbers its pods)' },
  startAt: { kind: 'string', check: 'startAt', help: 'Wait until TIME (ISO 8601 with a zone, e.g' },
  proxy: { kind: 'string', check: 'proxy', help: 'Send the requests through an HTTP proxy' },
  debug: { kind: 'boolean', check: 'flag', default: false, help: 'Print connection errors to stderr as they happen (errors are always counted by cause' },
  // gRPC unary calls (docs/grpc.md): --call makes a run gRPC
  call: { kind: 'string', check: 'grpc', help: 'Make gRPC unary calls to package.Service/Method (over HTTP/2: h2c for http://, TLS with ALPN h2 for https://)' },
  proto: { kind: 'string', check: 'grpc', help: 'The .proto file that defines --call\'s service and messages (without it or --protoset, the server\'s reflection is asked)', requires: { any: ['call'], why: 'defines the method of a gRPC call' } },
  protoPath: { kind: 'list', check: 'grpc', help: 'A directory the imports of --proto are looked for in (repeatable)', requires: { any: ['call'], why: 'is where the imports of a gRPC call\'s .proto are' } },
  protoset: { kind: 'string', check: 'grpc', help: 'A FileDescriptorSet (protoc --descriptor_set_out --include_imports) instead of --proto', requires: { any: ['call'], why: 'defines the method of a gRPC call' } },
  data: { kind: 'string', check: 'grpc', help: 'The request message of --call as JSON, or @FILE to read it from a file ({{…}} templates filled per call; without it, -b is the JSON)', requires: { any: ['call'], why: 'is the message of a gRPC call (an HTTP body is -b)' } },
  metadata: { kind: 'list', check: 'grpc', help: 'A metadata entry of each call, as \'key: value\' (repeatable; {{…}} templates filled per call)', requires: { any: ['call'], why: 'is metadata of a gRPC call (HTTP headers are -H)' } },
  grpcTimeout: { kind: 'duration', check: 'grpc', help: 'The deadline of each call (seconds or a timestring): sent as grpc-timeout, and a call past it is reset and counted DEADLINE_EXCEEDED', requires: { any: ['call'], why: 'is the deadline of a gRPC call' } },
  grpcCompression: { kind: 'string', check: 'grpc', help: 'Compress the request message: off (the default) or gzip', requires: { any: ['call'], why: 'compresses a gRPC call\'s message' } },
  // Library only
  grpc: { check: 'grpc', cli: false, help: 'A gRPC call as one object: { proto, protoPath, protoset, call, data, metadata, timeout, compression } (the flags\' values; this wins)' },
  initialContext: { check: 'initialContext', cli: false, help: 'The context a request sequence\'s hooks start from' },
  setupClient: { check: 'hook', cli: false, help: 'A function (or the absolute path of a file exporting one) called with each new Client' },
  verifyBody: { check: 'hook', cli: false, help: 'A function (or the absolute path of a file exporting one) given each response body, false for a mismatch' },
  requests: { check: 'requests', cli: false, help: 'The sequence of requests each connection makes, with optional setupRequest and onResponse hooks' },
  tlsOptions: { check: 'tlsOptions', cli: false, help: 'Options for tls.connect, such as ca, cert and key (the CLI\'s --ca, --cert and --key)' },
  skipAggregateResult: { check: 'flag', default: false, cli: false, help: 'Resolve to the raw, mergeable results instead of the aggregated one' },
  // Command line only: outputs and TLS files
  n: { kind: 'boolean', default: false, library: false, help: 'Don\'t render the progress bar' },
  renderProgressBar: { alias: 'progress', kind: 'boolean', default: true, argDefault: true, library: false, help: 'Don\'t render the progress bar' },
  renderLatencyTable: { alias: ['l', 'latency'], kind: 'boolean', default: false, library: false, help: 'Print all the latency data' },
  renderTimings: { alias: 'timings', kind: 'boolean', default: false, library: false, help: 'Print where the time went: DNS, connect, a proxy\'s CONNECT and TLS per connection, time to first byte and transfer per response' },
  json: { alias: 'j', kind: 'boolean', default: false, library: false, help: 'Print the output as newline delimited JSON' },
  html: { kind: 'string', library: false, help: 'Write a self-contained HTML report of the result (charts and tables' },
  hgrm: { kind: 'string', library: false, help: 'Write the latency percentile distribution in HdrHistogram\'s .hgrm text format (ms)', conflicts: { findMaxRate: 'a search measures one latency distribution per step, not one for the run (-j or --out keeps every step\'s histogram, --html draws them)' } },
  out: { kind: 'string', library: false, help: 'Write the result as JSON to FILE (what -j prints), with or without -j' },
  renderStatusCodes: { alias: 'statusCodes', kind: 'boolean', default: false, library: false, help: 'Print status codes and their respective statistics' },
  cert: { kind: 'string', library: false, help: 'Path to cert chain in pem format', requires: { any: ['key'], why: 'is a client certificate, which is sent with its private key' } },
  key: { kind: 'string', library: false, help: 'Path to private key for specified cert in pem format', requires: { any: ['cert'], why: 'is the private key of a client certificate' } },
  ca: { kind: 'list', library: false, help: 'Path to trusted ca certificates for the test' },
  version: { alias: 'v', kind: 'boolean', library: false, help: 'Print the version number' },
  verbose: { alias: 'V', kind: 'boolean', default: true, library: false, help: 'Print the table with results' },
  help: { alias: 'h', kind: 'boolean', library: false, help: 'Print this menu' },
  // The capacity search: --findMaxRate, and the options of findMaxRate()
  // (search: true), which takes autocannon()'s too
  findMaxRate: { kind: 'boolean', library: false, help: 'Search for the highest rate the server sustains with every --slo met, at each connection count of', conflicts: { overallRate: SEARCHED, connectionRate: SEARCHED, stages: SEARCHED, connectionStages: SEARCHED, amount: SEARCHED, forever: SEARCHED } },
  slos: { alias: 'slo', flag: 'slo', kind: 'list', check: 'slos', required: true, search: true, library: false, help: 'A service level objective for --findMaxRate, in the grammar of --threshold (\'p99<200ms\', \'errors<0.1%\')', requires: { any: ['findMaxRate'], why: 'is an objective of a capacity search; a run without one is not judged by it (use --threshold for that)' } },
  precision: { kind: 'number', flagScale: 100, check: 'fraction', default: 0.02, search: true, library: false, help: '--findMaxRate stops when the highest passing and lowest failing rates are closer than PCT percent' },
  stepDuration: { kind: 'duration', check: 'positive', default: 5, search: true, library: false, help: 'The measured length of each --findMaxRate step (longer for high percentiles at low rates)' },
  stepWarmup: { check: 'duration', default: 1, search: true, cli: false, library: false, help: 'Seconds at each step\'s rate before its measured window, unrecorded' },
  lowRate: { check: 'positive', search: true, cli: false, library: false, help: 'The first rate a search checks (req/s): 10% of the closed-loop probe\'s if not given' },
  maxSteps: { check: 'integer', min: 1, default: 25, search: true, cli: false, library: false, help: 'The most steps a search runs at one connection count, whatever the server does' },
  probeDuration: { check: 'positive', default: 3, search: true, cli: false, library: false, help: 'Seconds of the closed-loop probe that gives a search its ceiling' },
  // Options of track() and printResult(), often passed to autocannon() in the same object
  renderResultsTable: { default: true, cli: false, library: false, help: 'Print the tables of the result' },
  outputStream: { cli: false, library: false, help: 'The stream track() and printResult() write to (process.stderr)' },
  progressBarString: { cli: false, library: false, help: 'The progress bar\'s format, as the progress package reads it' },
  // The live dashboard (docs/dashboard.md)
  dashboard: { kind: 'port', check: 'dashboard', help: 'Serve a live dashboard of the run at http://127.0.0.1:PORT/ (a free port without PORT), the HTML report at its end' },
  dashboardHost: { kind: 'string', library: false, help: 'The address --dashboard listens on instead of 127.0.0.1 (with a warning: anyone who reaches it sees the run)', requires: { any: ['dashboard'], why: 'is where the dashboard listens' } },
  dashboardKeepOpen: { kind: 'boolean', library: false, help: 'Keep --dashboard\'s server open after the run, showing its report, until Ctrl-C', requires: { any: ['dashboard'], why: 'keeps the dashboard open' } }
}

for (const spec of Object.values(OPTIONS)) {
  for (const rules of [spec.conflicts, spec.requires, spec.refuses]) if (rules) Object.freeze(rules)
  Object.freeze(spec)
}
Object.freeze(OPTIONS)

// What autocannon(opts) falls back to, option by option.
const DEFAULTS = Object.freeze(Object.fromEntries(Object.entries(OPTIONS)
  .filter(([, spec]) => spec.library !== false)
  .map(([name, spec]) => [name, spec.default])))

// The options of findMaxRate() besides autocannon()'s.
const SEARCH_OPTIONS = Object.freeze(Object.keys(OPTIONS).filter((name) => OPTIONS[name].search))

// The options the command line knows, as lib/cli/args.js reads them.
const CLI_OPTIONS = Object.freeze(Object.fromEntries(Object.entries(OPTIONS).filter(([, spec]) => spec.cli !== false)))

// Keys that are not options but that autocannon's parseArguments returns
// or its code reads and writes, so that scripts pass them to autocannon()
// with the rest: `_` and `--` (the command line's words), `spawn` (the
// command of --on-port), `harRequests` (added by its checks), `histograms`
// and `warmupRunning` (read by its run and its tracker). Every alias of an
// option (`c`, `H`, `latency`…) is one too.
const NOT_OPTIONS = new Set(['_', '--', 'spawn', 'harRequests', 'histograms', 'warmupRunning'])
const ALIASES = new Set(Object.values(OPTIONS).flatMap((spec) => spec.alias === undefined ? [] : [].concat(spec.alias)))
const warned = new Set()

// A key autocannon() does not know is ignored, as autocannon ignores it;
// one that is a near miss of an option (a typo such as `conections`) is
// named once per process, with that option, since the run would go on
// without what was meant. Keys of a script's own are not: it never throws.
function warnUnknown (opts, emit = process.emitWarning) {
  for (const key of Object.keys(opts)) {
    if (Object.prototype.hasOwnProperty.call(OPTIONS, key) || NOT_OPTIONS.has(key) || ALIASES.has(key) || warned.has(key)) continue
    const near = closest(key)
    if (near === null) continue
    warned.add(key)
    emitWarning('AC_UNKNOWN_OPTION', `unknown option "${key}" is ignored: did you mean "${near}"?`, emit)
  }
}

// Names this short are too near everything to tell a typo: every
// one-letter key is one edit from `n`, and a script's own three-letter
// words from a four-letter option (`all` from `call`).
const MIN_TYPO_LENGTH = 4

// The option nearest in edit distance, if near enough to be a typo.
function closest (key) {
  if (key.length < MIN_TYPO_LENGTH) return null
  const lower = key.toLowerCase()
  let best = null
  let bestDistance = Infinity
  for (const name of Object.keys(OPTIONS)) {
    if (name.length < MIN_TYPO_LENGTH) continue
    const d = distance(lower, name.toLowerCase())
    if (d < bestDistance) {
      best = name
      bestDistance = d
    }
  }
  return bestDistance <= Math.max(1, Math.min(3, Math.floor(key.length / 4))) ? best : null
}

// Levenshtein distance, one row at a time.
function distance (a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    row = next
  }
  return row[b.length]
}

module.exports = { OPTIONS, DEFAULTS, CLI_OPTIONS, SEARCH_OPTIONS, warnUnknown, closest }
