'use strict'

// The one registry of what can go wrong, each with a stable code. Two kinds:
//
// - raised: bad input or an environment the run cannot work in. The library
//   rejects with an AutocannonError carrying the code; the CLI prints its
//   message as one line and exits 1. Messages say what to do.
// - counted: a request that ended in an error. Never thrown at the user:
//   counted in the result under errorsByCause and errorCodes, and passed to
//   'reqError'. Besides these, requests are counted under the system's own
//   codes (ECONNREFUSED, ENOTFOUND, EMFILE, ECONNRESET, EPIPE…) and the
//   parser's HPE_* codes, named as Node's own parser (llhttp) names them.
//
// A protocol's own codes live in its own folder (lib/http2/errors.js…),
// which adds them here as it loads (registerCodes); the registry of
// protocols (lib/protocols/registry.js) loads every protocol's, so a run,
// a worker thread and the tests see the whole table. The table of codes in
// docs/errors.md is checked against it by a test.

const { maskSecrets } = require('./redact')

const RAISED = {
  AC_INVALID_OPTION: 'An option has a value that cannot be used: the message names the option, the value and what is accepted.',
  AC_INVALID_ARGUMENT: 'The command line cannot be read (unknown flag, missing URL or value, a bad --warmup group), or a function of the library was called without what it works on (aggregateResult, mergeResults or renderHtml with no result, track without an instance, printResult without a result).',
  AC_CONFLICTING_OPTIONS: 'Two options that cannot be used together, such as a body (-b, -i) and a form (-F).',
  AC_FILE_UNREADABLE: 'A file named by an option (-i, -F, --har, --cert, --key, --ca) cannot be read or parsed.',
  AC_FILE_UNWRITABLE: 'A file an output is to be written to (--html, --hgrm, --out, -o) is in a directory that does not exist or cannot be written.',
  AC_INVALID_TLS_FILE: 'A certificate, key or CA (--cert, --key, --ca, tlsOptions) is not valid PEM, or the key does not match the certificate.',
  AC_TOO_MANY_CONNECTIONS: 'More connections than the open-file limit (ulimit -n) or the local ports for one target allow.',
  AC_TOO_MANY_WORKERS: 'More worker threads (-w) than the machine can run: more than 4 per CPU core, or than its free memory holds at 32 MB each.',
  AC_TOO_MANY_SHARDS: 'More shards than connections (each shard needs one), or than requests in an amount (-a) or -O run.',
  AC_WORKER_FAILED: 'A worker thread stopped with an error.',
  AC_NOT_A_RESULT: 'A file given to report, compare or merge is not a saved result, or lacks the histograms or series that command needs.',
  AC_DASHBOARD_LISTEN: 'The dashboard (--dashboard, the dashboard option) cannot listen on its host and port: the port is taken, or the address is not this machine\'s.',
  AC_CANNOT_MERGE: 'Saved results that cannot be merged second by second: they were sampled at different intervals (-L).',
  AC_DIFFERENT_RUNS: 'merge: the results are not of one run: they differ in the target, the protocol, the shard count, --startAt or an option that divides the load (-c, -a, -O, -R, -r, -d, --stages, --connectionStages), or (results without --shard) in the target, the protocol, -c, -p or -R, or have no moment in common; the message names each difference (--force merges them anyway, with a warning for each).',
  AC_HOST_NOT_FOUND: 'A target\'s host name (or, with a proxy, the proxy\'s) does not resolve: checked once before the run, which does not start.',
  AC_NO_RESPONSE: 'CLI only: the run ended without a single response; the line says why, and the exit code is 1.',
  AC_COMMAND_FAILED: 'CLI only: the command after -- (--on-port) could not be started, or exited before it listened on a port.',
  AC_INTERNAL_MODULE: 'One of autocannon\'s internal modules was required by its path (require(\'autocannon/lib/httpClient\'), …), which has no counterpart here: thrown as it is required, naming what to use instead.'
}

