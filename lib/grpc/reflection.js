'use strict'

// A call given without --proto or --protoset: before the run (the
// pre-flight check's turn, never on the request path), the server's
// reflection service (grpc.reflection.v1.ServerReflection, then
// v1alpha) is asked over a one-off node:http2 session for the file that
// defines the call's service and the files it imports, as
// FileDescriptorProtos; protobufjs makes them a root, and the call goes
// on as with a protoset: the method found, the message checked and
// encoded (or its templates checked), the config completed with it.
//
// The reflection call carries the run's metadata (a server may want its
// credentials for it too); no message here prints any of it.

const http2 = require('http2')
const { raise } = require('../core/errors')
const { frameMessage } = require('./wire')
const { parseStatus, NAMES } = require('./status')
const { openPending } = require('./message-template')
const { hasTemplate, check } = require('../client/templates')
require('./errors')

const SERVICES = ['grpc.reflection.v1.ServerReflection', 'grpc.reflection.v1alpha.ServerReflection']
const UNIMPLEMENTED = 12

// The messages of reflection.proto this asks and reads (the same in v1
// and v1alpha; what it does not read, decoding skips).
let types = null
function reflectionTypes () {
  if (types !== null) return types
  const protobuf = require('protobufjs')
  const root = protobuf.Root.fromJSON({
    nested: {
      Request: { fields: { host: { type: 'string', id: 1 }, file_by_filename: { type: 'string', id: 3 }, file_containing_symbol: { type: 'string', id: 4 } } },
      Response: { fields: { file_descriptor_response: { type: 'FileResponse', id: 4 }, error_response: { type: 'ErrorResponse', id: 7 } } },
      FileResponse: { fields: { file_descriptor_proto: { rule: 'repeated', type: 'bytes', id: 1 } } },
      ErrorResponse: { fields: { error_code: { type: 'int32', id: 1 }, error_message: { type: 'string', id: 2 } } }
    }
  })
  types = { Request: root.lookupType('Request'), Response: root.lookupType('Response') }
  return types
}

// Headers the call sets itself: the reflection call sets its own.
const OWN = new Set(['content-type', 'te', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding', 'content-length'])

function reflectionHeaders (headers, fill) {
  const out = {}
  for (const [key, value] of Object.entries(headers || {})) {
    const lower = key.toLowerCase()
    if (!OWN.has(lower)) out[lower] = hasTemplate(String(value)) ? fill(String(value)) : value
  }
  return out
}

// One ServerReflectionInfo stream at `service`: the symbol's file and
// every file it imports, asked for by name until none is missing. →
// { files: [bytes…] }, { unimplemented: true }, { refused: status name },
// { unknown: the server's error } (no such symbol or file) or
// { failed: why } (the stream broke, or ended before its answers).
function exchange (session, service, headers, symbol) {
  const { Request, Response } = reflectionTypes()
  const { FileDescriptorProto } = require('protobufjs/ext/descriptor')
  return new Promise((resolve) => {
    let settled = false
    const done = (value) => {
      if (settled) return
      settled = true
      resolve(value)
    }
    const req = session.request({ ...headers, ':method': 'POST', ':path': `/${service}/ServerReflectionInfo`, 'content-type': 'application/grpc', te: 'trailers' })
    const files = new Map()
    const asked = new Set()
    let pending = 0
    let answered = 0
    let status = null
    let httpStatus = 0
    const ask = (field, value) => {
      pending++
      req.write(frameMessage(Request.encode({ [field]: value }).finish()))
    }
    let buffered = Buffer.alloc(0)
    const onMessage = (bytes) => {
      pending--
      answered++
      const response = Response.decode(bytes)
      if (response.error_response) {
        done({ unknown: `${response.error_response.error_message || 'error'} (status ${response.error_response.error_code})` })
        req.close()
        return
      }
      const list = response.file_descriptor_response ? response.file_descriptor_response.file_descriptor_proto : []
      for (const fdp of list) {
        const file = FileDescriptorProto.decode(fdp)
        if (!files.has(file.name)) files.set(file.name, { bytes: Buffer.from(fdp), dependency: file.dependency || [] })
      }
      for (const file of files.values()) {
        for (const dep of file.dependency) {
          if (!files.has(dep) && !asked.has(dep)) {
            asked.add(dep)
            ask('file_by_filename', dep)
          }
        }
      }
      if (pending === 0) req.end()
    }
    req.on('response', (h) => {
      httpStatus = h[':status']
      if (h['grpc-status'] !== undefined) status = parseStatus(h['grpc-status'])
    })
    req.on('trailers', (h) => {
      if (h['grpc-status'] !== undefined) status = parseStatus(h['grpc-status'])
    })
    req.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk])
      while (buffered.length >= 5 && buffered.length >= 5 + buffered.readUInt32BE(1)) {
        const length = buffered.readUInt32BE(1)
        const bytes = buffered.subarray(5, 5 + length)
        buffered = buffered.subarray(5 + length)
        if (!settled) onMessage(bytes)
      }
    })
    const finish = () => {
      if (answered === 0 && (status === UNIMPLEMENTED || httpStatus === 404)) return done({ unimplemented: true })
      if (answered === 0 && status !== null && status !== 0) return done({ refused: NAMES[status] || String(status) })
      if (answered === 0 || pending > 0) return done({ failed: 'its reflection gave no answer' })
      done({ files: [...files.values()].map((f) => f.bytes) })
    }
    req.on('end', finish)
    req.on('close', finish)
    req.on('error', (err) => done({ failed: err.code || err.message }))
    ask('file_containing_symbol', symbol)
  })
}

