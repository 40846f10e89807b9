'use strict'

// Generates HTTP/1.1 response streams, valid and broken, from (seed, index)
// alone: case k of seed S is always the same bytes, so any case can be
// replayed by its id "S:k".
//
// A case is built as a list of responses (status line, header lines, a
// framed body), serialized, and then maybe broken at the byte level. Each
// category leans on one kind of trouble; all of them mix in the others a
// little, since bugs live where features meet. Bodies are random bytes
// that often contain CR, LF and "HTTP/1.1 " so that a parser that frames
// wrongly sees a response where a body was.

const { Rng } = require('./rng')

const CATEGORIES = [
  [22, 'valid'],
  [9, 'pipelined'],
  [10, 'chunked'],
  [7, 'no-body'],
  [10, 'framing'],
  [7, 'status-line'],
  [10, 'headers'],
  [5, 'bare-lf'],
  [6, 'truncated'],
  [5, 'oversized'],
  [7, 'mutated'],
  [2, 'garbage'],
  [6, 'repeated']
]

const STATUSES = [200, 200, 200, 201, 202, 203, 206, 301, 302, 303, 307, 308, 400, 401, 403, 404, 405, 409, 418, 429, 500, 502, 503, 504]
const REASONS = ['OK', 'Created', 'Not Found', 'Internal Server Error', 'Moved Permanently', '', 'I\'m a teapot', 'Whatever it is', 'x', '200 OK', 'Ok ok: fine, really']
const HEADER_NAMES = ['Date', 'Server', 'Content-Type', 'ETag', 'Set-Cookie', 'Vary', 'Cache-Control', 'X-Powered-By', 'Keep-Alive',
  'Content-Encoding', 'Last-Modified', 'Accept-Ranges', 'X-Request-Id', 'Location', 'Link', 'Age', 'Via', 'Expires',
  // names that start like the framing ones, to test the name matching
  'Content-Language', 'Content-Location', 'Contentlength', 'Content-Lengths', 'Transfer-Encodings', 'Transfer', 'Connections',
  'Connect', 'Conn', 'C', 'T', 'P', 'Proxy', 'Proxy-Connect', 'Proxy-Authenticate', 'Upgrade', 'Trailer', 'TE']
const HEADER_VALUES = ['Sun, 22 Nov 2026 10:00:00 GMT', 'nginx/1.22.1', 'text/plain; charset=utf-8', '"abc123"', 'a=b; Path=/; HttpOnly',
  'Accept-Encoding', 'no-cache', 'Express', 'timeout=5, max=100', 'gzip', 'bytes', '', '0', 'close', 'chunked', 'keep-alive',
  'x'.repeat(40), '\xe9t\xe9 \xa0 obs-text', 'a,b,c', 'value with  spaces', '=?utf-8?q?x?=']

function caseId (seed, index) {
  return `${seed}:${index}`
}

// ---------------------------------------------------------------------------
// Building blocks. A "line end" is CRLF unless the builder says otherwise.

class Builder {
  constructor (rng, opts = {}) {
    this.rng = rng
    this.parts = []
    // Probability that a line ends in a bare LF.
    this.bareLf = opts.bareLf || 0
    this.head = []
  }

  eol () {
    return this.rng.chance(this.bareLf) ? '\n' : '\r\n'
  }

  push (str) {
    this.parts.push(Buffer.isBuffer(str) ? str : Buffer.from(str, 'latin1'))
  }

  bytes () {
    return Buffer.concat(this.parts)
  }
}

function randomCase (rng, name) {
  switch (rng.int(4)) {
    case 0: return name
    case 1: return name.toLowerCase()
    case 2: return name.toUpperCase()
    default: return [...name].map((c) => rng.chance(0.5) ? c.toUpperCase() : c.toLowerCase()).join('')
  }
}

// Optional whitespace as servers write it: mostly one space.
function ows (rng) {
  return rng.weighted([[12, ' '], [3, ''], [1, '  '], [1, '\t'], [1, ' \t']])
}

function trailingOws (rng) {
  return rng.weighted([[14, ''], [2, ' '], [1, '\t'], [1, '  ']])
}