// Counted per request, with the cause they count under.
const COUNTED = {
  AC_TIMEOUT: ['timeout', 'No response within `timeout` seconds: the connection is closed and its requests in flight count as timeouts.'],
  AC_CONNECT_TIMEOUT: ['timeout', 'The connection was not established within `timeout` seconds: one request counts as a timeout.'],
  AC_SOCKET_HANG_UP: ['read', 'The server closed the connection with requests in flight, without announcing it.'],
  AC_UNEXPECTED_RESPONSE: ['parse', 'A response arrived for no request; the connection is closed (its requests in flight are lost).'],
  AC_BODY_TOO_LARGE: ['parse', 'A body that a hook, verifyBody or expectBody needs was larger than `maxBodySize`.'],
  AC_PROXY_REFUSED: ['connect', 'The proxy (--proxy) refused: it answered CONNECT with other than 2xx (407, 502…), closed the tunnel before answering, or answered 407 to an http request.'],
  AC_HOOK_ERROR: ['hook', 'A setupRequest hook threw, rejected or returned something that cannot be sent: that request is not sent.'],
  // An error that came without a code: counted as connect or read by when it happened.
  AC_UNKNOWN: [null, 'An error without a code of its own (its message is passed to reqError and --debug).']
}

// Causes, as wrk counts its socket errors, plus the user's hooks. Status
// codes are not errors: non-2xx responses are responses (see `non2xx`).
const CAUSES = Object.freeze(['connect', 'read', 'write', 'timeout', 'parse', 'hook'])

// { connect: 0, read: 0, … }: every cause present, so results have one shape.
function noErrorsByCause () {
  return Object.fromEntries(CAUSES.map((cause) => [cause, 0]))
}

// detail: what we add to a message that is autocannon's own, word for
// word (see InvalidOptionError); the CLI prints both on one line.
class AutocannonError extends Error {
  constructor (code, message, detail) {
    // No credentials in any message, whatever put them there.
    super(maskSecrets(message))
    this.name = 'AutocannonError'
    this.code = code
    if (detail !== undefined) this.detail = maskSecrets(detail)
  }
}

function show (value) {
  if (typeof value === 'string') return JSON.stringify(value)
  // JSON would show NaN and Infinity as null.
  if (typeof value === 'number') return String(value)
  if (typeof value === 'function') return 'a function'
  if (Buffer.isBuffer(value)) return 'a Buffer'
  try {
    const s = JSON.stringify(value)
    return s === undefined ? String(value) : s
  } catch {
    return String(value)
  }
}

// upstream: autocannon's own message for this failure, when it has one.
// autocannon's users compare err.message with ===, so it is the message,
// exactly; ours (the value and what is accepted) goes in `detail`, which
// the CLI prints after it. Without one, the message is ours.
class InvalidOptionError extends AutocannonError {
  constructor (option, value, expected, upstream) {
    super('AC_INVALID_OPTION', upstream || `invalid option "${option}": ${show(value)} ${expected}`)
    this.name = 'InvalidOptionError'
    this.option = option
    // What follows the option's name, for the CLI to put after its flag.
    this.detail = maskSecrets(`${show(value)} ${expected}`)
    if (upstream) this.upstream = true
  }
}

// A file an option names (form, har) that cannot be read or parsed: the
// same fields as InvalidOptionError (option, detail, autocannon's message
// as the message), under the code registered for unreadable files.
class UnreadableFileError extends InvalidOptionError {
  constructor (option, value, expected, upstream) {
    super(option, value, expected, upstream)
    this.code = 'AC_FILE_UNREADABLE'
    this.name = 'UnreadableFileError'
  }
}

// A request that ended in an error, counted under its code: one of
// COUNTED's, or the HTTP/1.1 parser's HPE_* (which is why the code is not
// checked against COUNTED here, as raise() checks RAISED). Whatever ended
// it: a response that could not be parsed, a hang-up, a connection not
// set up, an HTTP/2 reset or GOAWAY.
class CountedError extends AutocannonError {
  constructor (code, message) {
    super(code, message)
    this.name = 'CountedError'
  }
}

// The socket closed, unannounced, with requests in flight: they end in
// it, whichever protocol framed them.
function socketHangUp () {
  return new CountedError('AC_SOCKET_HANG_UP', 'socket hang up: the connection closed with requests in flight')
}

// autocannon's message for both (its timer is per request, connected or
// not); the code and detail say which.
class RequestTimeoutError extends AutocannonError {
  constructor (seconds, connecting = false) {
    super(connecting ? 'AC_CONNECT_TIMEOUT' : 'AC_TIMEOUT', 'request timed out', connecting
      ? `the connection was not established within ${seconds} s`
      : `no response within ${seconds} s`)
    this.name = 'RequestTimeoutError'
  }
}

