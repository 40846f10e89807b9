'use strict'

// HTTPS: a test CA made here with openssl, a server certificate for
// localhost signed by it, client-certificate auth, SNI, tlsOptions.

const t = require('tap')
const autocannon = require('../..')
const { makePki } = require('../helpers/pki')
const { recordingHttpsServer, tempDir, jsonResult } = require('../helpers/recording')
const { run: runCli } = require('../helpers/cli')

// Records, per request, the SNI the server saw and the client's certificate.
function tlsRecord (r, res) {
  r.servername = r.socket.servername
  const peer = r.socket.getPeerCertificate()
  r.clientCN = peer && peer.subject ? peer.subject.CN : null
  res.end('secure')
}

t.test('https', async (t) => {
  const pki = makePki(tempDir(t, 'ac-tls-'))

  // requestCert: only clients with a certificate from our CA get in.
  const mutual = await recordingHttpsServer(t, {
    ...pki.server, ca: pki.ca, requestCert: true, rejectUnauthorized: true
  }, tlsRecord)
  const open = await recordingHttpsServer(t, { ...pki.server }, tlsRecord)

  t.test('client certificate auth, CA verification, SNI from the host name', async (t) => {
    const result = await autocannon({
      url: `https://localhost:${mutual.port}/secure`,
      connections: 2,
      amount: 20,
      tlsOptions: { ...pki.client, ca: pki.ca, rejectUnauthorized: true }
    })
    t.equal(result.errors, 0)
    t.equal(result.requests.total, 20)
    t.equal(mutual.seen.length, 20)
    t.ok(mutual.seen.every((r) => r.clientCN === 'autocannon-client'), 'the server saw our client certificate')
    t.ok(mutual.seen.every((r) => r.servername === 'localhost'), 'SNI: the URL\'s host name by default')
    t.ok(mutual.seen.every((r) => r.headers.host === `localhost:${mutual.port}` && r.url === '/secure'))
  })

  t.test('no client certificate: the server refuses, counted as errors', async (t) => {
    mutual.seen.length = 0
    const result = await autocannon({ url: `https://localhost:${mutual.port}`, connections: 1, duration: 0.3, tlsOptions: { ca: pki.ca } })
    t.ok(result.errors > 0, `errors: ${result.errors}`)
    t.equal(result.requests.total, 0)
    t.equal(mutual.seen.length, 0)
  })

  t.test('an unknown CA fails verification when it is asked for', async (t) => {
    const result = await autocannon({
      url: `https://localhost:${open.port}`,
      connections: 1,
      duration: 0.3,
      tlsOptions: { ca: pki.otherCa, rejectUnauthorized: true }
    })
    t.ok(result.errors > 0)
    t.equal(result.requests.total, 0)
  })

  t.test('ca as a list', async (t) => {
    const result = await autocannon({
      url: `https://localhost:${open.port}`,
      connections: 1,
      amount: 3,
      tlsOptions: { ca: [pki.otherCa, pki.ca], rejectUnauthorized: true }
    })
    t.equal(result.errors, 0)
    t.equal(result.requests.total, 3)
  })

  t.test('no SNI for an IP address; servername sets it', async (t) => {
    open.seen.length = 0
    await autocannon({ url: `https://127.0.0.1:${open.port}`, connections: 1, amount: 2 })
    t.same(open.seen.map((r) => r.servername), [false, false], 'no server name sent for an IP')
    t.ok(open.seen.every((r) => r.clientCN === undefined || r.clientCN === null))
    open.seen.length = 0
    await autocannon({ url: `https://127.0.0.1:${open.port}`, connections: 1, amount: 2, servername: 'api.example.test' })
    t.same(open.seen.map((r) => r.servername), ['api.example.test', 'api.example.test'])
    open.seen.length = 0
    // servername verified against the certificate when asked.
    const result = await autocannon({
      url: `https://127.0.0.1:${open.port}`,
      connections: 1,
      amount: 2,
      servername: 'localhost',
      tlsOptions: { ca: pki.ca, rejectUnauthorized: true }
    })
    t.equal(result.errors, 0)
    t.same(open.seen.map((r) => r.servername), ['localhost', 'localhost'])
  })

  t.test('by default, self-signed certificates are accepted (as autocannon does)', async (t) => {
    const result = await autocannon({ url: `https://localhost:${open.port}`, connections: 1, amount: 2 })
    t.equal(result.errors, 0)
    t.equal(result.requests.total, 2)
  })

  t.test('reconnects resume the TLS session', async (t) => {
    const result = await autocannon({ url: `https://localhost:${open.port}`, connections: 1, amount: 10, reconnectRate: 2 })
    t.equal(result.errors, 0)
    t.equal(result.requests.total, 10)
  })

  t.test('CLI: --cert, --key, --ca, -s', async (t) => {
    mutual.seen.length = 0
    const dir = pki.dir
    const run = await runCli([`https://localhost:${mutual.port}/cli`, '-a', '5', '-c', '1', '-j',
      '--cert', 'client.crt', '--key', 'client.key', '--ca', 'ca.crt'], { cwd: dir })
    t.equal(run.code, 0, run.stderr)
    t.equal(jsonResult(run.stdout).requests.total, 5)
    t.equal(jsonResult(run.stdout).errors, 0)
    t.equal(mutual.seen.length, 5)
    t.ok(mutual.seen.every((r) => r.clientCN === 'autocannon-client' && r.servername === 'localhost'))

    open.seen.length = 0
    const sni = await runCli([`https://127.0.0.1:${open.port}`, '-a', '2', '-c', '1', '-j', '-s', 'sni.example.test'], { cwd: dir })
    t.equal(sni.code, 0, sni.stderr)
    t.same(open.seen.map((r) => r.servername), ['sni.example.test', 'sni.example.test'])

    open.seen.length = 0
    const list = await runCli([`https://localhost:${open.port}`, '-a', '2', '-c', '1', '-j', '--ca', '[', 'other-ca.crt', 'ca.crt', ']'], { cwd: dir })
    t.equal(list.code, 0, list.stderr)
    t.equal(open.seen.length, 2, '--ca takes a list of files')

    const missing = await runCli([`https://localhost:${open.port}`, '-a', '1', '--cert', 'nope.crt', '--key', 'client.key'], { cwd: dir })
    t.not(missing.code, 0)
    t.match(missing.stderr, /nope\.crt/)
  })

  t.end()
})