function headerLine (b, name, value, opts = {}) {
  const rng = b.rng
  const n = opts.exactName ? name : randomCase(rng, name)
  b.push(`${n}:${opts.noOws ? '' : ows(rng)}${value}${opts.noOws ? '' : trailingOws(rng)}${b.eol()}`)
}

function statusLine (b, status, opts = {}) {
  const rng = b.rng
  const version = opts.version || (rng.chance(0.9) ? '1.1' : '1.0')
  const reason = opts.reason !== undefined ? opts.reason : rng.pick(REASONS)
  const sep = reason === '' && rng.chance(0.5) ? '' : ' '
  b.push(`HTTP/${version} ${String(status).padStart(3, '0')}${sep}${reason}${b.eol()}`)
  return version
}

function body (rng, n) {
  // Random bytes, seeded with the characters that confuse framing.
  const out = rng.bytes(n)
  const tricky = ['\r\n', '\n', 'HTTP/1.1 200 OK\r\n', '0\r\n\r\n', '\r\n\r\n']
  for (let k = 0; k < n; k += 1 + rng.int(24)) {
    if (rng.chance(0.3)) {
      const t = Buffer.from(rng.pick(tricky), 'latin1')
      t.copy(out, k, 0, Math.min(t.length, n - k))
    }
  }
  return out
}

function bodyLength (rng) {
  return rng.weighted([[3, 0], [8, rng.range(1, 20)], [4, rng.range(21, 200)], [1, rng.range(201, 800)]])
}

function extraHeaders (b, count) {
  const rng = b.rng
  for (let k = 0; k < count; k++) headerLine(b, rng.pick(HEADER_NAMES), rng.pick(HEADER_VALUES))
}

function chunkExtension (rng, valid = true) {
  if (valid) {
    return rng.weighted([
      [4, ';name=value'],
      [2, ';a'],
      [2, ';a=b;c'],
      [2, ';q="quoted string"'],
      [1, ';q="esc\\"aped\\\\"'],
      [1, ';=v'],
      [1, ';;x'],
      [1, ';a='],
      [1, ';e=' + 'x'.repeat(rng.range(1, 60))]
    ])
  }
  return rng.pick([' ;a', '\t;a', '; a', ';a =b', ';a= b', ';a=b c', ';a="unterminated', ';a="x"y', ';a\x01', ';a="\x7f"', ';a="\\\x01"',
    ';', ';a=b;', ';a\rb', ';a=b"c"', ';"q"', ';a=\x80', ';a="\x80\xff"', ';a="x"\t'])
}

// Chunked framing of `data`, with random chunk sizes and hex spellings;
// `opts.trailers` are header lines after the last chunk.
function chunked (b, data, opts = {}) {
  const rng = b.rng
  let off = 0
  const maxChunk = opts.maxChunk || rng.pick([1, 3, 16, 64, 400])
  while (off < data.length) {
    const n = Math.min(data.length - off, rng.range(1, maxChunk))
    let hex = n.toString(16)
    if (rng.chance(0.2)) hex = hex.toUpperCase()
    if (rng.chance(0.1)) hex = '0'.repeat(rng.range(1, 4)) + hex
    const ext = rng.chance(opts.extChance || 0.1) ? chunkExtension(rng, !opts.badExt || rng.chance(0.5)) : ''
    const ws = opts.sizeWs && rng.chance(0.3) ? rng.pick([' ', '\t', '  ']) : ''
    b.push(`${hex}${ws}${ext}${b.eol()}`)
    b.push(data.subarray(off, off + n))
    b.push(b.eol())
    off += n
  }
  const lastExt = rng.chance(opts.extChance || 0.1) ? chunkExtension(rng, !opts.badExt || rng.chance(0.5)) : ''
  b.push(`${rng.chance(0.1) ? '000' : '0'}${lastExt}${b.eol()}`)
  for (const [name, value] of opts.trailers || []) headerLine(b, name, value)
  b.push(b.eol())
}

function randomTrailers (rng) {
  if (!rng.chance(0.3)) return []
  const out = []
  const n = rng.range(1, 3)
  for (let k = 0; k < n; k++) {
    out.push(rng.weighted([
      [6, [rng.pick(HEADER_NAMES), rng.pick(HEADER_VALUES)]],
      [1, ['Connection', rng.pick(['close', 'keep-alive', 'foo'])]],
      [1, ['Transfer-Encoding', rng.pick(['chunked', 'gzip', ''])]],
      [1, ['Content-Length', rng.pick(['0', '5'])]],
      [1, ['Server-Timing', 'x'.repeat(rng.range(1, 300))]]
    ]))
  }
  return out
}

