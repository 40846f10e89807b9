'use strict'

// The one registry of warnings, beside the errors' (errors.js): what the
// user should know while the run goes on. Each has a stable code and the
// words the table of docs/errors.md gives it; the caller words the message, as
// for errors. A warning reaches the user in one of three ways, by what it
// is about:
//
// - emitWarning: a process warning (process.on('warning') in a script);
//   the CLI prints it as one line.
// - printWarning: a line on stderr at once, for a command that is not a
//   run (kube).
// - warning: an object { code, message } for a result to carry (merge).
//
// The table of docs/errors.md and the types are checked against this one by a test.

const WARNINGS = {
  AC_WORKERS_OVER_CORES: 'More workers than CPU cores: they compete for the cores, which lowers the load they can generate.',
  AC_WORKERS_OVER_CONNECTIONS: 'More workers than connections: each worker runs one, as in autocannon, so as many connections run as there are workers (the line says how many).',
  AC_WORKERS_OVER_AMOUNT: 'More workers than requests in an amount run: each worker makes one at least, as in autocannon, so the amount is the number of workers (the line says so).',
  AC_UNKNOWN_OPTION: 'autocannon() was given a key that is not an option (a typo such as `conections`): named once, with the closest option, and ignored.',
  AC_HAR_OTHER_ORIGIN: 'The HAR file has requests to an origin that is not a target\'s: they are skipped (one warning per origin, in autocannon\'s words).',
  AC_TARGETS_OTHER_ORIGIN: '--targets: the file has requests to an origin that is not a target\'s: they are skipped (one warning per origin).',
  AC_TARGETS_NO_ENTRY: '--targets: the file has no request for a target\'s origin: that target gets its URL itself.',
  AC_HAR_NO_ENTRY: 'The HAR file has no request for a target\'s origin: that target gets its URL itself.',
  AC_SHARD_MISSING: 'merge: no result for a shard index of the run (the line names it); the merged numbers lack its load.',
  AC_SHARD_DUPLICATE: 'merge: two results for one shard index (a restarted shard, or a file given twice); only the first is merged.',
  AC_SHARD_PARTIAL: 'merge: a result was stopped early by a signal (a deleted pod\'s SIGTERM): what it measured is merged, but its part of the load ended early.',
  AC_SHARD_MISMATCH: 'merge --force: the results differ in what makes one run (the line names the option and each value); they are merged all the same.',
  AC_SHARD_EMPTY: 'merge: a result had no responses (the line gives its errors by cause): the merged numbers lack its load.',
  AC_SHARD_GAP: 'merge: a result began after the first or ended before the last by a sample interval or more: the series has those seconds without its load (zeros where no result sent).',
  AC_GENERATOR_DISTORTED: 'Under a rate, the generator\'s event loop ran over 1 ms late at p99, or 0.1% of requests or more left more than 5 ms after their planned time: part of the latency may be the generator\'s, not the server\'s; the line names the cause and its remedy (printed after the tables).',
  AC_KUBE_LOCAL_FILES: 'kube: a run flag names a file (-i, -F, --har, --targets, --cert, --key, --ca), which each pod reads from its own file system.'
}

// autocannon's own wording, for the one warning its users' scripts match.
const LINE_PREFIX = { AC_HAR_OTHER_ORIGIN: 'Warning: ' }

function warning (code, message) {
  if (!(code in WARNINGS)) throw new Error(`unregistered warning code ${code}`)
  return { code, message }
}

// The one line a warning is printed as.
function warningLine ({ code, message }) {
  return `${LINE_PREFIX[code] || 'autocannon: warning: '}${message}`
}

function emitWarning (code, message, emit = process.emitWarning) {
  const w = warning(code, message)
  emit(w.message, { code: w.code })
}

function printWarning (code, message, stream = process.stderr) {
  stream.write(`${warningLine(warning(code, message))}\n`)
}

module.exports = { WARNINGS, warning, warningLine, emitWarning, printWarning }
