'use strict'

// A URL of another scheme than http: and https:, autocannon 9 beside us:
// autocannon puts http:// before it, so that the scheme becomes the host
// (ftp://127.0.0.1:N/ is host "ftp", port 80) and the run is errors; we
// refuse it before the run (docs/differences.md says why).

const t = require('tap')
const { project, capturingServer } = require('../../helpers/dropin')

const run = (autocannon, opts) => new Promise((resolve, reject) => {
  autocannon(opts, (err, result) => err ? reject(err) : resolve(result))
})

t.test('ftp:// and other schemes: the host "ftp" to autocannon 9, refused here', async (t) => {
  const server = await capturingServer(t)
  const url = server.url.replace('http:', 'ftp:')
  // The name it looks up is answered here, not by a resolver off the machine.
  const dns = require('dns')
  const lookup = dns.lookup
  const asked = []
  dns.lookup = (hostname, options, cb) => {
    asked.push(hostname)
    const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname })
    process.nextTick(typeof options === 'function' ? options : cb, err)
  }
  let theirs
  try {
    theirs = await run(project(t, 'upstream').require('autocannon'), { url, connections: 1, amount: 1 })
  } finally {
    dns.lookup = lookup
  }
  t.equal(theirs.url, `http://${url}`, 'autocannon put http:// before the URL')
  t.same([...new Set(asked)], ['ftp'], 'and dialled the host "ftp"')
  t.ok(theirs.errors >= 1, 'a run of errors')
  t.same(server.connections(), [], 'nothing reached the server the URL names')
  await t.rejects(run(project(t, 'ours').require('autocannon'), { url, connections: 1, amount: 1 }), { code: 'AC_INVALID_OPTION', message: /unsupported protocol "ftp:"/ })
  t.same(server.connections(), [], 'nothing sent')
})
