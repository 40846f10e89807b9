'use strict'

// -f with --dashboard, from the CLI: the run starts again round after
// round, and an open page follows each (a 'state' that starts the charts
// afresh, then that round's samples), until Ctrl-C, when it gets the
// report and the process ends cleanly, leaving nothing listening.

const t = require('tap')
const http = require('http')
const path = require('path')
const { spawn } = require('child_process')
const { httpServer } = require('../helpers/servers')
const { eachBlock } = require('../helpers/sse')

const BIN = path.join(__dirname, '..', '..', 'bin', 'autocannon.js')

t.setTimeout(60000)

t.test('-f: each round streamed afresh to an open page, then Ctrl-C', async (t) => {
  const target = await httpServer(t)
  // Rounds of 1 s, sampled every 250 ms: a 'state' then a few samples each.
  const child = spawn(process.execPath, [BIN, '-f', '-d', '1', '-L', '250', '-c', '2', '--dashboard', target], { stdio: ['ignore', 'ignore', 'pipe'] })
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  let stderr = ''
  child.stderr.setEncoding('utf8')
  const dashboard = new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      const m = /^dashboard: (http:\S+)$/m.exec(stderr)
      if (m) resolve(m[1])
    })
    child.once('exit', () => reject(new Error(`exited before its dashboard listened: ${stderr}`)))
  })
  const url = await dashboard

  // Each round as the page sees it: the round's number from its 'state',
  // the x of its time chart's points (seconds into the round).
  const rounds = []
  let done = null
  let interrupted = false
  // What would end a page's following (it closes its stream at 'done',
  // shows the report given in a 'state') before the run does.
  const early = []
  const ended = new Promise((resolve, reject) => {
    http.get(url + 'events', (res) => {
      res.on('end', resolve)
      res.on('close', resolve)
      eachBlock(res, (block) => {
        const name = /^event: (.*)$/m.exec(block)[1]
        const data = JSON.parse(/^data: (.*)$/m.exec(block)[1])
        if (name === 'done') {
          if (!interrupted) early.push(`'done' in round ${rounds.length}`)
          done = data
          return
        }
        if (name === 'state') {
          if (data.final) early.push(`a 'state' with the report in round ${data.round}`)
          const chart = data.charts.find((c) => c.id === 'requests-over-time')
          if (rounds.length === 0 || rounds[rounds.length - 1].round !== data.round) rounds.push({ round: data.round, xs: [], resets: 0 })
          const current = rounds[rounds.length - 1]
          if (!chart) current.resets++
          current.xs = chart ? chart.data[0].slice() : []
        } else if (name === 'sample') {
          rounds[rounds.length - 1].xs.push(data.rows['requests-over-time'].row[0])
        }
        // Three rounds seen whole, the fourth begun: Ctrl-C.
        if (!interrupted && rounds.length >= 4 && rounds[3].xs.length >= 1) {
          interrupted = true
          child.kill('SIGINT')
        }
      })
    }).on('error', reject)
  })
  const { code, signal } = await exited
  await ended

  t.ok(interrupted, `stopped with Ctrl-C after ${rounds.length} rounds`)
  t.same(rounds.slice(0, 4).map((r) => r.round), [1, 2, 3, 4], 'the rounds, numbered in order')
  for (const r of rounds.slice(1, 4)) t.ok(r.resets >= 1, `round ${r.round}: the charts started afresh`)
  for (const r of rounds.slice(0, 3)) {
    t.ok(r.xs.length >= 3 && r.xs.length <= 4, `round ${r.round}: ${r.xs.length} samples of 250 ms`)
    t.ok(r.xs[0] <= 0.3, `round ${r.round}: its first point at ${r.xs[0]} s into the round, not after the last round's`)
    t.ok(r.xs.every((x, k) => k === 0 || x > r.xs[k - 1]), `round ${r.round}: its points in order (${r.xs.join(', ')})`)
  }
  t.same(early, [], 'no round\'s end ends the page\'s following')
  t.ok(done && typeof done.html === 'string' && done.html.includes('<html'), 'the report at the end')
  t.same({ code, signal }, { code: 0, signal: null }, 'the process ends cleanly')
  t.notMatch(stderr, /Error|at .*\.js:\d+/, 'no error, no stack trace')
  const port = Number(new URL(url).port)
  const refused = await new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port, path: '/' }, (res) => { res.resume(); resolve(false) }).on('error', (err) => resolve(err.code === 'ECONNREFUSED'))
  })
  t.ok(refused, 'nothing listens on the dashboard\'s port after')
})

// An instance given a callback is no promise (as autocannon's): the
// dashboard waits for its end all the same.
t.test('a run given a callback: the dashboard ends with it', async (t) => {
  const autocannon = require('../..')
  const target = await httpServer(t)
  let url = null
  let done = false
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon({ url: target, connections: 2, duration: 1, dashboard: true }, (err, res) => err ? reject(err) : resolve(res))
    instance.once('dashboard', (d) => {
      url = d.url
      http.get(url + 'events', (res) => eachBlock(res, (block) => { if (block.startsWith('event: done')) done = true })).on('error', () => {})
    })
  })
  t.ok(result.requests.total > 0, `${result.requests.total} responses`)
  t.ok(url, 'the dashboard listened')
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.ok(done, 'its page got the report')
  const refused = await new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port: Number(new URL(url).port), path: '/' }, (res) => { res.resume(); resolve(false) }).on('error', (err) => resolve(err.code === 'ECONNREFUSED'))
  })
  t.ok(refused, 'and it closed')
})
