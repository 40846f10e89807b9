'use strict'

// --shard I/N: which part of the load this process sends. A shard is one
// of `count` generator processes, usually on as many machines, that
// together make one run: each sends its part (split.js divides it), and
// `autocannon merge` adds their results up. Indexes are 0-based, as
// Kubernetes numbers an Indexed Job's pods (JOB_COMPLETION_INDEX 0..N-1).

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

// What makes the shards one run, as each shard records it in its result
// (result.shard.run) for `autocannon merge` to hold them to: the options
// that divide the load, as given for the whole run (before this shard's
// part was taken). A shard given other values sent part of another run,
// and adding its numbers to these would describe neither. The target(s),
// the protocol and --startAt are in the result already (url, protocol,
// startAt). Not the seed (drawn per process when not given) nor the
// workers (each machine its own).
function runOf (config) {
  return Object.freeze({
    connections: config.connections,
    amount: config.amount,
    maxOverallRequests: config.maxOverallRequests,
    overallRate: config.overallRate,
    connectionRate: config.connectionRate,
    duration: config.duration,
    stages: config.stages ? config.stages.map((s) => ({ duration: s.duration, rate: s.rate })) : null,
    connectionStages: config.connectionStages ? config.connectionStages.map((s) => ({ ...s })) : null
  })
}

module.exports = { parseShard, runOf }
