'use strict'

// Command line → the library's options. Everything a user can get wrong on
// the command line is caught here and thrown as an Error whose message is
// one line the CLI prints as is. Ranges (-c 0, -d -1, -t 0) are the
// library's to check, so both refuse the same values. The files flags name
// are read by flag-files.js.

const { raise, InvalidOptionError } = require('../core/errors')
const { UPSTREAM, upstream } = require('../core/upstream-messages')
const { maskSecrets } = require('../core/redact')
const { parseDuration } = require('../config/config')
const { checkUrl, withScheme } = require('../core/url')
const { SCHEMES } = require('../protocols/registry')
const { lazy } = require('../core/lazy')
// yargs' own parser, without the rest of yargs (help, commands, i18n),
// which would load much for nothing we use.
const yargsParser = require('yargs-parser')

// The flags, in autocannon's names and aliases, from the one table of
// options (lib/core/options.js). `kind` says how the raw string is turned into
// an option value; yargs only splits the command line (everything reaches
// us as strings or booleans, so a bad number is reported with what the
// user typed). The library checks ranges, so both refuse the same values.
const { CLI_OPTIONS: OPTIONS, OPTIONS: ALL_OPTIONS, SEARCH_OPTIONS } = require('../core/options')
const { checkRules } = require('../config/rules')
// Lazy: only --shard needs it.
const shard = lazy(() => require('../config/shard'))
// Lazy: only the flags that name a file need it (-i, -F, --har, --cert, --key, --ca).
const flagFiles = lazy(() => require('./flag-files'))
// Lazy: only --cert, --key and --ca need it.
const tlsCheck = lazy(() => require('../config/tls-check'))

// The rules checked here, by their flags: those of the flags the library
// never sees (-i, --hgrm, --findMaxRate…) and of -F, whose file the CLI
// reads before the library sees it; the library checks the others.
const CHECKED_HERE = [...Object.keys(OPTIONS).filter((name) => OPTIONS[name].library === false), 'form']
// parseCli reads --cert and --key and checks them no further, as
// autocannon's does: their rules are the CLI's, with the files' checks
// (checkTlsFiles).
const TLS_FLAGS = ['cert', 'key']
const PARSE_CHECKED = CHECKED_HERE.filter((name) => !TLS_FLAGS.includes(name))

// What parseCli fills in when the flag is absent, as autocannon's
// does (renderProgressBar is yargs' own default, below).
const DEFAULTS = Object.fromEntries(Object.entries(OPTIONS)
  .filter(([name, spec]) => spec.argDefault && spec.kind !== 'boolean')
  .map(([name, spec]) => [name, spec.default]))

// Flags whose value may be a bracketed group: `--warmup [ -c 1 -d 3 ]`,
// `--ca [ a.pem b.pem ]`.
const GROUP_FLAGS = new Set(['-W', '--warmup', '--ca'])

// Where parseCli keeps the flags and files the TLS options were read
// from, for the CLI's check before the run (checkTlsFiles); a symbol, so
// that the options stay autocannon's.
const TLS_FILES = Symbol.for('autocannon.tlsFiles')

function flagName (name) {
  return name.length === 1 ? `-${name}` : `--${name}`
}

// "-c/--connections" for messages, as the help shows it.
function describe (option) {
  const spec = OPTIONS[option]
  const aliases = spec && spec.alias ? [].concat(spec.alias) : []
  const short = aliases.find((a) => a.length === 1)
  const long = spec && spec.flag ? spec.flag : option
  return short ? `-${short}/--${long}` : `--${long}`
}

// A flag of kind 'port' takes a port number when one follows it, else
// nothing (`--dashboard URL` is the flag and the URL): given no number, it
// is written `--flag=true` for the parser, which would take the URL.
function portFlags (args) {
  const flags = new Set()
  for (const [name, spec] of Object.entries(OPTIONS)) if (spec.kind === 'port') flags.add(`--${name}`)
  return args.map((arg, i) => flags.has(arg) && !/^\d+$/.test(args[i + 1] || '') ? `${arg}=true` : arg)
}

