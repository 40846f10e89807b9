'use strict'

// Every output of a finished result is chosen here and nowhere else. Each
// is a renderer (result in, string out), the option that asks for it and
// where its string goes: stdout, stderr, or the file the option names. A
// new output is one renderer file and one line in OUTPUTS.

const fs = require('fs')
const path = require('path')
const { raise } = require('../core/errors')

const OUTPUTS = [
  { option: 'renderResultsTable', to: 'stderr', render: (result, opts) => require('./print-result')(result, opts) },
  { option: 'json', to: 'stdout', render: (result) => JSON.stringify(result) + '\n' },
  { option: 'out', to: 'file', render: (result) => JSON.stringify(result) + '\n' },
  { option: 'html', to: 'file', render: (result) => require('./html/report').renderHtml([result]) },
  { option: 'hgrm', to: 'file', render: (result) => require('./hgrm').renderHgrm(result) }
]

// Options that only choose outputs: the CLI keeps them from the library.
const OUTPUT_OPTIONS = Object.freeze([...OUTPUTS.map((o) => o.option),
  'renderLatencyTable', 'renderStatusCodes', 'verbose'])

// Before the run: a report that cannot be written should not cost a
// benchmark first.
function checkDestinations (opts) {
  for (const output of OUTPUTS) {
    if (output.to !== 'file' || !opts[output.option]) continue
    const file = path.resolve(String(opts[output.option]))
    const dir = path.dirname(file)
    try {
      if (!fs.statSync(dir).isDirectory()) throw new Error('not a directory')
      fs.accessSync(dir, fs.constants.W_OK)
      if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new Error('it is a directory')
    } catch (err) {
      throw raise('AC_FILE_UNWRITABLE', `--${output.option} ${opts[output.option]}: cannot write there (${err.code === 'ENOENT' ? 'no such directory' : err.message})`)
    }
  }
}

function writeOutputs (result, opts, streams = { stdout: process.stdout, stderr: process.stderr }) {
  for (const output of OUTPUTS) {
    if (!opts[output.option]) continue
    const text = output.render(result, { ...opts, outputStream: streams.stderr })
    if (output.to === 'file') fs.writeFileSync(opts[output.option], text)
    else streams[output.to].write(text)
  }
}

module.exports = { OUTPUTS, OUTPUT_OPTIONS, checkDestinations, writeOutputs }
