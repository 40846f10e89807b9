'use strict'

// autocannon's own error messages, word for word (autocannon 9:
// lib/validate.js, lib/run.js, lib/multipart.js, lib/parseHAR.js,
// lib/progressTracker.js, autocannon.js), by the code ours carry. Its
// users compare err.message with ===, so where one of these applies it is
// the message, and what we add goes in err.detail. <name> is a hole,
// filled by upstream(). The error table of docs/errors.md lists them all; a test
// checks it against this one.

const UPSTREAM = {
  AC_INVALID_OPTION: {
    bailout: 'bailout threshold can not be less than 1',
    connectionRate: 'connectionRate can not be less than 1',
    overallRate: 'bailout overallRate can not be less than 1',
    amount: 'amount can not be less than 1',
    maxConnectionRequests: 'maxConnectionRequests can not be less than 1',
    maxOverallRequests: 'maxOverallRequests can not be less than 1',
    connections: 'connections can not be less than 1',
    pipelining: 'pipelining factor can not be less than 1',
    timeout: 'timeout must be greater than 0',
    durationFormat: 'duration entered was in an invalid format',
    durationNegative: 'duration can not be less than 0',
    sampleIntFormat: 'sample interval entered was in an invalid format',
    sampleIntNegative: 'sample interval can not be less than 0',
    urlMissing: 'url or socketPath option required',
    urlType: 'url should only be a string or an array of string',
    hook: 'Invalid option <hook>, please provide a function (or file path when in workers mode)',
    ignoreCoordinatedOmission: 'ignoreCoordinatedOmission makes no sense without connectionRate or overallRate',
    foreverCallback: 'should not use the callback parameter when the `forever` option is set to true. Use the `done` event on this event emitter',
    foreverWorkers: 'Using `forever` option isn\'t currently supported with workers',
    method: '<method> HTTP method is not supported',
    body: 'body must be either a string or a buffer',
    connectionsOverAmount: 'connections cannot be greater than amount',
    form: 'Invalid JSON or file where to get form data',
    formPath: 'Missing key \'path\' in form object for key \'<key>\'',
    formValue: 'Missing key \'value\' in form object for key \'<key>\'',
    formType: 'A \'type\' key with value \'text\' or \'file\' should be specified',
    har: 'Could not parse HAR content: <reason>',
    harNoEntries: 'no entries found',
    harRequest: 'invalid request in entry #<i>',
    harHeaders: 'invalid headers array in entry #<i>',
    harHeader: 'invalid name or value in header #<j> of entry #<i>'
  },
  AC_FILE_UNREADABLE: {
    harFile: 'Failed to load HAR file content: <error>',
    certFile: 'Failed to load cert file: <error>',
    keyFile: 'Failed to load key file: <error>',
    caFile: 'Failed to load ca file: <error>'
  },
  AC_INVALID_ARGUMENT: {
    header: 'An HTTP header was not correctly formatted: <header>',
    track: 'instance required for tracking',
    results: '"results" must be an array of results'
  },
  AC_TIMEOUT: { timedOut: 'request timed out' },
  AC_CONNECT_TIMEOUT: { timedOut: 'request timed out' }
}

// The autocannon whose messages these are, and whose API, flags and
// result this package follows: what `--version` says it is compatible
// with (held to the autocannon-upstream devDependency by a test).
const UPSTREAM_VERSION = '9.0.0'

// Names are unique across codes (the two timeouts share one message).
const BY_NAME = Object.assign({}, ...Object.values(UPSTREAM))

// upstream('hook', { hook: 'setupClient' }) → autocannon's message.
function upstream (name, holes = {}) {
  const template = BY_NAME[name]
  if (typeof template !== 'string') throw new Error(`no upstream message ${name}`)
  return template.replace(/<(\w+)>/g, (whole, hole) => hole in holes ? String(holes[hole]) : whole)
}

module.exports = { UPSTREAM, UPSTREAM_VERSION, upstream }
