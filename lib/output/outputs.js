'use strict'

// Every output, chosen here and nowhere else: a renderer (value in, string
// out), the option that asks for it and where its string goes: stdout,
// stderr, or the file the option names. What is rendered is a run's
// result, a capacity search, or a comparison. A new output is one
// renderer file and one line below.

const fs = require('fs')
const path = require('path')
const { raise } = require('../core/errors')
const { distortionLine } = require('../results/generator-health')
const { lazy } = require('../core/lazy')
// Lazy: each renderer only when its output is asked for.
const printResult = lazy(() => require('./print-result')) // the tables (not -j)
const hgrm = lazy(() => require('./hgrm')) // --hgrm
const compareTable = lazy(() => require('./compare-table')) // compare's table
const htmlReport = lazy(() => require('./html/report')) // --html, report

const json = (value) => JSON.stringify(value) + '\n'

// One line after the tables when the generator's own pauses may be in
// the latency (lib/results/generator-health.js), whatever else is asked.
function healthLine (result) {
  const line = distortionLine(result)
  return line ? `${line}\n` : ''
}
const html = (value) => htmlReport().renderHtml([value])

// option: the output is made when opts[option] is set (null: always).
const OUTPUTS = {
  result: [
    { option: 'renderResultsTable', to: 'stderr', render: (result, opts) => printResult()(result, opts) },
    { option: null, to: 'stderr', render: healthLine },
    { option: 'json', to: 'stdout', render: json },
    { option: 'out', to: 'file', render: json },
    { option: 'html', to: 'file', render: html },
    { option: 'hgrm', to: 'file', render: (result) => hgrm().renderHgrm(result) }
  ],
  // The steps were shown as they ended (print-search.js); what is left is
  // the search as a whole, and its closing sentences, whatever else is
  // asked for.
  search: [
    { option: 'json', to: 'stdout', render: json },
    { option: 'out', to: 'file', render: json },
    { option: 'html', to: 'file', render: html },
    { option: null, to: 'stderr', render: (out) => out.searches.map((s) => `${s.sentence}\n`).join('') }
  ],
  comparison: [
    { option: 'table', to: 'stdout', render: (cmp) => compareTable().formatComparison(cmp) },
    { option: 'json', to: 'stdout', render: json }
  ]
}

function fileOptions () {
  const names = new Set()
  for (const list of Object.values(OUTPUTS)) for (const o of list) if (o.to === 'file') names.add(o.option)
  return [...names]
}

// Before the run: a report that cannot be written should not cost a
// benchmark first.
function checkDestinations (opts) {
  for (const option of fileOptions()) {
    if (!opts[option]) continue
    const file = path.resolve(String(opts[option]))
    const dir = path.dirname(file)
    try {
      if (!fs.statSync(dir).isDirectory()) throw new Error('not a directory')
      fs.accessSync(dir, fs.constants.W_OK)
      if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new Error('it is a directory')
    } catch (err) {
      throw raise('AC_FILE_UNWRITABLE', `--${option} ${opts[option]}: cannot write there (${err.code === 'ENOENT' ? 'no such directory' : err.message})`)
    }
  }
}

// Read when written to: Node makes process.stdout on first use, and a run
// that prints only its tables never needs it.
const STREAMS = {
  get stdout () { return process.stdout },
  get stderr () { return process.stderr }
}

// `to`: 'stdout', 'stderr', or a file name.
function emit (text, to, streams = STREAMS) {
  if (to === 'stdout' || to === 'stderr') streams[to].write(text)
  else fs.writeFileSync(to, text)
}

// kind: 'result', 'search' or 'comparison'.
function writeOutputs (value, opts, { streams = STREAMS, kind = 'result' } = {}) {
  for (const output of OUTPUTS[kind]) {
    if (output.option !== null && !opts[output.option]) continue
    const text = output.render(value, { ...opts, outputStream: streams.stderr })
    emit(text, output.to === 'file' ? opts[output.option] : output.to, streams)
  }
}

// `autocannon report`: saved results and searches side by side in one
// page, named after their files, to a file or to stdout.
function writeReport (inputs, { names, file }, streams = STREAMS) {
  emit(htmlReport().renderHtml(inputs, { names }), file === undefined ? 'stdout' : file, streams)
}

module.exports = { OUTPUTS, checkDestinations, writeOutputs, writeReport }
