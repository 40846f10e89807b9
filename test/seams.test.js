'use strict'

// The seams between the run, the clients (the public Client in
// lib/client, HTTP/1.1's and HTTP/2's on it) and the connection stay
// narrow: each side uses only what the other declares (lib/engine/run.js's port,
// lib/transport/connection.js's protocol calls). A new use is a decision to make in
// those comments, not a field to reach for.

const t = require('tap')
const fs = require('fs')
const path = require('path')

const read = (file) => fs.readFileSync(path.join(__dirname, '..', 'lib', file), 'utf8')
const uses = (text, pattern) => [...new Set([...text.matchAll(pattern)].map((m) => m[1]))].sort()
const CLIENTS = ['client/client.js', 'http1/client.js', 'http2/client-h2.js']
const clients = () => CLIENTS.map(read).join('\n')

t.test('the client reaches the run only through its port', async (t) => {
  const port = ['checkAmount', 'emitResponse', 'emitResponses', 'exhausted', 'giveBack', 'onClientDone', 'onClientError',
    'onHookError', 'onMismatch', 'onResponseHookError', 'take', 'takeAttempt']
  const used = uses(clients(), /this\.run\.(\w+)/g)
  t.ok(used.length > 5, `the client uses ${used.join(', ')}`)
  for (const name of used) t.ok(port.includes(name), `run.${name} is part of the port`)
  const declared = read('engine/run.js').split('\n').filter((l) => l.startsWith('//')).join(' ')
  for (const name of port) t.match(declared, name, `run.js's comment declares ${name}`)
})

t.test('the run asks of a client only start, stop, checkTimeout, inFlight, index, connected, park and unpark', async (t) => {
  const used = uses(read('engine/run.js'), /\bclient(?:s\[\w+\])?\.(\w+)/g).filter((name) => name !== 'js')
  for (const name of used) t.ok(['start', 'stop', 'checkTimeout', 'inFlight', 'index', 'connected', 'park', 'unpark'].includes(name), `client.${name}`)
})

t.test('the connection drives the protocol through its declared calls', async (t) => {
  const text = read('transport/connection.js')
  const declared = text.split('\n').filter((l) => l.startsWith('//')).join(' ')
  const used = uses(text, /\bprotocol\.(\w+)/g)
  t.ok(used.length >= 10, `${used.join(', ')}`)
  for (const name of used) t.match(declared, name, `protocol.${name} is declared at the top of connection.js`)
  // The clients do not touch the socket's life cycle themselves.
  for (const file of CLIENTS) {
    const client = read(file)
    t.notMatch(client, /this\.socket\b/, `${file} keeps no socket of its own`)
    t.notMatch(client, /\bnet\.|\btls\./, 'nor opens one')
  }
})

t.test('transports see the connection, never the protocol', async (t) => {
  for (const file of ['transport/transport.js', 'transport/tunnel.js']) {
    t.notMatch(read(file), /\bclient\./, `${file} knows no client`)
    const used = uses(read(file), /\bconnection\.(\w+)/g).filter((name) => name !== 'js')
    t.ok(used.length >= 2, `${file}: ${used.join(', ')}`)
    for (const name of used) t.ok(['onConnect', 'onData', 'upgrade'].includes(name), `${file}: ${name}`)
  }
})