// Splits off what follows `--` and takes bracketed groups out of argv.
function preprocess (argv) {
  const dashes = argv.indexOf('--')
  const args = dashes === -1 ? argv.slice() : argv.slice(0, dashes)
  const command = dashes === -1 ? [] : argv.slice(dashes + 1)
  const groups = {}
  const rest = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const next = args[i + 1]
    if (!GROUP_FLAGS.has(arg) || typeof next !== 'string' || !next.startsWith('[')) {
      rest.push(arg)
      continue
    }
    const tokens = []
    let closed = false
    let j = i + 1
    for (; j < args.length; j++) {
      let token = args[j]
      if (j === i + 1) token = token.slice(1)
      if (token.endsWith(']')) {
        token = token.slice(0, -1)
        closed = true
      }
      if (token !== '') tokens.push(token)
      if (closed) break
    }
    if (!closed) throw argument(`Missing "]" after ${arg} [`)
    const name = arg === '--ca' ? 'ca' : 'warmup'
    groups[name] = (groups[name] || []).concat(tokens)
    if (name === 'warmup') rest.push('--warmup')
    i = j
  }
  return { args: rest, command, groups }
}

function argument (message) {
  return raise('AC_INVALID_ARGUMENT', message)
}

// A value the flag cannot take: in autocannon's words when it has some for
// this option (the library's check would give the same), else ours.
function invalid (option, raw, expected, format = true) {
  const said = UPSTREAM.AC_INVALID_OPTION
  let message = said[option]
  if (option === 'duration') message = said[format ? 'durationFormat' : 'durationNegative']
  if (option === 'sampleInt') message = said.sampleIntFormat
  if (message === undefined) return argument(`Invalid value for ${describe(option)}: ${JSON.stringify(String(raw))} ${expected}`)
  return new InvalidOptionError(option, String(raw), expected, message)
}

function integer (option, raw) {
  const n = number(option, raw)
  if (!Number.isInteger(n)) throw invalid(option, raw, 'is not a whole number')
  return n
}

function number (option, raw) {
  const text = String(raw).trim()
  const n = Number(text)
  if (text === '' || !Number.isFinite(n)) {
    if (text === '') throw argument(`Missing value for ${describe(option)}`)
    throw invalid(option, raw, 'is not a number')
  }
  return n
}

// Seconds: a plain number (`10`, `1.5`) or a timestring (`10s`, `2m`,
// `1h30m`), read by the library's own parser.
function duration (option, raw) {
  const text = String(raw).trim()
  if (text === '') throw argument(`Missing value for ${describe(option)}`)
  try {
    return parseDuration(text)
  } catch {
    throw invalid(option, raw, 'is not a number of seconds or a timestring such as 10s or 2m', !text.startsWith('-'))
  }
}

function last (value) {
  return Array.isArray(value) ? value[value.length - 1] : value
}

function list (value) {
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

// `-H K=V` and `-H "K: V"`: the name ends at the first ':' or '=', so
// values may contain either. The value is the rest of the text as it is,
// as autocannon's parseArguments returns it (" V" for "K: V"): scripts
// that read opts.headers get the same strings, and on the wire the space
// is the optional whitespace after the colon, which servers drop.
function parseHeaders (values) {
  const headers = {}
  for (const header of values) {
    const text = String(header)
    const colon = text.indexOf(':')
    const equals = text.indexOf('=')
    const at = colon === -1 ? equals : equals === -1 ? colon : Math.min(colon, equals)
    const name = at > 0 ? text.slice(0, at).trim() : ''
    if (name === '') {
      // Only the start of it: a malformed header may still hold a secret.
      throw raise('AC_INVALID_ARGUMENT', upstream('header', { header: `${text.slice(0, 12)}${text.length > 12 ? '…' : ''}` }),
        'use -H name=value or -H "name: value"')
    }
    headers[name] = text.slice(at + 1)
  }
  return headers
}

function parseWarmup (tokens) {
  const warmup = {}
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    const eq = token.indexOf('=')
    const flag = eq === -1 ? token : token.slice(0, eq)
    const option = flag === '-c' || flag === '--connections'
      ? 'connections'
      : flag === '-d' || flag === '--duration' ? 'duration' : null
    if (option === null) {
      throw argument(`Unknown warmup option: ${token} (use -c and -d, e.g. --warmup [ -c 1 -d 3 ])`)
    }
    const raw = eq === -1 ? tokens[++i] : token.slice(eq + 1)
    if (raw === undefined) throw argument(`Missing value for ${flag} in --warmup [ ... ]`)
    warmup[option] = option === 'connections'
      ? integer('connections', raw)
      : duration('duration', raw)
  }
  return warmup
}

// What the CLI adds after `Invalid URL "…"`, by why the library's one
// check of URLs (checkUrl) refused it.
const URL_WHY = {
  'no-host': ': no host (e.g. http://127.0.0.1:3000/path)',
  protocol: `: only ${SCHEMES.map((scheme) => `${scheme}//`).join(' and ')} are supported`,
  template: ': a template in its host or port: templates are filled in the path and the query only, as a connection dials one address for the whole run (to spread the connections over several addresses, give several URLs)',
  invalid: ''
}