// One valid response. opts: last (may be delimited by the close), head
// (answers a HEAD request), keepAlive (HTTP/1.0 needs saying so), status,
// framing ('cl' | 'chunked' | 'eof' | 'none').
function validResponse (b, opts = {}) {
  const rng = b.rng
  const status = opts.status !== undefined ? opts.status : rng.pick(STATUSES)
  const version = statusLine(b, status, { version: opts.version })
  const bodyless = (status >= 100 && status < 200) || status === 204 || status === 304 || opts.head
  let framing = opts.framing
  if (!framing) {
    framing = rng.weighted([[6, 'cl'], [3, 'chunked'], [opts.last ? 1 : 0, 'eof']])
  }
  const n = bodyless ? 0 : bodyLength(rng)
  const data = body(rng, n)
  const headers = []
  if (framing === 'cl') headers.push(['Content-Length', String(n)])
  if (framing === 'chunked') headers.push(['Transfer-Encoding', rng.chance(0.9) ? 'chunked' : rng.pick(['gzip, chunked', 'CHUNKED', 'gzip,chunked', 'x-custom , chunked'])])
  if (version === '1.0' && !opts.last && framing !== 'eof') headers.push(['Connection', rng.pick(['keep-alive', 'Keep-Alive', 'foo, keep-alive'])])
  if (opts.last && framing !== 'eof' && rng.chance(0.15)) headers.push(['Connection', 'close'])
  else if (version === '1.1' && rng.chance(0.15)) headers.push(['Connection', rng.pick(['keep-alive', 'Keep-Alive', 'upgrade', 'TE, keep-alive'])])
  // Empty framing fields, which must change nothing (and not leave state behind).
  if (rng.chance(0.04)) headers.push([rng.pick(['Connection', 'Transfer-Encoding', 'Proxy-Connection']), ''])
  const extra = rng.weighted([[3, 0], [6, rng.range(1, 4)], [1, rng.range(5, 12)]])
  for (let k = 0; k < extra; k++) headers.splice(rng.int(headers.length + 1), 0, [rng.pick(HEADER_NAMES.slice(0, 18)), rng.pick(HEADER_VALUES)])
  for (const [name, value] of headers) headerLine(b, name, value)
  b.push(b.eol())
  if (bodyless) {
    // Interim responses are not final responses: no HEAD flag of their own.
    if (!(status >= 100 && status < 200 && status !== 101)) b.head.push(!!opts.head)
    return
  }
  b.head.push(false)
  if (framing === 'cl' || framing === 'eof') b.push(data)
  else if (framing === 'chunked') chunked(b, data, { trailers: randomTrailers(rng), extChance: 0.1 })
}

function interim (b) {
  const rng = b.rng
  const status = rng.weighted([[5, 100], [1, 102], [3, 103], [1, rng.range(100, 199)]])
  if (status === 101) return
  statusLine(b, status, { reason: rng.pick(['Continue', 'Early Hints', '', 'Processing']) })
  if (status === 103) headerLine(b, 'Link', '</style.css>; rel=preload; as=style')
  if (rng.chance(0.1)) headerLine(b, 'Content-Length', rng.pick(['0', '5']))
  b.push(b.eol())
}

// A few valid responses, the last maybe delimited by the close.
function validStream (b, count) {
  const rng = b.rng
  if (rng.chance(0.05)) b.push('\r\n')
  for (let k = 0; k < count; k++) {
    const last = k === count - 1
    if (rng.chance(0.08)) interim(b)
    const head = rng.chance(0.08)
    validResponse(b, { last, head })
    if (!last && rng.chance(0.05)) b.push(rng.pick(['\r\n', '\n', '\r\n\r\n']))
  }
}

// ---------------------------------------------------------------------------
// Categories

