'use strict'

// The deliberate differences between our parser and llhttp (fuzz/README.md
// has the table and the reasons), and the classifier that decides whether
// a disagreement is one of them.
//
// A difference is never assumed from the input's look alone: it is shown.
// Most are "relaxations": llhttp run with the lenient flag that allows
// exactly what we allow, or on the stream with CRLF for each bare LF (or
// our parser run with its header validation on, or both with the head
// limit lifted) must then agree with us on the whole stream. The others
// end the comparison where our parser fails on purpose (a protocol that is
// not HTTP/1.x, a length past 2^53, Content-Length with Transfer-Encoding
// where a body is possible): llhttp must agree on everything before that
// response.
//
// Node 20 ships llhttp 9.3, Node 22 and 24 ship 9.4, and the two differ on
// a few framing decisions. Our parser follows 9.4 (the llhttp of the Node
// versions we support); where 9.3 decides otherwise, the difference is an
// entry here with `llhttp: '9.3'`, excused only when that llhttp runs. A
// llhttp we have not reviewed fails test/e2e/fuzz.test.js (fuzz/decisions.js).

const { runOurs } = require('./ours')
const { runReference, LENIENT } = require('./reference')
const { compareOutcomes } = require('./compare')

// major.minor of the llhttp this Node ships.
const LLHTTP = process.versions.llhttp.split('.').slice(0, 2).join('.')

const KNOWN = {
  'bare-lf': {
    title: 'A bare LF ends a line (status line, header lines, chunk lines, the blank line)',
    reason: 'Accepted, as curl, browsers, wrk and http-parser-js do; llhttp 9 wants CRLF unless lenient. Refusing costs a check per line on the fast path (the skipped header lines are scanned to LF only) and would turn sloppy but unambiguous servers into errors. test/http1/response-parser/header-fields.test.js pins it.',
    verify: 'llhttp agrees on the stream with a CR put before each bare LF outside what our parser took for bodies, and before each LF llhttp still stops at'
  },
  'fast-path': {
    title: 'With wantHeaders off, a header line that is not Content-Length, Transfer-Encoding, Connection or Proxy-Connection is skipped to its LF unvalidated (invalid name characters after the first, no colon, control characters or a lone CR in the value)',
    reason: 'The hot path: validating lines nobody reads would cost a table lookup per byte. With wantHeaders on (a \'headers\' listener, onResponse hooks) every line is validated as llhttp does. test/http1/response-parser/header-fields.test.js pins it.',
    verify: 'our parser with wantHeaders on agrees with llhttp'
  },
  'head-size': {
    title: 'The head limit (maxHeaderSize, 16384) counts wire bytes',
    reason: 'We count every byte of the head (status line, header lines with their colons, whitespace and line ends, blank line; trailers apart) and fail past maxHeaderSize; Node counts only the reason phrase, names and values and fails at maxHeaderSize. Counting as Node does would mean finding the colon and the whitespace of every skipped line. So we are stricter by the framing bytes (at least 17 + 3 per header line), never looser: a head Node refuses we refuse too.',
    verify: 'our parser reported HPE_HEADER_OVERFLOW, and both agree with the limit lifted'
  },
  'chunk-size-ws': {
    title: 'Spaces and tabs between a chunk size and its CRLF or ";"',
    reason: 'Accepted (RFC 9112 BWS, and servers that pad sizes); llhttp needs its lenient flag. test/http1/response-parser/chunked.test.js pins it.',
    verify: 'llhttp with kLenientSpacesAfterChunkSize agrees on the whole stream'
  },
  'cl-te-bodyless': {
    title: 'Content-Length together with Transfer-Encoding on a 1xx, 204 or 304 response',
    reason: 'Accepted: those never have a body, so there is no framing to be misled about; llhttp 9 refuses both headers together on any response (we refuse them too where a body is possible). test/http1/response-parser/no-body.test.js pins a 304 with both.',
    verify: 'llhttp with kLenientChunkedLength agrees on the whole stream, or up to the first response where a body is possible and both come, which we refuse'
  },
  version: {
    title: 'A status line that is not HTTP/1.x: RTSP/ and ICE/ protocols, HTTP/0.9, HTTP/2.0 and other major versions',
    reason: 'We speak HTTP/1.0 and 1.1 only and fail with HPE_INVALID_CONSTANT; llhttp accepts RTSP/ICE (it shares code with those parsers) and the versions 0.9 and 2.0, or fails with HPE_INVALID_VERSION. test/http1/response-parser/errors.test.js pins HTTP/2.0 as HPE_INVALID_CONSTANT.',
    verify: 'our parser failed at a response that starts with RTSP, ICE or HTTP/ and a major version other than 1; llhttp agrees on every response before it'
  },
  'big-length': {
    title: 'A Content-Length or chunk size above 2^53 - 1',
    reason: 'Refused at once (HPE_INVALID_CONTENT_LENGTH / HPE_INVALID_CHUNK_SIZE, "too large"), even on a response without a body: lengths are JavaScript numbers, exact only up to 2^53. llhttp takes up to 2^64 - 1 and then waits for the 9 PB. test/http1/response-parser/errors.test.js pins 99999999999999999 as an error.',
    verify: 'our parser failed with "too large" at response k, the stream holds such a number, and llhttp agrees on every response before k'
  },
  'ows-tab': {
    llhttp: '9.3',
    title: 'A tab as optional whitespace after a Content-Length value or a Connection token (llhttp 9.3 only)',
    reason: 'RFC 9110 5.5 and 5.6.3: optional whitespace is spaces and tabs. llhttp 9.4 (Node 22, 24) reads "Content-Length: 2\\t" as 2 and "close\\t" as close, as curl does; 9.3 (Node 20) refuses the first and ignores the second. We follow 9.4. test/http1/response-parser/content-length.test.js and connection.test.js pin it.',
    verify: 'llhttp 9.3 agrees on the stream with each tab after the first byte of a Content-Length, Connection or Proxy-Connection value (outside bodies) made a space'
  },
  'te-empty': {
    llhttp: '9.3',
    title: 'An empty Transfer-Encoding field (llhttp 9.3 only)',
    reason: 'It names no coding, and with a Content-Length beside it the framing is ambiguous; llhttp 9.4 (Node 22, 24) refuses it with HPE_INVALID_TRANSFER_ENCODING on any response and in trailers, and so do we; 9.3 (Node 20) let it change nothing. test/http1/response-parser/chunked.test.js pins it.',
    verify: 'our parser failed with "empty transfer-encoding" at response k, and llhttp 9.3 agrees on every response before k'
  },
  'status-cr-cr': {
    llhttp: '9.3',
    title: 'A status line whose CR is followed by another CR (llhttp 9.3 only)',
    reason: 'Refused with HPE_STRICT, as llhttp 9.4 (Node 22, 24) does: "HTTP/1.1 200 OK\\r\\r\\nContent-Length: 2..." read as a 200 with no headers would take the headers for the body. llhttp 9.3 (Node 20) takes the second CR for the LF, and then refuses the LF of a CR CR LF as HPE_INVALID_HEADER_TOKEN. test/http1/response-parser/status-line.test.js pins it.',
    verify: 'our parser failed with HPE_STRICT in the status line of response k, which has CR CR there, and llhttp 9.3 agrees on every response before k'
  }
}

