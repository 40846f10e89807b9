'use strict'

// The pure parts of a gRPC call on the wire (PROTOCOL-HTTP2.md): a
// message's 5-byte frame, the grpc-timeout header's value, and a
// --metadata line.

const { isToken, isValidHeaderValue } = require('../core/http-syntax')

// Length-Prefixed-Message: a compressed flag (1 when the message is
// compressed with the call's grpc-encoding), its length as a uint32 big
// endian, the message.
function frameMessage (message, compressed = false) {
  const out = Buffer.allocUnsafe(5 + message.length)
  out[0] = compressed ? 1 : 0
  out.writeUInt32BE(message.length, 1)
  out.set(message, 5)
  return out
}

// grpc-timeout: at most 8 digits and a unit (H, M, S, m, u, n). Whole
// milliseconds go as such; a fraction of one in microseconds; a deadline
// too long for 8 digits of a unit in the next, rounded up (a deadline
// sent shorter than asked would fail calls the user allows).
const MAX_DIGITS = 1e8
const UNITS = [['m', 1], ['S', 1e3], ['M', 60e3], ['H', 3600e3]]

function encodeTimeout (ms) {
  if (!(ms > 0) || !Number.isFinite(ms)) throw new RangeError(`a deadline must be a number of milliseconds > 0 (got ${ms})`)
  if (!Number.isInteger(ms) && ms * 1000 < MAX_DIGITS) return `${Math.ceil(ms * 1000)}u`
  for (const [unit, size] of UNITS) {
    const value = Math.ceil(ms / size)
    if (value < MAX_DIGITS) return `${value}${unit}`
  }
  return `${MAX_DIGITS - 1}H`
}

const UNIT_MS = { H: 3600e3, M: 60e3, S: 1e3, m: 1, u: 1e-3, n: 1e-6 }

// A grpc-timeout value → milliseconds, or 0 when it is not one.
function decodeTimeout (text) {
  const m = /^(\d{1,8})([HMSmun])$/.exec(text)
  return m === null ? 0 : Number(m[1]) * UNIT_MS[m[2]]
}

// Metadata gRPC reserves: set by the call itself.
const RESERVED = new Set(['content-type', 'te', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding', 'host', 'user-agent'])

// 'key: value' (as ghz and grpcurl take it; 'key=value' too) → [key,
// value], the key lowercased as HTTP/2 sends it; or a string saying what
// is wrong.
function parseMetadata (line) {
  const text = String(line)
  const colon = text.indexOf(':')
  const equals = text.indexOf('=')
  const at = colon === -1 ? equals : (equals === -1 ? colon : Math.min(colon, equals))
  if (at <= 0) return `"${text}" is not 'key: value'`
  const key = text.slice(0, at).trim().toLowerCase()
  const value = text.slice(at + 1).trim()
  if (!isToken(key) || key.startsWith(':')) return `"${key}" is not a valid metadata key`
  if (RESERVED.has(key)) return `"${key}" is set by the call itself, not as metadata`
  if (!isValidHeaderValue(value)) return `the value of "${key}" has a character a header may not hold`
  return [key, value]
}

module.exports = { frameMessage, encodeTimeout, decodeTimeout, parseMetadata }
