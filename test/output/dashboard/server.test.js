'use strict'

// The dashboard's server on 127.0.0.1: its routes, the events as SSE
// (the state first to a new page), a client that never reads held to a
// bounded buffer and given the state whole once it reads again, a client
// that goes away forgotten, and close() ending every stream.

const t = require('tap')
const http = require('http')
const net = require('net')
const { DashboardServer, MAX_BUFFERED } = require('../../../lib/output/dashboard/server')
const { eachBlock } = require('../../helpers/sse')

function start (t, state = () => ({ n: 0 })) {
  const server = new DashboardServer({
    host: '127.0.0.1',
    port: 0,
    routes: { '/': { type: 'text/html', body: () => '<p>hi</p>' } },
    state
  })
  t.teardown(() => server.close())
  return server.listen().then((url) => ({ server, url }))
}

function get (url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = ''
      res.on('data', (c) => { body += c })
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }))
    }).on('error', reject)
  })
}

// An SSE client: the events it has read, as { name, data }.
function listen (url) {
  return new Promise((resolve, reject) => {
    http.get(url + 'events', (res) => {
      const events = []
      eachBlock(res, (block) => {
        const name = /^event: (.*)$/m.exec(block)[1]
        events.push({ name, data: JSON.parse(/^data: (.*)$/m.exec(block)[1]) })
      })
      resolve({ res, events })
    }).on('error', reject)
  })
}

function until (fn, ms = 5000) {
  const start = Date.now()
  return new Promise((resolve, reject) => {
    const check = () => {
      if (fn()) return resolve()
      if (Date.now() - start > ms) return reject(new Error('timed out'))
      setTimeout(check, 10)
    }
    check()
  })
}

t.test('routes', async (t) => {
  const { url } = await start(t)
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/, 'on loopback')
  const page = await get(url)
  t.equal(page.status, 200)
  t.equal(page.body, '<p>hi</p>', 'the page')
  t.equal(page.headers['x-content-type-options'], 'nosniff')
  t.equal((await get(url + 'nothing')).status, 404, 'anything else: 404')
  const other = await new Promise((resolve, reject) => {
    http.get(url, { headers: { host: 'evil.example:80' } }, (res) => { res.resume(); resolve(res.statusCode) }).on('error', reject)
  })
  t.equal(other, 421, 'a page that reached it by another name is refused (DNS rebinding)')
  const named = await new Promise((resolve, reject) => {
    http.get(url, { headers: { host: `localhost:${new URL(url).port}` } }, (res) => { res.resume(); resolve(res.statusCode) }).on('error', reject)
  })
  t.equal(named, 200, 'localhost is loopback too')
})

t.test('events: the state first, then each broadcast', async (t) => {
  let n = 0
  const { server, url } = await start(t, () => ({ n }))
  const client = await listen(url)
  await until(() => client.events.length === 1)
  t.same(client.events[0], { name: 'state', data: { n: 0 } }, 'the state at once')
  n = 1
  server.broadcast('sample', { k: 1 })
  server.broadcast('sample', { k: 2 })
  await until(() => client.events.length === 3)
  t.same(client.events.slice(1), [{ name: 'sample', data: { k: 1 } }, { name: 'sample', data: { k: 2 } }], 'each event')
  server.finish('done', { html: 'x' })
  await server.close()
  await until(() => client.res.complete)
  t.same(client.events[client.events.length - 1], { name: 'done', data: { html: 'x' } }, 'the last event, then the end')
})

t.test('a client that never reads: bounded, then the state whole', async (t) => {
  const { server, url } = await start(t, () => ({ whole: true }))
  const { port } = new URL(url)
  // A raw socket, paused: it takes nothing from the kernel's buffers.
  const socket = net.connect(Number(port), '127.0.0.1')
  t.teardown(() => socket.destroy())
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  socket.pause()
  await until(() => server.clients.size === 1)
  const [client] = server.clients
  const big = { text: 'x'.repeat(64 * 1024) }
  let most = 0
  for (let i = 0; i < 400; i++) {
    server.broadcast('sample', big)
    most = Math.max(most, client.res.writableLength)
    if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve))
  }
  t.ok(most <= MAX_BUFFERED + 2 * 70 * 1024, `what waits for it stays bounded (${most} bytes at most, for 25 MB sent)`)
  t.ok(client.stale, 'it is behind')
  // It reads again: the state whole, once it has drained.
  let read = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk) => { read += chunk })
  socket.resume()
  await until(() => read.includes('event: state\ndata: {"whole":true}'), 10000)
  t.notOk(client.stale, 'caught up with the state')
})

t.test('a client that goes away is forgotten; close() ends it all', async (t) => {
  const { server, url } = await start(t)
  const client = await listen(url)
  await until(() => server.clients.size === 1)
  client.res.destroy()
  await until(() => server.clients.size === 0)
  t.pass('forgotten')
  t.doesNotThrow(() => server.broadcast('sample', {}), 'broadcasting to no one')
  await server.close()
  await t.rejects(get(url), 'closed')
})
