'use strict'

// The one line that says why a run got no response at all, for each way
// it can happen, from the result object alone.

const t = require('tap')
const { noResponseLine } = require('../../lib/results/no-response')

t.test('errors: how many of the requests sent, by cause then by code, largest first', async (t) => {
  const result = {
    url: 'http://127.0.0.1:9/',
    duration: 2,
    requests: { total: 0, sent: 500 },
    errors: 500,
    errorsByCause: { connect: 50, read: 450, timeout: 0 },
    errorCodes: { ECONNRESET: 450, ECONNREFUSED: 50 }
  }
  t.equal(noResponseLine(result), 'no response from http://127.0.0.1:9/: 500 of 500 requests ended in errors (read 450, connect 50; ECONNRESET 450, ECONNREFUSED 50)')
  delete result.errorCodes
  t.equal(noResponseLine(result), 'no response from http://127.0.0.1:9/: 500 of 500 requests ended in errors (read 450, connect 50)', 'no codes: the causes alone')
})

t.test('requests still waiting, and none sent', async (t) => {
  const waiting = { url: 'http://127.0.0.1:9/', duration: 1.5, requests: { total: 0, sent: 2 }, errors: 0 }
  t.equal(noResponseLine(waiting), 'no response from http://127.0.0.1:9/: 2 requests were still waiting after 1.5s (each may wait up to the timeout, -t)')
  const none = { url: ['http://127.0.0.1:9/', 'http://127.0.0.1:10/'], duration: 1, requests: { total: 0, sent: 0 }, errors: 0 }
  t.equal(noResponseLine(none), 'no response from http://127.0.0.1:9/, http://127.0.0.1:10/: no request was sent in 1s', 'several targets: all named')
})