// A path (`/x`) goes to localhost:$PORT when PORT is set, or to the port
// the --on-port command listens on (resolved later); anything without a
// scheme gets http://.
function resolveUrl (raw, { port, onPort }) {
  const text = String(raw).trim()
  const shown = maskSecrets(text)
  if (text.startsWith('/')) {
    if (port) return new URL(text, `http://localhost:${port}`).href
    if (onPort) return text
    throw argument(`Invalid URL "${shown}": a path needs the PORT environment variable (or --on-port); use a full URL or set PORT`)
  }
  const href = withScheme(text)
  try {
    checkUrl(href, SCHEMES)
  } catch (err) {
    throw argument(`Invalid URL "${shown}"${URL_WHY[err.why] || ''}`)
  }
  return href
}

// Options as yargs-parser wants them, and every name and alias it may
// return. Lists are plain strings that the parser gathers into an array
// when repeated: `array` would swallow the URL after `-H a=b`.
function parserOptions () {
  const opts = { boolean: [], string: [], alias: {}, default: {} }
  const known = new Set(['_'])
  for (const name of Object.keys(OPTIONS)) {
    const spec = OPTIONS[name]
    opts[spec.kind === 'boolean' ? 'boolean' : 'string'].push(name)
    known.add(name)
    if (spec.alias) {
      opts.alias[name] = spec.alias
      for (const a of [].concat(spec.alias)) known.add(a)
    }
    if (spec.argDefault && spec.kind === 'boolean') opts.default[name] = spec.default
  }
  opts.configuration = {
    'parse-positional-numbers': false,
    'dot-notation': false,
    'camel-case-expansion': false
  }
  return { opts, known }
}

// Unknown flags are refused here, as yargs' strictOptions() does.
function parseYargs (args) {
  const { opts, known } = parserOptions()
  const { argv, error } = yargsParser.detailed(args, opts)
  if (error) throw argument(error.message.split('\n')[0])
  const unknown = Object.keys(argv).filter((key) => !known.has(key))
  if (unknown.length > 0) throw argument(`Unknown option: ${flagName(unknown[0])} (see autocannon --help)`)
  return argv
}

// `-- node server.js` implies --on-port, as in autocannon.
function startsNode (command) {
  return command.length > 0 && (command[0] === 'node' || /[/\\]node(\.exe)?$/.test(command[0]))
}

// Where parseCli keeps the command line's words as the parser split them
// (yargs' output, the words after `--`, the bracketed groups), for
// autocannon's parseArguments (parse-arguments.js), which returns them in
// its shape; a symbol, so that the options stay the options.
const WORDS = Symbol('autocannon.words')

