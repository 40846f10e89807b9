'use strict'

// Reads printed output back: the box tables as arrays of rows of cells, and
// the summary lines, so tests can compare what was shown with the numbers.

const { stripVTControlCharacters } = require('util')

function stripAnsi (text) {
  return stripVTControlCharacters(text)
}

// Every table in `text`, each an array of rows (the header row first),
// each row an array of trimmed cell strings.
function parseTables (text) {
  const tables = []
  let current = null
  for (const raw of stripAnsi(text).split(/\r?\n/)) {
    const line = raw.trim()
    if (line.startsWith('┌')) {
      current = []
      tables.push(current)
    } else if (line.startsWith('│') && current) {
      current.push(line.slice(1, -1).split('│').map((cell) => cell.trim()))
    } else if (line.startsWith('└')) {
      current = null
    }
  }
  return tables
}

// A table as { rowName: { columnName: cell } }.
function tableByName (table) {
  const [head, ...rows] = table
  const out = {}
  for (const row of rows) {
    const named = {}
    head.forEach((col, i) => { named[col] = row[i] })
    out[row[0]] = named
  }
  return out
}

// "1.2 kB" → bytes, as pretty-bytes (base 1000) wrote them.
function parseBytes (text) {
  const m = /^(-?[\d.]+) (B|kB|MB|GB|TB)$/.exec(text)
  if (!m) throw new Error(`not a byte size: ${text}`)
  const scale = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 }[m[2]]
  return Number(m[1]) * scale
}

function parseMs (text) {
  const m = /^(-?[\d.]+) ms$/.exec(text)
  if (!m) throw new Error(`not milliseconds: ${text}`)
  return Number(m[1])
}

function parseCount (text) {
  return Number(text.replace(/,/g, ''))
}

module.exports = { stripAnsi, parseTables, tableByName, parseBytes, parseMs, parseCount }
