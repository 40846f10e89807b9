'use strict'

// CPU per request of the request shapes: a single request, a
// `requests` array of 3 static entries, setupRequest hooks, idReplacement,
// templates ({{seq}} in the path, {{uuid}} in a header) and the same
// request's bytes without them (sameBytes),
// against the canned-response server (canned-server.js) in another process. Each shape runs in
// a fresh process; the median of the trials is printed.
//
//   node bench/request-shapes.js [shapes] [pipelinings] [trials] [seconds]
//   node bench/request-shapes.js single,static3,hook 1,10 5 3

const { execFile } = require('child_process')
const { startCanned } = require('./targets')
const { pinned } = require('./measure')

const SHAPES = {
  single: {},
  static3: { requests: [{ path: '/a' }, { path: '/b', headers: { 'x-b': '1' } }, { path: '/c' }] },
  hook: { requests: [{ setupRequest: (req) => req }] },
  hookPath: { requests: [{ setupRequest: (req) => ({ ...req, path: '/p' }) }] },
  hook3: { requests: [{ path: '/a' }, { path: '/b', setupRequest: (req) => req }, { path: '/c' }] },
  id: { idReplacement: true, requests: [{ path: '/items/[<id>]' }] },
  // Issue 25's shape: a {{seq}} path and a {{uuid}} header.
  template: { requests: [{ path: '/items/{{seq}}', headers: { 'x-request-id': '{{uuid}}' } }] },
  // template's bytes without templates: how much of template's cost over
  // single is the longer request itself, not the filling.
  sameBytes: { requests: [{ path: '/items/1234567', headers: { 'x-request-id': 'a5316414-8850-4bc3-8bb9-fc5528a062bd' } }] }
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

function trial (cpus, port, shape, pipelining, seconds) {
  const [cmd, args] = pinned(cpus, process.execPath, [__filename, '--one', port, shape, pipelining, seconds])
  return new Promise((resolve, reject) => {
    execFile(cmd, args, (err, stdout) => err ? reject(err) : resolve(JSON.parse(stdout).usPerReq))
  })
}

const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)]

// → { 'single p=1': µs, 'static3 p=1': µs, ... }, medians of `trials`; each
// shape runs in a fresh process, interleaved so drift hits all alike.
async function runShapes ({ shapes, pipelinings, trials, seconds, cpus = {} }) {
  const target = await startCanned({ cpus: cpus.target })
  const port = new URL(target.url).port
  const results = {}
  try {
    for (let k = 0; k < trials; k++) {
      for (const p of pipelinings) {
        for (const s of shapes) {
          const key = `${s} p=${p}`
          ;(results[key] = results[key] || []).push(await trial(cpus.generator, port, s, p, seconds))
        }
      }
    }
  } finally {
    await target.stop()
  }
  const out = {}
  for (const key of Object.keys(results)) out[key] = median(results[key])
  return out
}

async function main () {
  const shapes = (process.argv[2] || 'single,static3,hook,hookPath,hook3,id').split(',')
  const pipelinings = (process.argv[3] || '1,10').split(',').map(Number)
  const trials = Number(process.argv[4] || 3)
  const seconds = Number(process.argv[5] || 3)
  const table = await runShapes({ shapes, pipelinings, trials, seconds })
  for (const p of pipelinings) {
    const baseKey = table[`single p=${p}`] ? 'single' : shapes[0]
    const base = table[`${baseKey} p=${p}`]
    for (const s of shapes) {
      const m = table[`${s} p=${p}`]
      console.log(`${s.padEnd(9)} p=${String(p).padEnd(3)} ${m.toFixed(3)} µs/req  x${(m / base).toFixed(2)} of ${baseKey}`)
    }
  }
}

if (process.argv[2] === '--one') one(Number(process.argv[3]), process.argv[4], Number(process.argv[5]), Number(process.argv[6]))
else if (require.main === module) main()

module.exports = { SHAPES, runShapes }
