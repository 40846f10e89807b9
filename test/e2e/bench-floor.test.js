'use strict'

// bench/net-floor-client.js, the bare-socket floor `npm run bench` sets
// beside us: it must count every response it got, no more, with and
// without pipelining, or the ratio to it means nothing.

const t = require('tap')
const fs = require('fs')
const http = require('http')
const https = require('https')
const os = require('os')
const path = require('path')
const { makePki } = require('../helpers/pki')
const { execFile } = require('child_process')

const FLOOR = path.join(__dirname, '..', '..', 'bench', 'net-floor-client.js')

function run (args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [FLOOR, ...args], { timeout: 20000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${err.message}\n${stderr}`))
      resolve(JSON.parse(stdout.trim().split('\n').pop()))
    })
  })
}

let pki
function tlsKeys () {
  if (!pki) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autocannon-floor-pki-'))
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
    pki = makePki(dir)
  }
  return pki.server
}

// Over TLS the same client on node:tls sockets: Node's floor for HTTPS.
for (const [scheme, pipelining] of [['http', 1], ['http', 10], ['https', 1], ['https', 10]]) {
  t.test(`counts the responses it read, ${scheme}, -p ${pipelining}`, async (t) => {
    let received = 0
    const answer = (req, res) => {
      received++
      res.end('Hello, world!\n')
    }
    const server = scheme === 'https' ? https.createServer(tlsKeys(), answer) : http.createServer(answer)
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    t.teardown(() => server.close())
    let secure = 0
    server.on('secureConnection', () => secure++)
    const connections = 4
    const result = await run([`${scheme}://127.0.0.1:${server.address().port}/`, String(connections), String(pipelining), '1'])
    if (scheme === 'https') t.equal(secure, connections + 1, 'every connection was a TLS one')
    t.equal(result.errors, 0)
    t.ok(result.requests.total > 0, `${result.requests.total} responses`)
    t.equal(result.requests.total % pipelining, 0, 'whole batches only')
    // One request the floor sends first to learn the response length;
    // what was still in flight at the end is at most a batch a connection.
    const inFlight = received - 1 - result.requests.total
    t.ok(inFlight >= 0 && inFlight <= connections * pipelining, `${inFlight} in flight at the end`)
    t.ok(result.duration >= 0.9 && result.duration < 5, `ran ${result.duration} s`)
  })
}

t.test('a target without Content-Length is refused in one line', async (t) => {
  const server = http.createServer((req, res) => {
    res.write('chunked')
    res.end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  await t.rejects(run([`http://127.0.0.1:${server.address().port}/`, '1', '1', '1']), /the target must answer with a Content-Length/)
})
