'use strict'

// --startAt: the instant a run starts sending at, so that the shards of
// a run on several machines start together and their samples fall at the
// same times.

const { fail } = require('./values')

// ISO 8601 with a zone, or epoch milliseconds: an instant every machine
// reads alike (a time without a zone would be each machine's local time).
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i

function parseStartAt (value, sampleInt, now = Date.now()) {
  if (value === undefined || value === null) return undefined
  const expected = 'must be a time in ISO 8601 with a zone (2030-01-01T12:00:00Z) or epoch milliseconds'
  let at
  if (value instanceof Date) at = value.getTime()
  else if (typeof value === 'number') at = value
  else if (typeof value === 'string' && /^\d+$/.test(value.trim())) at = Number(value.trim())
  else if (typeof value === 'string') {
    const text = value.trim()
    if (!ISO_WITH_ZONE.test(text)) {
      fail('startAt', value, /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(text)
        ? 'has no time zone: add Z (UTC) or an offset such as +02:00, so that every machine reads the same instant'
        : expected)
    }
    at = Date.parse(text)
  }
  if (!Number.isFinite(at)) fail('startAt', value, expected)
  // Allowed up to one interval late: the first sample is then short, but
  // the samples still fall where every other shard's do.
  const late = now - at
  if (late > sampleInt) {
    const seconds = late / 1000
    const ago = seconds < 120
      ? `${seconds.toFixed(1)} s`
      : seconds < 7200
        ? `${Math.round(seconds / 60)} min`
        : seconds < 172800 ? `${Math.round(seconds / 3600)} h` : `${Math.round(seconds / 86400)} days`
    // `date +%s` gives seconds: read as milliseconds, that is 1970.
    const hint = at < 1e11 && at * 1000 > now - sampleInt ? ' (epoch milliseconds are expected, not seconds)' : ''
    fail('startAt', value, `is ${ago} in the past${hint}, more than one sample interval (${sampleInt} ms): give a time in the future`)
  }
  return at
}

module.exports = { parseStartAt }