const HUGE = 1 << 30

// Each relaxation: what to change on either side, and whether it can
// apply to this disagreement at all.
const RELAXATIONS = [
  // Not llhttp's lenient flag for bare LF: with it, llhttp 9.3 still wants
  // CRLF after a chunk size (it takes the LF for the CR and waits for
  // another LF). Instead the stream gets a CR before each LF llhttp stops
  // at: "what if the server had sent CRLF there".
  { id: 'bare-lf', ref: { crlf: true } },
  { id: 'chunk-size-ws', ref: { lenient: LENIENT.spacesAfterChunkSize } },
  { id: 'ows-tab', ref: { owsTab: true } },
  { id: 'cl-te-bodyless', ref: { lenient: LENIENT.chunkedLength } },
  { id: 'fast-path', ours: { wantHeaders: true }, applies: (ctx) => !ctx.wantHeaders },
  {
    id: 'head-size',
    ours: { maxHeaderSize: HUGE },
    ref: { maxHeaderSize: HUGE },
    // Only where our limit fired, and never where Node's fired first: we
    // may be stricter than Node, not looser.
    applies: (ctx) => ctx.ours.error !== null && ctx.ours.error.code === 'HPE_HEADER_OVERFLOW' && ctx.wire.length > ctx.maxHeaderSize &&
      !(ctx.ref.error !== null && ctx.ref.error.code === 'HPE_HEADER_OVERFLOW' && ctx.ref.error.at < ctx.ours.error.at)
  }
]

// The errors our parser gives, with wantHeaders on, for a header line the
// fast path skips.
const LINE_ERRORS = ['HPE_INVALID_HEADER_TOKEN', 'HPE_STRICT']

