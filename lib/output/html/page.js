/* global uPlot, Path2D */
'use strict'

// Runs in the report page, after uPlot. Everything it draws was computed
// when the report was written (charts.js): this only turns each
// chart's description into uPlot options. The plots are left on
// window.autocannonReport so that a test, or a curious reader in the
// console, can look at what was drawn.

;(function () {
  // The dashboard loads this script for its options() alone: no data of
  // a report in its page.
  const data = document.getElementById('report-data')
  const report = data ? JSON.parse(data.textContent) : { charts: [] }
  const plots = {}
  window.autocannonReport = { charts: plots, ready: false, options, swatches }

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

  // A time axis: ticks at whole samples (multiples of `unit`, as few as
  // keep about a dozen), counted from the first sample's, which is always
  // one: uPlot's own ticks start at the first multiple of their step past
  // the axis' start, and drop the first sample when it ends a moment
  // after its grid point (1.002 s).
  function timeTicks (unit) {
    return function (u, axis, min, max) {
      const xs = u.data[0]
      const first = xs.length && xs[0] != null ? Math.round(xs[0] / unit) * unit : Math.ceil(min / unit) * unit
      let incr = unit
      for (const k of multiples(unit)) {
        incr = k
        if ((max - first) / k <= 12) break
      }
      const ticks = []
      for (let x = first; x <= max + unit * 0.001; x += incr) ticks.push(Math.round(x * 1000) / 1000)
      return ticks
    }
  }

  // The x range of a time axis: its samples', widened to the grid points
  // they are a moment past, so that the first tick is on the axis.
  function onGrid (unit) {
    return function (u, min, max) {
      if (min == null || max == null) return [min, max]
      const lo = Math.min(min, Math.round(min / unit) * unit)
      const hi = Math.max(max, Math.round(max / unit) * unit)
      return lo === hi ? [lo - unit, hi + unit] : [lo, hi]
    }
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
    // Each word drawn, and where (CSS px), for a test to check.
    const placed = []
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
        const box = labelBox(u, m, x, y, ctx.measureText(m.label).width, px)
        ctx.fillText(m.label, box.x, box.y + box.h - 3 * px)
        placed.push({ label: m.label, x: box.x / px, y: box.y / px, w: box.w / px, h: box.h / px, crossings: box.crossings })
      }
    }
    u.labels = placed
    ctx.restore()
  }

  // Where a mark's word goes: of the places around its point (right or
  // left of it, above or below, nearer or further), the first that stays
  // on the plot and crosses the fewest drawn lines; the answer's word
  // (below: true) tries below first.
  function labelBox (u, m, x, y, w, px) {
    const h = 14 * px
    const gap = 10 * px
    const right = u.bbox.left + u.bbox.width
    const bottom = u.bbox.top + u.bbox.height
    const places = []
    const rows = m.below ? [8, 26, -22, -40, 44, -58] : [-22, 8, -40, 26, -58, 44]
    for (const dy of rows) {
      for (const dx of [gap, -gap - w]) places.push({ x: x + dx, y: y + dy * px, w, h })
    }
    let best = null
    for (const p of places) {
      if (p.x < u.bbox.left || p.x + w > right || p.y < u.bbox.top || p.y + h > bottom) continue
      p.crossings = crossings(u, p)
      if (best === null || p.crossings < best.crossings) best = p
      if (best.crossings === 0) break
    }
    return best || { ...places[0], crossings: -1 }
  }

  // How many segments of the drawn lines pass through a box (canvas px).
  function crossings (u, box) {
    let n = 0
    const xs = u.data[0]
    for (let si = 1; si < u.series.length; si++) {
      const s = u.series[si]
      if (!s.show) continue
      let prev = null
      for (let i = 0; i < xs.length; i++) {
        const v = u.data[si][i]
        if (v == null || xs[i] == null) continue
        const p = [u.valToPos(xs[i], 'x', true), u.valToPos(v, s.scale, true)]
        if (prev !== null && segmentInBox(prev, p, box)) n++
        prev = p
      }
    }
    return n
  }

  // Whether the segment a–b meets the box: clipped to it, one side at a time
  // (Liang–Barsky).
  function segmentInBox (a, b, box) {
    let t0 = 0
    let t1 = 1
    const dx = b[0] - a[0]
    const dy = b[1] - a[1]
    const edges = [[-dx, a[0] - box.x], [dx, box.x + box.w - a[0]], [-dy, a[1] - box.y], [dy, box.y + box.h - a[1]]]
    for (const [p, q] of edges) {
      if (p === 0) {
        if (q < 0) return false
        continue
      }
      const r = q / p
      if (p < 0) {
        if (r > t1) return false
        if (r > t0) t0 = r
      } else {
        if (r < t0) return false
        if (r < t1) t1 = r
      }
    }
    return true
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
            : chart.xStep
              ? { label: chart.xLabel, splits: timeTicks(chart.xStep), filter: function (u, splits) { return splits }, values: function (u, ticks) { return ticks.map(function (x) { return x == null ? null : String(x) }) } }
              : { label: chart.xLabel },
      { label: chart.yLabel, scale: 'y', size: 60 }
    ]
    const scales = {
      x: percentiles
        ? { time: false, distr: 3, log: 10, range: function (u, min, max) { return [1, Math.pow(10, Math.max(1, Math.ceil(Math.log10(max || 10))))] } }
        : chart.points ? { time: false, distr: chart.xLog ? 3 : 1, log: 10, range: padded(chart.xLog) } : chart.xStep ? { time: false, range: onGrid(chart.xStep) } : { time: false },
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

  // The legend's swatch of each line: a short stretch of the line itself,
  // its colour and its dash (uPlot's is a square of the colour alone,
  // which cannot tell a run's p50 from its p99).
  function swatches (u, chart) {
    const rows = u.root.querySelectorAll('.u-legend .u-series')
    // The x series has a row only in a live legend.
    const skip = rows.length > chart.series.length ? 1 : 0
    chart.series.forEach(function (s, k) {
      const row = rows[k + skip]
      const marker = row && row.querySelector('.u-marker')
      if (!marker) return
      const px = 2
      const canvas = document.createElement('canvas')
      canvas.width = 28 * px
      canvas.height = 12 * px
      canvas.className = 'swatch'
      canvas.dataset.dash = s.dash ? s.dash.join(',') : ''
      canvas.dataset.color = s.color
      const ctx = canvas.getContext('2d')
      if (s.fill) {
        ctx.fillStyle = s.fill
        ctx.fillRect(0, 6 * px, 28 * px, 6 * px)
      }
      ctx.strokeStyle = s.color
      ctx.lineWidth = 2 * px
      ctx.setLineDash((s.dash || []).map(function (d) { return d * px }))
      ctx.beginPath()
      ctx.moveTo(0, 6 * px)
      ctx.lineTo(28 * px, 6 * px)
      ctx.stroke()
      if (s.marker === 'square') ctx.strokeRect(10 * px, 2 * px, 8 * px, 8 * px)
      marker.replaceWith(canvas)
    })
  }

  const holders = []
  for (const chart of report.charts) {
    const holder = document.getElementById('chart-' + chart.id)
    const width = holder.clientWidth || 900
    plots[chart.id] = new uPlot(options(chart, width), chart.data, holder) // eslint-disable-line new-cap
    swatches(plots[chart.id], chart)
    holders.push([holder, plots[chart.id]])
  }

  window.addEventListener('resize', function () {
    for (const [holder, plot] of holders) plot.setSize({ width: holder.clientWidth || 900, height: 360 })
  })
  window.autocannonReport.ready = true
})()
