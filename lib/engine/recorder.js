'use strict'

// Everything a run counts, in one fixed-shape object, changed only by its
// own methods: clients call started() as requests go and response() once
// per completed response, the run calls sample() every sampleInt ms, the
// scheduler planned() for each request it grants. snapshot() turns the
// counts into the mergeable raw result that result.js aggregates.

const { createLatencyHistogram, encode, pack, countAbove, addHistogram, warmUp, valueSum, subtractHistogram, TIMINGS } = require('../results/histogram')
const { noErrorsByCause } = require('../core/errors')
const { OWN } = require('./loop-monitor')

const MAX_STATUS = 1000

// The counts of a window (since the start, or the last cut), the first of
// a Recorder's fields: set by its constructor (super()) and again by each
// cut. They are a constructor's, not a method's: V8 sizes an object for
// the fields its constructors assign, and those a method assigned would
// not fit in it, the last of the Recorder's (some counted per response)
// then kept outside the object, one load further away.
function WindowCounts () {
  this.totalCompleted = 0
  this.totalBytes = 0
  // Every request started ends as one of: a response (counted in
  // `counter`/`totalCompleted`), an error, or in flight at the end.
  this.sent = 0
  this.errors = 0
  this.timeouts = 0
  this.errorsByCause = noErrorsByCause()
  this.errorCodes = Object.create(null)
  this.mismatches = 0
  this.resets = 0
  // Requests sent again on a new connection: the server closed theirs
  // before a byte of their responses (client.js, onClose).
  this.resent = 0
  // Responses that came when no request was waiting for one (a server
  // that answers twice): each closed its connection, which may have lost
  // no request, so they are counted here, not in `errors`.
  this.unexpected = 0
  // Requests that started late against the rate plan (by how much: the
  // Recorder's `lateness`).
  this.late = 0
  // Why they were late: every connection was busy at the planned time
  // (the server, or too few connections), or the thread ran late, in a
  // pause of its own work or while it was not running (other processes
  // had the core). A thread-late request waits in `lateHeld` for the loop
  // monitor's next sample, which knows the pause's cause.
  this.lateNoConnection = 0
  this.lateOwn = 0
  this.lateStarved = 0
  this.lateHeld = 0
}

