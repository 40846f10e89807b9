/* global uPlot */
'use strict'

// Runs in the report page, after uPlot. Everything it draws was computed
// when the report was written (lib/report/charts.js): this only turns each
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

  function options (chart, width) {
    const percentiles = chart.kind === 'percentiles'
    const unit = chart.yLabel.indexOf('ms') !== -1 ? ' ms' : ''
    const series = [{
      label: chart.xLabel,
      value: percentiles
        ? function (u, v) { return v == null ? '—' : percentile(v, 3) }
        : function (u, v) { return plain(v, ' s') }
    }]
    for (const s of chart.series) {
      series.push({
        label: s.label,
        stroke: s.color,
        width: 2,
        dash: s.dash,
        scale: s.scale || 'y',
        spanGaps: true,
        value: function (u, v) { return plain(v, s.scale === 'y' || !s.scale ? unit : '') }
      })
    }
    const axes = [
      percentiles
        ? { label: chart.xLabel, splits: decades, values: function (u, ticks) { return ticks.map(function (x) { return percentile(x) }) } }
        : { label: chart.xLabel },
      { label: chart.yLabel, scale: 'y', size: 60 }
    ]
    const scales = {
      x: percentiles
        ? { time: false, distr: 3, log: 10, range: function (u, min, max) { return [1, Math.pow(10, Math.max(1, Math.ceil(Math.log10(max || 10))))] } }
        : { time: false },
      y: { range: fromZero }
    }
    if (chart.y2Label) {
      axes.push({ label: chart.y2Label, scale: 'errors', side: 1, size: 60, grid: { show: false } })
      scales.errors = { range: fromZero }
    }
    return { title: chart.title, width: width, height: 360, series: series, axes: axes, scales: scales }
  }

  const holders = []
  for (const chart of report.charts) {
    const holder = document.getElementById('chart-' + chart.id)
    const width = holder.clientWidth || 900
    plots[chart.id] = new uPlot(options(chart, width), chart.data, holder)
    holders.push([holder, plots[chart.id]])
  }

  window.addEventListener('resize', function () {
    for (const [holder, plot] of holders) plot.setSize({ width: holder.clientWidth || 900, height: 360 })
  })
  window.autocannonReport.ready = true
})()
