'use strict'

// `autocannon report a.json [b.json …] [-o report.html]`: saved results
// and capacity searches (JSON or NDJSON, as -j writes them) into one HTML
// report, one line per file; to stdout without -o.

const path = require('path')
const { raise } = require('../core/errors')
const { readInputs } = require('../results/saved-result')
const { checkDestinations, writeReport } = require('../output/outputs')
const { parseCommand } = require('./subcommand')
const { EXIT } = require('./exit-codes')

const USAGE = 'usage: autocannon report a.json [b.json …] [-o report.html]'

function run (argv, { stdout = process.stdout } = {}) {
  const a = parseCommand(argv, { name: 'report', usage: USAGE, strings: ['output'], aliases: { output: 'o' } })
  if (a.help) {
    stdout.write(`${USAGE}\n`)
    return EXIT.OK
  }
  const files = a._.map(String)
  if (files.length === 0) throw raise('AC_INVALID_ARGUMENT', `report needs at least one saved result or search (${USAGE})`)
  const output = a.output === undefined ? undefined : String(a.output)
  if (output !== undefined) checkDestinations({ html: output })
  const inputs = []
  const names = []
  for (const file of files) {
    const read = readInputs(file, { need: ['histograms', 'series'] })
    const base = path.basename(file).replace(/\.(nd)?json$/i, '')
    read.forEach(({ value }, i) => {
      inputs.push(value)
      names.push(read.length > 1 ? `${base} #${i + 1}` : base)
    })
  }
  writeReport(inputs, { names, file: output }, { stdout })
  return EXIT.OK
}

module.exports = { run }
