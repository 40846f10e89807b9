/* global uPlot, Path2D */
'use strict'

// Runs in the report page, after uPlot. Everything it draws was computed
// when the report was written (charts.js): this only turns each
// chart's description into uPlot options. The plots are left on
// window.autocannonReport so that a test, or a curious reader in the
// console, can look at what was drawn.

;(function () {
  const report = JSON.parse(document.getElementById('report-data').textContent)
  const plots = {}
  window.autocannonReport = { charts: plots, ready: false }

  // 1/(1−p) → "99.9%": the label of HdrHistogram's percentile axis.
  function percentile (x, decimals) {
    if (decimals === undefined) decimals = Math.max(0, Math.round(Math.log10(x)) - 2)
    return (100 - 100 / x).toFixed(decimals) + '%'
  }

  // One tick per "nine": 0%, 90%, 99%, 99.9%…
  function decades (u, axis, min, max) {
    const ticks = []
    for (let x = 1; x <= max * 1.000001; x *= 10) if (x >= min / 1.000001) ticks.push(x)
    return ticks
  }

  function plain (v, unit) {
    return v == null ? '—' : (Math.round(v * 1000) / 1000) + unit
  }

  function fromZero (u, min, max) {
    return uPlot.rangeNum(0, max > 0 ? max : 1, 0.1, true)
  }

  // Counts: from 0 to a whole number, at least 1 (an axis of nothing but
  // zeros runs 0 to 1, not -1 to 1 nor 0 to 0.1).
  function wholeFromZero (u, min, max) {
    return [0, Math.max(1, Math.ceil(max > 0 ? max * 1.05 : 1))]
  }

  // Tick steps that are multiples of `unit`: 1, 2, 5, 10, 15, 30, 60… of it.
  function multiples (unit) {
    const out = []
    for (const k of [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 18000, 36000, 86400]) out.push(k * unit)
    return out
  }

  // 1, 2, 5 × 10^n within the range: labelled ticks on a log axis, which
  // otherwise labels only the decades; the values measured when fewer than
  // two of those fall in it (rates close together).
  function oneTwoFive (u, axis, min, max) {
    const ticks = []
    for (let d = Math.pow(10, Math.floor(Math.log10(min))); d <= max; d *= 10) {
      for (const k of [1, 2, 5]) if (k * d >= min / 1.000001 && k * d <= max * 1.000001) ticks.push(k * d)
    }
    if (ticks.length >= 2) return ticks
    return u.data[0].filter(function (x, i, all) { return x != null && all.indexOf(x) === i })
  }

  // Points drawn as squares (a second percentile whose points may sit on
  // the first's: a square around a dot shows both).
  function squares (u, si, i0, i1) {
    const s = u.series[si]
    const size = s.points.size * (uPlot.pxRatio || 1)
    const half = size / 2
    const path = new Path2D()
    const xs = u.data[0]
    const ys = u.data[si]
    for (let i = i0; i <= i1; i++) {
      if (ys[i] == null || xs[i] == null) continue
      const x = u.valToPos(xs[i], 'x', true)
      const y = u.valToPos(ys[i], s.scale, true)
      path.rect(x - half, y - half, size, size)
    }
    return { stroke: path, fill: null }
  }

  // Rings (and words) over points: the charts' verdicts and statuses,
  // which a line alone would not show. Drawn whatever series are shown.
  function drawMarks (u, marks) {
    const ctx = u.ctx
    const px = uPlot.pxRatio || 1
    ctx.save()
    ctx.lineWidth = 2 * px
    // uPlot leaves the dash of its last line and the alignment of its
    // last axis labels set.
    ctx.setLineDash([])
    ctx.textAlign = 'left'
    ctx.textBaseline = 'alphabetic'
    ctx.font = (12 * px) + 'px system-ui, sans-serif'
    for (const m of marks) {
      if (m.y == null) continue
      const x = u.valToPos(m.x, 'x', true)
      const y = u.valToPos(m.y, 'y', true)
      if (!isFinite(x) || !isFinite(y)) continue
      ctx.strokeStyle = m.color
      ctx.beginPath()
      ctx.arc(x, y, 7 * px, 0, 2 * Math.PI)
      ctx.stroke()
      if (m.label) {
        ctx.fillStyle = m.color
        // Left of the point when the word would run off the plot.
        const w = ctx.measureText(m.label).width
        const left = x + 10 * px + w > u.bbox.left + u.bbox.width
        // Below a point under a limit line (the answer), above otherwise.
        ctx.fillText(m.label, left ? x - 10 * px - w : x + 10 * px, m.below ? y + 18 * px : y - 8 * px)
      }
    }
    ctx.restore()
  }

  // An SLO is a limit at every rate, not a measurement: a level line
  // across the whole plot, even over a single step.
  function level (u, si) {
    const stroke = new Path2D()
    const values = u.data[si]
    let v = null
    for (let i = 0; i < values.length && v == null; i++) v = values[i]
    if (v != null) {
      const y = u.valToPos(v, 'y', true)
      stroke.moveTo(u.bbox.left, y)
      stroke.lineTo(u.bbox.left + u.bbox.width, y)
    }
    return { stroke, fill: null, clip: null, band: null, gaps: null, flags: 0 }
  }

  // Room around the outer points, so that none is cut in half by the edge.
  function padded (log) {
    return function (u, min, max) {
      if (min == null || max == null) return [min, max]
      if (log) return [min / 1.25, max * 1.25]
      const pad = (max - min) * 0.05 || Math.abs(max) * 0.1 || 1
      return [min - pad, max + pad]
    }
  }

  function options (chart, width) {
    const percentiles = chart.kind === 'percentiles'
    const unit = chart.yUnit !== undefined ? chart.yUnit : chart.yLabel.indexOf('ms') !== -1 ? ' ms' : ''
    const xUnit = chart.xUnit !== undefined ? chart.xUnit : ' s'
    const series = [{
      label: chart.xLabel,
      value: percentiles
        ? function (u, v) { return v == null ? '—' : percentile(v, 3) }
        : function (u, v) { return plain(v, xUnit) }
    }]
    for (const s of chart.series) {
      const line = {
        label: s.label,
        stroke: s.color,
        width: 2,
        dash: s.dash,
        scale: s.scale || 'y',
        spanGaps: true,
        value: function (u, v) { return plain(v, s.scale === 'y' || !s.scale ? unit : '') }
      }
      // Few points, each a step or a search: every one drawn. An SLO is a
      // limit, not a measurement: no points on it.
      if (chart.points) {
        line.points = s.slo
          ? { show: false }
          : s.marker === 'square'
            ? { show: true, size: 11, width: 2, stroke: s.color, fill: s.color, paths: squares }
            : { show: true, size: 8, stroke: s.color, fill: s.color }
      }
      if (s.slo) line.paths = level
      // A stacked chart's areas (charts.js stacks the values).
      if (s.fill) line.fill = s.fill
      series.push(line)
    }
    const axes = [
      percentiles
        ? { label: chart.xLabel, splits: decades, values: function (u, ticks) { return ticks.map(function (x) { return percentile(x) }) } }
        : chart.xTicks === 'data'
          // A tick at each value measured (connection counts), not at
          // round numbers none of them is.
          ? { label: chart.xLabel, splits: function (u) { return u.data[0] }, filter: function (u, splits) { return splits }, values: function (u, ticks) { return ticks.map(function (x) { return x == null ? null : x.toLocaleString('en-US') }) } }
          : chart.xLog
            ? { label: chart.xLabel, splits: oneTwoFive, filter: function (u, splits) { return splits }, values: function (u, ticks) { return ticks.map(function (x) { return x == null ? null : x.toLocaleString('en-US') }) } }
            // A time axis ticks at whole samples, not between two.
            : chart.xStep ? { label: chart.xLabel, incrs: multiples(chart.xStep) } : { label: chart.xLabel },
      { label: chart.yLabel, scale: 'y', size: 60 }
    ]
    const scales = {
      x: percentiles
        ? { time: false, distr: 3, log: 10, range: function (u, min, max) { return [1, Math.pow(10, Math.max(1, Math.ceil(Math.log10(max || 10))))] } }
        : chart.points ? { time: false, distr: chart.xLog ? 3 : 1, log: 10, range: padded(chart.xLog) } : { time: false },
      y: chart.yLog ? { distr: 3, log: 10 } : { range: fromZero }
    }
    if (chart.y2Label) {
      const right = { label: chart.y2Label, scale: 'errors', side: 1, size: 60, grid: { show: false } }
      if (chart.y2Integer) right.incrs = multiples(1)
      axes.push(right)
      scales.errors = { range: chart.y2Integer ? wholeFromZero : fromZero }
    }
    // The page is read, not hovered: the legend names the lines, with no
    // value boxes that stay empty ("—") until a cursor moves over a plot.
    const opts = { title: chart.title, width, height: 360, series, axes, scales, legend: { live: false } }
    if (chart.marks && chart.marks.length) opts.hooks = { draw: [function (u) { drawMarks(u, chart.marks) }] }
    return opts
  }

  const holders = []
  for (const chart of report.charts) {
    const holder = document.getElementById('chart-' + chart.id)
    const width = holder.clientWidth || 900
    plots[chart.id] = new uPlot(options(chart, width), chart.data, holder) // eslint-disable-line new-cap
    holders.push([holder, plots[chart.id]])
  }

  window.addEventListener('resize', function () {
    for (const [holder, plot] of holders) plot.setSize({ width: holder.clientWidth || 900, height: 360 })
  })
  window.autocannonReport.ready = true
})()