// Where a relaxation runs our parser differently, the original outcome
// must be the relaxed one cut short by what the relaxation lifts: our head
// limit firing, or (fast path) our parser with wantHeaders on refusing a
// line the fast path skipped. Anything else would be a difference the
// relaxation does not explain.
function relates (original, relaxed, set) {
  if (compareOutcomes(original, relaxed) === null) return true
  let k = Infinity
  if (set.some((r) => r.id === 'head-size') && original.error !== null && original.error.code === 'HPE_HEADER_OVERFLOW') k = original.error.at
  if (set.some((r) => r.id === 'fast-path') && relaxed.error !== null && LINE_ERRORS.includes(relaxed.error.code)) k = Math.min(k, relaxed.error.at)
  return k !== Infinity && compareOutcomes(original, relaxed, { upTo: k }) === null
}

// Our deliberate failures that end the comparison at response k (some
// only together with a relaxation).
const STOPS = [
  {
    // With llhttp lenient about Content-Length with Transfer-Encoding, we
    // still refuse them where the status allows a body, as strict llhttp does.
    id: 'cl-te-bodyless',
    needs: 'cl-te-bodyless',
    test (ctx, o) {
      return o.error !== null && /together with/.test(o.error.reason)
    }
  },
  {
    id: 'version',
    test (ctx, o) {
      if (o.error === null || o.error.code !== 'HPE_INVALID_CONSTANT') return false
      const rest = messageStart(ctx, o.error.at)
      if (rest === null || rest.length === 0) return false
      return rest[0] === 0x52 || rest[0] === 0x49 || /^HTTP\/[02-9]/.test(rest.subarray(0, 6).toString('latin1'))
    }
  },
  {
    id: 'te-empty',
    test (ctx, o) {
      return o.error !== null && o.error.code === 'HPE_INVALID_TRANSFER_ENCODING' && o.error.reason === 'empty transfer-encoding'
    }
  },
  {
    id: 'status-cr-cr',
    test (ctx, o) {
      if (o.error === null || o.error.code !== 'HPE_STRICT' || !/status line/.test(o.error.reason)) return false
      const rest = messageStart(ctx, o.error.at)
      return rest !== null && /^[^\r\n]*\r\r/.test(rest.toString('latin1'))
    }
  },
  {
    id: 'big-length',
    test (ctx, o) {
      if (o.error === null || !/too large/.test(o.error.reason)) return false
      const s = ctx.wire.toString('latin1')
      // A decimal run whose value passes 2^53 - 1, or a hex run of 14+ significant digits.
      return /[1-9][0-9]{15,}/.test(s) || /[1-9a-fA-F][0-9a-fA-F]{13,}/.test(s)
    }
  }
]

// Where response k starts: after response k - 1 ended (our parser fed one
// byte at a time knows where) and any stray line ends.
function messageStart (ctx, k) {
  let at = 0
  if (k > 0) {
    if (!ctx.oursBytes) {
      const bytes = []
      for (let i = 0; i < ctx.wire.length; i++) bytes.push(ctx.wire.subarray(i, i + 1))
      ctx.oursBytes = runOurs(bytes, { head: ctx.head, wantHeaders: ctx.wantHeaders, maxHeaderSize: ctx.maxHeaderSize })
    }
    if (ctx.oursBytes.ends.length < k) return null
    at = ctx.oursBytes.ends[k - 1]
  }
  while (at < ctx.wire.length && (ctx.wire[at] === 13 || ctx.wire[at] === 10)) at++
  return ctx.wire.subarray(at)
}

function subsets (list) {
  const out = []
  for (let mask = 1; mask < 1 << list.length; mask++) out.push(list.filter((_, k) => (mask & (1 << k)) !== 0))
  return out.sort((a, b) => a.length - b.length)
}

function runRelaxed (ctx, set) {
  const key = set.map((r) => r.id).join('+')
  if (ctx.relaxed === undefined) ctx.relaxed = new Map()
  let out = ctx.relaxed.get(key)
  if (out === undefined) {
    out = relaxedRun(ctx, set)
    ctx.relaxed.set(key, out)
  }
  return out
}

function relaxedRun (ctx, set) {
  const oursOpts = { head: ctx.head, wantHeaders: ctx.wantHeaders, maxHeaderSize: ctx.maxHeaderSize }
  const refOpts = { head: ctx.head, maxHeaderSize: ctx.maxHeaderSize, lenient: 0 }
  let crlf = false
  let owsTab = false
  for (const r of set) {
    if (r.ours) Object.assign(oursOpts, r.ours)
    if (r.ref) {
      if (r.ref.maxHeaderSize) refOpts.maxHeaderSize = r.ref.maxHeaderSize
      if (r.ref.lenient) refOpts.lenient |= r.ref.lenient
      if (r.ref.crlf) crlf = true
      if (r.ref.owsTab) owsTab = true
    }
  }
  // Our parser runs again only if the set changes how; otherwise its
  // outcome is the one being explained, as it is.
  const ours = set.some((r) => r.ours) ? runOurs([ctx.wire], oursOpts) : ctx.ours
  let wire = owsTab ? withSpaces(ctx.wire, ours.bodyRanges) : ctx.wire
  if (crlf) wire = withCrlf(wire, ours.bodyRanges, refOpts)
  return { ours, ref: runReference([wire], refOpts), headers: oursOpts.wantHeaders }
}

