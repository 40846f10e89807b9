'use strict'

// Reading results back: a JSON file of one result (what -j or --out
// writes) or an NDJSON stream of several (-f rounds, `kubectl logs` of
// many shards, where other log lines may sit between them). A capacity
// search saved with --findMaxRate -j reads back too, for what can draw it
// (the report). Every reader of saved results (report, compare, merge)
// comes through here, so a file that is neither fails the same way
// everywhere: one line naming it.

const fs = require('fs')
const { raise } = require('../core/errors')

// Enough of the result object to be one, whoever wrote it (autocannon's
// own -j output qualifies; what needs more asks with `need`).
function isResult (value) {
  return isObject(value) &&
    isObject(value.latency) &&
    isObject(value.requests) &&
    typeof value.requests.total === 'number'
}

// What findMaxRate resolves to: { slos, precision, searches: [{ connections, steps }] }.
function isSearch (value) {
  return isObject(value) && Array.isArray(value.searches) && value.searches.length > 0 &&
    value.searches.every((s) => isObject(s) && typeof s.connections === 'number' && Array.isArray(s.steps))
}

function isObject (value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function kindOf (value) {
  return isResult(value) ? 'result' : isSearch(value) ? 'search' : null
}

// A saved result's dates come back as strings.
function revive (result) {
  for (const key of ['start', 'finish']) {
    if (typeof result[key] === 'string') result[key] = new Date(result[key])
  }
  return result
}

function reviveInput (kind, value) {
  if (kind === 'result') return revive(value)
  for (const search of value.searches) {
    for (const step of search.steps) if (step && isResult(step.result)) revive(step.result)
  }
  return value
}

// text → [{ kind: 'result'|'search', value }], in the file's order.
// `searches`: whether a capacity search is welcome; when not, the file is
// judged as results alone, as before searches could be saved.
function parseInputs (text, name, { searches = true } = {}) {
  const what = searches ? 'result or capacity search' : 'result'
  const trimmed = text.trim()
  if (trimmed === '') throw notAnInput(name, what, 'it is empty')
  let whole
  let parsed = false
  try {
    whole = JSON.parse(trimmed)
    parsed = true
  } catch {}
  if (parsed) {
    if (Array.isArray(whole) && whole.length > 0 && whole.every(isResult)) return whole.map((r) => ({ kind: 'result', value: revive(r) }))
    const kind = kindOf(whole)
    if (kind === 'search' && !searches) throw aSearch(name)
    if (kind) return [{ kind, value: reviveInput(kind, whole) }]
    throw notAnInput(name, what, 'its JSON has no requests and latency')
  }
  // NDJSON: one result (or search) per line; lines that are not JSON
  // objects (log lines, progress) are skipped.
  const inputs = []
  let skippedSearch = false
  for (const line of trimmed.split('\n')) {
    const l = line.trim()
    if (!l.startsWith('{')) continue
    let value
    try {
      value = JSON.parse(l)
    } catch {
      continue
    }
    const kind = kindOf(value)
    if (kind === 'search' && !searches) skippedSearch = true
    else if (kind) inputs.push({ kind, value: reviveInput(kind, value) })
  }
  if (inputs.length === 0) {
    if (skippedSearch) throw aSearch(name)
    throw notAnInput(name, what, `it holds no ${what} as JSON, or one per line`)
  }
  return inputs
}

function parseResults (text, name) {
  return parseInputs(text, name, { searches: false }).map((input) => input.value)
}

function notAnInput (name, what, why) {
  return raise('AC_NOT_A_RESULT', `${name} is not an autocannon ${what}: ${why} (save one with -j > file.json)`)
}

function aSearch (name) {
  return raise('AC_NOT_A_RESULT', `${name} is a capacity search (--findMaxRate -j), not a result: only \`autocannon report\` reads searches`)
}

function readText (file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw raise('AC_FILE_UNREADABLE', `Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`)
  }
}

// `need`: 'histograms' for what draws or compares distributions, 'series'
// for what works on per-second samples.
function readResults (file, { need = [] } = {}) {
  const results = parseResults(readText(file), file)
  for (const result of results) requireParts(result, need, file)
  return results
}

// Results and capacity searches, for what can show both (the report).
// `need` applies to the results; a search needs each step's latency.
function readInputs (file, { need = [] } = {}) {
  const inputs = parseInputs(readText(file), file)
  for (const { kind, value } of inputs) {
    if (kind === 'result') requireParts(value, need, file)
    else requireSearchParts(value, file)
  }
  return inputs
}

function requireParts (result, need, name) {
  for (const part of need) {
    const ok = part === 'histograms'
      ? result.histograms && typeof result.histograms.latency === 'string'
      : result.series && Array.isArray(result.series.requests)
    if (!ok) {
      throw raise('AC_NOT_A_RESULT', `${name} has no ${part === 'histograms' ? 'latency histograms' : 'per-second series'}: it was saved by an older autocannon; run it again with this one`)
    }
  }
}

// Every step must say what it offered and what latency it measured: the
// report plots one against the other.
function requireSearchParts (search, name) {
  for (const s of search.searches) {
    for (const step of s.steps) {
      const latency = step && (isObject(step.values) && typeof step.values.p99 === 'number'
        ? step.values
        : isResult(step.result) ? step.result.latency : null)
      if (!step || typeof step.target !== 'number' || !latency) {
        throw raise('AC_NOT_A_RESULT', `${name} has a search step without its target rate and latency (at ${s.connections} connections): save the search again with -j`)
      }
    }
  }
}

module.exports = { readResults, readInputs, parseResults, parseInputs, isResult, isSearch, requireParts }