const GEN = {
  valid (b) {
    validStream(b, b.rng.weighted([[6, 1], [3, 2], [1, 3]]))
  },

  pipelined (b) {
    validStream(b, b.rng.range(3, 8))
  },

  chunked (b) {
    const rng = b.rng
    const count = rng.range(1, 3)
    for (let k = 0; k < count; k++) {
      const broken = rng.chance(0.35)
      statusLine(b, rng.pick(STATUSES))
      headerLine(b, 'Transfer-Encoding', rng.pick(['chunked', 'chunked', 'Chunked', 'gzip, chunked', 'chunked ']))
      if (rng.chance(0.3)) extraHeaders(b, rng.range(1, 3))
      b.push(b.eol())
      b.head.push(false)
      const data = body(rng, rng.weighted([[1, 0], [5, rng.range(1, 40)], [2, rng.range(41, 600)]]))
      chunked(b, data, {
        trailers: randomTrailers(rng),
        extChance: rng.pick([0.05, 0.3, 0.8]),
        badExt: broken && rng.chance(0.5),
        sizeWs: broken && rng.chance(0.5),
        maxChunk: rng.pick([1, 2, 7, 16, 300])
      })
      if (broken && rng.chance(0.5)) {
        // Break the framing: a chunk too long or short, a missing CRLF, a bad size.
        const bytes = b.bytes()
        b.parts = [mutateChunked(rng, bytes)]
      }
    }
  },

  'no-body' (b) {
    const rng = b.rng
    const count = rng.range(1, 4)
    for (let k = 0; k < count; k++) {
      const kind = rng.weighted([[3, 'interim'], [2, 101], [3, 204], [3, 304], [4, 'head'], [2, 'normal']])
      if (kind === 'interim') {
        interim(b)
        if (rng.chance(0.3)) {
          // Framing headers on an interim response, which has no body anyway.
          statusLine(b, rng.pick([100, 103, 199]))
          headerLine(b, rng.pick(['Content-Length', 'Transfer-Encoding']), rng.pick(['5', 'chunked', 'gzip']))
          if (rng.chance(0.3)) headerLine(b, rng.pick(['Content-Length', 'Transfer-Encoding']), rng.pick(['5', 'chunked']))
          if (rng.chance(0.2)) headerLine(b, 'Connection', 'close')
          b.push(b.eol())
        }
        validResponse(b, { last: k === count - 1 })
      } else if (kind === 'normal') {
        validResponse(b, { last: k === count - 1 })
      } else {
        const status = kind === 'head' ? rng.pick(STATUSES) : kind
        statusLine(b, status, { version: rng.chance(0.2) ? '1.0' : '1.1' })
        const framing = rng.weighted([[3, [['Content-Length', String(rng.range(0, 30))]]], [2, [['Transfer-Encoding', 'chunked']]],
          [1, [['Content-Length', '10'], ['Transfer-Encoding', 'chunked']]], [1, [['Transfer-Encoding', 'gzip']]], [2, []]])
        for (const [name, value] of framing) headerLine(b, name, value)
        if (kind === 101 && rng.chance(0.6)) {
          headerLine(b, 'Upgrade', 'websocket')
          headerLine(b, 'Connection', 'Upgrade')
        }
        if (rng.chance(0.2)) headerLine(b, 'Connection', rng.pick(['close', 'keep-alive']))
        b.push(b.eol())
        b.head.push(kind === 'head')
        // A body that should not be there, now and then.
        if (rng.chance(0.15)) b.push(body(rng, rng.range(1, 20)))
        if (kind === 101) b.push(body(rng, rng.range(0, 30)))
      }
    }
  },

  framing (b) {
    const rng = b.rng
    if (rng.chance(0.4)) validStream(b, rng.range(1, 2))
    const version = rng.weighted([[5, '1.1'], [2, '1.0']])
    const status = rng.pick(STATUSES)
    statusLine(b, status, { version })
    const n = rng.range(0, 12)
    const data = body(rng, n)
    const headers = []
    const kind = rng.weighted([[3, 'two-cl'], [3, 'cl-te'], [4, 'te'], [4, 'connection'], [2, 'cl-values'], [2, 'data-after-close']])
    let framing = 'cl'
    if (kind === 'two-cl') {
      const a = String(n)
      const second = rng.pick([a, a, String(n + 1), '', ' ', 'x', '0' + a, a + ' ', `${a}, ${a}`])
      headers.push(['Content-Length', a], ['Content-Length', second])
    } else if (kind === 'cl-te') {
      const te = ['Transfer-Encoding', rng.pick(['chunked', 'gzip', 'gzip, chunked', ''])]
      const cl = ['Content-Length', String(rng.pick([n, 100, 0]))]
      headers.push(...(rng.chance(0.5) ? [cl, te] : [te, cl]))
      framing = te[1].endsWith('chunked') ? 'chunked' : 'eof'
    } else if (kind === 'te') {
      const values = ['chunked', 'gzip', 'chunked, gzip', 'gzip, chunked', 'gzip,chunked', 'CHUNKED', 'chunked ', 'chunked\t', ' chunked',
        'chunked,', ',chunked', 'chunkedx', 'xchunked', 'chunk', 'gzip ,\tchunked', 'gzip\t,chunked', 'chunked , gzip', 'chunked,chunked',
        'identity', '', '"chunked"', 'a b, chunked', 'gzip, chunked   ', 'x'.repeat(rng.range(250, 600)) + ', chunked', 'ch\x80unked']
      const count = rng.weighted([[5, 1], [2, 2], [1, 3]])
      let last = ''
      for (let k = 0; k < count; k++) {
        last = rng.pick(values)
        headers.push(['Transfer-Encoding', last])
      }
      framing = rng.chance(0.5) ? 'chunked' : 'eof'
    } else if (kind === 'connection') {
      const values = ['close', 'Close', 'CLOSE', 'keep-alive', 'Keep-Alive', 'close, keep-alive', 'keep-alive, close', 'closed', 'close x',
        'x close', 'close\t', '\tclose', 'close ,', ', close', 'foo, close', 'foo,close', 'upgrade', 'Upgrade, close', 'clos', 'keep-alive\t',
        'close,\tkeep-alive', 'te, close', '', 'x'.repeat(rng.range(250, 600)) + ', close', 'keep-alive,' + ' '.repeat(300) + 'close', 'cl\x80ose']
      const count = rng.weighted([[5, 1], [2, 2]])
      for (let k = 0; k < count; k++) headers.push([rng.chance(0.2) ? 'Proxy-Connection' : 'Connection', rng.pick(values)])
      headers.push(['Content-Length', String(n)])
    } else if (kind === 'cl-values') {
      headers.push(['Content-Length', rng.pick([String(n), '0' + n, '00000000000000000000' + n, `${n} `, `${n}\t`, `+${n}`, `-${n}`, `${n}.0`,
        `${n} ${n}`, `0x${n}`, `${n}a`, '9007199254740991', '9007199254740992', '18446744073709551615', '18446744073709551616', '99999999999999999999', ` ${n}`, `\t${n}`])])
    } else {
      headers.push(['Connection', rng.pick(['close', 'Close'])], ['Content-Length', String(n)])
    }
    if (rng.chance(0.3)) headers.splice(rng.int(headers.length + 1), 0, [rng.pick(HEADER_NAMES), rng.pick(HEADER_VALUES)])
    for (const [name, value] of headers) headerLine(b, name, value)
    b.push(b.eol())
    b.head.push(rng.chance(0.05))
    if (framing === 'chunked') chunked(b, data, { trailers: randomTrailers(rng) })
    else b.push(data)
    // What comes next shows whether the connection was taken as closed,
    // and where the parser thought the body ended.
    if (rng.chance(0.7)) {
      if (rng.chance(0.2)) b.push(rng.pick(['\r\n', '\n\r\n']))
      validStream(b, rng.range(1, 2))
    }
  },

  'status-line' (b) {
    const rng = b.rng
    if (rng.chance(0.3)) validStream(b, 1)
    const proto = rng.weighted([[10, 'HTTP/1.1'], [3, 'HTTP/1.0'], [1, 'HTTP/1.2'], [1, 'HTTP/1.9'], [1, 'HTTP/2.0'], [1, 'HTTP/0.9'],
      [1, 'HTTP/2'], [1, 'HTTP/1'], [1, 'HTTP/1.'], [1, 'HTTP/1.10'], [1, 'HTTP/x.1'], [1, 'HTTP/1.x'], [1, 'http/1.1'], [1, 'HTTPS/1.1'],
      [1, 'RTSP/1.0'], [1, 'ICE/1.0'], [1, 'HTTP 1.1'], [1, ' HTTP/1.1'], [1, 'HTT'], [1, 'HTTP/3.0'], [1, 'XTTP/1.1']])
    const status = rng.weighted([[5, String(rng.pick(STATUSES))], [2, String(rng.range(0, 999)).padStart(3, '0')], [1, '20'], [1, '2000'],
      [1, '2x0'], [1, ''], [1, ' 200'], [1, '099'], [1, '000'], [1, '1000']])
    const sep = rng.weighted([[8, ' '], [1, ''], [1, '\t'], [1, '  ']])
    const reason = rng.weighted([[6, rng.pick(REASONS)], [1, 'OK\x00'], [1, 'O\x01K'], [1, 'OK\x7f\xff'], [1, 'O\rK'], [1, 'OK\t'], [1, '\xe9\xe8']])
    const eol = rng.weighted([[8, '\r\n'], [1, '\n'], [1, '\r'], [1, '\r\r\n']])
    b.push(`${proto}${rng.chance(0.1) ? '\t' : ' '}${status}${sep}${reason}${eol}`)
    if (rng.chance(0.15)) b.push(rng.pick([' X: 1\r\n', '\tX: 1\r\n', ' \r\n']))
    const n = rng.range(0, 10)
    headerLine(b, 'Content-Length', String(n))
    b.push('\r\n')
    b.head.push(false)
    b.push(body(rng, n))
    if (rng.chance(0.5)) validStream(b, 1)
  },

  headers (b) {
    const rng = b.rng
    if (rng.chance(0.3)) validStream(b, 1)
    statusLine(b, rng.pick(STATUSES))
    const n = rng.range(0, 10)
    const lines = []
    const count = rng.weighted([[6, rng.range(1, 5)], [1, rng.range(30, 70)]])
    for (let k = 0; k < count; k++) lines.push([rng.pick(HEADER_NAMES), rng.pick(HEADER_VALUES)])
    const framing = rng.chance(0.8) ? ['Content-Length', String(n)] : ['Transfer-Encoding', 'chunked']
    lines.splice(rng.int(lines.length + 1), 0, framing)
    let out = ''
    for (const [name, value] of lines) out += `${randomCase(rng, name)}:${ows(rng)}${value}${trailingOws(rng)}\r\n`
    // Break some of the lines.
    const breaks = rng.range(0, 3)
    const all = out.split('\r\n').slice(0, -1)
    for (let k = 0; k < breaks; k++) {
      const at = rng.int(all.length)
      all[at] = breakHeaderLine(rng, all[at])
    }
    b.push(all.map((l) => l + '\r\n').join(''))
    b.push('\r\n')
    b.head.push(false)
    if (framing[0] === 'Content-Length') b.push(body(rng, n))
    else chunked(b, body(rng, n), {})
    if (rng.chance(0.5)) validStream(b, 1)
  },

  'bare-lf' (b) {
    b.bareLf = b.rng.pick([1, 0.5, 0.1])
    validStream(b, b.rng.range(1, 3))
  },

  truncated (b) {
    validStream(b, b.rng.range(1, 3))
    const bytes = b.bytes()
    b.parts = [bytes.subarray(0, b.rng.int(bytes.length + 1))]
  },

  oversized (b) {
    const rng = b.rng
    // Most oversized cases use a small limit, which puts the boundary within
    // reach of a short stream; a few use Node's default.
    const limit = rng.chance(0.9) ? rng.range(40, 1200) : 16384
    b.maxHeaderSize = limit
    const kind = rng.weighted([[4, 'one-long'], [3, 'many'], [2, 'reason'], [2, 'trailers'], [1, 'extensions'], [1, 'interim']])
    if (rng.chance(0.3)) validStream(b, 1)
    const near = () => Math.max(0, limit + rng.range(-40, 40))
    const n = rng.range(0, 10)
    if (kind === 'extensions') {
      // Node's limit on chunk extensions is its own: 16384 bytes of names
      // and values per chunk, whatever maxHeaderSize says.
      statusLine(b, 200)
      headerLine(b, 'Transfer-Encoding', 'chunked')
      b.push('\r\n')
      b.head.push(false)
      const size = 16384 + rng.range(-4, 4)
      const ext = rng.pick([
        ';' + 'a'.repeat(size),
        ';a=' + 'b'.repeat(size - 1),
        ';a="' + 'b'.repeat(size - 3) + '"',
        ';a=' + 'b'.repeat(size >> 1) + ';c=' + 'd'.repeat(size >> 1)
      ])
      b.push(`3${ext}\r\nabc\r\n0\r\n\r\n`)
      if (rng.chance(0.5)) validStream(b, 1)
      return
    }
    if (kind === 'interim') {
      statusLine(b, 100, { reason: 'C'.repeat(near()) })
      b.push('\r\n')
      validStream(b, 1)
      return
    }
    if (kind === 'trailers') {
      statusLine(b, 200)
      headerLine(b, 'Transfer-Encoding', 'chunked')
      b.push('\r\n')
      b.head.push(false)
      const trailers = []
      if (rng.chance(0.5)) {
        trailers.push(['X-Trailer', 'v'.repeat(near())])
      } else {
        const target = near()
        for (let k = 0, total = 0; total < target; k++, total += 16) trailers.push([`T${k}`, 'v'.repeat(10)])
      }
      chunked(b, body(rng, n), { trailers })
      if (rng.chance(0.5)) validStream(b, 1)
      return
    }
    statusLine(b, 200, kind === 'reason' ? { reason: 'R'.repeat(near()) } : {})
    headerLine(b, 'Content-Length', String(n))
    if (kind === 'one-long') headerLine(b, rng.pick(['X-Long', 'Set-Cookie', 'Connection', 'Transfer-Encoding']), 'v'.repeat(near()))
    if (kind === 'many') {
      const name = rng.pick(['a', 'X-Header', 'Date'])
      const value = rng.pick(['', 'b', 'value'])
      const target = near()
      for (let total = 0; total < target; total += name.length + value.length + 4) headerLine(b, name, value)
    }
    b.push('\r\n')
    b.head.push(false)
    b.push(body(rng, n))
    if (rng.chance(0.5)) validStream(b, 1)
  },

  mutated (b) {
    const rng = b.rng
    validStream(b, rng.range(1, 3))
    const bytes = b.bytes()
    b.parts = [mutateBytes(rng, bytes, rng.range(1, 3))]
  },

  // The same response again and again, as a benchmark's server sends it:
  // the parser's head cache (a head equal to the last one is not parsed
  // again) hits, and misses on copies with one byte of the head changed
  // (framing digits included), another HEAD flag, or another response.
  repeated (b) {
    const rng = b.rng
    const one = new Builder(rng)
    validResponse(one, { framing: rng.chance(0.8) ? 'cl' : 'chunked', head: rng.chance(0.05) })
    const bytes = one.bytes()
    const headEnd = bytes.indexOf('\r\n\r\n') + 4
    const copies = rng.range(2, 9)
    for (let k = 0; k < copies; k++) {
      const variant = rng.weighted([[12, 'same'], [3, 'byte'], [1, 'head-flag'], [2, 'other']])
      if (variant === 'other') {
        validResponse(b, { framing: rng.chance(0.8) ? 'cl' : 'chunked' })
        continue
      }
      let copy = bytes
      if (variant === 'byte' && headEnd > 4) {
        copy = Buffer.from(bytes)
        const at = rng.int(headEnd)
        const c = copy[at]
        copy[at] = c >= 0x30 && c <= 0x39 ? 0x30 + (c - 0x30 + rng.range(1, 9)) % 10 : rng.pick([0x41, 0x61, 0x20, 0x3a, 0x30, c ^ 0x20])
      }
      b.push(copy)
      for (const flag of one.head) b.head.push(variant === 'head-flag' ? !flag : flag)
    }
  },

  garbage (b) {
    const rng = b.rng
    const tokens = ['HTTP/1.1 ', '200', ' OK', '\r\n', '\n', '\r', 'Content-Length: 3', 'Transfer-Encoding: chunked', '0\r\n\r\n', 'abc', ':', ' ', '\t', '5', ';x=y', 'Connection: close']
    const n = rng.range(1, 25)
    let s = rng.chance(0.8) ? 'HTTP/1.1 200 OK\r\n' : ''
    for (let k = 0; k < n; k++) s += rng.chance(0.9) ? rng.pick(tokens) : String.fromCharCode(rng.int(256))
    b.push(s)
    b.head.push(rng.chance(0.1))
  }
}

