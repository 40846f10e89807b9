'use strict'

// Confidence intervals for the change in latency percentiles between two
// runs, by a block bootstrap over the runs' sample intervals.
//
// Why blocks: the responses of one second share that second's conditions
// (a GC pause, a busy neighbour, a full queue), so they are not
// independent. Resampling single responses would treat 60,000 correlated
// latencies as 60,000 independent ones and give intervals far too narrow:
// the same mistake as a t-test with n = requests. Resampling whole
// intervals keeps that correlation inside each block; the intervals are
// the independent units, as they are for the Req/Sec test.
//
// One replicate: draw as many intervals as the run has, with replacement,
// add their histograms, read the percentiles as HdrHistogram does (the
// highest value of the bucket that holds the target count). The interval
// of the ratio b/a is read from the replicates' ratios.

const { filledBuckets } = require('../results/histogram')
const { normalSf, tIsf } = require('./normal')

// Long runs are cut into at most this many blocks of consecutive
// intervals: longer blocks keep the bootstrap valid (they hold more of the
// correlation, not less) and bound the memory to blocks × buckets.
const MAX_BLOCKS = 200

// A run's blocks as cumulative counts over the buckets any of them fills.
// A replicate's merged count up to a bucket is then a weighted sum over
// the drawn blocks, so each percentile is a binary search over buckets:
// a few thousand operations a replicate, whatever the number of requests.
class Blocks {
  // histograms: one decoded HdrHistogram (or null for an interval without
  // responses) per interval, in time order. All share one bucket layout
  // (createLatencyHistogram's), so buckets are matched by index.
  constructor (histograms) {
    const size = Math.max(1, Math.ceil(histograms.length / MAX_BLOCKS))
    this.intervalsPerBlock = size
    const parts = histograms.map((h) => h && h.totalCount > 0 ? filledBuckets(h) : { indexes: [], counts: [] })
    const layout = histograms.find((h) => h && h.totalCount > 0)
    for (const h of histograms) {
      if (h && h.totalCount > 0 && (h.subBucketCount !== layout.subBucketCount || h.unitMagnitude !== layout.unitMagnitude)) {
        throw new TypeError('latency histograms of different layouts cannot be merged')
      }
    }
    let top = -1
    for (const { indexes } of parts) if (indexes.length) top = Math.max(top, indexes[indexes.length - 1])
    const filled = new Uint8Array(top + 1)
    for (const { indexes } of parts) for (const i of indexes) filled[i] = 1
    const position = new Int32Array(top + 1)
    const values = []
    for (let i = 0; i <= top; i++) {
      if (!filled[i]) continue
      position[i] = values.length
      values.push(layout.highestEquivalentValue(layout.valueFromIndex(i)))
    }
    const width = values.length
    const count = Math.ceil(histograms.length / size)
    this.values = Float64Array.from(values)
    this.width = width
    this.count = count
    this.cumulative = new Float64Array(count * width)
    this.totals = new Float64Array(count)
    parts.forEach(({ indexes, counts }, k) => {
      const row = Math.floor(k / size) * width
      for (let j = 0; j < indexes.length; j++) this.cumulative[row + position[indexes[j]]] += counts[j]
    })
    for (let b = 0; b < count; b++) {
      const row = b * width
      for (let j = 1; j < width; j++) this.cumulative[row + j] += this.cumulative[row + j - 1]
      this.totals[b] = width > 0 ? this.cumulative[row + width - 1] : 0
    }
    this.total = this.totals.reduce((sum, t) => sum + t, 0)
    this.weights = new Int32Array(count)
    this.drawn = new Int32Array(count)
  }

  get length () {
    return this.count
  }

  // How many blocks hold a response at or above the run's own `percentile`:
  // the independent events the tail rests on. One stall delays every
  // connection's response at once, so a p99 of 2,000 responses can be a
  // single event, which no resampling can tell from chance.
  blocksAbove (percentile) {
    const out = new Float64Array(1)
    this.percentilesOf(new Int32Array(this.count).fill(1), [percentile], out)
    const at = this.values.indexOf(out[0])
    let blocks = 0
    for (let b = 0; b < this.count; b++) {
      const below = at === 0 ? 0 : this.cumulative[b * this.width + at - 1]
      if (below < this.totals[b]) blocks++
    }
    return blocks
  }