// A user hook failed: the message names the hook (and its file).
class HookError extends AutocannonError {
  constructor (hook, what, cause) {
    const detail = cause instanceof Error ? cause.message : String(cause === undefined ? '' : cause)
    super('AC_HOOK_ERROR', `${hook} ${what}${detail ? ': ' + detail : ''}`)
    this.name = 'HookError'
    this.hook = hook
    if (cause !== undefined) this.cause = cause
  }
}

// A folder's own codes, added to the tables. A code means one thing: the
// same code registered again with another meaning is a mistake (a module
// loaded afresh registers the same entries, which is none).
function registerCodes ({ raised = {}, counted = {} }) {
  for (const [table, codes] of [[RAISED, raised], [COUNTED, counted]]) {
    for (const code of Object.keys(codes)) {
      if (code in table && JSON.stringify(table[code]) !== JSON.stringify(codes[code])) throw new Error(`error code ${code} registered twice`)
      table[code] = codes[code]
    }
  }
}

function raise (code, message, detail) {
  if (!(code in RAISED)) throw new Error(`unregistered error code ${code}`)
  return new AutocannonError(code, message, detail)
}

// Errors cross from worker threads as plain data (a structured clone
// keeps an Error's message, not its class or fields): toMessage() there,
// fromMessage() here gives back the same class, code, message and fields
// (option, detail, hook, a system error's syscall…).
const CLASSES = { AutocannonError, InvalidOptionError, UnreadableFileError, CountedError, RequestTimeoutError, HookError }

function toMessage (err) {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} }
  const fields = {}
  for (const key of Object.keys(err)) {
    const value = err[key]
    if (key !== 'cause' && (value === null || ['string', 'number', 'boolean'].includes(typeof value))) fields[key] = value
  }
  return { name: err.name, message: err.message, stack: err.stack, fields, cause: err.cause instanceof Error ? toMessage(err.cause) : undefined }
}

function fromMessage (msg) {
  const Class = Object.prototype.hasOwnProperty.call(CLASSES, msg.name) ? CLASSES[msg.name] : Error
  // Built without the class's constructor, whose arguments are gone: the
  // message and fields are set as they were.
  const err = Reflect.construct(Error, [msg.message], Class)
  Object.assign(err, msg.fields)
  if (msg.stack) err.stack = msg.stack
  if (msg.cause) err.cause = fromMessage(msg.cause)
  return err
}

// An error from a socket or the parser → the cause it counts under.
// `connected`: whether the connection had been established.
function causeOf (err, connected) {
  const code = err && err.code
  if (code in COUNTED && COUNTED[code][0] !== null) return COUNTED[code][0]
  // A response cut short by the close is the connection's failure, not
  // the server's bytes failing to parse: a read error, as wrk counts it.
  if (code === 'HPE_INCOMPLETE') return 'read'
  if (typeof code === 'string' && code.startsWith('HPE_')) return 'parse'
  const syscall = err && err.syscall
  if (syscall === 'write' || syscall === 'writev' || code === 'EPIPE') return 'write'
  if (syscall === 'connect' || syscall === 'getaddrinfo' || syscall === 'lookup') return 'connect'
  return connected ? 'read' : 'connect'
}

// The code a request that could not be made counts under: its own,
// when registered with the hooks' cause (a gRPC message its templates do
// not fit), else AC_HOOK_ERROR.
function hookCodeOf (err) {
  const code = err && err.code
  return typeof code === 'string' && code in COUNTED && COUNTED[code][0] === 'hook' ? code : 'AC_HOOK_ERROR'
}

function codeOf (err) {
  const code = err && err.code
  return typeof code === 'string' && code !== '' ? code : 'AC_UNKNOWN'
}

module.exports = {
  RAISED,
  COUNTED,
  CAUSES,
  registerCodes,
  noErrorsByCause,
  AutocannonError,
  InvalidOptionError,
  UnreadableFileError,
  CountedError,
  socketHangUp,
  RequestTimeoutError,
  HookError,
  raise,
  toMessage,
  fromMessage,
  causeOf,
  codeOf,
  hookCodeOf,
  show
}