// FileDescriptorProtos → a root, as a protoset's is made.
function rootOf (files) {
  const protobuf = require('protobufjs')
  require('protobufjs/ext/descriptor')
  const writer = protobuf.Writer.create()
  // FileDescriptorSet: field 1, each file.
  for (const bytes of files) writer.uint32(10).bytes(bytes)
  return protobuf.Root.fromDescriptor(writer.finish())
}

// The files that define `symbol`, from the server at target. Throws one
// line (a registered code).
async function fetchFiles (config, target, symbol, fill) {
  const tls = config.tlsOptions || {}
  const noReflection = () => raise('AC_GRPC_NO_REFLECTION', `the server at ${target.origin} offers no reflection service: give --proto FILE or --protoset FILE`)
  let session
  try {
    session = http2.connect(target.origin, { ...tls, servername: config.servername || tls.servername, ALPNProtocols: ['h2'] })
  } catch (err) {
    throw raise('AC_GRPC_NO_REFLECTION', `cannot ask the server at ${target.origin} for its reflection (${err.code || err.message}): give --proto FILE or --protoset FILE`)
  }
  let failure = null
  session.on('error', (err) => { failure = err.code || err.message })
  const timer = setTimeout(() => {
    failure = `no answer in ${config.timeout} s`
    session.destroy()
  }, config.timeout * 1000)
  try {
    const headers = reflectionHeaders(config.headers, fill)
    for (const service of SERVICES) {
      const answer = await exchange(session, service, headers, symbol)
      if (answer.unimplemented) continue
      if (answer.files) return answer.files
      if (answer.refused) throw raise('AC_GRPC_NO_REFLECTION', `the server at ${target.origin} refused its reflection call (gRPC status ${answer.refused}): check the --metadata it needs, or give --proto FILE or --protoset FILE`)
      if (answer.unknown && failure === null) throw raise('AC_GRPC_METHOD', `--call: the server at ${target.origin} has no service ${symbol} in its reflection: ${answer.unknown}`)
      if (failure === null) failure = answer.failed || answer.unknown
      break
    }
    if (failure !== null) throw raise('AC_GRPC_NO_REFLECTION', `cannot ask the server at ${target.origin} for its reflection (${failure}): give --proto FILE or --protoset FILE`)
    throw noReflection()
  } finally {
    clearTimeout(timer)
    session.destroy()
  }
}

// A config whose message waits for the server's reflection → the config
// with it. targets: the run's gRPC targets (the first direct one is
// asked: every target is sent the same call).
async function completeByReflection (config, targets, fill) {
  const { findMethod, messageBody, splitCall } = require('./prepare')
  const pending = openPending(config.body)
  const target = targets.find((t) => t.proxy === undefined && t.socketPath === undefined)
  if (target === undefined) throw raise('AC_GRPC_NO_REFLECTION', 'a gRPC call through a proxy or a socket path cannot ask the server for its reflection: give --proto FILE or --protoset FILE')
  const files = await fetchFiles(config, target, splitCall(pending.call).serviceName, fill)
  let root
  try {
    root = rootOf(files)
  } catch (err) {
    throw raise('AC_GRPC_PROTO', `the server at ${target.origin}'s reflection gave descriptors protobufjs cannot read: ${String(err.message).split('\n')[0]}`)
  }
  const { method } = findMethod(root, pending.call)
  const object = check(pending.text, 'data') ? null : JSON.parse(pending.text)
  const body = messageBody(method.resolvedRequestType, { where: pending.where, text: pending.text, object }, pending.gzip)
  return Object.freeze({ ...config, body })
}

module.exports = { completeByReflection, rootOf, SERVICES }
