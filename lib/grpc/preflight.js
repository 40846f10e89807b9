'use strict'

// Before the run: HTTP/2's own check of each origin (ALPN h2, or h2c's
// preface: lib/http2/alpn-check.js), the server's reflection asked when
// no .proto was given (reflection.js), then one call to each origin, over a
// one-off node:http2 session (before the run, never on its path). A
// server that answers it without a grpc-status and without a content-type
// of application/grpc does not speak gRPC there: the run does not start.
// One that cannot be reached, or does not answer in time, is left to the
// run, which counts its errors as any run does.

const http2 = require('http2')
const { raise } = require('../core/errors')
const { checkH2 } = require('../http2/alpn-check')
const { hasTemplate } = require('../client/templates')
const { isEnvelope, openEnvelope, isPending, sampleFill, encodeFilled } = require('./message-template')
const { lazy } = require('../core/lazy')
// Lazy: only a call without a .proto asks the server's reflection.
const reflection = lazy(() => require('./reflection'))
require('./errors')

// The call's message and metadata, their {{…}} templates filled once, as
// a first call of the run would have them (a server that checks a value
// would refuse the template as written).
function filledHeaders (headers) {
  const out = {}
  for (const [key, value] of Object.entries(headers || {})) out[key.toLowerCase()] = hasTemplate(String(value)) ? sampleFill(String(value)) : value
  return out
}

function filledBody (body) {
  if (body === undefined) return undefined
  if (!isEnvelope(body)) return Buffer.from(body)
  const { type, gzip, text } = openEnvelope(body)
  return encodeFilled(type, gzip, sampleFill(text))
}

// The answer to one call: { status, contentType, grpcStatus } or null.
function callOnce (config, target) {
  return new Promise((resolve) => {
    let settled = false
    let session = null
    const done = (value) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (session !== null) session.destroy()
      resolve(value)
    }
    const timer = setTimeout(() => done(null), config.timeout * 1000)
    const tls = config.tlsOptions || {}
    try {
      session = http2.connect(target.origin, { ...tls, servername: config.servername || tls.servername, ALPNProtocols: ['h2'] })
    } catch {
      return done(null)
    }
    session.on('error', () => done(null))
    const req = session.request({ ':method': 'POST', ':path': target.path, ...filledHeaders(config.headers) })
    const answer = { status: 0, contentType: '', grpcStatus: null }
    req.on('response', (h) => {
      answer.status = h[':status']
      answer.contentType = String(h['content-type'] || '')
      if (h['grpc-status'] !== undefined) answer.grpcStatus = h['grpc-status']
    })
    req.on('trailers', (h) => {
      if (h['grpc-status'] !== undefined) answer.grpcStatus = h['grpc-status']
    })
    req.on('data', () => {})
    req.on('end', () => done(answer))
    req.on('close', () => done(answer.status === 0 ? null : answer))
    req.on('error', () => done(null))
    req.end(filledBody(config.body))
  })
}

function speaksGrpc (answer) {
  return answer.grpcStatus !== null || answer.contentType.startsWith('application/grpc')
}

// gRPC runs only on HTTP/2: what a server without it is told.
const ADVICE = Object.freeze({
  clearText: 'a gRPC server in clear text speaks h2c; check the port, or use https:// if it serves TLS',
  tls: 'a gRPC server offers h2 over TLS; check the port, or use http:// if it serves clear text'
})

// targets: the run's gRPC targets (the registry picks them). → the
// config, completed by the server's reflection when no .proto was given.
async function checkGrpc (config, targets) {
  await checkH2(config, targets, ADVICE)
  if (isPending(config.body)) config = await reflection().completeByReflection(config, targets, sampleFill)
  const seen = new Set()
  for (const target of targets) {
    if (seen.has(target.origin)) continue
    seen.add(target.origin)
    // Through a proxy or a socket path the one-off session cannot go: the
    // run's own connections tell.
    if (target.proxy !== undefined || target.socketPath !== undefined) continue
    const answer = await callOnce(config, target)
    if (answer !== null && !speaksGrpc(answer)) {
      throw raise('AC_GRPC_NOT_SPOKEN', `the server at ${target.origin} answered a gRPC call to ${target.path} with HTTP ${answer.status}${answer.contentType ? ` (${answer.contentType})` : ''}, no grpc-status: it speaks HTTP/2 but not gRPC there`)
    }
  }
  return config
}

module.exports = { checkGrpc, speaksGrpc }
