'use strict'

// The dashboard option: true (a free port), a port, or { port, host,
// keepOpen } → { port, host, keepOpen }, frozen; false, null or absent:
// undefined (no dashboard). The host is 127.0.0.1 unless one is given:
// what the page shows is the run, for whoever reaches the port.

const { fail } = require('./values')

const LOOPBACK = '127.0.0.1'
const EXPECTED = 'must be true, a port (0 for a free one), or { port, host, keepOpen }'

function port (value, given) {
  if (value === undefined || value === null || value === true) return 0
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
  if (!Number.isInteger(n) || n < 0 || n > 65535) fail('dashboard', given, `${EXPECTED}: the port must be a whole number from 0 to 65535`)
  return n
}

function checkDashboard (value) {
  if (value === undefined || value === null || value === false) return undefined
  if (typeof value !== 'object') return Object.freeze({ port: port(value, value), host: LOOPBACK, keepOpen: false })
  if (Array.isArray(value)) fail('dashboard', value, EXPECTED)
  const host = value.host === undefined || value.host === null ? LOOPBACK : value.host
  if (typeof host !== 'string' || host.trim() === '') fail('dashboard', value, `${EXPECTED}: the host must be an address or name`)
  return Object.freeze({ port: port(value.port, value), host: host.trim(), keepOpen: !!value.keepOpen })
}

module.exports = { checkDashboard, LOOPBACK }
