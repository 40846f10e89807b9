'use strict'

// autocannon.parseArguments(argv): a command line read by the CLI's own
// parser (args.js), returned in the shape autocannon's parser gives it.
// Scripts read that object (`opts._`, `opts.c`, `opts.H`…) and hand it back
// to autocannon() or start(), so it has what autocannon's has: `_` (the
// words that are not flags), `--` (those after it), each alias beside its
// option with the same value, autocannon's defaults and its booleans
// (false when not given), `tlsOptions`, the files' paths as typed, and the
// mark with which autocannon() shows the run as the command does
// (Symbol.for('internal')). The options only this tool has are there as
// the CLI reads them. Help and version are printed, as autocannon's
// parser prints them, and give undefined.

const { parseCli, WORDS, OPTIONS } = require('./args')
const { lazy } = require('../core/lazy')
// Lazy: only -h, -v and a command line without a URL print something.
const texts = lazy(() => require('./main'))

// autocannon's parser's defaults and booleans (its autocannon.js): a
// boolean not given is false, unless it has a default here.
const UPSTREAM_DEFAULTS = Object.freeze({
  connections: 10,
  timeout: 10,
  pipelining: 1,
  duration: 10,
  sampleInt: 1000,
  reconnectRate: 0,
  renderLatencyTable: false,
  renderProgressBar: true,
  renderStatusCodes: false,
  json: false,
  forever: false,
  method: 'GET',
  idReplacement: false,
  excludeErrorStats: false,
  debug: false,
  workers: 0,
  verbose: true
})
const UPSTREAM_BOOLEANS = Object.freeze(['json', 'n', 'help', 'renderLatencyTable', 'renderProgressBar', 'renderStatusCodes', 'forever',
  'idReplacement', 'excludeErrorStats', 'onPort', 'debug', 'ignoreCoordinatedOmission', 'verbose'])

// The mark autocannon's parser leaves, read by autocannon() (autocannon.js).
const INTERNAL = Symbol.for('internal')

// Its parser's words inside `--warmup [ ]`, and the option each stands for.
const WARMUP_ALIASES = Object.freeze({ c: 'connections', d: 'duration' })

function aliasesOf (name) {
  const spec = OPTIONS[name]
  return spec && spec.alias ? [].concat(spec.alias) : []
}

function last (value) {
  return Array.isArray(value) ? value[value.length - 1] : value
}

// A word as autocannon's parser gives it: a number when it reads as one
// (`-d 5` is 5), the text otherwise (`-d 5s` stays '5s', for the run to
// read as a timestring).
function wordValue (text) {
  return /^0x[0-9a-f]+$/i.test(text) || /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(e[-+]?\d+)?$/.test(text) ? Number(text) : text
}

// `--warmup [ -c 1 -d 3 ]`: { _: [], c: 1, d: 3, connections: 1, duration: 3 },
// each word under the name typed, and c and d under their options' names too.
function warmupGroup (tokens) {
  const group = { _: [] }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    const eq = token.indexOf('=')
    const flag = eq === -1 ? token : token.slice(0, eq)
    const raw = eq === -1 ? tokens[++i] : token.slice(eq + 1)
    group[flag.replace(/^--?/, '')] = wordValue(raw)
  }
  for (const [alias, name] of Object.entries(WARMUP_ALIASES)) {
    if (group[alias] !== undefined) group[name] = group[alias]
  }
  return group
}

function parseArguments (argv) {
  const opts = parseCli(argv)
  if (opts.version) {
    process.stdout.write(texts().versionText())
    return undefined
  }
  if (opts.help) {
    process.stderr.write(texts().helpText())
    return undefined
  }
  const { parsed, command, groups } = opts[WORDS]
  const out = { _: parsed._.map(String) }
  const set = (name, value) => {
    out[name] = value
    for (const alias of aliasesOf(name)) out[alias] = value
  }

  for (const name of UPSTREAM_BOOLEANS) {
    const given = parsed[name]
    set(name, typeof given === 'boolean' ? given : UPSTREAM_DEFAULTS[name] === true)
  }
  for (const [name, value] of Object.entries(UPSTREAM_DEFAULTS)) {
    if (!(name in out)) set(name, opts[name] === undefined ? value : opts[name])
  }
  // The options given, as the CLI read them (this tool's too), but for
  // those whose words autocannon's parser keeps as typed.
  for (const name of Object.keys(opts)) {
    if (UPSTREAM_BOOLEANS.includes(name) || !Object.prototype.hasOwnProperty.call(OPTIONS, name)) continue
    if (name === 'renderResultsTable') continue
    set(name, opts[name])
  }
  const typedDuration = last(parsed.duration)
  if (typedDuration !== undefined) set('duration', wordValue(String(typedDuration)))
  if (groups.warmup) set('warmup', warmupGroup(groups.warmup))
  // Each -H as typed, one string or a list of them; `headers` is the object.
  if (parsed.headers !== undefined) {
    const typed = parsed.headers
    for (const alias of aliasesOf('headers')) out[alias] = typed
  }
  // The files' paths as typed; what they hold is in body, har and tlsOptions.
  for (const name of ['input', 'cert', 'key']) {
    if (parsed[name] !== undefined) set(name, last(parsed[name]))
  }
  // -i's body is set after the words are read: -b's alias is not.
  if (parsed.input !== undefined) for (const alias of aliasesOf('body')) delete out[alias]
  const ca = [].concat(parsed.ca === undefined ? [] : parsed.ca, groups.ca || []).map(String)
  if (ca.length > 0) out.ca = ca

  // As autocannon's parser sets them after reading the words: the aliases
  // keep what was typed.
  out['--'] = command
  out.url = opts.url
  if (opts.onPort) {
    out.onPort = true
    out.spawn = opts.spawn
  }
  if (parsed.n) {
    out.renderProgressBar = false
    out.renderResultsTable = false
    out.renderStatusCodes = false
  }
  out.tlsOptions = opts.tlsOptions === undefined ? {} : opts.tlsOptions
  out[INTERNAL] = true
  return out
}

module.exports = { parseArguments, UPSTREAM_DEFAULTS, UPSTREAM_BOOLEANS }
