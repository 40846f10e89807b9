'use strict'

const { emitWarning } = require('../core/warnings')
const { lazy } = require('../core/lazy')
// Lazy: only a warning needs to know which thread this is.
const workerThreads = lazy(() => require('worker_threads'))

// Requests of a file (a HAR, a --targets file) for the run's targets: each
// target origin gets its entries in the file's order; entries for other
// origins are skipped with one warning per origin, and a target the file
// has nothing for is named too (it then requests its own URL).

// entries: [{ origin, request }]; targets: config.urls; warn(code, message);
// codes: { other, none } warning codes; noun: what an entry is called.
function byOrigin (entries, targets, warn, { other, none, noun }) {
  const wanted = new Set(targets.map((t) => t.origin))
  const grouped = new Map()
  const skipped = new Map()
  for (const { origin, request } of entries) {
    if (!wanted.has(origin)) {
      skipped.set(origin, (skipped.get(origin) || 0) + 1)
      continue
    }
    let list = grouped.get(origin)
    if (list === undefined) grouped.set(origin, list = [])
    list.push(request)
  }
  // autocannon's words for the HAR's skipped origins, which scripts match.
  const allowed = [...wanted].join(', ')
  for (const [origin, n] of skipped) {
    warn(other, `skipping requests to '${origin}' as the target is ${allowed} (${n} ${noun} ${n === 1 ? 'entry' : 'entries'})`)
  }
  const missing = [...wanted].filter((o) => !grouped.has(o))
  if (missing.length > 0) warn(none, `no ${noun} entry for ${missing.join(', ')}: requesting the URL itself`)
  for (const list of grouped.values()) Object.freeze(list)
  return grouped
}

// A process warning, as every other warning of the library (Node prints
// it as "… Warning: skipping requests to …"; the CLI as autocannon's line,
// after the tables). Once per run: worker threads build the same map
// again, silently.
function defaultWarn (code, message) {
  if (workerThreads().isMainThread) emitWarning(code, message)
}

module.exports = { byOrigin, defaultWarn }
