'use strict'

// The loopback layer: the stream goes through a real socket.
//
// A raw `net` server on 127.0.0.1 (port 0) reads a request head, then
// writes the stream asked for by the request path in slices, with pauses
// between them (none, setImmediate, or a 1 ms timer) so that reads end
// anywhere, and closes. Two clients read the same bytes from it:
//   - our parser, fed each 'data' buffer as the socket delivers it, as
//     lib/http1/client-h1.js does, and finish() on 'end';
//   - node:http (http.request with agent: false, HEAD when the first
//     response answers a HEAD request, the case's maxHeaderSize).
// node:http cannot pipeline: it reads one response per request. So our
// parser is also compared with llhttp fed in-process the very reads our
// socket delivered (the parser node:http uses, set up the same way), which
// covers pipelined streams, and node:http is compared on what it can show:
// the first response, and an error before it.
//
// Outcomes do not depend on timing: whatever the slicing, each parser must
// give what it gives on the whole stream (the in-process layer checks
// that too). Timers only vary where reads end.

const net = require('net')
const http = require('http')
const { createOurs, runOurs } = require('./ours')
const { runReference } = require('./reference')
const { compareOutcomes, compareNodeHttp, projectToNodeHttp } = require('./compare')
const { classify } = require('./known')
const { Rng } = require('./rng')

class StreamServer {
  constructor () {
    this.server = null
    this.port = 0
    this.streams = new Map()
    this.sockets = new Set()
    this.next = 0
  }

  async start () {
    this.server = net.createServer((socket) => this.onConnection(socket))
    await new Promise((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(0, '127.0.0.1', resolve)
    })
    this.port = this.server.address().port
  }

  // Registers one serving of `wire`, cut as `plan` says; returns the path
  // that fetches it (once).
  add (wire, plan) {
    const id = String(++this.next)
    this.streams.set(id, { wire, plan })
    return '/' + id
  }

  onConnection (socket) {
    this.sockets.add(socket)
    socket.setNoDelay(true)
    // A client that gave up (node:http after a parse error) resets the
    // connection under our writes: nothing to report.
    socket.on('error', () => {})
    socket.on('close', () => this.sockets.delete(socket))
    let head = ''
    const onData = (d) => {
      head += d.toString('latin1')
      if (head.indexOf('\r\n\r\n') === -1) return
      socket.removeListener('data', onData)
      const path = head.split(' ', 2)[1] || ''
      const entry = this.streams.get(path.slice(1))
      this.streams.delete(path.slice(1))
      if (entry === undefined) {
        socket.destroy()
        return
      }
      this.serve(socket, entry)
    }
    socket.on('data', onData)
  }

  serve (socket, { wire, plan }) {
    let k = 0
    let prev = 0
    const step = () => {
      if (socket.destroyed) return
      if (k === plan.length) {
        socket.end()
        return
      }
      const [end, pause] = plan[k++]
      if (end > prev) socket.write(wire.subarray(prev, end))
      prev = end
      if (pause === 0) step()
      else if (pause === 1) setImmediate(step)
      else setTimeout(step, 1)
    }
    step()
  }

  async close () {
    for (const socket of this.sockets) socket.destroy()
    await new Promise((resolve) => this.server.close(resolve))
  }
}

// How the server cuts a stream: [end, pause] steps, pause 0 (write on at
// once), 1 (setImmediate) or 2 (a 1 ms timer, rarely).
function slicePlan (rng, length) {
  const mode = rng.weighted([[4, 'whole'], [5, 'some'], [1, 'bytes']])
  if (mode === 'whole' || length < 2) return [[length, 0]]
  let cuts
  if (mode === 'bytes' && length <= 200) cuts = Array.from({ length: length - 1 }, (_, k) => k + 1)
  else cuts = rng.cuts(length, rng.range(1, 10))
  const plan = cuts.map((c) => [c, rng.weighted([[2, 0], [12, 1], [1, 2]])])
  plan.push([length, 0])
  return plan
}