class Recorder extends WindowCounts {
  constructor ({ excludeErrorStats = false, trackUncorrected = false, liveUncorrected = false } = {}) {
    // Made before the run sends: what sample() calls is compiled now.
    warmUp()
    super()
    this.includeErrorStats = !excludeErrorStats
    // The run's latency, of the intervals that have ended: a response is
    // recorded once, in `intervalLatency`, which is added here when its
    // interval ends (a pass over its buckets between its min and max, once
    // a second).
    this.latency = createLatencyHistogram()
    // Service time (write → response) when `latency` is measured from the
    // planned send time; null when the two are the same thing.
    this.latencyUncorrected = trackUncorrected ? createLatencyHistogram() : null
    // Watched live (the dashboard draws it): the service time of the
    // current interval too, recorded there and added into the run's at
    // its end, as `intervalLatency` is. Else it goes straight into the
    // run's: nothing more per response, nor per interval.
    this.intervalUncorrected = trackUncorrected && liveUncorrected ? createLatencyHistogram() : null
    this.uncorrectedInto = this.intervalUncorrected || this.latencyUncorrected
    // The last sample's service time, when watched live: [histogram
    // (packed), p50 (µs), p99 (µs)].
    this.lastUncorrected = null
    this.statusCounts = new Float64Array(MAX_STATUS)
    // Current sample interval.
    this.counter = 0
    this.bytes = 0
    this.intervalErrors = 0
    // Latency of the current interval only: reset, not rebuilt, at each
    // sample.
    this.intervalLatency = createLatencyHistogram()
    // The 1-second progress tick: responses and bytes at the last one,
    // taken from the totals rather than counted again per response.
    this.tickMarkCount = 0
    this.tickMarkBytes = 0
    // How late the requests of a rate plan left against their planned
    // times (made by trackLateness; `late` counts those over LATE_MS).
    this.lateness = null
    // The loop monitor's pauses, split by cause (loop-monitor.js): how
    // many were mostly each, the µs of each in all, and the longest part.
    // `pausesKnown`: whether this thread could tell (it has a CPU clock).
    this.pausesKnown = false
    this.pauses = new Float64Array(6)
    // How late this thread's event loop ran its timers (loop-monitor.js),
    // over the run and in the current interval.
    this.loopDelays = createLatencyHistogram()
    this.intervalLoopDelay = createLatencyHistogram()
    // Where the time went (µs): per connection, the steps of opening it
    // (recorded as each is ready, see connected()); per response, the
    // time to its first byte from the write (ttfb) and the rest of it
    // (transfer), recorded as latency is, through the interval's own.
    this.timings = {
      dns: createLatencyHistogram(),
      connect: createLatencyHistogram(),
      proxyConnect: createLatencyHistogram(),
      tls: createLatencyHistogram(),
      ttfb: createLatencyHistogram(),
      transfer: createLatencyHistogram()
    }
    // Per step of opening a connection, the time our event loop was busy
    // inside it (Connection#phases): [total µs, longest µs].
    this.setupDelay = { dns: [0, 0], connect: [0, 0], proxyConnect: [0, 0], tls: [0, 0] }
    this.intervalTtfb = createLatencyHistogram()
    this.intervalTransfer = createLatencyHistogram()
    // Most responses come whole in one read: their transfer is 0 and
    // their TTFB their uncorrected latency. Without a plan to correct for,
    // that is the latency already recorded, so nothing more is recorded
    // for them: they are counted (oneRead), and once an interval their
    // TTFBs are taken from its latencies, less those of the responses that
    // spanned reads (spanLatency), whose phases are recorded as they come.
    this.derive = !trackUncorrected
    this.oneRead = 0
    this.spanLatency = createLatencyHistogram()
    // One entry per sample interval: [end (epoch ms), responses, bytes,
    // errors, latency histogram (packed, encoded when the snapshot leaves
    // the thread), p50 (µs), p99 (µs), longest event-loop delay (µs),
    // connections open at its end, ttfb sum (µs), transfer sum (µs),
    // responses timed]. A pause is one sample of the loop monitor, so the
    // interval's maximum is what shows it; sums, not means, so that
    // threads and machines add up.
    this.series = []
  }

  // `n` requests started (written, or about to be).
  started (n) {
    this.sent += n
  }

  // Counted as started, but never sent after all (given back to the plan).
  unstarted (n) {
    this.sent -= n
  }

  // A request sequence went back to its first entry (setupRequest asked).
  sequenceReset () {
    this.resets++
  }

  resend (n) {
    this.resent += n
  }

  unexpectedResponse () {
    this.unexpected++
  }

  // A response whose body failed expectBody or verifyBody.
  mismatch () {
    this.mismatches++
  }

  // Under a rate plan: how late a request left against its planned time.
  trackLateness () {
    if (this.lateness === null) this.lateness = createLatencyHistogram()
  }

  // `late`: over LATE_MS; `noConnection`: because no connection was free.
  planned (lateByMs, late, noConnection) {
    this.lateness.recordValue(Math.round(lateByMs * 1000))
    if (!late) return
    this.late++
    if (noConnection) this.lateNoConnection++
    else this.lateHeld++
  }

