'use strict'

// Reading results back: a JSON file of one result (what -j or --out
// writes) or an NDJSON stream of several (-f rounds, `kubectl logs` of
// many shards, where other log lines may sit between them). Every reader
// of saved results (report, compare, merge) comes through here, so a file
// that is not a result fails the same way everywhere: one line naming it.

const fs = require('fs')
const { raise } = require('./errors')

// Enough of the result object to be one, whoever wrote it (autocannon's
// own -j output qualifies; what needs more asks with `need`).
function isResult (value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) &&
    value.latency !== null && typeof value.latency === 'object' &&
    value.requests !== null && typeof value.requests === 'object' &&
    typeof value.requests.total === 'number'
}

// A saved result's dates come back as strings.
function revive (result) {
  for (const key of ['start', 'finish']) {
    if (typeof result[key] === 'string') result[key] = new Date(result[key])
  }
  return result
}

function parseResults (text, name) {
  const trimmed = text.trim()
  if (trimmed === '') throw notAResult(name, 'it is empty')
  try {
    const whole = JSON.parse(trimmed)
    if (Array.isArray(whole) && whole.length > 0 && whole.every(isResult)) return whole.map(revive)
    if (isResult(whole)) return [revive(whole)]
    throw notAResult(name, 'its JSON has no requests and latency')
  } catch (err) {
    if (err.code === 'AC_NOT_A_RESULT') throw err
  }
  // NDJSON: one result per line; lines that are not JSON objects (log
  // lines, progress) are skipped.
  const results = []
  for (const line of trimmed.split('\n')) {
    const l = line.trim()
    if (!l.startsWith('{')) continue
    let value
    try {
      value = JSON.parse(l)
    } catch {
      continue
    }
    if (isResult(value)) results.push(revive(value))
  }
  if (results.length === 0) throw notAResult(name, 'it holds no result as JSON, or one per line')
  return results
}

function notAResult (name, why) {
  return raise('AC_NOT_A_RESULT', `${name} is not an autocannon result: ${why} (save one with -j > file.json)`)
}

// `need`: 'histograms' for what draws or compares distributions, 'series'
// for what works on per-second samples.
function readResults (file, { need = [] } = {}) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw raise('AC_FILE_UNREADABLE', `Cannot read ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`)
  }
  const results = parseResults(text, file)
  for (const result of results) requireParts(result, need, file)
  return results
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

module.exports = { readResults, parseResults, isResult, requireParts }
