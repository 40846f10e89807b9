'use strict'

// Servers that record every request they receive (method, url, headers,
// raw headers, body), for the request-shaping tests. All on 127.0.0.1 (or
// a Unix socket), closed by the test's teardown.

const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const https = require('https')

function record (seen, onRequest) {
  return (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const entry = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
        socket: req.socket
      }
      seen.push(entry)
      if (onRequest) onRequest(entry, res, req)
      else res.end('ok')
    })
  }
}

function close (t, server) {
  t.teardown(() => new Promise((resolve) => {
    if (server.closeAllConnections) server.closeAllConnections()
    server.close(() => resolve())
  }))
}

// resolves to { url, port, seen, server }; onRequest(entry, res, req)
// answers (default: 'ok').
function recordingServer (t, onRequest, { listen = { port: 0, host: '127.0.0.1' } } = {}) {
  const seen = []
  const server = http.createServer(record(seen, onRequest))
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(listen, () => {
      close(t, server)
      const address = server.address()
      const port = typeof address === 'object' ? address.port : undefined
      resolve({ url: port ? `http://127.0.0.1:${port}` : undefined, port, seen, server })
    })
  })
}

function recordingHttpsServer (t, tlsOptions, onRequest) {
  const seen = []
  const server = https.createServer(tlsOptions, record(seen, onRequest))
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      close(t, server)
      resolve({ port: server.address().port, seen, server })
    })
  })
}

function tempDir (t, prefix = 'ac-test-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

// The last JSON line of -j output.
function jsonResult (stdout) {
  const lines = stdout.trim().split('\n').filter((l) => l.startsWith('{'))
  return JSON.parse(lines[lines.length - 1])
}

module.exports = { recordingServer, recordingHttpsServer, tempDir, jsonResult }
