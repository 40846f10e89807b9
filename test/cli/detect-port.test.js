'use strict'

// The preload --on-port puts into the command it starts
// (lib/cli/detect-port.js): the first TCP port a server of that process
// listens on goes to the socket named in the environment, once; a Unix
// socket server is not reported, and without the variable nothing is
// patched.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const net = require('net')
const path = require('path')
const { execFile } = require('child_process')

const PRELOAD = path.join(__dirname, '..', '..', 'lib', 'cli', 'detect-port.js')

// Runs `script` in a node with the preload, and collects what arrives on
// a Unix socket named in its environment (or not, when `named` is false).
async function reports (t, script, { named = true } = {}) {
  // A short path: a Unix socket's is limited to about 100 bytes.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-detect-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const socketPath = path.join(dir, 'port.sock')
  const messages = []
  const server = net.createServer((socket) => {
    let data = ''
    socket.on('data', (c) => { data += c })
    socket.on('end', () => messages.push(JSON.parse(data)))
  })
  await new Promise((resolve) => server.listen(socketPath, resolve))
  t.teardown(() => server.close())
  const env = { ...process.env }
  if (named) env.AUTOCANNON_DETECT_PORT_SOCKET = socketPath
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, ['--require', PRELOAD, '-e', script], { env, timeout: 20000 }, (err, out) => err ? reject(err) : resolve(out))
  })
  // The last message may still be on its way when the process has exited.
  await new Promise((resolve) => setTimeout(resolve, 100))
  return { messages, stdout }
}

t.test('the first TCP port, with its address and the pid, once', async (t) => {
  const script = `
    const net = require('net')
    const a = net.createServer().listen(0, '127.0.0.1', () => {
      const b = net.createServer().listen(0, '127.0.0.1', () => {
        console.log(JSON.stringify([a.address().port, b.address().port, process.pid]))
        a.close(); b.close()
      })
    })`
  const { messages, stdout } = await reports(t, script)
  const [first, , pid] = JSON.parse(stdout)
  t.same(messages, [{ port: first, address: '127.0.0.1', pid }], 'the first server only')
})

t.test('a Unix socket server is not what autocannon can be pointed at', async (t) => {
  const script = `
    const net = require('net')
    const path = require('path')
    const s = net.createServer().listen(path.join(require('os').tmpdir(), 'ac-detect-' + process.pid + '.sock'), () => {
      const tcp = net.createServer().listen(0, '127.0.0.1', () => {
        console.log(tcp.address().port)
        s.close(); tcp.close()
      })
    })`
  const { messages, stdout } = await reports(t, script)
  t.same(messages.map((m) => m.port), [Number(stdout)], 'the TCP port that came after it')
})

t.test('without the variable, servers listen as usual and nothing is sent', async (t) => {
  const script = "const s = require('net').createServer().listen(0, () => { console.log('listening'); s.close() })"
  const { messages, stdout } = await reports(t, script, { named: false })
  t.equal(stdout.trim(), 'listening')
  t.same(messages, [])
})