const CR = Buffer.from('\r')

// Framing header lines whose value's tabs after its first byte become
// spaces (same length, so offsets and body ranges hold).
const OWS_LINE = /(^|\n)((?:content-length|connection|proxy-connection):[ \t]*[^ \t\r\n])([^\r\n]*)/gi

// The stream as if the server had put spaces where it put tabs as
// optional whitespace in framing values, outside what our parser took for
// bodies.
function withSpaces (wire, bodyRanges) {
  const text = wire.toString('latin1')
  const out = Buffer.from(wire)
  for (const m of text.matchAll(OWS_LINE)) {
    const start = m.index + m[1].length + m[2].length
    if (bodyRanges.some(([a, b]) => start < b && m.index + m[0].length > a)) continue
    for (let k = 0; k < m[3].length; k++) if (m[3].charCodeAt(k) === 9) out[start + k] = 32
  }
  return out
}

// The stream with a CR put before each LF llhttp stops at for want of a
// CR, one at a time. The errors llhttp gives for a bare LF, and where its
// error offset then points: at the LF, or just past it.
function bareLfAt (w, e) {
  let q = -1
  if (e.code === 'HPE_CR_EXPECTED') q = /header value|chunk extension/.test(e.reason) ? e.offset : e.offset - 1
  else if ((e.code === 'HPE_INVALID_HEADER_TOKEN' && /Invalid header (field|value) char/.test(e.reason)) ||
    (e.code === 'HPE_INVALID_STATUS' && e.reason === 'Invalid response status')) q = e.offset - 1
  return q >= 0 && q < w.length && w[q] === 10 ? q : -1
}

// First every LF without a CR before it outside what our parser took for
// bodies gets one (were our parser wrong about where bodies are, llhttp
// would now see other bodies or other framing, and disagree). Then llhttp
// is asked, once per LF, about the rare rest (a status line ended by CR CR
// and then an LF).
function withCrlf (wire, bodyRanges, refOpts) {
  const parts = []
  let prev = 0
  let r = 0
  for (let k = 0; k < wire.length; k++) {
    while (r < bodyRanges.length && bodyRanges[r][1] <= k) r++
    if (wire[k] !== 10 || (k > 0 && wire[k - 1] === 13)) continue
    if (r < bodyRanges.length && bodyRanges[r][0] <= k) continue
    parts.push(wire.subarray(prev, k), CR)
    prev = k
  }
  parts.push(wire.subarray(prev))
  let w = Buffer.concat(parts)
  for (let n = 0; n < 64; n++) {
    const r = runReference([w], refOpts)
    if (r.error === null || r.error.offset === undefined) return w
    const at = bareLfAt(w, r.error)
    if (at === -1) return w
    w = Buffer.concat([w.subarray(0, at), CR, w.subarray(at)])
  }
  return w
}

// ctx: { wire, head, maxHeaderSize, wantHeaders, ours, ref, oursBytes }.
// Returns the ids of the known differences that explain the disagreement
// (fewest first), or null.
function classify (ctx) {
  const applicable = RELAXATIONS.filter((r) => here(r.id) && (!r.applies || r.applies(ctx)))
  const sets = [[], ...subsets(applicable)]
  for (const set of sets) {
    const { ours, ref, headers } = set.length > 0 ? runRelaxed(ctx, set) : { ...ctx, headers: ctx.wantHeaders }
    if (set.length > 0) {
      if (!relates(ctx.ours, ours, set)) continue
      if (compareOutcomes(ours, ref, { headers }) === null) return set.map((r) => r.id)
    }
    for (const stop of STOPS) {
      if (!here(stop.id)) continue
      if (stop.needs && !set.some((r) => r.id === stop.needs)) continue
      if (!stop.test(ctx, ours)) continue
      if (compareOutcomes(ours, ref, { upTo: ours.error.at }) === null) return [...new Set([stop.id, ...set.map((r) => r.id)])]
    }
  }
  return null
}

// Whether a known difference applies to the llhttp this Node ships.
function here (id, version = LLHTTP) {
  return KNOWN[id].llhttp === undefined || KNOWN[id].llhttp === version
}

module.exports = { KNOWN, LLHTTP, classify, here }
