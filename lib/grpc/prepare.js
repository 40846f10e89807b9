'use strict'

// A gRPC run's options → the request its connections send, made once
// before the run: the .proto (or FileDescriptorSet) read with protobufjs,
// the method found, the JSON message checked against its type and
// encoded, framed (and gzipped, with --grpcCompression gzip) into the
// bytes every call sends. The call is then an HTTP/2 request like any
// other (POST to /package.Service/Method, its metadata and grpc-timeout
// as headers, the framed message as its body), so every mode of a run
// (rates, workers, shards, templates in metadata) carries it unchanged;
// only its answer is gRPC's (client-grpc.js). A message with {{…}}
// templates is checked here with sample values and filled per call
// (message-template.js): its body is the message's envelope. Without a
// .proto or a protoset, the message waits for the server's reflection,
// asked before the run (reflection.js): its body says so until then.
//
// The options come from the command line's flags (--proto, --call…, in
// the table of options) or the library's `grpc` object, which wins.

const fs = require('fs')
const path = require('path')
const zlib = require('zlib')
const { raise } = require('../core/errors')
const { frameMessage, encodeTimeout, parseMetadata } = require('./wire')
const { check: hasHoles } = require('../client/templates')
const { envelope, sampleFills, pendingEnvelope } = require('./message-template')
require('./errors')

const FLAGS = { proto: 'proto', protoPath: 'protoPath', protoset: 'protoset', call: 'call', data: 'data', metadata: 'metadata', timeout: 'grpcTimeout', compression: 'grpcCompression' }

function optionError (message) {
  return raise('AC_GRPC_OPTION', message)
}

// The flags' values and the library's object, as one.
function gather (opts) {
  const grpc = {}
  for (const [key, flag] of Object.entries(FLAGS)) if (opts[flag] !== undefined && opts[flag] !== null) grpc[key] = opts[flag]
  if (opts.grpc !== undefined && opts.grpc !== null) {
    if (typeof opts.grpc !== 'object') throw optionError('grpc must be an object such as { proto, call, data }')
    for (const [key, value] of Object.entries(opts.grpc)) if (value !== undefined && value !== null) grpc[key] = value
  }
  return grpc
}

function asList (value) {
  return value === undefined ? [] : [].concat(value).map(String)
}

// protobufjs reports a parse error as "illegal token 'x' (file, line N)"
// and a missing file as ENOENT: one line either way.
function protoError (err, files) {
  if (err.code === 'ENOENT') return raise('AC_GRPC_PROTO', `the .proto file ${err.path || files.join(', ')} does not exist: check --proto and --protoPath`)
  return raise('AC_GRPC_PROTO', `cannot parse ${files.join(', ')}: ${String(err.message).split('\n')[0]}`)
}

function loadRoot (grpc) {
  const protobuf = require('protobufjs')
  if (grpc.protoset !== undefined && grpc.proto !== undefined) throw optionError('--proto and --protoset each define the call\'s method: give one')
  if (grpc.protoset !== undefined) {
    const file = String(grpc.protoset)
    let bytes
    try {
      bytes = fs.readFileSync(file)
    } catch (err) {
      throw raise('AC_GRPC_PROTO', `cannot read the --protoset ${file}: ${err.code === 'ENOENT' ? 'it does not exist' : err.message}`)
    }
    try {
      require('protobufjs/ext/descriptor')
      return protobuf.Root.fromDescriptor(bytes)
    } catch (err) {
      throw raise('AC_GRPC_PROTO', `the --protoset ${file} is not a FileDescriptorSet (protoc --descriptor_set_out --include_imports): ${String(err.message).split('\n')[0]}`)
    }
  }
  const files = asList(grpc.proto)
  // Neither: the server's reflection defines the call, before the run.
  if (files.length === 0) return null
  const dirs = asList(grpc.protoPath)
  const root = new protobuf.Root()
  // Imports are looked for in each --protoPath in turn, then next to the
  // file that imports them.
  root.resolvePath = (origin, target) => {
    if (path.isAbsolute(target)) return target
    for (const dir of dirs) {
      const candidate = path.resolve(dir, target)
      if (fs.existsSync(candidate)) return candidate
    }
    const beside = origin ? path.resolve(path.dirname(origin), target) : path.resolve(target)
    if (fs.existsSync(beside) || origin) return beside
    return path.resolve(target)
  }
  try {
    root.loadSync(files.map((file) => dirs.length > 0 && !fs.existsSync(file) ? root.resolvePath('', file) : file), { keepCase: true })
    root.resolveAll()
  } catch (err) {
    throw protoError(err, files)
  }
  return root
}

