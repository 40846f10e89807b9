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
  AC_NOT_WITH_WORKERS: 'A listener for the instance\'s \'response\' event was added to a run with workers: each response happens in a worker thread, with a client that stays there, so it is never called (as in autocannon); listen on the clients in a setupClient file instead.',
  AC_UNKNOWN_OPTION: 'autocannon() was given a key that is not an option but is a near miss of one (a typo such as `conections`): named once, with that option, and ignored. Other keys are ignored without a word, as autocannon ignores them.',
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
  AC_RESPONSES_TO_NO_REQUEST: 'After the run: the server sent responses to no request (it answers some requests more than once): each closed its connection, and one that came after the next request was sent passed for its answer, so the counts and latencies are not the server\'s; counted in unexpectedResponses (the line says how many).',
  AC_OPTION_COERCED: 'autocannon() was given a value of a type the option does not take, which autocannon takes unchecked: a flag given a string or number (idReplacement: "x", taken as true when truthy), a title that is not a string (shown as String() shows it); the line names the option and what its value was taken as, once per option.',
  AC_DASHBOARD_NOT_LOOPBACK: 'The dashboard was told to listen on an address other than loopback (--dashboardHost, dashboard.host): anyone who reaches its port sees the run.',
  AC_KUBE_LOCAL_FILES: 'kube: a run flag names a file (-i, -F, --har, --targets, --cert, --key, --ca), which each pod reads from its own file system.'
}

// Our warnings begin with our name: autocannon has no such lines, and its
// name would read as a very old autocannon's.
const WARNING_PREFIX = 'cannonade: warning: '

// autocannon's own wording, for the one warning its users' scripts match.
const LINE_PREFIX = { AC_HAR_OTHER_ORIGIN: 'Warning: ' }

function warning (code, message) {
  if (!(code in WARNINGS)) throw new Error(`unregistered warning code ${code}`)
  return { code, message }
}

// The one line a warning is printed as.
function warningLine ({ code, message }) {
  return `${LINE_PREFIX[code] || WARNING_PREFIX}${message}`
}

function emitWarning (code, message, emit = process.emitWarning) {
  const w = warning(code, message)
  emit(w.message, { code: w.code })
}

function printWarning (code, message, stream = process.stderr) {
  stream.write(`${warningLine(warning(code, message))}\n`)
}

module.exports = { WARNINGS, WARNING_PREFIX, warning, warningLine, emitWarning, printWarning }
