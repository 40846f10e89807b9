'use strict'

// A raw server's framing as Node 22 and 24 read it (llhttp 9.4), through
// the CLI: `Content-Length: 2\t` is 2 (a tab is optional whitespace, RFC
// 9110), as curl and node:http read it; a status line ending in CR CR is
// refused, as node:http refuses it, since read as a 200 without headers
// its headers would be taken for the body.

const t = require('tap')
const { run } = require('../helpers/cli')
const { netServer } = require('../helpers/hostile-servers')

// Answers each request head it reads with `response`.
function answering (t, response) {
  return netServer(t, (socket, stats) => {
    let pending = ''
    socket.on('data', (buf) => {
      pending += buf.toString('latin1')
      let at
      while ((at = pending.indexOf('\r\n\r\n')) !== -1) {
        pending = pending.slice(at + 4)
        stats.requests++
        socket.write(response)
      }
    })
  })
}

t.test('Content-Length: 2 and a tab: 20 responses of 2 bytes, no error', async (t) => {
  const { url } = await answering(t, 'HTTP/1.1 200 OK\r\nContent-Length: 2\t\r\nConnection: keep-alive \t\r\n\r\nhi')
  const out = await run(['-a', '20', '-c', '2', '-j', url])
  t.equal(out.code, 0, out.stderr)
  const result = JSON.parse(out.stdout)
  t.equal(result['2xx'], 20)
  t.equal(result.errors, 0)
  t.equal(result.requests.total, 20)
})

t.test('a status line ending in CR CR LF: errors, no response counted', async (t) => {
  const { url } = await answering(t, 'HTTP/1.1 200 OK\r\r\nContent-Length: 2\r\n\r\nhi')
  const out = await run(['-a', '20', '-c', '2', '-j', url])
  const result = JSON.parse(out.stdout)
  t.equal(result['2xx'], 0, 'not read as a 200 with its headers for a body')
  t.ok(result.errors >= 20, `${result.errors} errors`)
})