  // A loop-monitor sample: `us` late; `ownUs` of it the thread's own work
  // (null: no pause, or no CPU clock), the rest it was not running (a
  // pause counts as the larger); `cause` (OWN or STARVED) what the
  // thread-late requests since the last sample are charged to (0: unknown).
  loopDelay (us, ownUs = null, cause = 0) {
    this.loopDelays.recordValue(us)
    this.intervalLoopDelay.recordValue(us)
    if (cause === 0) return
    this.pausesKnown = true
    if (ownUs !== null) {
      const p = this.pauses
      const starvedUs = us - ownUs
      const base = ownUs * 2 >= us ? 0 : 3
      p[base]++
      p[1] += ownUs
      if (ownUs > p[2]) p[2] = ownUs
      p[4] += starvedUs
      if (starvedUs > p[5]) p[5] = starvedUs
    }
    if (this.lateHeld === 0) return
    if (cause === OWN) this.lateOwn += this.lateHeld
    else this.lateStarved += this.lateHeld
    this.lateHeld = 0
  }

  response (status, bytes, latencyUs, ttfbUs, transferUs) {
    this.statusCounts[status < MAX_STATUS ? status : MAX_STATUS - 1]++
    this.counter++
    if (this.includeErrorStats || (status >= 200 && status < 300)) {
      this.intervalLatency.recordValue(latencyUs)
      if (transferUs !== 0) {
        this.intervalTtfb.recordValue(ttfbUs)
        this.intervalTransfer.recordValue(transferUs)
        if (this.derive) this.spanLatency.recordValue(latencyUs)
      } else {
        this.oneRead++
        if (!this.derive) this.intervalTtfb.recordValue(ttfbUs)
      }
      this.bytes += bytes
    }
  }

  // A connection is set up: the steps it took, in µs (a step not taken
  // is -1; see Connection#phases).
  // With each step, the time our event loop was busy inside it (its
  // generator delay, µs).
  connected ({ dns, connect, proxyConnect, tls, dnsDelay = 0, connectDelay = 0, proxyConnectDelay = 0, tlsDelay = 0 }) {
    const t = this.timings
    const d = this.setupDelay
    t.dns.recordValue(dns)
    delayed(d.dns, dnsDelay)
    t.connect.recordValue(connect)
    delayed(d.connect, connectDelay)
    if (proxyConnect >= 0) {
      t.proxyConnect.recordValue(proxyConnect)
      delayed(d.proxyConnect, proxyConnectDelay)
    }
    if (tls >= 0) {
      t.tls.recordValue(tls)
      delayed(d.tls, tlsDelay)
    }
  }

  // Latency measured from the actual write, recorded next to the
  // plan-corrected one under a fixed rate.
  uncorrected (status, latencyUs) {
    if (this.includeErrorStats || (status >= 200 && status < 300)) this.uncorrectedInto.recordValue(latencyUs)
  }

  // `count` requests ended in an error of this cause and code. Off the
  // request path: only failures come here.
  requestErrors (count, cause, code) {
    this.errors += count
    this.intervalErrors += count
    this.errorsByCause[cause] += count
    if (cause === 'timeout') this.timeouts += count
    this.errorCodes[code] = (this.errorCodes[code] || 0) + count
  }

  // Requests that have ended, one way or another.
  get ended () {
    return this.totalCompleted + this.counter + this.errors
  }

  sample (epochMs, connections = 0) {
    this.settlePhases()
    const h = this.intervalLatency
    const empty = h.totalCount === 0
    const loop = this.intervalLoopDelay
    this.series.push([epochMs, this.counter, this.bytes, this.intervalErrors, pack(h),
      empty ? 0 : h.getValueAtPercentile(50), empty ? 0 : h.getValueAtPercentile(99),
      loop.totalCount === 0 ? 0 : loop.maxValue, connections,
      valueSum(this.intervalTtfb), valueSum(this.intervalTransfer), this.intervalTtfb.totalCount])
    if (this.intervalUncorrected !== null) this.lastUncorrected = intervalOf(this.intervalUncorrected)
    this.flushPartial()
  }