// Every service and its methods, for a message that names them.
function servicesOf (root) {
  const protobuf = require('protobufjs')
  const found = []
  const walk = (ns) => {
    for (const child of ns.nestedArray) {
      if (child instanceof protobuf.Service) found.push(`${child.fullName.slice(1)}/{${child.methodsArray.map((m) => m.name).join(',')}}`)
      else if (child.nestedArray) walk(child)
    }
  }
  walk(root)
  return found
}

// 'pkg.Service/Method' (or 'pkg.Service.Method', as ghz takes it too) →
// the method, resolved.
function splitCall (call) {
  const text = String(call)
  const slash = text.lastIndexOf('/')
  const cut = slash === -1 ? text.lastIndexOf('.') : slash
  if (cut <= 0 || cut === text.length - 1) throw optionError(`--call "${text}" is not package.Service/Method`)
  return { text, serviceName: text.slice(0, cut).replace(/^\//, ''), methodName: text.slice(cut + 1) }
}

function findMethod (root, call) {
  const { text, serviceName, methodName } = splitCall(call)
  const have = servicesOf(root)
  const list = have.length > 0 ? `it has ${have.join(', ')}` : 'it has no service'
  let service = null
  try {
    service = root.lookupService(serviceName)
  } catch {
    service = null
  }
  if (service === null) throw raise('AC_GRPC_METHOD', `--call ${text}: no service ${serviceName} in the .proto given; ${list}`)
  const method = service.methods[methodName]
  if (method === undefined) throw raise('AC_GRPC_METHOD', `--call ${text}: service ${serviceName} has no method ${methodName}; ${list}`)
  if (method.requestStream || method.responseStream) throw raise('AC_GRPC_METHOD', `--call ${text} is a streaming method: only unary calls are supported`)
  method.resolve()
  return { method, path: `/${service.fullName.slice(1)}/${method.name}` }
}

// --data JSON, @file.json, or (the library) an object; with --call and no
// --data, the request body (-b, -i) is the JSON message; none: {}.
// → { where, text, object }: object null when text has templates (of
// ours: other text in double braces is sent as it is written).
function readData (grpc, opts) {
  let data = grpc.data
  if (data !== undefined && opts.body !== undefined && opts.body !== null) throw optionError('--data and -b/--body (or -i) are each the message of a gRPC call: give one')
  if (data === undefined && opts.body !== undefined && opts.body !== null) data = Buffer.isBuffer(opts.body) ? opts.body.toString() : opts.body
  if (data === undefined) return { where: '--data', text: '{}', object: {} }
  if (typeof data === 'object' && !(data instanceof Uint8Array)) {
    const text = JSON.stringify(data)
    return { where: '--data', text, object: hasHoles(text, 'data') ? null : data }
  }
  let text = String(data)
  let where = '--data'
  if (text.startsWith('@')) {
    where = `--data ${text}`
    try {
      text = fs.readFileSync(text.slice(1), 'utf8')
    } catch (err) {
      throw raise('AC_GRPC_DATA', `cannot read ${where}: ${err.code === 'ENOENT' ? 'it does not exist' : err.message}`)
    }
  }
  // A malformed template is named before the JSON is read.
  if (hasHoles(text, 'data')) return { where, text, object: null }
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    throw raise('AC_GRPC_DATA', `${where} is not JSON: ${err.message}`)
  }
  return { where, text, object: parsed }
}

// A templated message, checked before the run with sample values (every
// choice of each {{pick}}, every line of a {{line}}): each fill must be
// JSON that fits the message type. → the body that carries it.
function templatedMessage (type, { where, text }, gzip) {
  for (const filled of sampleFills(text)) {
    let parsed
    try {
      parsed = JSON.parse(filled)
    } catch (err) {
      const shown = filled.length > 80 ? filled.slice(0, 80) + '…' : filled
      throw raise('AC_GRPC_DATA', `${where}, its templates filled with sample values (${shown}), is not JSON: ${err.message}; a template for a string goes inside quotes ("{{uuid}}"), one for a number bare ({{int 1 9}})`)
    }
    encodeMessage(type, parsed, `${where} (its templates filled with sample values)`)
  }
  return envelope({ root: type.root.toJSON(), type: type.fullName.slice(1), gzip, text })
}

// A field of the JSON that the message does not have (protobufjs's
// verify passes them by): its path, or null.
function unknownField (type, object, at) {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return null
  for (const key of Object.keys(object)) {
    const field = type.fields[key] || type.fieldsArray.find((f) => f.options && f.options.json_name === key)
    if (field === undefined) return { path: `${at}${key}`, type: type.fullName.slice(1) }
    field.resolve()
    if (field.resolvedType && field.resolvedType.fields) {
      const values = field.repeated ? [].concat(object[key]) : (field.map ? Object.values(object[key] || {}) : [object[key]])
      for (const value of values) {
        const found = unknownField(field.resolvedType, value, `${at}${key}.`)
        if (found !== null) return found
      }
    }
  }
  return null
}

function encodeMessage (type, object, where = '--data') {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) throw raise('AC_GRPC_DATA', `${where} must be a JSON object (the fields of ${type.fullName.slice(1)})`)
  const unknown = unknownField(type, object, '')
  if (unknown !== null) throw raise('AC_GRPC_DATA', `${where} has field "${unknown.path}", which message ${unknown.type} does not have`)
  const message = type.fromObject(object)
  const problem = type.verify(message)
  if (problem) throw raise('AC_GRPC_DATA', `${where} does not fit message ${type.fullName.slice(1)}: ${problem}`)
  // fromObject turns what it cannot read into defaults: verify the JSON as
  // given for the scalar types it gets wrong (a string where a number goes).
  const raw = type.verify(object)
  if (raw && !/Long|Uint8Array|enum|buffer|object expected/.test(raw)) throw raise('AC_GRPC_DATA', `${where} does not fit message ${type.fullName.slice(1)}: ${raw}`)
  return Buffer.from(type.encode(message).finish())
}

