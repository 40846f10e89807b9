'use strict'

// The HTTP/2 client against nginx (Debian's nginx-light has its http2
// module) in clear text with prior knowledge: a closed loop of streams,
// and a server that closes each connection after a number of requests
// with a GOAWAY (keepalive_requests), whose unprocessed streams go again
// on the next connection, each request counted once. nginx is started and
// stopped here, as the bench starts it (bench/targets.js). Skipped when
// nginx is not installed.

const t = require('tap')
const autocannon = require('../..')
const { startNginx, which } = require('../../bench/targets')

if (!which('nginx')) {
  t.comment('skip: nginx not installed')
} else {
  t.test('nginx h2c: a closed loop of 2 connections × 10 streams', async (t) => {
    const nginx = await startNginx({ http2: true })
    if (!nginx) return t.fail('nginx is installed but did not start (its message is above)')
    t.teardown(() => nginx.stop())
    const r = await autocannon({ url: nginx.url, http2: true, connections: 2, pipelining: 10, duration: 1, expectBody: 'Hello, world!\n' })
    t.equal(r.protocol, 'h2')
    t.equal(r.errors, 0, JSON.stringify(r.errorCodes))
    t.equal(r.mismatches, 0)
    t.ok(r['2xx'] > 1000, `${r['2xx']} responses, all 2xx`)
  })

  t.test('nginx closing connections with GOAWAY after 100 requests: nothing lost, nothing counted twice', async (t) => {
    const nginx = await startNginx({ http2: true, keepaliveRequests: 100 })
    if (!nginx) return t.fail('nginx is installed but did not start (its message is above)')
    t.teardown(() => nginx.stop())
    const r = await autocannon({ url: nginx.url, http2: true, connections: 2, pipelining: 10, amount: 2000 })
    t.equal(r.errors, 0, JSON.stringify(r.errorCodes))
    t.equal(r.requests.total, 2000)
    t.equal(r['2xx'], 2000)
    t.equal(r.requests.sent, 2000, 'those resent counted once')
    t.ok(r.resent > 0, `${r.resent} streams above a GOAWAY's last sent again`)
  })
}