  // The interval's responses that came in one read, into its phase
  // histograms (see the constructor): their TTFBs, derived, and their
  // zero transfers, as recordValue(0) would count them (bucket 0 and the
  // count; min and max are of values above 0).
  settlePhases () {
    const n = this.oneRead
    if (n === 0) return
    if (this.derive) {
      addHistogram(this.intervalTtfb, this.intervalLatency)
      subtractHistogram(this.intervalTtfb, this.spanLatency)
    }
    const h = this.intervalTransfer
    h.addToCountAtIndex(0, n)
    h.setTotalCount(h.totalCount + n)
    this.oneRead = 0
  }

  // Counts of the last partial interval go into the totals without
  // becoming a Req/Sec sample, which would read as a slow second.
  flushPartial () {
    this.totalCompleted += this.counter
    this.totalBytes += this.bytes
    this.counter = 0
    this.bytes = 0
    this.intervalErrors = 0
    // The phases first: the TTFBs of responses that came in one read are
    // taken from the interval's latencies.
    this.settlePhases()
    this.spanLatency.reset()
    if (this.intervalLatency.totalCount !== 0) addHistogram(this.latency, this.intervalLatency)
    this.intervalLatency.reset()
    const uncorrected = this.intervalUncorrected
    if (uncorrected !== null && uncorrected.totalCount !== 0) {
      addHistogram(this.latencyUncorrected, uncorrected)
      uncorrected.reset()
    }
    if (this.intervalTtfb.totalCount !== 0) {
      addHistogram(this.timings.ttfb, this.intervalTtfb)
      addHistogram(this.timings.transfer, this.intervalTransfer)
    }
    this.intervalTtfb.reset()
    this.intervalTransfer.reset()
    this.intervalLoopDelay.reset()
  }

  // The counts since the last cut as an encoded snapshot, then a fresh
  // start: the steps of a search share one run and its connections, not
  // their numbers. A request in flight at the cut is counted as sent in
  // one step and answered in the next.
  cut (window) {
    const snapshot = this.snapshot({ ...window, form: 'packed' })
    // The progress tick goes on across the cut.
    this.tickMarkCount -= this.totalCompleted
    this.tickMarkBytes -= this.totalBytes
    this.latency.reset()
    if (this.latencyUncorrected) this.latencyUncorrected.reset()
    if (this.lateness) this.lateness.reset()
    this.loopDelays.reset()
    for (const name of TIMINGS) this.timings[name].reset()
    for (const name in this.setupDelay) this.setupDelay[name].fill(0)
    this.statusCounts.fill(0)
    WindowCounts.call(this)
    this.pauses.fill(0)
    this.series = []
    return snapshot
  }

  takeTick () {
    const count = this.totalCompleted + this.counter
    const bytes = this.totalBytes + this.bytes
    const tick = { counter: count - this.tickMarkCount, bytes: bytes - this.tickMarkBytes }
    this.tickMarkCount = count
    this.tickMarkBytes = bytes
    return tick
  }

  statusCodeStats () {
    const stats = {}
    const classes = [0, 0, 0, 0, 0]
    for (let code = 0; code < MAX_STATUS; code++) {
      const count = this.statusCounts[code]
      if (count === 0) continue
      stats[code] = { count }
      const cls = Math.floor(code / 100) - 1
      if (cls >= 0 && cls < 5) classes[cls] += count
    }
    return { stats, classes }
  }

  // The window so far (since the last cut), as a search step's watch reads
  // it (lib/search/early-verdict.js): counts that only grow until the next
  // cut, and how many of its latencies lie above each bound (ms).
  peek (limitsMs) {
    let non2xx = 0
    let serverErrors = 0
    // As the snapshot counts them: 1xx, 3xx, 4xx and 5xx.
    for (let code = 100; code < 600; code++) {
      const count = this.statusCounts[code]
      if (count === 0 || (code >= 200 && code < 300)) continue
      non2xx += count
      if (code >= 500 && code < 600) serverErrors += count
    }
    return {
      responses: this.totalCompleted + this.counter,
      errors: this.errors,
      timeouts: this.timeouts,
      non2xx,
      serverErrors,
      above: limitsMs.map((ms) => countAbove(this.latency, ms) + countAbove(this.intervalLatency, ms))
    }
  }

