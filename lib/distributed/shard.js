'use strict'

// A shard is one of `count` generator processes, usually on as many
// machines, that together make one run: each sends its part of the load,
// and `autocannon merge` adds their results up. Indexes are 0-based, as
// Kubernetes numbers an Indexed Job's pods (JOB_COMPLETION_INDEX 0..N-1).
//
// The whole is divided as workers divide it, with the same share(): the
// parts add up to what was asked (-c 10 over 3 shards is 4 + 3 + 3). Rates
// are divided evenly (they need not be whole); connectionRate is per
// connection, so it stays as it is.

const { share } = require('../core/share')
const { raise } = require('../core/errors')

// The variable an Indexed Job sets in each of its containers.
const INDEX_VARIABLE = 'JOB_COMPLETION_INDEX'

function isCount (n) {
  return Number.isInteger(n) && n >= 1
}

// "I/N" (or { index, count }) → { index, count }, or null when it is not
// one; 'auto' for I reads the index from `env`.
function parseShard (value, env) {
  let index, count
  if (typeof value === 'string') {
    const m = /^\s*(\d+|auto)\s*\/\s*(\d+)\s*$/.exec(value)
    if (!m) return null
    count = Number(m[2])
    if (m[1] === 'auto') {
      if (!env) return null
      index = indexFromEnv(env, count)
    } else {
      index = Number(m[1])
    }
  } else if (value !== null && typeof value === 'object') {
    index = typeof value.index === 'string' && value.index.trim() !== '' ? Number(value.index) : value.index
    count = typeof value.count === 'string' && value.count.trim() !== '' ? Number(value.count) : value.count
  } else {
    return null
  }
  if (!isCount(count) || !Number.isInteger(index) || index < 0 || index >= count) return null
  return { index, count }
}

function indexFromEnv (env, count) {
  const raw = env[INDEX_VARIABLE]
  if (raw === undefined || raw === '') {
    throw raise('AC_INVALID_ARGUMENT', `--shard auto/${count} reads the shard's index from ${INDEX_VARIABLE}, which is not set (a Kubernetes Indexed Job sets it): give the index instead, e.g. --shard 0/${count}`)
  }
  const index = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN
  if (!(index < count)) {
    throw raise('AC_INVALID_ARGUMENT', `--shard auto/${count}: ${INDEX_VARIABLE} is "${raw}", not a whole number from 0 to ${count - 1}`)
  }
  return index
}

// This shard's part of the run's connections, amount, caps and rates.
// Every shard needs at least one connection (and one request of an
// amount): checked on the whole, so all shards refuse alike.
function shardPart (config, { index, count }) {
  const whole = [['connections', config.connections, '-c'], ['amount', config.amount, '-a'], ['maxOverallRequests', config.maxOverallRequests, '-O']]
  for (const [option, value, flag] of whole) {
    // 0 is "not set" for amount and maxOverallRequests; a share of 0 would
    // silently turn a cap into none.
    if (value && value < count) {
      throw raise('AC_TOO_MANY_SHARDS', `${count} shards need ${option} (${flag}) of at least ${count}, one for each (it is ${value}): use fewer shards or raise ${flag}`)
    }
  }
  const part = {
    connections: share(config.connections, count, index),
    amount: config.amount ? share(config.amount, count, index) : 0,
    maxOverallRequests: config.maxOverallRequests ? share(config.maxOverallRequests, count, index) : 0,
    overallRate: config.overallRate / count
  }
  if (config.connectionStages) part.connectionShares = Object.freeze([[index, count]])
  if (config.stages) {
    part.stages = Object.freeze(config.stages.map((stage) => Object.freeze({ duration: stage.duration, rate: stage.rate / count })))
  }
  return part
}

module.exports = { parseShard, shardPart }
