/* global uPlot, EventSource, Blob, URL */
'use strict'

// Runs in the dashboard's page, after uPlot and the report's page.js
// (whose options() turns a chart's description into uPlot's, so that the
// charts are the report's). It follows the server's events: 'state' (all
// of it: the page is new, or was behind), 'sample' (a row for each time
// chart, the percentile chart whole), 'percentiles' (that chart alone,
// of the whole run, at its end), 'search' (the steps so far and the
// one under way), 'warning', and 'done' (the report, shown in a frame,
// with a link to download it). What it drew is left on
// window.cannonadeDashboard for a test, or a reader in the console.

;(function () {
  const live = { plots: {}, data: {}, samples: 0, numbers: null, meta: null, search: null, done: false, html: null, round: 1 }
  window.cannonadeDashboard = live
  const options = window.autocannonReport.options
  const $ = (id) => document.getElementById(id)

  function text (el, value) {
    el.textContent = value
  }

  function number (v, decimals) {
    if (typeof v !== 'number' || !isFinite(v)) return '—'
    return v.toLocaleString('en-US', { maximumFractionDigits: decimals === undefined ? 2 : decimals })
  }

  function width () {
    return $('charts').clientWidth || 900
  }

  // --- the run's charts ---

  function drawCharts (charts) {
    for (const id of Object.keys(live.plots)) live.plots[id].destroy()
    live.plots = {}
    live.data = {}
    const holder = $('charts')
    holder.textContent = ''
    for (const chart of charts) {
      const h2 = document.createElement('h2')
      text(h2, chart.title)
      const div = document.createElement('div')
      div.className = 'chart'
      div.id = 'chart-' + chart.id
      holder.appendChild(h2)
      holder.appendChild(div)
      live.data[chart.id] = chart.data.map(function (column) { return column.slice() })
      live.plots[chart.id] = new uPlot(options(chart, width()), live.data[chart.id], div) // eslint-disable-line new-cap
      window.autocannonReport.swatches(live.plots[chart.id], chart)
    }
  }

  function addRows (rows) {
    for (const id of Object.keys(rows)) {
      const plot = live.plots[id]
      if (!plot) continue
      const r = rows[id]
      if (r.whole) {
        live.data[id] = r.whole
      } else {
        const data = live.data[id]
        for (let j = 0; j < data.length; j++) data[j].push(r.row[j])
      }
      plot.setData(live.data[id])
    }
  }

  // --- the numbers ---

  const ROWS = [
    ['elapsed', 'elapsed', function (n) {
      const total = live.meta && live.meta.duration
      return number(n.elapsed, 1) + ' s' + (total ? ' of ' + number(total, 1) + ' s' : '')
    }],
    ['rps', 'responses/s, last interval', function (n) { return number(n.responsesPerSecond) }],
    ['p50', 'p50, last interval', function (n) { return number(n.p50, 3) + ' ms' }],
    ['p99', 'p99, last interval', function (n) { return number(n.p99, 3) + ' ms' }],
    // Under a rate only (null otherwise: the row is left out).
    ['p50-uncorrected', 'p50 uncorrected (from the write), last interval', function (n) { return n.uncorrectedP50 === null || n.uncorrectedP50 === undefined ? null : number(n.uncorrectedP50, 3) + ' ms' }],
    ['p99-uncorrected', 'p99 uncorrected (from the write), last interval', function (n) { return n.uncorrectedP99 === null || n.uncorrectedP99 === undefined ? null : number(n.uncorrectedP99, 3) + ' ms' }],
    ['responses', 'responses so far', function (n) { return number(n.responses, 0) }],
    ['errors', 'errors so far', function (n) { return number(n.errors, 0) }],
    ['timeouts', 'timeouts so far', function (n) { return number(n.timeouts, 0) }],
    ['late', 'requests late (over 5 ms) so far', function (n) { return live.meta && live.meta.rate ? number(n.late, 0) : '—' }],
    ['connections', 'connections open', function (n) { return number(n.connections, 0) }],
    ['status', 'status codes so far', function (n) {
      const codes = Object.keys(n.statusCodes || {})
      return codes.length ? codes.map(function (c) { return c + ': ' + number(n.statusCodes[c], 0) }).join(', ') : '—'
    }]
  ]

  function showNumbers (n) {
    live.numbers = n
    const body = $('live-numbers').tBodies[0]
    body.textContent = ''
    if (!n) return
    for (const [key, label, value] of ROWS) {
      const shown = value(n)
      if (shown === null) continue
      const tr = document.createElement('tr')
      tr.dataset.key = key
      const th = document.createElement('th')
      th.scope = 'row'
      text(th, label)
      const td = document.createElement('td')
      text(td, shown)
      tr.appendChild(th)
      tr.appendChild(td)
      body.appendChild(tr)
    }
    const stage = $('stage')
    stage.hidden = !n.stage
    if (n.stage) text(stage, n.stage.text)
    // -f: the round under way (each starts its charts afresh).
    const round = live.round > 1 ? 'round ' + number(live.round, 0) + ', ' : ''
    if (!live.done) text($('status'), 'running: ' + round + number(n.elapsed, 1) + ' s')
  }

  // --- a search ---

  function currentText (c) {
    const verdict = c.verdict ? ' — failing early: ' + c.verdict : ''
    return 'step ' + c.index + ' at ' + number(c.target, 0) + ' req/s (' + c.kind + ', ' + number(c.connections, 0) + ' connections): ' +
      number(c.elapsed, 1) + ' s of ' + number(c.duration, 1) + ' s, ' + number(c.responses, 0) + ' responses, ' + number(c.errors, 0) + ' errors' + verdict
  }

  function showSearch (s) {
    live.search = s
    const holder = $('search')
    for (const id of Object.keys(live.plots)) {
      if (id.indexOf('search-') === 0) {
        live.plots[id].destroy()
        delete live.plots[id]
      }
    }
    holder.textContent = ''
    if (!s) return
    const current = document.createElement('p')
    current.className = 'sentence'
    current.id = 'current-step'
    text(current, s.current ? currentText(s.current) : s.probes.length ? 'between steps' : 'probing the closed-loop rate…')
    holder.appendChild(current)
    for (const p of s.probes) {
      const line = document.createElement('p')
      line.className = 'note'
      text(line, 'closed-loop probe at ' + number(p.connections, 0) + ' connections: ' + number(p.ceiling, 0) + ' req/s')
      holder.appendChild(line)
    }
    for (const part of s.parts) {
      const h2 = document.createElement('h2')
      text(h2, part.connections + ' connection' + (part.connections === 1 ? '' : 's'))
      holder.appendChild(h2)
      const div = document.createElement('div')
      div.className = 'chart'
      div.id = 'chart-' + part.chart.id
      holder.appendChild(div)
      live.plots[part.chart.id] = new uPlot(options(part.chart, width()), part.chart.data, div) // eslint-disable-line new-cap
      window.autocannonReport.swatches(live.plots[part.chart.id], part.chart)
      const wide = document.createElement('div')
      wide.className = 'wide'
      // Made by the server from the steps' figures, every text escaped.
      wide.innerHTML = part.table
      holder.appendChild(wide)
    }
  }

  function showWarning (line) {
    const p = document.createElement('p')
    p.className = 'warning'
    text(p, line)
    $('warnings').appendChild(p)
  }

  // --- the end ---

  function showFinal (final) {
    live.done = true
    live.html = final.html
    const url = URL.createObjectURL(new Blob([final.html], { type: 'text/html' }))
    const frame = $('report')
    frame.addEventListener('load', function () {
      const doc = frame.contentDocument
      if (doc) frame.style.height = (doc.documentElement.scrollHeight + 20) + 'px'
      live.reportLoaded = true
    })
    frame.src = url
    $('download').href = url
    $('live').hidden = true
    $('final').hidden = false
    text($('status'), 'finished')
  }

  function applyState (state) {
    live.meta = state.meta
    live.round = state.round || 1
    if (state.final) return showFinal(state.final)
    drawCharts(state.charts)
    live.samples = state.charts.length ? state.charts[state.charts.length - 1].data[0].length : 0
    showNumbers(state.numbers)
    showSearch(state.search)
    $('warnings').textContent = ''
    for (const line of state.warnings) showWarning(line)
  }

  const source = new EventSource('/events')
  live.source = source
  source.addEventListener('state', function (e) { applyState(JSON.parse(e.data)) })
  source.addEventListener('sample', function (e) {
    const s = JSON.parse(e.data)
    live.samples++
    addRows(s.rows)
    showNumbers(s.numbers)
  })
  source.addEventListener('percentiles', function (e) { addRows(JSON.parse(e.data).rows) })
  source.addEventListener('search', function (e) { showSearch(JSON.parse(e.data)) })
  source.addEventListener('warning', function (e) { showWarning(JSON.parse(e.data).text) })
  source.addEventListener('done', function (e) {
    source.close()
    showFinal(JSON.parse(e.data))
  })
  source.addEventListener('error', function () {
    // The server has closed after the run (or is gone): nothing more
    // will come.
    if (live.done || source.readyState === 2) return
    text($('status'), 'connection lost: retrying…')
  })
  window.addEventListener('resize', function () {
    for (const id of Object.keys(live.plots)) live.plots[id].setSize({ width: width(), height: 360 })
  })
})()
