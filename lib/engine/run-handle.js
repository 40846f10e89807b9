'use strict'

// The run as its clients see it: the one object a run hands each of its
// Clients (lib/client/client.js, as client.run), and all they may call of
// it. It grants requests (the budget of an amount or of
// maxOverallRequests, and the rate plan), and hears how each one ended:
// it counts them (through the recorder), tells the run's listeners, and
// ends the run when the amount is done or the bailout reached.
//
//   take(client, n) → how many of n requests may go now (their planned
//     times are then in the clients' setup.planned)
//   takeAttempt(), giveBack(n), exhausted(), checkAmount()
//   onClientDone(client), onClientError(client, err, lost, cause, connected),
//   onMismatch(client, body), onHookError(client, err),
//   onResponseHookError(client, err, count)
//   emitResponse(client, status, bytes, latencyMs), while `emitResponses`
//     is set (someone listens for the run's 'response' event)
//
// test/engine/run-handle.test.js holds a real client to this list.

const { codeOf, hookCodeOf } = require('../core/errors')
const { maskSecrets } = require('../core/redact')

class RunHandle {
  // run: { recorder, scheduler (or null), events, finish(), clientDone()
  // → whether every client is done }.
  constructor (config, run) {
    this.config = config
    this.recorder = run.recorder
    this.scheduler = run.scheduler
    this.events = run.events
    this.finish = run.finish
    this.clientDone = run.clientDone
    // amount, else maxOverallRequests unless maxConnectionRequests (which
    // takes precedence over it, as in autocannon) is set.
    this.budget = config.amount || (config.maxConnectionRequests ? 0 : config.maxOverallRequests) || Infinity
    this.emitResponses = false
    // Set once the run is over: nothing more is granted.
    this.closed = false
    this.hookErrors = 0
    this.firstHookError = null
  }

  // --- requests ---

  take (client, n) {
    if (this.closed) return 0
    // The budget caps the request before the plan is asked: a planned
    // request granted and then refused would have had its lateness
    // recorded (and counted late again when taken once more).
    if (n > this.budget) n = this.budget
    if (n === 0) return 0
    if (this.scheduler !== null) n = this.scheduler.take(client, n)
    if (this.budget !== Infinity) this.budget -= n
    return n
  }

  // A connection that could not be opened counts as one request that
  // ended in an error, as in autocannon: taken from the budget (not from a
  // rate plan) and counted as sent. False once the budget is spent.
  takeAttempt () {
    if (this.closed || this.budget === 0) return false
    if (this.budget !== Infinity) this.budget--
    this.recorder.started(1)
    return true
  }

  // Granted but never started (a setupRequest that asked for a reset, a
  // request that goes again).
  giveBack (n) {
    if (this.budget !== Infinity) this.budget += n
  }

  exhausted () {
    return this.budget === 0
  }

  // With an amount, the run ends when every request has ended, answered or
  // not, so a dead target cannot hold it open.
  checkAmount () {
    if (this.budget === 0 && this.recorder.ended >= this.config.amount) this.finish()
  }

  // --- outcomes ---

  emitResponse (client, status, bytes, latencyMs) {
    this.events.emit('response', client, status, bytes, latencyMs)
  }

  onClientDone (client) {
    if (this.clientDone()) this.finish()
  }

  // A connection failed: `lost` requests ended with it (its requests in
  // flight, or the attempt itself). Counted per request, reported once.
  // An attempt to connect made after the last request was granted (an
  // amount run's budget spent) ends nothing: not an error, not reported.
  // A connected one is reported even so (a response for no request).
  onClientError (client, err, lost, cause, connected) {
    if (lost > 0) this.recorder.requestErrors(lost, cause, codeOf(err))
    // A second answer to a request usually comes with nothing in flight:
    // no request lost, yet the server broke the protocol. Counted apart,
    // and warned about after the run.
    if (err && err.code === 'AC_UNEXPECTED_RESPONSE') this.recorder.unexpectedResponse()
    if ((lost > 0 || connected) && this.events.listenerCount('reqError') > 0) this.events.emit('reqError', err)
    if (this.config.debug) {
      process.stderr.write(`autocannon: connection ${client.index}: ${maskSecrets(String(err && err.message))}` +
        (lost > 1 ? ` (${lost} requests lost)\n` : '\n'))
    }
    checkBailout(this)
    if (this.config.amount && lost > 0) this.checkAmount()
  }

  onMismatch (client, body) {
    this.recorder.mismatch()
    if (this.events.listenerCount('reqMismatch') > 0) this.events.emit('reqMismatch', body)
    checkBailout(this)
  }

  // A setupRequest hook failed (or a templated gRPC message did not
  // fit its type): that request ends in an error, unsent.
  onHookError (client, err) {
    this.recorder.requestErrors(1, 'hook', hookCodeOf(err))
    reportHookError(this, err)
    checkBailout(this)
    if (this.config.amount) this.checkAmount()
  }

  // verifyBody or onResponse threw: the response arrived (it is counted),
  // but its check failed, so it counts as a mismatch (once per response).
  onResponseHookError (client, err, count) {
    if (count) this.recorder.mismatch()
    reportHookError(this, err)
    checkBailout(this)
  }
}

// Once per run: a hook that throws usually throws every time.
function reportHookError (handle, err) {
  if (handle.hookErrors++ !== 0) return
  handle.firstHookError = err
  const events = handle.events
  if (events.listenerCount('reqError') > 0) events.emit('reqError', err)
  if (handle.config.debug || events.listenerCount('reqError') === 0) {
    const what = hookCodeOf(err) === 'AC_HOOK_ERROR' ? 'autocannon: a request hook threw' : 'cannonade: a request could not be made'
    process.stderr.write(`${what}: ${maskSecrets(String(err && err.message))}\n`)
  }
}

function checkBailout (handle) {
  const bailout = handle.config.bailout
  const recorder = handle.recorder
  if (bailout && (recorder.errors >= bailout || recorder.mismatches >= bailout)) {
    setImmediate(() => handle.finish())
  }
}

module.exports = { RunHandle }