// Returns the options for autocannon(opts) plus the CLI's own: json,
// renderProgressBar, renderResultsTable, renderLatencyTable,
// renderStatusCodes, verbose, warmup, onPort, spawn, help, version.
// `{ help: true }` also for a command line without a URL, as autocannon
// shows its help then.
function parseCli (argv, env = process.env) {
  const { args, command, groups } = preprocess(argv.map(String))
  const a = parseYargs(portFlags(args))

  const opts = {}
  if (a.help) return { help: true }
  if (a.version) return { version: true }
  if (a._.length === 0 && !a.onPort && !startsNode(command)) return { help: true }

  for (const name of Object.keys(OPTIONS)) {
    const spec = OPTIONS[name]
    const raw = spec.kind === 'list' ? a[name] : last(a[name])
    if (raw === undefined) continue
    if (name === 'connections' && a.findMaxRate && String(raw).includes(',')) {
      // A search tries each count in turn; checked by the search.
      opts.connections = String(raw)
      continue
    }
    switch (spec.kind) {
      case 'integer': opts[name] = integer(name, raw); break
      case 'number': opts[name] = number(name, raw); break
      case 'duration': opts[name] = duration(name, raw); break
      case 'boolean': opts[name] = raw; break
      case 'list': opts[name] = list(raw).map(String); break
      case 'port': opts[name] = String(raw) === 'true' ? true : integer(name, raw); break
      default: opts[name] = String(raw)
    }
  }
  for (const name of Object.keys(DEFAULTS)) {
    if (opts[name] === undefined) opts[name] = DEFAULTS[name]
  }

  if (startsNode(command)) opts.onPort = true
  if (opts.onPort) {
    if (command.length === 0) throw argument('--on-port needs a command after --, e.g. -- node server.js')
    opts.spawn = command
  } else if (command.length > 0) {
    throw argument(`Unexpected command after --: ${command.join(' ')} (use --on-port to start it)`)
  }

  const urls = a._.map(String)
  // (--on-port: the command's port, at its root.)
  if (urls.length === 0) urls.push('/')
  const resolved = urls.map((u) => resolveUrl(u, { port: env.PORT, onPort: opts.onPort }))
  opts.url = resolved.length === 1 ? resolved[0] : resolved

  if (groups.warmup) opts.warmup = parseWarmup(groups.warmup)
  else if (opts.warmup === true) opts.warmup = {}
  else delete opts.warmup

  if (opts.n) opts.renderProgressBar = false
  delete opts.n
  // -j: stdout is for the JSON, and nothing is drawn on stderr either,
  // unless -V asks for the tables there.
  if (opts.json) {
    opts.renderProgressBar = false
    opts.renderResultsTable = opts.verbose === true
  } else {
    opts.renderResultsTable = true
  }
  if (opts.verbose === undefined) opts.verbose = true

  if (opts.shard !== undefined) {
    const parsed = shard().parseShard(opts.shard, env)
    if (parsed === null) throw argument(`Invalid value for --shard: "${opts.shard}" is not I/N with 0 <= I < N (0-based, as a Kubernetes Indexed Job numbers its pods), or auto/N`)
    opts.shard = parsed
  }

  if (opts.headers) opts.headers = parseHeaders(opts.headers)
  // Checked below with the other rules (each needs --dashboard).
  if (opts.dashboard !== undefined && (opts.dashboardHost !== undefined || opts.dashboardKeepOpen)) {
    opts.dashboard = { port: opts.dashboard === true ? 0 : opts.dashboard, host: opts.dashboardHost, keepOpen: !!opts.dashboardKeepOpen }
  }
  // Before a file is read.
  checkRules(opts, { name: describe, involving: PARSE_CHECKED })
  if (opts.input !== undefined) {
    opts.body = flagFiles().readInput(opts.input)
    delete opts.input
  }
  if (opts.form !== undefined) opts.form = flagFiles().parseForm(opts.form)
  // A form is posted unless -m says otherwise (autocannon's default too).
  if (opts.form !== undefined && !a.method) opts.method = 'POST'

  if (opts.har !== undefined) opts.har = flagFiles().readHar(opts.har)

  const ca = (opts.ca || []).concat(groups.ca || [])
  delete opts.ca
  if (opts.cert !== undefined || opts.key !== undefined || ca.length > 0) {
    opts.tlsOptions = flagFiles().readTls({ cert: opts.cert, key: opts.key, ca })
    // The CLI checks them before the run (checkTlsFiles), naming the flag
    // and the file.
    opts[TLS_FILES] = { cert: `--cert ${opts.cert}`, key: `--key ${opts.key}`, ca: ca.map((file) => `--ca ${file}`), given: { cert: opts.cert, key: opts.key } }
  }
  delete opts.cert
  delete opts.key

  Object.defineProperty(opts, WORDS, { value: { parsed: a, command, groups } })
  return opts
}

// The CLI's check of --cert, --key and --ca before the run, naming the
// flag and the file (the library checks tlsOptions again, by its names).
// No flag gives a passphrase: an encrypted key is refused here, in one
// line saying what to do.
function checkTlsFiles (opts) {
  const names = opts[TLS_FILES]
  if (names === undefined || opts.tlsOptions === undefined) return
  // Half a client certificate's pair (the table's rules), then the files.
  checkRules(names.given, { name: describe, involving: TLS_FLAGS })
  tlsCheck().checkTlsOptions(opts.tlsOptions, {
    cert: names.cert,
    key: names.key,
    ca: names.ca,
    passphrase: 'no flag gives its passphrase: decrypt it (openssl pkey -in KEY -out PLAIN) or call the library with tlsOptions.passphrase'
  })
}

// parseCli's options that autocannon() takes: those of the table's
// library options (the rest choose outputs, or how the CLI starts runs).
function libraryOptions (opts) {
  const out = {}
  for (const key of Object.keys(opts)) {
    if (Object.prototype.hasOwnProperty.call(ALL_OPTIONS, key) && ALL_OPTIONS[key].library !== false) out[key] = opts[key]
  }
  return out
}

// parseCli's options that findMaxRate() takes besides autocannon()'s,
// in the library's units (--precision 2 is precision 0.02).
function searchOptions (opts) {
  const out = {}
  for (const key of SEARCH_OPTIONS) {
    if (opts[key] === undefined) continue
    const scale = ALL_OPTIONS[key].flagScale
    out[key] = scale ? opts[key] / scale : opts[key]
  }
  return out
}

module.exports = { parseCli, checkTlsFiles, libraryOptions, searchOptions, OPTIONS, WORDS, describe }
