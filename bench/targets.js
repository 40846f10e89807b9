'use strict'

// The servers a bench run points its generators at, each pinned to its own
// CPU when taskset is available: nginx with one worker when installed (the
// target wrk's and autocannon's published figures use), and always the
// canned-response `net` server of canned-server.js.

const { spawn, spawnSync } = require('child_process')
const fs = require('fs')
const net = require('net')
const os = require('os')
const path = require('path')
const { pinned } = require('./measure')

function which (name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter).concat(['/usr/sbin', '/sbin'])) {
    const file = path.join(dir, name)
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {}
  }
  return null
}

function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

function waitForPort (port, deadline = Date.now() + 5000) {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy()
        resolve()
      })
      socket.on('error', () => {
        socket.destroy()
        if (Date.now() > deadline) reject(new Error(`nothing listens on 127.0.0.1:${port}`))
        else setTimeout(attempt, 50)
      })
    }
    attempt()
  })
}

function stopper (child) {
  return () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 2000).unref()
  })
}

// tls: { cert, key } files; the same canned answers over node:tls.
async function startCanned ({ cpus, tls } = {}) {
  const script = [path.join(__dirname, 'canned-server.js')].concat(tls ? [tls.cert, tls.key] : [])
  const [cmd, args] = pinned(cpus, process.execPath, script)
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise((resolve, reject) => {
    child.once('error', reject)
    child.stdout.once('data', (b) => resolve(Number(String(b).trim())))
  })
  return tls
    ? { name: 'canned-tls', description: `raw node:tls server (bench/canned-server.js), ${tls.description}, 13-byte keep-alive response`, url: `https://127.0.0.1:${port}/`, stop: stopper(child) }
    : { name: 'canned', description: 'raw net server (bench/canned-server.js), 13-byte keep-alive response', url: `http://127.0.0.1:${port}/`, stop: stopper(child) }
}

// A P-256 certificate for 127.0.0.1, made for one bench run and removed
// with it: what a self-signed staging server presents.
function makeCertificate () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autocannon-bench-tls-'))
  const cert = path.join(dir, 'cert.pem')
  const key = path.join(dir, 'key.pem')
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' })
  if (made.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true })
    return null
  }
  return { cert, key, description: 'TLS 1.3, P-256 self-signed certificate', remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

// node:http2's server in h2c, when there is no nginx to run.
async function startNodeH2 ({ cpus } = {}) {
  const script = `const s = require('http2').createServer((q, r) => r.end('Hello, world!\\n'));
s.listen(0, '127.0.0.1', () => console.log(s.address().port))`
  const [cmd, args] = pinned(cpus, process.execPath, ['-e', script])
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise((resolve, reject) => {
    child.once('error', reject)
    child.stdout.once('data', (b) => resolve(Number(String(b).trim())))
  })
  return { name: 'node-h2', description: `node:http2 ${process.version} h2c, 13-byte response`, url: `http://127.0.0.1:${port}/`, stop: stopper(child) }
}

function nginxVersion (bin) {
  // nginx -v writes to stderr.
  const { stdout, stderr } = spawnSync(bin, ['-v'], { encoding: 'utf8' })
  return `${stdout || ''}${stderr || ''}`.trim().replace(/^nginx version: /, '') || null
}

// The listen directive of an h2c server with prior knowledge: nginx
// 1.25.1 made `http2` a directive of its own (the listen parameter is
// deprecated there); Debian 12's 1.22 knows only the parameter.
function h2Listen (version, port) {
  const [major, minor, patch] = String(version || '').replace(/^nginx\//, '').split('.').map(Number)
  const directive = major > 1 || (major === 1 && (minor > 25 || (minor === 25 && patch >= 1)))
  return directive ? `listen 127.0.0.1:${port}; http2 on;` : `listen 127.0.0.1:${port} http2;`
}

// The listen directives of a TLS server offering h2 and http/1.1 by ALPN,
// TLS 1.3 only, with session tickets and a session cache so that
// reconnecting clients resume.
function tlsListen (version, port, tls) {
  const [major, minor, patch] = String(version || '').replace(/^nginx\//, '').split('.').map(Number)
  const directive = major > 1 || (major === 1 && (minor > 25 || (minor === 25 && patch >= 1)))
  return `${directive ? `listen 127.0.0.1:${port} ssl; http2 on;` : `listen 127.0.0.1:${port} ssl http2;`}
    ssl_certificate ${tls.cert}; ssl_certificate_key ${tls.key}; ssl_protocols TLSv1.3;
    ssl_session_cache shared:SSL:10m; ssl_session_tickets on;`
}

// http2: the server speaks h2c (HTTP/2 in clear text, prior knowledge)
// instead of HTTP/1.1. tls: { cert, key }: HTTPS instead, both protocols
// by ALPN. keepaliveRequests: the requests it takes on a connection before
// it closes it (over HTTP/2, with a GOAWAY).
async function startNginx ({ cpus, http2 = false, tls = null, keepaliveRequests = 100000000 } = {}) {
  const bin = which('nginx')
  if (!bin) return null
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autocannon-bench-nginx-'))
  const port = await freePort()
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests ${keepaliveRequests};
  client_body_temp_path ${dir};
  proxy_temp_path ${dir};
  fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir};
  scgi_temp_path ${dir};
  server { ${tls ? tlsListen(nginxVersion(bin), port, tls) : http2 ? h2Listen(nginxVersion(bin), port) : `listen 127.0.0.1:${port};`} location / { return 200 "Hello, world!\\n"; } }
}
`)
  const [cmd, args] = pinned(cpus, bin, ['-e', path.join(dir, 'error.log'), '-p', dir, '-c', path.join(dir, 'nginx.conf')])
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (b) => { stderr += b })
  try {
    await Promise.race([
      waitForPort(port),
      new Promise((resolve, reject) => child.once('exit', () => reject(new Error(`nginx exited: ${stderr.trim()}`))))
    ])
  } catch (err) {
    child.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
    process.stderr.write(`nginx did not start (${err.message}); using the canned server only\n`)
    return null
  }
  const stop = stopper(child)
  return {
    name: tls ? 'nginx-tls' : 'nginx',
    description: `${nginxVersion(bin) || 'nginx'}, 1 worker, return 200${http2 ? ', h2c' : ''}${tls ? `, ${tls.description}, h2 and http/1.1 by ALPN, session resumption` : ''}`,
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/`,
    stop: async () => {
      await stop()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

module.exports = { startCanned, startNginx, startNodeH2, makeCertificate, which, freePort }