  // Percentiles (ascending, in %) of one resample, into `out`.
  resample (random, percentiles, out) {
    const n = this.count
    const weights = this.weights
    weights.fill(0)
    for (let k = 0; k < n; k++) weights[Math.floor(random() * n)]++
    this.percentilesOf(weights, percentiles, out)
  }

  // Percentiles of the blocks added `weights[b]` times each, as of one
  // histogram holding them; NaN when they hold no response at all.
  percentilesOf (weights, percentiles, out) {
    const { drawn, cumulative, totals, width, values } = this
    let m = 0
    let total = 0
    for (let b = 0; b < this.count; b++) {
      if (weights[b] === 0) continue
      drawn[m++] = b
      total += weights[b] * totals[b]
    }
    if (total === 0) {
      out.fill(NaN)
      return
    }
    // The merged count of buckets 0..j.
    const upTo = (j) => {
      let sum = 0
      for (let k = 0; k < m; k++) sum += weights[drawn[k]] * cumulative[drawn[k] * width + j]
      return sum
    }
    let from = 0
    for (let q = 0; q < percentiles.length; q++) {
      const target = countAt(percentiles[q], total)
      let lo = from
      let hi = width - 1
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (upTo(mid) >= target) hi = mid
        else lo = mid + 1
      }
      out[q] = values[lo]
      from = lo
    }
  }
}

// As HdrHistogram's getValueAtPercentile: the first bucket whose running
// count reaches ceil(p% of the total), nudged down so that float error
// (99.9% of 1000 = 999.0000000000001) does not ask for one more.
function countAt (percentile, total) {
  const exact = percentile / 100 * total
  return Math.max(1, Math.ceil(exact - exact * Number.EPSILON * 4))
}

// The (type 7, as R's and numpy's default) quantile of sorted values.
function quantile (sorted, q) {
  const h = (sorted.length - 1) * q
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo])
}

// How far into each tail of the replicates the interval's ends are read.
// The plain percentile interval (alpha / 2) is too narrow with few blocks:
// the bootstrap spreads like the data (divisor n, not n - 1) and knows
// nothing of t's wider tails, so a 95% interval of 8 blocks covers about
// 88%. Hesterberg's expanded percentile interval ("What teachers should
// know about the bootstrap", The American Statistician, 2015) reads it
// at the normal tail of sqrt(n / (n - 1)) * t(alpha / 2, n - 1):
// 0.57% instead of 2.5% at n = 8, 2.2% at n = 60.
function expandedTail (alpha, n) {
  return normalSf(Math.sqrt(n / (n - 1)) * tIsf(alpha / 2, n - 1))
}

// → one { lo, hi } per percentile: the 1 - alpha interval of the ratio
// b's percentile / a's. Replicates where either run drew no response are
// left out.
function ratioIntervals (a, b, percentiles, { resamples, alpha, random }) {
  const outA = new Float64Array(percentiles.length)
  const outB = new Float64Array(percentiles.length)
  const ratios = percentiles.map(() => [])
  for (let r = 0; r < resamples; r++) {
    a.resample(random, percentiles, outA)
    b.resample(random, percentiles, outB)
    for (let q = 0; q < percentiles.length; q++) {
      const ratio = outB[q] / outA[q]
      if (Number.isFinite(ratio)) ratios[q].push(ratio)
    }
  }
  const tail = expandedTail(alpha, Math.min(a.length, b.length))
  return ratios.map((list) => {
    if (list.length === 0) return { lo: NaN, hi: NaN }
    list.sort((x, y) => x - y)
    return { lo: quantile(list, tail), hi: quantile(list, 1 - tail) }
  })
}

module.exports = { Blocks, ratioIntervals, expandedTail, countAt, MAX_BLOCKS }
