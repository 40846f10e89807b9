'use strict'

// CPU per request of the request shapes (issue 4): a single request, a
// `requests` array of 3 static entries, setupRequest hooks, idReplacement,
// against a minimal raw HTTP server in another process. Each shape runs in
// a fresh process; the median of the trials is printed.
//
//   node bench/request-shapes.js [shapes] [pipelinings] [trials] [seconds]
//   node bench/request-shapes.js single,static3,hook 1,10 5 3

const net = require('net')
const { fork, execFileSync } = require('child_process')

const SHAPES = {
  single: {},
  static3: { requests: [{ path: '/a' }, { path: '/b', headers: { 'x-b': '1' } }, { path: '/c' }] },
  hook: { requests: [{ setupRequest: (req) => req }] },
  hookPath: { requests: [{ setupRequest: (req) => ({ ...req, path: '/p' }) }] },
  hook3: { requests: [{ path: '/a' }, { path: '/b', setupRequest: (req) => req }, { path: '/c' }] },
  id: { idReplacement: true, requests: [{ path: '/items/[<id>]' }] }
}

const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')

function server () {
  const srv = net.createServer((socket) => {
    let matched = 0
    socket.on('data', (buf) => {
      let n = 0
      for (let i = 0; i < buf.length; i++) {
        const c = buf[i]
        if (c === (matched % 2 === 0 ? 13 : 10)) {
          if (++matched === 4) { n++; matched = 0 }
        } else matched = c === 13 ? 1 : 0
      }
      if (n) socket.write(n === 1 ? RESPONSE : Buffer.concat(new Array(n).fill(RESPONSE)))
    })
    socket.on('error', () => {})
  })
  srv.listen(0, '127.0.0.1', () => process.send({ port: srv.address().port }))
  process.on('disconnect', () => process.exit(0))
}

function one (port, shape, pipelining, seconds) {
  const autocannon = require('..')
  const start = process.cpuUsage()
  autocannon({ url: `http://127.0.0.1:${port}/`, connections: 50, pipelining, duration: seconds, ...SHAPES[shape] }, (err, r) => {
    if (err) throw err
    const cpu = process.cpuUsage(start)
    console.log(JSON.stringify({ reqs: r.requests.total, errors: r.errors, usPerReq: (cpu.user + cpu.system) / r.requests.total }))
  })
}

function main () {
  const shapes = (process.argv[2] || 'single,static3,hook,hookPath,hook3,id').split(',')
  const pipes = (process.argv[3] || '1,10').split(',').map(Number)
  const trials = Number(process.argv[4] || 3)
  const seconds = Number(process.argv[5] || 3)
  const child = fork(__filename, ['--server'])
  child.once('message', ({ port }) => {
    const results = {}
    for (let k = 0; k < trials; k++) {
      for (const p of pipes) {
        for (const s of shapes) {
          const out = JSON.parse(execFileSync(process.execPath, [__filename, '--one', port, s, p, seconds]).toString())
          ;(results[`${s} p=${p}`] = results[`${s} p=${p}`] || []).push(out.usPerReq)
        }
      }
    }
    const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)]
    for (const p of pipes) {
      const base = median(results[`single p=${p}`] || results[`${shapes[0]} p=${p}`])
      for (const s of shapes) {
        const m = median(results[`${s} p=${p}`])
        console.log(`${s.padEnd(9)} p=${String(p).padEnd(3)} ${m.toFixed(3)} µs/req  x${(m / base).toFixed(2)} of ${results[`single p=${p}`] ? 'single' : shapes[0]}`)
      }
    }
    child.kill()
  })
}

if (process.argv[2] === '--server') server()
else if (process.argv[2] === '--one') one(Number(process.argv[3]), process.argv[4], Number(process.argv[5]), Number(process.argv[6]))
else main()

module.exports = { SHAPES }