function metadataOf (grpc) {
  const value = grpc.metadata
  if (value === undefined) return []
  if (typeof value === 'object' && !Array.isArray(value)) return Object.entries(value).map(([k, v]) => checkedMetadata(`${k}: ${v}`))
  return asList(value).map(checkedMetadata)
}

function checkedMetadata (line) {
  const parsed = parseMetadata(line)
  if (typeof parsed === 'string') throw optionError(`--metadata ${parsed}: give 'key: value'`)
  return parsed
}

function timeoutOf (grpc) {
  if (grpc.timeout === undefined || grpc.timeout === 0) return 0
  let seconds = NaN
  if (typeof grpc.timeout === 'number') seconds = grpc.timeout
  else if (/^\s*\d+(\.\d+)?\s*$/.test(String(grpc.timeout))) seconds = Number(grpc.timeout)
  else {
    try {
      seconds = require('timestring')(String(grpc.timeout), 's')
    } catch {
      seconds = NaN
    }
  }
  if (!(seconds > 0)) throw optionError(`--grpcTimeout "${grpc.timeout}" is not a deadline: give seconds (0.5) or a timestring (500ms, 2s)`)
  return seconds * 1000
}

function compressionOf (grpc) {
  const value = grpc.compression === undefined ? 'off' : String(grpc.compression)
  if (value !== 'off' && value !== 'gzip') throw optionError(`--grpcCompression "${value}" is not off or gzip`)
  return value === 'gzip'
}

// opts → the same options, the run's request set to the call: its URLs'
// paths the method's, POST, its headers and framed message. Throws one
// line (a registered code) for any bad input.
function prepareCall (opts) {
  const grpc = gather(opts)
  if (grpc.call === undefined) throw optionError('a gRPC run needs --call package.Service/Method')
  const root = loadRoot(grpc)
  const data = readData(grpc, opts)
  const gzip = compressionOf(grpc)
  let callPath
  let body
  if (root === null) {
    // Without a .proto: the server's reflection, asked before the run
    // (reflection.js), defines the message; the path is the call's.
    const { text, serviceName, methodName } = splitCall(grpc.call)
    callPath = `/${serviceName}/${methodName}`
    body = pendingEnvelope({ call: text, where: data.where, text: data.text, gzip })
  } else {
    const found = findMethod(root, grpc.call)
    callPath = found.path
    body = messageBody(found.method.resolvedRequestType, data, gzip)
  }
  const timeoutMs = timeoutOf(grpc)
  const headers = { ...(opts.headers || {}) }
  for (const [key, value] of metadataOf(grpc)) headers[key] = key in headers ? `${headers[key]}, ${value}` : value
  headers['content-type'] = 'application/grpc'
  headers.te = 'trailers'
  if (timeoutMs > 0) headers['grpc-timeout'] = encodeTimeout(timeoutMs)
  if (gzip) headers['grpc-encoding'] = 'gzip'
  headers['grpc-accept-encoding'] = 'identity'
  const urls = [].concat(opts.url).map((u) => withPath(u, callPath))
  const out = { ...opts, url: Array.isArray(opts.url) ? urls : urls[0], method: 'POST', headers, body }
  delete out.form
  return Object.freeze(out)
}

// The body of a call of message type `type`: without templates, the
// bytes every call sends, made here once; with them, the envelope that
// fills them per call.
function messageBody (type, data, gzip) {
  if (data.object === null) return templatedMessage(type, data, gzip)
  const message = encodeMessage(type, data.object)
  return gzip ? frameMessage(zlib.gzipSync(message), true) : frameMessage(message)
}

// The call's path on a target URL (its own path, if any, gives way).
function withPath (raw, callPath) {
  if (typeof raw !== 'string') return raw
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(raw)
  return m === null ? raw : m[1] + callPath
}

module.exports = { prepareCall, findMethod, splitCall, loadRoot, encodeMessage, messageBody, gather }
