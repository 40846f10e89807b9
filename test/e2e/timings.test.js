'use strict'

// Where the time goes (result.timings), end to end against real servers
// on loopback: a server whose head and body come apart in time gives each
// its share; over TLS the handshake and the connect are timed per
// connection; through a proxy's tunnel its CONNECT is a phase of its own;
// and a real nginx over TLS shows every phase in -j, in --timings' table
// and in the HTML report, opened in Chromium.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const http = require('http')
const https = require('https')
const { spawn } = require('child_process')
const { pathToFileURL } = require('url')
const autocannon = require('../..')
const { makePki } = require('../helpers/pki')
const { childServer } = require('../helpers/servers')
const { findChromium, launchChromium } = require('../helpers/browser')
const { listen } = require('../helpers/listen')
const { tempDir, jsonResult } = require('../helpers/recording')
const { run } = require('../helpers/cli')
const { which } = require('../../bench/targets')

// Real runs and a browser on a machine that may be loaded.
t.setTimeout(300000)

const pki = makePki(tempDir(t, 'ac-timings-'))

t.test('a head 5 ms after the request and the body\'s end 20 ms later: TTFB ~5 ms, transfer ~20 ms', async (t) => {
  const server = await childServer(t, 'phased-server.js', ['5', '20'])
  const r = await autocannon({ url: server.url, connections: 4, duration: 2 })
  const late = await server.ask({ lateness: true })
  const { ttfb, transfer } = r.timings
  t.comment(`ttfb p50 ${ttfb.p50} ms, transfer p50 ${transfer.p50} ms, latency p50 ${r.latency.p50} ms; server timers late p50 ${late.p50.toFixed(2)} ms, max ${late.max.toFixed(2)} ms; our loop delay p99 ${r.generator.loopDelay.p99} ms`)
  // Either side's timers running late moves both figures: that is the
  // machine, not the measurement.
  if (late.p50 > 3 || r.generator.loopDelay.p50 > 3) {
    return t.skip(`the machine starved the run: the server's timers were ${late.p50.toFixed(2)} ms late at p50, our loop ${r.generator.loopDelay.p50} ms`)
  }
  t.equal(r.errors, 0)
  t.equal(ttfb.totalCount, r.requests.total, 'one TTFB per response')
  t.equal(transfer.totalCount, r.requests.total, 'one transfer per response')
  t.ok(ttfb.p50 >= 4 && ttfb.p50 <= 12, `ttfb p50 ${ttfb.p50} ms within 4-12 ms`)
  t.ok(transfer.p50 >= 15 && transfer.p50 <= 35, `transfer p50 ${transfer.p50} ms within 15-35 ms`)
  t.equal(r.timings.tls.totalCount, 0, 'no TLS over plain TCP')
  t.equal(r.timings.proxyConnect.totalCount, 0, 'no proxy')
  t.ok(r.timings.connect.totalCount >= 4, `each connection's connect timed (${r.timings.connect.totalCount})`)
  const s = r.series
  t.same(s.timed, s.requests, 'each interval timed its responses')
  // The intervals' means, weighted by their responses, are the mean of
  // the responses they hold (the last, partial interval is in the run's
  // histogram only).
  const inSeries = s.timed.reduce((a, n) => a + n, 0)
  const weighted = s.ttfbMean.reduce((a, m, i) => a + m * s.timed[i], 0) / inSeries
  t.ok(inSeries > 0 && inSeries <= ttfb.totalCount, `${inSeries} responses in the series`)
  t.ok(weighted >= 4 && weighted <= ttfb.max, `the series' mean TTFB ${weighted.toFixed(3)} ms: at least the head's 5 ms, at most the slowest`)

  // Held as thresholds, from the histograms.
  const held = await autocannon({ url: server.url, connections: 2, amount: 20, thresholds: ['timings.ttfb.p99 < 2s', 'timings.transfer.p50 < 1ms'] })
  t.same(held.thresholds.map((x) => [x.metric, x.ok]), [['timings.ttfb.p99', true], ['timings.transfer.p50', false]])
  t.ok(held.thresholds[1].value >= 15, `transfer p50 measured ${held.thresholds[1].value} ms`)
})

