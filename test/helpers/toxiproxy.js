'use strict'

// Toxiproxy (Shopify's fault proxy, https://github.com/Shopify/toxiproxy),
// started for one test on 127.0.0.1: a TCP proxy in front of the test's
// own server, whose faults ("toxics": latency, bandwidth, a close held
// back, a stall, a reset, a cut after N bytes) the test adds and removes
// through its HTTP API while a run goes through it. Each toxic acts on
// every connection of the proxy, those open when it is added included.
//
// The binary is $TOXIPROXY_SERVER, or `toxiproxy-server` on PATH, or
// where .ci/run installs it (`go install`, see there).

const fs = require('fs')
const os = require('os')
const net = require('net')
const path = require('path')
const http = require('http')
const { spawn } = require('child_process')

// Where .ci/run puts it when the machine has none.
const CI_DIR = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'autocannon-test-tools', 'bin')

function findServer () {
  const candidates = []
  if (process.env.TOXIPROXY_SERVER) candidates.push(process.env.TOXIPROXY_SERVER)
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir) candidates.push(path.join(dir, 'toxiproxy-server'))
  }
  candidates.push(path.join(CI_DIR, 'toxiproxy-server'))
  for (const file of candidates) {
    try {
      fs.accessSync(file, fs.constants.X_OK)
      if (fs.statSync(file).isFile()) return file
    } catch {}
  }
  return null
}

// The one line a test prints when it cannot run.
const MISSING = 'toxiproxy-server not found (set TOXIPROXY_SERVER, or put it on PATH; .ci/run installs it with `go install github.com/Shopify/toxiproxy/v2/cmd/server@v2.12.0`)'

// A port free a moment ago: Toxiproxy needs an explicit -port for its API.
function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// One call to the API: → { status, body } (body parsed when JSON).
function call (port, method, route, payload) {
  return new Promise((resolve, reject) => {
    const data = payload === undefined ? null : Buffer.from(JSON.stringify(payload))
    const req = http.request({
      host: '127.0.0.1',
      port,
      method,
      path: route,
      agent: false,
      headers: data ? { 'content-type': 'application/json', 'content-length': data.length } : {}
    }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        let body = text
        try { body = text ? JSON.parse(text) : null } catch {}
        resolve({ status: res.statusCode, body })
      })
    })
    req.on('error', reject)
    req.setTimeout(5000, () => req.destroy(new Error(`toxiproxy API ${method} ${route}: no answer in 5 s`)))
    req.end(data)
  })
}

async function expect (port, method, route, payload, status) {
  const res = await call(port, method, route, payload)
  if (res.status !== status) throw new Error(`toxiproxy API ${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

// Starts toxiproxy-server for test `t` (stopped at its end): → { version,
// proxy (upstreamPort) }. The API port is picked free just before; if
// something takes it in between, Toxiproxy logs the failure and stays up
// without its API, and whatever holds the port answers instead: so it is
// started with a proxy of a name of its own (-config), which only it can
// show, and on a port in use it is stopped and another port tried.
async function startToxiproxy (t, bin) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-toxiproxy-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const marker = `marker-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  const config = path.join(dir, 'config.json')
  // Port 9 (discard): nothing connects to it.
  fs.writeFileSync(config, JSON.stringify([{ name: marker, listen: '127.0.0.1:0', upstream: '127.0.0.1:9' }]))
  let lastErr = null
  for (let attempt = 0; attempt < 5; attempt++) {
    let spawnErr = null
    const port = await freePort()
    // Its log is per request at its default level (debug), per connection
    // at info; warnings say when it fails to listen, and their tail
    // explains a failure to start.
    const child = spawn(bin, ['-host', '127.0.0.1', '-port', String(port), '-config', config], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'warn' }
    })
    let log = ''
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8')
      stream.on('data', (c) => { log = (log + c).slice(-4000) })
    }
    const state = { exited: false }
    const exit = new Promise((resolve) => {
      child.on('close', () => { state.exited = true; resolve() })
      child.on('error', (err) => { spawnErr = err; state.exited = true; resolve() })
    })
    t.teardown(async () => {
      if (!state.exited) child.kill('SIGKILL')
      await exit
    })
    const started = Date.now()
    // → the version once it answers as itself; 'taken' when the port is
    // another's; null when it exited or never answered.
    let outcome = null
    while (!state.exited && Date.now() - started < 10000) {
      if (/address already in use/i.test(log)) {
        outcome = 'taken'
        break
      }
      try {
        const res = await call(port, 'GET', '/version')
        if (res.status === 200 && res.body && typeof res.body.version === 'string') {
          const shown = await call(port, 'GET', `/proxies/${marker}`)
          const ours = shown.status === 200 && shown.body !== null && shown.body.name === marker
          outcome = ours ? { version: res.body.version } : 'taken'
          break
        }
      } catch {}
      await sleep(20)
    }
    if (outcome !== null && outcome !== 'taken') return api(port, outcome.version)
    if (!state.exited) child.kill('SIGKILL')
    await exit
    lastErr = new Error(`toxiproxy-server did not start on 127.0.0.1:${port}: ${spawnErr ? spawnErr.message : log.trim().split('\n').pop() || 'no output'}`)
    // Only a port taken in between is worth another try.
    if (outcome !== 'taken') break
  }
  throw lastErr
}

function api (port, version) {
  let proxies = 0
  return {
    version,
    port,
    // A proxy on a port of the system's choosing (the API reads back the
    // real one) to 127.0.0.1:upstreamPort.
    async proxy (upstreamPort) {
      const name = `p${++proxies}`
      const created = await expect(port, 'POST', '/proxies', { name, listen: '127.0.0.1:0', upstream: `127.0.0.1:${upstreamPort}` }, 201)
      const listenPort = Number(/:(\d+)$/.exec(created.listen || '')?.[1])
      if (!(listenPort > 0)) throw new Error(`toxiproxy did not say where proxy ${name} listens: ${JSON.stringify(created)}`)
      return {
        name,
        port: listenPort,
        url: `http://127.0.0.1:${listenPort}`,
        // { type, attributes, stream ('downstream': server → client, or
        // 'upstream'), name }: → the toxic's name.
        async add ({ type, attributes = {}, stream = 'downstream', name: toxic = `${type}_${stream}` }) {
          await expect(port, 'POST', `/proxies/${name}/toxics`, { name: toxic, type, stream, toxicity: 1, attributes }, 200)
          return toxic
        },
        async remove (toxic) {
          await expect(port, 'DELETE', `/proxies/${name}/toxics/${toxic}`, undefined, 204)
        }
      }
    }
  }
}

module.exports = { findServer, startToxiproxy, MISSING, CI_DIR }
