'use strict'

// `autocannon report a.json [b.json …] [-o report.html]`: saved results
// and capacity searches (JSON or NDJSON, as -j writes them) into one HTML
// report, one line per file; to stdout without -o.

const fs = require('fs')
const path = require('path')
const { raise } = require('../core/errors')
const { readInputs } = require('../results/saved-result')

const USAGE = 'usage: autocannon report a.json [b.json …] [-o report.html]'

function parse (argv) {
  const { argv: a, error } = require('yargs-parser').detailed(argv, {
    string: ['output'],
    boolean: ['help'],
    alias: { output: 'o', help: 'h' },
    configuration: { 'parse-positional-numbers': false, 'camel-case-expansion': false }
  })
  if (error) throw raise('AC_INVALID_ARGUMENT', `${error.message.split('\n')[0]} (${USAGE})`)
  const unknown = Object.keys(a).filter((k) => !['_', 'output', 'o', 'help', 'h'].includes(k))
  if (unknown.length) throw raise('AC_INVALID_ARGUMENT', `Unknown option for report: --${unknown[0]} (${USAGE})`)
  return a
}

function run (argv, { stdout = process.stdout } = {}) {
  const a = parse(argv)
  if (a.help) {
    stdout.write(`${USAGE}\n`)
    return 0
  }
  const files = a._.map(String)
  if (files.length === 0) throw raise('AC_INVALID_ARGUMENT', `report needs at least one saved result or search (${USAGE})`)
  const output = a.output === undefined ? undefined : String(a.output)
  if (output !== undefined) require('../output/outputs').checkDestinations({ html: output })
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
  const html = require('../output/html/report').renderHtml(inputs, { names })
  if (output === undefined) stdout.write(html)
  else fs.writeFileSync(output, html)
  return 0
}

module.exports = { run }