t.test('over TLS: each connection\'s lookup, connect and handshake above zero; through a proxy, its CONNECT too', async (t) => {
  const port = await listen(t, https.createServer(pki.server, (req, res) => res.end('secure')))
  const url = `https://localhost:${port}/`
  // A duration, not an amount: with an amount, a connection still in its
  // handshake when the others have made every request is stopped untimed.
  const r = await autocannon({ url, connections: 3, duration: 1 })
  t.equal(r.errors, 0)
  const { dns, connect, tls, proxyConnect, ttfb } = r.timings
  t.comment(`dns ${dns.min}-${dns.max} ms, connect ${connect.min}-${connect.max} ms, tls ${tls.min}-${tls.max} ms`)
  t.equal(tls.totalCount, 3, 'one handshake per connection')
  t.equal(connect.totalCount, 3)
  t.equal(dns.totalCount, 3, 'localhost is looked up')
  t.ok(tls.min > 0, `TLS handshake ${tls.min} ms > 0`)
  t.ok(connect.min > 0, `TCP connect ${connect.min} ms > 0`)
  t.equal(proxyConnect.totalCount, 0)
  t.equal(ttfb.totalCount, r.requests.total, 'a TTFB per response')

  // An address takes no lookup: 0.
  const byAddress = await autocannon({ url: `https://127.0.0.1:${port}/`, connections: 2, duration: 1 })
  t.equal(byAddress.timings.dns.max, 0, 'no lookup for an address')
  t.ok(byAddress.timings.tls.min > 0)

  const { createProxy } = await import('proxy')
  const proxyPort = await listen(t, createProxy(http.createServer()))
  const tunnelled = await autocannon({ url, proxy: `http://127.0.0.1:${proxyPort}`, connections: 2, duration: 1 })
  t.equal(tunnelled.errors, 0, JSON.stringify(tunnelled.errorCodes))
  const p = tunnelled.timings
  t.equal(p.proxyConnect.totalCount, 2, 'one CONNECT per connection')
  t.ok(p.proxyConnect.min > 0, `the proxy's CONNECT ${p.proxyConnect.min} ms > 0`)
  t.equal(p.tls.totalCount, 2, 'then TLS inside the tunnel')
  t.ok(p.tls.min > 0)
})

function nginxTls (t, dir) {
  const conf = path.join(dir, 'nginx.conf')
  // 256 KiB: many TLS records, so the body spans reads and has a transfer.
  fs.writeFileSync(path.join(dir, 'big'), Buffer.alloc(256 * 1024, 'x'))
  fs.writeFileSync(path.join(dir, 'server.crt'), pki.server.cert)
  fs.writeFileSync(path.join(dir, 'server.key'), pki.server.key)
  return new Promise((resolve, reject) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const port = probe.address().port
      probe.close(() => {
        fs.writeFileSync(conf, `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir};
  proxy_temp_path ${dir};
  fastcgi_temp_path ${dir};
  uwsgi_temp_path ${dir};
  scgi_temp_path ${dir};
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${dir}/server.crt;
    ssl_certificate_key ${dir}/server.key;
    root ${dir};
  }
}
`)
        const child = spawn(which('nginx'), ['-e', path.join(dir, 'error.log'), '-p', dir, '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] })
        let stderr = ''
        child.stderr.on('data', (b) => { stderr += b })
        child.once('exit', (code) => reject(new Error(`nginx exited (${code}): ${stderr.trim()}`)))
        // SIGTERM: nginx's master stops its worker, which a SIGKILLed
        // master would leave running, re-parented to init.
        t.teardown(() => new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve()
          const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
          child.once('exit', () => { clearTimeout(timer); resolve() })
          child.kill('SIGTERM')
        }))
        const tryConnect = (left) => {
          const s = require('net').connect(port, '127.0.0.1', () => { s.destroy(); resolve(port) })
          s.on('error', () => left > 0 ? setTimeout(() => tryConnect(left - 1), 50) : reject(new Error('nginx did not listen')))
        }
        tryConnect(100)
      })
    })
  })
}

