'use strict'

// Compares two outcomes (from fuzz/ours.js and fuzz/reference.js): the
// number of complete responses, each one's status and body bytes (and
// headers when both have them), whether the stream ended in an error, with
// which code and after how many complete responses, and whether it ended
// in an upgrade. Returns null when they agree, else a line saying where
// they first differ.

// Error codes that name the same failure differently. llhttp has no
// "incomplete" code of its own: finish() says HPE_INVALID_EOF_STATE
// (node:http turns it into ECONNRESET "aborted" or "socket hang up"). We
// say HPE_STRICT for a CR not followed by LF everywhere; llhttp says
// HPE_LF_EXPECTED after a header value and HPE_STRICT elsewhere
// (test/http1/response-parser/errors.test.js pins our code).
const ALIASES = {
  HPE_INCOMPLETE: ['HPE_INVALID_EOF_STATE'],
  HPE_STRICT: ['HPE_LF_EXPECTED']
}

function sameCode (ours, ref) {
  return ours === ref || (ALIASES[ours] !== undefined && ALIASES[ours].includes(ref))
}

function show (buf, max = 40) {
  const s = JSON.stringify(buf.toString('latin1'))
  return s.length > max ? s.slice(0, max) + '…"' : s
}

function describeError (e) {
  return e === null ? 'no error' : `${e.code} after ${e.at} response(s)`
}

// opts.headers: compare headers too; opts.ends: compare where each
// response completed (both fed one byte at a time); opts.upTo: compare
// only the first n responses and no error (used once a known difference
// explains the rest).
function compareOutcomes (a, b, opts = {}) {
  const n = opts.upTo !== undefined ? opts.upTo : Math.max(a.responses.length, b.responses.length)
  if (opts.upTo === undefined && a.responses.length !== b.responses.length) {
    return `${a.responses.length} vs ${b.responses.length} complete responses` + firstResponseDiff(a, b)
  }
  for (let k = 0; k < n; k++) {
    const x = a.responses[k]
    const y = b.responses[k]
    if (x === undefined || y === undefined) return `response #${k} missing on one side`
    if (x.status !== y.status) return `response #${k}: status ${x.status} vs ${y.status}`
    if (!x.body.equals(y.body)) return `response #${k}: body ${x.body.length} bytes ${show(x.body)} vs ${y.body.length} bytes ${show(y.body)}`
    if (opts.headers && x.headers && y.headers && JSON.stringify(x.headers) !== JSON.stringify(y.headers)) {
      return `response #${k}: headers ${JSON.stringify(x.headers).slice(0, 200)} vs ${JSON.stringify(y.headers).slice(0, 200)}`
    }
    if (opts.ends && a.ends[k] !== b.ends[k]) return `response #${k} completed at byte ${a.ends[k]} vs ${b.ends[k]}`
  }
  if (opts.upTo !== undefined) return null
  const ea = a.error
  const eb = b.error
  if ((ea === null) !== (eb === null) || (ea !== null && (ea.at !== eb.at || !sameCode(ea.code, eb.code)))) {
    return `${describeError(ea)} vs ${describeError(eb)}` + (eb !== null && eb.reason ? ` (${eb.reason})` : '')
  }
  if (a.upgraded !== b.upgraded) return `upgraded ${a.upgraded} vs ${b.upgraded}`
  return null
}

function firstResponseDiff (a, b) {
  const n = Math.min(a.responses.length, b.responses.length)
  for (let k = 0; k < n; k++) {
    const x = a.responses[k]
    const y = b.responses[k]
    if (x.status !== y.status || !x.body.equals(y.body)) return `, first difference at #${k}`
  }
  return `; errors: ${describeError(a.error)} vs ${describeError(b.error)}` + (b.error && b.error.reason ? ` (${b.error.reason})` : '')
}

// What node:http shows of a stream, which it reads as the answer to one
// request: the first final response, complete or not, and an error only
// if one came before that response was complete. (What arrives after it
// is handled by node:http with timing-dependent results, so it is not
// compared; the in-process layer compares it against llhttp.)
function projectToNodeHttp (outcome) {
  const first = outcome.responses[0]
  if (first !== undefined) return { status: first.status, body: first.body, error: null }
  if (outcome.error === null) return { status: null, body: null, error: 'ECONNRESET' } // socket hang up
  const code = outcome.error.code
  return { status: null, body: null, error: code === 'HPE_INCOMPLETE' || code === 'HPE_INVALID_EOF_STATE' ? 'ECONNRESET' : code }
}

function compareNodeHttp (ours, node) {
  const a = projectToNodeHttp(ours)
  if (a.error !== node.error && !(a.error !== null && node.error !== null && sameCode(a.error, node.error))) {
    return `node:http: ${a.error || 'a response'} vs ${node.error || 'a response'}` + (node.reason ? ` (${node.reason})` : '')
  }
  if (a.status !== node.status) return `node:http: status ${a.status} vs ${node.status}`
  if (a.body !== null && !a.body.equals(node.body)) return `node:http: body ${a.body.length} bytes ${show(a.body)} vs ${node.body.length} bytes ${show(node.body)}`
  return null
}

module.exports = { compareOutcomes, compareNodeHttp, projectToNodeHttp, sameCode, ALIASES }
