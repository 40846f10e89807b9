'use strict'

// The seam between a Client and its framing, read from where it is
// written once: the top of lib/client/client.js. FRAMING: what a Client
// may use of its framing object (a member line names a field, or calls by
// the names it gives with their arguments); CLIENT: what a framing may
// call back of its Client (calls only, no field).

const fs = require('fs')
const path = require('path')

const SOURCE = fs.readFileSync(path.join(__dirname, '..', '..', 'lib', 'client', 'client.js'), 'utf8')

// The comment lines under `heading`, up to the next empty comment line.
function block (heading) {
  const lines = SOURCE.split('\n')
  const start = lines.findIndex((line) => line === `// ${heading}`)
  if (start === -1) throw new Error(`lib/client/client.js has no "${heading}" list`)
  const out = []
  for (let i = start + 1; i < lines.length && lines[i] !== '//'; i++) out.push(lines[i])
  return out
}

// A member line ("//   name…" at three spaces; its description after two
// spaces) → the names it declares: the calls it shows, or its one field.
function members (lines, { calls = false } = {}) {
  const names = []
  for (const line of lines) {
    const m = /^\/\/ {3}(\S.*)$/.exec(line)
    if (!m) continue
    const declared = m[1].split(/ {2,}/)[0]
    const called = [...declared.matchAll(/([A-Za-z]+)\(/g)].map((c) => c[1])
    if (called.length > 0) names.push(...called)
    else if (!calls) names.push(/^[A-Za-z]+/.exec(declared)[0])
  }
  return names
}

const FRAMING = members(block('What the Client uses of its framing:'))
const CLIENT = members(block('What the framing calls back (it reads no field of the Client):'), { calls: true })

module.exports = { FRAMING, CLIENT }