t.test('a real nginx over TLS: every phase in -j, in --timings\' table, and in the report in Chromium', { skip: !which('nginx') && 'nginx not installed' }, async (t) => {
  const dir = tempDir(t, 'ac-timings-nginx-')
  const port = await nginxTls(t, dir)
  const html = path.join(dir, 'report.html')
  const out = await run(['-c', '2', '-d', '2', '-R', '200', '-j', '-V', '--timings', '--html', html, `https://localhost:${port}/big`], { timeout: 60000 })
  t.equal(out.code, 0, out.stderr)
  const r = jsonResult(out.stdout)
  t.equal(r.errors, 0, JSON.stringify(r.errorCodes))
  t.ok(r.requests.total > 50, `${r.requests.total} responses`)
  const shown = {}
  for (const phase of ['dns', 'connect', 'tls', 'ttfb', 'transfer']) {
    const s = r.timings[phase]
    t.ok(s.totalCount > 0 && s.max > 0, `${phase}: ${s.totalCount} timed, p50 ${s.p50} ms, max ${s.max} ms`)
    shown[phase] = s
  }
  t.equal(r.timings.tls.totalCount, r.timings.connect.totalCount, 'a handshake per connection')
  t.ok(r.timings.transfer.p50 > 0, `a 256 KiB body spans reads: transfer p50 ${r.timings.transfer.p50} ms`)
  t.ok(r.histograms.timings && Object.keys(r.histograms.timings).length === 6, 'their histograms saved, for merge and compare')
  t.match(out.stderr, /│ TLS handshake\s+│/, '--timings prints the table')
  t.match(out.stderr, /latency = wait \+ TTFB \+ transfer/, 'and under a rate says how they add up')

  const { found: chromium } = findChromium()
  if (!chromium) return t.skip('chromium not found (apt-get install chromium, or set CHROMIUM_PATH)')
  const browser = await launchChromium(t, chromium)
  const page = await browser.newPage()
  const problems = []
  page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warn') problems.push(msg.text()) })
  page.on('pageerror', (err) => problems.push(err.message))
  await page.setViewport({ width: 1200, height: 900 })
  await page.goto(pathToFileURL(html).href, { waitUntil: 'load', timeout: 60000 })
  await page.waitForFunction('window.autocannonReport && window.autocannonReport.ready', { timeout: 30000 })
  t.same(problems, [], 'no console errors')
  const rows = await page.evaluate(() => {
    const out = {}
    for (const tr of document.querySelectorAll('#timings tbody tr')) out[tr.dataset.key] = [...tr.querySelectorAll('td')].map((td) => td.textContent)
    return out
  })
  const num = (text) => Number(String(text).replace(/,/g, ''))
  t.same(Object.keys(rows), ['timing-dns', 'timing-connect', 'timing-tls', 'timing-ttfb', 'timing-transfer'], 'a row per phase taken')
  for (const [phase, s] of Object.entries(shown)) {
    t.same(rows[`timing-${phase}`].map(num), [s.p50, s.p99, s.mean, s.max, s.totalCount], `${phase}: p50, p99, mean, max and count as -j has them`)
  }
  const chart = await page.evaluate(() => {
    const plot = window.autocannonReport.charts['timings-over-time']
    if (!plot) return null
    const { data } = plot.ctx.getImageData(0, 0, plot.ctx.canvas.width, plot.ctx.canvas.height)
    let painted = 0
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++
    return { labels: plot.series.slice(1).map((s) => s.label), data: plot.data, painted }
  })
  t.ok(chart, 'the stacked chart is drawn')
  t.same(chart.labels, ['Transfer (mean)', 'Time to first byte (mean)', 'Wait before send (mean)'])
  const round = (v) => Math.round(v * 1000) / 1000
  const s = r.series
  // Stacked: wait, then + TTFB, then + transfer.
  t.same(chart.data[2].map((v, i) => round(v - chart.data[3][i])), s.ttfbMean, 'the TTFB band is each interval\'s mean TTFB')
  t.same(chart.data[1].map((v, i) => round(v - chart.data[2][i])), s.transferMean, 'the transfer band is each interval\'s mean transfer')
  t.ok(chart.painted > 5000, `canvas drawn (${chart.painted} pixels)`)
  const shot = path.join(__dirname, '..', '..', '.tap', 'report-html')
  fs.mkdirSync(shot, { recursive: true })
  await page.screenshot({ path: path.join(shot, 'timings-nginx.png'), fullPage: true })
  fs.copyFileSync(html, path.join(shot, 'timings-nginx.html'))
})

t.test('the CLI\'s --timings table over plain TCP: no TLS row, a note on what each phase is', async (t) => {
  const server = await childServer(t, 'phased-server.js', ['1', '1'])
  const out = await run(['-c', '2', '-a', '20', '--timings', server.url], { timeout: 30000 })
  t.equal(out.code, 0, out.stderr)
  t.match(out.stderr, /│ TTFB\s+│/)
  t.match(out.stderr, /│ Transfer\s+│/)
  t.match(out.stderr, /│ TCP connect\s+│/)
  t.notMatch(out.stderr, /TLS handshake/, 'no row for a phase no connection took')
  t.match(out.stderr, /TTFB: from the write to the first byte of the response; transfer: the rest of it/)
  t.notMatch(out.stderr, /latency = wait/, 'no rate, no wait')
  const plain = await run(['-c', '2', '-a', '20', server.url], { timeout: 30000 })
  t.notMatch(plain.stderr, /TTFB/, 'not printed unless asked')
})
