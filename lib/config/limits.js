'use strict'

// What the machine allows, checked before any connection opens: a run that
// asks for more sockets than the process may open, or than there are local
// ports to one target, would otherwise crawl through EMFILE or
// EADDRNOTAVAIL errors instead of measuring anything; a run of more worker
// threads than the cores and memory can carry would spend its time (and
// the machine's memory) starting threads instead, and might never begin.

const fs = require('fs')
const { raise } = require('../core/errors')
const { warning } = require('../core/warnings')
const { lazy } = require('../core/lazy')
// Lazy: only worker threads need the machine's cores and memory.
const os = lazy(() => require('os'))

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

// Worker threads: each is an event loop and a V8 heap of its own, and
// beyond the cores they only compete for them: more than WORKERS_PER_CORE
// per core generates no more load, and is refused, as is more than the
// free memory holds at WORKER_MB each (a busy worker's heap, with room
// above an idle one's).
const WORKERS_PER_CORE = 4
const WORKER_MB = 32

// The memory this process may still use, in bytes: the free memory, or
// the cgroup's limit when it is lower (a container).
function freeMemory () {
  const free = os().freemem()
  const limit = typeof process.constrainedMemory === 'function' ? process.constrainedMemory() : 0
  return limit > 0 && limit < free ? limit : free
}

// probe: { cores, free } (bytes), the machine's own unless given.
function checkWorkers (config, probe = {}) {
  const workers = config.workers || 0
  if (workers <= 1) return
  const cores = 'cores' in probe ? probe.cores : os().availableParallelism()
  const max = WORKERS_PER_CORE * cores
  if (workers > max) {
    throw raise('AC_TOO_MANY_WORKERS',
      `${workers} workers (-w, workers) are more than this machine can run: at most ${max}, ${WORKERS_PER_CORE} for each of its ${cores} CPU core${cores === 1 ? '' : 's'} ` +
      `(threads beyond the cores only compete for them): use -w ${max} or fewer`)
  }
  const free = Math.floor(('free' in probe ? probe.free : freeMemory()) / (1024 * 1024))
  if (workers * WORKER_MB > free) {
    const fit = Math.max(1, Math.floor(free / WORKER_MB))
    throw raise('AC_TOO_MANY_WORKERS',
      `${workers} workers (-w, workers) need about ${workers * WORKER_MB} MB (${WORKER_MB} MB each), more than the ${free} MB of memory free: use -w ${fit} or fewer`)
  }
}

function checkLimits (config, probe = {}) {
  // First: too many workers would otherwise be told as too many files.
  checkWorkers(config, probe)
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
  if (cores === undefined) cores = os().availableParallelism()
  if (config.workers > cores) {
    out.push(warning('AC_WORKERS_OVER_CORES', `${config.workers} workers on ${cores} CPU cores: they compete for the cores; more than ${cores} rarely generates more load`))
  }
  return out
}

module.exports = { checkLimits, checkWorkers, warnings, openFileLimit, localPortRange, connectionsPerAddress }