// Our parser reading the stream from a socket. Resolves to its outcome
// and the reads as the socket delivered them.
function oursOverSocket (port, path, opts) {
  return new Promise((resolve) => {
    const run = createOurs(opts)
    const reads = []
    let socketError = null
    const socket = net.connect(port, '127.0.0.1')
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`))
    socket.on('data', (d) => {
      reads.push(Buffer.from(d))
      run.execute(d)
    })
    socket.on('end', () => {
      run.finish()
      socket.destroy()
    })
    socket.on('error', (err) => {
      socketError = err
    })
    socket.on('close', () => {
      if (socketError !== null) run.out.problems.push(`socket error ${socketError.code}`)
      resolve({ outcome: run.out, reads })
    })
  })
}

// node:http reading the stream as the answer to one request. Errors that
// come once the response is complete (data after it, say) are not its.
// A parse error is reported on the request and the response is then
// aborted (ECONNRESET): the parse error is what counts.
function nodeHttpOverSocket (port, path, { head, maxHeaderSize }) {
  return new Promise((resolve) => {
    const out = { status: null, body: null, error: null, reason: null }
    const errors = []
    let res = null
    let parts = []
    let pending = 2 // the request's 'close', and the response's if there is one
    const done = () => {
      if (--pending > 0) return
      if (res !== null && res.complete && errors.every((e) => e.late)) {
        out.status = res.statusCode
        out.body = Buffer.concat(parts)
      } else {
        const err = errors.find((e) => /^HPE_/.test(e.code)) || errors[0] || { code: 'ERROR', message: 'no response and no error' }
        out.error = err.code
        out.reason = err.reason || err.message
      }
      resolve(out)
    }
    const fail = (err) => {
      errors.push({ code: err.code || 'ERROR', reason: err.reason, message: err.message, late: res !== null && res.complete })
    }
    const req = http.request({ host: '127.0.0.1', port, path, method: head ? 'HEAD' : 'GET', agent: false, maxHeaderSize }, (r) => {
      res = r
      parts = []
      r.on('data', (d) => parts.push(d))
      r.on('aborted', () => fail({ code: 'ECONNRESET', message: 'aborted' }))
      r.on('error', fail)
      r.on('close', done)
    })
    // A 101 with Upgrade and Connection: upgrade is handed over as an
    // upgrade (without a listener node:http would just destroy the socket).
    let upgraded = null
    req.on('upgrade', (r, socket) => {
      upgraded = r.statusCode
      socket.destroy()
    })
    req.on('error', fail)
    req.on('close', () => {
      if (upgraded !== null && res === null) {
        out.status = upgraded
        out.body = Buffer.alloc(0)
        resolve(out)
        return
      }
      if (res === null) pending--
      done()
    })
    req.end()
  })
}

// Checks one case through the sockets. `server` is a started StreamServer.
// Returns { verdict, known, layer, detail, anomaly } as fuzz/check.js does.
async function checkLoopback (c, server) {
  const rng = new Rng(c.seed, c.index * 7 + 3)
  const wantHeaders = rng.chance(0.5)
  const opts = { head: c.head, wantHeaders, maxHeaderSize: c.maxHeaderSize }
  const refOpts = { head: c.head, maxHeaderSize: c.maxHeaderSize }
  const [ours, node] = await Promise.all([
    oursOverSocket(server.port, server.add(c.wire, slicePlan(rng, c.wire.length)), opts),
    nodeHttpOverSocket(server.port, server.add(c.wire, slicePlan(rng, c.wire.length)), { head: c.head[0] === true, maxHeaderSize: c.maxHeaderSize })
  ])
  const result = { verdict: 'agree', known: [], layer: null, detail: null, anomaly: null }
  const disagree = (layer, detail) => Object.assign(result, { verdict: 'disagree', layer, detail: `wantHeaders ${wantHeaders ? 'on' : 'off'}: ${detail}` })
  const o = ours.outcome
  if (o.problems.length > 0) return disagree('loopback', `our parser over a socket: ${o.problems[0]}`)
  // The socket changes nothing for our parser...
  const whole = runOurs([c.wire], opts)
  let d = compareOutcomes(o, whole, { headers: wantHeaders })
  if (d !== null) return disagree('loopback', `our parser, socket reads (${ours.reads.length}) vs whole stream: ${d}`)
  // ...nor for llhttp.
  const ref = runReference(ours.reads, refOpts)
  const refWhole = runReference([c.wire], refOpts)
  d = compareOutcomes(ref, refWhole, { headers: true })
  if (d !== null) result.anomaly = `llhttp, socket reads vs whole stream: ${d}`
  // Our parser vs llhttp fed the same reads.
  d = compareOutcomes(o, ref, { headers: wantHeaders })
  if (d !== null) {
    const known = classify({ wire: c.wire, head: c.head, maxHeaderSize: c.maxHeaderSize, wantHeaders, ours: o, ref, oursBytes: null })
    if (known === null) return disagree('loopback', `our parser vs llhttp fed the socket's reads: ${d}`)
    result.verdict = 'known'
    result.known = known
  }
  // Our parser vs node:http, on what node:http shows of the stream.
  d = compareNodeHttp(o, node)
  if (d !== null) {
    // Only a known difference of ours from llhttp may explain it, and then
    // node:http must show what llhttp does.
    const viaRef = compareNodeHttp(ref, node)
    if (result.verdict !== 'known' || viaRef !== null) {
      return disagree('node:http', `${d}` + (viaRef !== null ? `; and llhttp in-process vs node:http: ${viaRef}` : ''))
    }
  }
  return result
}

module.exports = { StreamServer, checkLoopback, oursOverSocket, nodeHttpOverSocket, slicePlan, projectToNodeHttp }
