'use strict'

// ESM users import the package by name (`import autocannon, { track } from
// 'cannonade'`): a real short run from an .mjs file in its own process.

const t = require('tap')
const path = require('path')
const { execFile } = require('child_process')

t.test('import autocannon, { track, printResult, aggregateResult, parseArguments } from an .mjs file', async (t) => {
  const script = path.join(__dirname, '..', 'fixtures', 'esm-import.mjs')
  const stdout = await new Promise((resolve, reject) => {
    execFile(process.execPath, [script], { timeout: 60000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`))
      else resolve(stdout)
    })
  })
  const out = JSON.parse(stdout)
  t.same(out.types, ['function', 'function', 'function', 'function', 'function'])
  t.equal(out.sameAsRequire, true, 'import and require give the same module')
  t.equal(out.total, 20, 'the run made its 20 requests')
  t.equal(out.mergedTotal, 20, 'aggregateResult merged the raw run')
  t.equal(out.printed, true, 'printResult printed the summary')
  t.equal(out.parsedConnections, 3, 'parseArguments read -c')
})

// autocannon.mjs names the helpers one by one: one added to autocannon.js
// and not there would be missing for import users only.
t.test('autocannon.mjs exports what autocannon.js exports', async (t) => {
  const cjs = require('../../autocannon')
  const esm = await import('../../autocannon.mjs')
  t.equal(esm.default, cjs, 'the default export is the CommonJS module itself')
  t.same(Object.keys(esm).filter((k) => k !== 'default').sort(), Object.keys(cjs).filter((k) => k !== 'default').sort())
  for (const name of Object.keys(cjs)) if (name !== 'default') t.equal(esm[name], cjs[name], `${name} is the same function`)
})