function breakHeaderLine (rng, line) {
  const colon = line.indexOf(':')
  switch (rng.int(14)) {
    case 0: return line.replace(':', ' :') // space before the colon
    case 1: return line.replace(':', '') // no colon at all
    case 2: return ' ' + line // obs-fold of the previous line
    case 3: return line + '\r\n\tfolded'
    case 4: return ':' + line // empty name
    case 5: return line.slice(0, Math.max(1, colon)) + rng.pick(['(', ')', '"', '@', '\x01', '\x7f', '\x80', '[', ' ']) + line.slice(Math.max(1, colon))
    case 6: return line + rng.pick(['\x00', '\x01', '\x7f', '\x1f', '\x0b'])
    case 7: return line.slice(0, colon + 1) + ' a\rb'
    case 8: return line + '\r'
    case 9: return line.replace(':', ':\r\n ')
    case 10: return line.slice(0, colon + 1) + '\x80\xff' + line.slice(colon + 1)
    case 11: return line.replace(/^[^:]+/, (n) => n.toUpperCase())
    case 12: return line + '\n'
    default: return line.slice(0, colon + 1) + rng.pick(['\t', ' \t ', '']) + line.slice(colon + 1)
  }
}

// Byte-level breakage of a chunked body: flip a size digit, drop or add a
// CR or LF, make a chunk longer than it says.
function mutateChunked (rng, bytes) {
  const s = bytes.toString('latin1')
  const positions = []
  for (let k = 0; k < s.length; k++) if (s[k] === '\r' || s[k] === '\n' || /[0-9a-fA-F;]/.test(s[k])) positions.push(k)
  if (positions.length === 0) return bytes
  const at = rng.pick(positions)
  const op = rng.int(5)
  let out
  if (op === 0) out = s.slice(0, at) + s.slice(at + 1)
  else if (op === 1) out = s.slice(0, at) + rng.pick(['\r', '\n', 'x', ' ', '0', 'f', ';']) + s.slice(at)
  else if (op === 2) out = s.slice(0, at) + rng.pick(['\r', '\n', 'g', ' ', '\t']) + s.slice(at + 1)
  else if (op === 3) out = s.slice(0, at) + 'ffffffffffffffff' + s.slice(at)
  else out = s.slice(0, at) + 'z' + s.slice(at)
  return Buffer.from(out, 'latin1')
}