  // The raw, mergeable form of a run: what workers send to the main thread
  // and what skipAggregateResult returns. `form` is how its histograms go:
  // 'histogram', handed over as they are (in-process, at the end);
  // 'packed', copied as bytes, cheap enough while requests are due (a cut
  // between steps of a search); 'encoded', compressed base64, once the run
  // is over, for what leaves the thread or the process.
  // `busy`: the share of the window the thread's event loop was busy.
  // What the current interval holds goes into the totals first (as at
  // the end of a run, it is not a sample).
  snapshot ({ start, finish, inFlight = 0, targetRate = 0, planned = 0, busy = 0, form = 'histogram' }) {
    this.flushPartial()
    const { stats, classes } = this.statusCodeStats()
    const out = form === 'encoded' ? encode : form === 'packed' ? pack : (h) => h
    return {
      latencies: out(this.latency),
      latenciesUncorrected: this.latencyUncorrected ? out(this.latencyUncorrected) : undefined,
      series: form === 'encoded' ? this.series.map(encodeEntry) : this.series.slice(),
      totalCompletedRequests: this.totalCompleted,
      totalRequests: this.sent,
      totalBytes: this.totalBytes,
      inFlight,
      samples: this.series.length,
      errors: this.errors,
      timeouts: this.timeouts,
      errorsByCause: { ...this.errorsByCause },
      errorCodes: { ...this.errorCodes },
      mismatches: this.mismatches,
      non2xx: classes[0] + classes[2] + classes[3] + classes[4],
      resets: this.resets,
      resent: this.resent,
      unexpectedResponses: this.unexpected,
      targetRate,
      planned,
      late: this.late,
      lateNoConnection: this.lateNoConnection,
      lateOwn: this.lateOwn,
      lateStarved: this.lateStarved,
      pauses: this.pausesKnown ? pausesOf(this.pauses) : null,
      lateness: this.lateness ? out(this.lateness) : undefined,
      loopDelay: out(this.loopDelays),
      timings: timingsOut(this.timings, out),
      setupDelay: setupDelayOut(this.setupDelay),
      busy,
      '1xx': classes[0],
      '2xx': classes[1],
      '3xx': classes[2],
      '4xx': classes[3],
      '5xx': classes[4],
      statusCodeStats: stats,
      duration: Math.round(finish - start) / 1000,
      start: new Date(start),
      finish: new Date(finish)
    }
  }
}

// An interval's histogram → [it packed, p50 (µs), p99 (µs)].
function intervalOf (h) {
  const empty = h.totalCount === 0
  return [pack(h), empty ? 0 : h.getValueAtPercentile(50), empty ? 0 : h.getValueAtPercentile(99)]
}

function timingsOut (timings, out) {
  const copy = {}
  for (const name of TIMINGS) copy[name] = out(timings[name])
  return copy
}

function delayed (sum, us) {
  sum[0] += us
  if (us > sum[1]) sum[1] = us
}

// { phase: { us, maxUs } }: what the generator's own loop took out of
// each step of opening connections, summed over them.
function setupDelayOut (d) {
  const copy = {}
  for (const name in d) copy[name] = { us: d[name][0], maxUs: d[name][1] }
  return copy
}

function encodeEntry (entry) {
  const copy = entry.slice()
  copy[4] = encode(entry[4])
  return copy
}

// [own count, own µs, longest own µs, starved count, starved µs, longest
// starved µs] → the snapshot's form.
function pausesOf (p) {
  return { own: { count: p[0], us: p[1], maxUs: p[2] }, starved: { count: p[3], us: p[4], maxUs: p[5] } }
}

module.exports = { Recorder }
