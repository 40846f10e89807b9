'use strict'

// A run split into parts: the shards of a run over several machines
// (--shard) and the worker threads of one process (-w), by the same rules,
// so that the parts add up to the whole and a shard's workers divide its
// part again:
//
// - connections, amount and maxOverallRequests: whole numbers, divided
//   exactly by share() (-c 10 over 3 parts is 4 + 3 + 3);
// - overallRate and the stages' rates: divided evenly (a rate need not be
//   whole); connectionRate is per connection, so it stays;
// - connectionStages: the ramp's count is divided again at every moment
//   (lib/engine/connection-ramp.js), by the [index, count] of each split
//   in turn (connectionShares).
//
// A part is a config of its own, run as it is: a worker thread gets its
// part posted as data (received() freezes it again there) and checks no
// option again.

const { share } = require('../core/share')
const { raise, InvalidOptionError } = require('../core/errors')

// A rate's part. A search's steps set the workers' rates with it too.
function ratePart (rate, count) {
  return rate / count
}

function part (config, index, count) {
  const stages = config.stages && Object.freeze(config.stages.map((stage) => Object.freeze({ duration: stage.duration, rate: ratePart(stage.rate, count) })))
  return {
    ...config,
    connections: share(config.connections, count, index),
    // 0 is "not set" for both: it stays 0.
    amount: config.amount ? share(config.amount, count, index) : 0,
    maxOverallRequests: config.maxOverallRequests ? share(config.maxOverallRequests, count, index) : 0,
    overallRate: ratePart(config.overallRate, count),
    stages,
    connectionShares: config.connectionStages
      ? Object.freeze([...(config.connectionShares || []), Object.freeze([index, count])])
      : config.connectionShares
  }
}

// This shard's part of the run (a config to freeze). Every shard needs at
// least one connection, and one request of an amount or -O (a share of 0
// would silently turn a cap into none): checked on the whole, so all
// shards refuse alike.
function shardPart (config, { index, count }) {
  const whole = [['connections', '-c'], ['amount', '-a'], ['maxOverallRequests', '-O']]
  for (const [option, flag] of whole) {
    const value = config[option]
    if (value && value < count) {
      throw raise('AC_TOO_MANY_SHARDS', `${count} shards need ${option} (${flag}) of at least ${count}, one for each (it is ${value}): use fewer shards or raise ${flag}`)
    }
  }
  return { ...part(config, index, count), shardIndex: index }
}

// The whole (of a shard) fitted to its workers, before it is split: each
// worker runs at least one connection and makes at least one request of an
// amount, as in autocannon (lib/config/limits.js warns of both, from
// connectionsAsked and amountAsked). A cap of fewer requests than workers
// is refused: raised, it would no longer be the cap asked for.
function fitToWorkers (config) {
  const workers = config.workers
  if (!workers) return config
  const fitted = { ...config }
  if (workers > config.connections) {
    fitted.connectionsAsked = config.connections
    fitted.connections = workers
  }
  if (config.amount && config.amount < workers) {
    fitted.amountAsked = config.amount
    fitted.amount = workers
  }
  if (config.maxOverallRequests && config.maxOverallRequests < workers) {
    throw new InvalidOptionError('maxOverallRequests', config.maxOverallRequests, `is fewer than the ${workers} workers, which make at least one request each: use fewer workers or a larger maxOverallRequests (-O)`)
  }
  return fitted
}

// Worker `index`'s part of the run (of a shard's part; a config to
// freeze): one thread runs it, and with workerIndex and workersOfShard its
// {{seq}} values and random streams are its own.
function workerPart (config, index) {
  const count = config.workers
  return { ...part(config, index, count), workers: 0, workerIndex: index, workersOfShard: count }
}

// The user's own objects in a config, used as given: buildConfig does not
// freeze them either.
const AS_GIVEN = new Set(['initialContext', 'har', 'form', 'tlsOptions'])

// A part as a worker thread receives it, a structured clone (plain data,
// nothing frozen, a Buffer turned into a Uint8Array) → the frozen config
// it runs, as buildConfig made it.
function received (data) {
  const config = {}
  for (const key of Object.keys(data)) config[key] = AS_GIVEN.has(key) ? data[key] : thaw(data[key])
  return Object.freeze(config)
}

// An object the clone shares between fields (a proxy between targets)
// arrives once, and is frozen the first time it is met.
function thaw (value) {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  for (const key of Object.keys(value)) value[key] = thaw(value[key])
  return Object.freeze(value)
}

module.exports = { shardPart, workerPart, fitToWorkers, ratePart, received }
