'use strict'

// A target whose host name does not resolve is told before the run, in one
// line naming the host (AC_HOST_NOT_FOUND), as wrk does, rather than after
// a whole run of connect errors. Names are only resolved (dns.lookup, as
// the connections will resolve them), never connected to: a host that
// resolves but refuses connections still runs and counts its refusals, as
// autocannon does. An IP address needs no lookup, and neither does
// localhost (loopback by RFC 6761: its lookup would only slow the start);
// a Unix socket (-S) has no host to resolve. Through a proxy the proxy
// resolves the target: its own host is the one to resolve here.

const net = require('net')
const { raise } = require('../core/errors')
const { lazy } = require('../core/lazy')
// Lazy: only a host given by name needs a lookup (an IP address or
// localhost does not).
const dns = lazy(() => require('dns'))

const LOCALHOST = /^(.+\.)?localhost\.?$/i

// hostname → where it comes from, for the message.
function hostsOf (config) {
  const hosts = new Map()
  for (const target of config.urls) {
    if (target.socketPath !== undefined) continue
    const host = target.proxy !== undefined ? target.proxy.hostname : target.hostname
    if (net.isIP(host) !== 0 || LOCALHOST.test(host) || hosts.has(host)) continue
    hosts.set(host, target.proxy !== undefined ? `the proxy ${target.proxy.href}` : target.href)
  }
  return hosts
}

// Resolves with the lookup's error, or null when the name resolved or the
// resolver took longer than `ms` to say (the run then finds out itself).
function lookupError (host, ms, lookup) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms)
    lookup(host, (err) => {
      clearTimeout(timer)
      resolve(err || null)
    })
  })
}

// Rejects with AC_HOST_NOT_FOUND for the first host that does not resolve.
// lookup: dns.lookup's signature (tests give their own).
async function checkHosts (config, { lookup } = {}) {
  const hosts = hostsOf(config)
  if (hosts.size === 0) return
  const resolve = lookup || dns().lookup
  const errors = await Promise.all([...hosts.keys()].map((host) => lookupError(host, config.timeout * 1000, resolve)))
  const i = errors.findIndex((err) => err !== null)
  if (i === -1) return
  const [host, where] = [...hosts][i]
  const err = errors[i]
  throw raise('AC_HOST_NOT_FOUND', `Cannot resolve host "${host}" of ${where} (${err.code || err.message}): check the host name, or give an IP address`)
}

module.exports = { checkHosts, hostsOf }