const SPECIAL = [0x0d, 0x0a, 0x20, 0x09, 0x3a, 0x3b, 0x00, 0x7f, 0x80, 0xff, 0x30, 0x2c, 0x22, 0x48]

function mutateBytes (rng, bytes, count) {
  let buf = bytes
  for (let k = 0; k < count && buf.length > 0; k++) {
    const at = rng.int(buf.length)
    const op = rng.int(6)
    const byte = rng.chance(0.7) ? rng.pick(SPECIAL) : rng.int(256)
    if (op === 0) buf = Buffer.concat([buf.subarray(0, at), buf.subarray(at + 1)])
    else if (op === 1) buf = Buffer.concat([buf.subarray(0, at), Buffer.from([byte]), buf.subarray(at)])
    else if (op === 2) {
      buf = Buffer.from(buf)
      buf[at] = byte
    } else if (op === 3) {
      const len = rng.range(1, 8)
      buf = Buffer.concat([buf.subarray(0, at), buf.subarray(at, at + len), buf.subarray(at)])
    } else if (op === 4) {
      buf = Buffer.from(buf)
      buf[at] ^= 0x20 // flips the case of letters
    } else {
      buf = buf.subarray(0, Math.max(1, at))
    }
  }
  return buf
}

function generate (seed, index, only) {
  const rng = new Rng(seed, index)
  const category = only || rng.weighted(CATEGORIES)
  const b = new Builder(rng)
  GEN[category](b)
  return {
    id: caseId(seed, index),
    seed,
    index,
    category,
    wire: b.bytes(),
    // head[k]: final response k answers a HEAD request.
    head: b.head,
    maxHeaderSize: b.maxHeaderSize || 16384
  }
}

module.exports = { generate, CATEGORIES: CATEGORIES.map(([, name]) => name), caseId }
