'use strict'

// What the machine allows, checked before any connection opens: a run that
// asks for more sockets than the process may open, or than there are local
// ports to one target, would otherwise crawl through EMFILE or
// EADDRNOTAVAIL errors instead of measuring anything.

const fs = require('fs')
const { raise } = require('../core/errors')
const { warning } = require('../core/warnings')

// File descriptors a run needs besides its sockets: stdio, the event loop,
// libuv's threads, and a few per worker thread.
const BASE_FDS = 32
const FDS_PER_WORKER = 8

function read (file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

// The soft limit on open files (what `ulimit -n` shows), or null where
// /proc does not say (not Linux).
function openFileLimit (limits = read('/proc/self/limits')) {
  if (limits === null) return null
  const line = limits.split('\n').find((l) => l.startsWith('Max open files'))
  if (!line) return null
  const soft = line.slice('Max open files'.length).trim().split(/\s+/)[0]
  return soft === 'unlimited' ? Infinity : Number(soft) || null
}

function openFiles () {
  try {
    return fs.readdirSync('/proc/self/fd').length
  } catch {
    return 0
  }
}

// [low, high] of the kernel's ephemeral ports, or null.
function localPortRange (text = read('/proc/sys/net/ipv4/ip_local_port_range')) {
  if (text === null) return null
  const [low, high] = text.trim().split(/\s+/).map(Number)
  return Number.isInteger(low) && Number.isInteger(high) && high >= low ? [low, high] : null
}

// Connections per host:port, as the run spreads them over its URLs.
function connectionsPerAddress (config) {
  const counts = new Map()
  if (config.socketPath) return counts
  for (let i = 0; i < config.connections; i++) {
    const target = config.urls[i % config.urls.length]
    const key = `${target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname}:${target.port}`
    counts.set(key, (counts.get(key) || 0) + 1)
  }
  return counts
}

function checkLimits (config, probe = {}) {
  const limit = 'limit' in probe ? probe.limit : openFileLimit()
  const open = 'open' in probe ? probe.open : openFiles()
  const range = 'range' in probe ? probe.range : localPortRange()
  const c = config.connections
  if (limit !== null && limit !== Infinity) {
    const need = c + open + BASE_FDS + FDS_PER_WORKER * (config.workers || 0)
    if (need > limit) {
      throw raise('AC_TOO_MANY_CONNECTIONS',
        `${c} connections need about ${need} open files, but this process may open ${limit} (ulimit -n): ` +
        `raise the limit (ulimit -n ${Math.ceil(need / 1024) * 1024}) or use fewer connections`)
    }
  }
  if (range !== null) {
    const ports = range[1] - range[0] + 1
    for (const [address, n] of connectionsPerAddress(config)) {
      if (n > ports) {
        throw raise('AC_TOO_MANY_CONNECTIONS',
          `${n} connections to ${address} need more local ports than the ${ports} there are ` +
          `(net.ipv4.ip_local_port_range ${range[0]}-${range[1]}): use fewer connections, or spread them over several URLs`)
      }
    }
  }
}

// Workers beyond the cores compete for them: allowed, but said.
function warnings (config, cores) {
  const out = []
  if (!config.workers) return out
  if (config.connectionsAsked !== undefined) {
    out.push(warning('AC_WORKERS_OVER_CONNECTIONS', `${config.workers} workers for ${config.connectionsAsked} connection${config.connectionsAsked === 1 ? '' : 's'}: each worker runs one, so ${config.connections} connections run`))
  }
  if (config.amountAsked !== undefined) {
    out.push(warning('AC_WORKERS_OVER_AMOUNT', `${config.workers} workers for an amount of ${config.amountAsked}: each worker makes at least one request, so ${config.amount} requests are made`))
  }
  if (cores === undefined) cores = require('os').availableParallelism()
  if (config.workers > cores) {
    out.push(warning('AC_WORKERS_OVER_CORES', `${config.workers} workers on ${cores} CPU cores: they compete for the cores; more than ${cores} rarely generates more load`))
  }
  return out
}

module.exports = { checkLimits, warnings, openFileLimit, localPortRange, connectionsPerAddress }
