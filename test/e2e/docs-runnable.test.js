'use strict'

// The examples run as written: every fenced block marked runnable
// (```sh runnable, ```js runnable) in README.md and docs/ is run, each in
// an empty folder of its own, against servers this test starts on
// 127.0.0.1 (HTTP/1.1, HTTP/2 in clear text for the blocks that ask for
// it, and a gRPC server with reflection, test/helpers/grpc-server.js, for
// the blocks that make a call). `127.0.0.1:3000` and `localhost:3000` in a block become the
// server's address; `autocannon`, `cannonade` and `npx cannonade` are this
// checkout's CLI, and require('cannonade') or require('autocannon') (and
// import) load this checkout. A block fails on a non-zero exit, on a stack
// trace in its output, or when it outlives its time.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const http2 = require('http2')
const { spawn } = require('child_process')
const { ROOT, pages, read, fencedBlocks } = require('../helpers/docs')
const { BIN, env } = require('../helpers/cli')
const { startGrpcServer } = require('../helpers/grpc-server')

const BLOCK_TIMEOUT = 30000
const TOTAL = 150000
t.setTimeout(TOTAL)
t.comment(`timeout=${TOTAL}`)

function listen (server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))
}

// Answers every request once its body has come in, as a small API would.
function h1Server () {
  return http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end('hello world\n')
    })
  })
}

function h2Server () {
  const server = http2.createServer()
  server.on('stream', (stream) => {
    stream.resume()
    stream.on('end', () => {
      stream.respond({ ':status': 200, 'content-type': 'text/plain' })
      stream.end('hello world\n')
    })
  })
  return server
}

// A folder with the commands a reader has once the package is installed,
// and a node_modules that resolves the package's two names to this
// checkout.
function sandbox (base) {
  const bin = path.join(base, 'bin')
  fs.mkdirSync(bin)
  const node = JSON.stringify(process.execPath)
  const cli = JSON.stringify(BIN)
  for (const name of ['autocannon', 'cannonade']) {
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nexec ${node} ${cli} "$@"\n`, { mode: 0o755 })
  }
  fs.writeFileSync(path.join(bin, 'npx'), [
    '#!/bin/sh',
    `case "$1" in cannonade|autocannon) shift; exec ${node} ${cli} "$@";; esac`,
    'echo "npx $1: only cannonade and autocannon are there in the docs\' test" >&2',
    'exit 127',
    ''
  ].join('\n'), { mode: 0o755 })
  const modules = path.join(base, 'node_modules')
  fs.mkdirSync(modules)
  for (const name of ['cannonade', 'autocannon']) fs.symlinkSync(ROOT, path.join(modules, name), 'dir')
  return { bin }
}

// The block as it runs here: the address of the server it needs.
function rewrite (code, { h1, h2, grpc }) {
  const port = /--call\b|\bcall: /.test(code) ? grpc : /--http2\b|http2: true/.test(code) ? h2 : h1
  return code.replace(/\b(?:127\.0\.0\.1|localhost):3000\b/g, `127.0.0.1:${port}`)
}

function runBlock (block, dir, bin) {
  const js = block.lang === 'js'
  const file = path.join(dir, js ? (/^import\s/m.test(block.code) ? 'block.mjs' : 'block.js') : 'block.sh')
  fs.writeFileSync(file, block.code)
  const [cmd, args] = js ? [process.execPath, [file]] : ['bash', ['-e', '-o', 'pipefail', file]]
  const started = Date.now()
  return new Promise((resolve, reject) => {
    // A group of its own: a block's background jobs end with it.
    const child = spawn(cmd, args, {
      cwd: dir,
      env: env({ PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true
    })
    let out = ''
    child.stdout.on('data', (c) => { out += c })
    child.stderr.on('data', (c) => { out += c })
    let killed = false
    const timer = setTimeout(() => {
      killed = true
      try { process.kill(-child.pid, 'SIGKILL') } catch {}
    }, BLOCK_TIMEOUT)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      try { process.kill(-child.pid, 'SIGKILL') } catch {}
      resolve({ code, out, killed, ms: Date.now() - started })
    })
  })
}

const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$/m

const found = []
for (const page of pages().filter((p) => p !== 'CHANGELOG.md')) {
  for (const block of fencedBlocks(read(page))) {
    if (block.runnable) found.push({ page, ...block })
  }
}

t.test('the runnable blocks are found', async (t) => {
  t.ok(found.length >= 20, `${found.length} blocks`)
  for (const block of found) t.ok(['sh', 'js'].includes(block.lang), `${block.page}:${block.line} is sh or js (${block.info})`)
  const text = '```sh runnable\necho a\n```\n\n```sh\necho b\n```\n\n- item\n\n  ```js runnable\n  console.log(1)\n  ```\n'
  t.same(fencedBlocks(text).map((b) => [b.lang, b.runnable, b.code]), [['sh', true, 'echo a'], ['sh', false, 'echo b'], ['js', true, 'console.log(1)']])
})

t.test('every runnable block runs', async (t) => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'cannonade-docs-'))
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }))
  const servers = [h1Server(), h2Server()]
  const [h1, h2] = await Promise.all(servers.map(listen))
  t.teardown(() => servers.forEach((s) => s.close()))
  const grpcServer = await startGrpcServer({ reflection: true })
  t.teardown(grpcServer.close)
  const grpc = grpcServer.port
  const { bin } = sandbox(base)

  // Two blocks at a time: most of a block's time is its runs' duration.
  const results = new Array(found.length)
  let next = 0
  const worker = async () => {
    while (next < found.length) {
      const i = next++
      const block = found[i]
      const dir = fs.mkdtempSync(path.join(base, 'block-'))
      results[i] = runBlock({ ...block, code: rewrite(block.code, { h1, h2, grpc }) }, dir, bin)
      await results[i]
    }
  }
  const done = Promise.all([worker(), worker()])

  await t.test('a failing block fails', async (t) => {
    const dir = fs.mkdtempSync(path.join(base, 'fails-'))
    const failing = await runBlock({ lang: 'sh', code: 'autocannon -c 0 http://127.0.0.1:1/\necho never' }, dir, bin)
    t.equal(failing.code, 1, 'a command that fails ends the block with its code')
    t.notMatch(failing.out, /never/)
    const thrown = await runBlock({ lang: 'js', code: 'throw new Error(\'boom\')' }, dir, bin)
    t.not(thrown.code, 0)
    t.match(thrown.out, STACK_TRACE, 'an exception prints a stack trace, which fails a block')
  })

  await done
  for (const [i, block] of found.entries()) {
    const got = await results[i]
    await t.test(`${block.page}:${block.line} (${block.info})`, async (t) => {
      // The output only when it fails: it says why.
      const shown = (ok, message) => ok ? message : `${message}\n${got.out.slice(-3000)}`
      t.notOk(got.killed, shown(!got.killed, `ends within ${BLOCK_TIMEOUT / 1000} s`))
      t.equal(got.code, 0, shown(got.code === 0, `exits 0 (${got.ms} ms)`))
      t.notMatch(got.out, STACK_TRACE, shown(!STACK_TRACE.test(got.out), 'no stack trace'))
    })
  }
})
