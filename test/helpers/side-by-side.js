'use strict'

// The same script run against autocannon 9 (the devDependency
// autocannon-upstream) and against this package, each in a process of
// its own, so that what each prints (stdout, stderr, the exit code) is
// compared as a user would see it. Also the shape of a value (every key
// path and the type there), to compare results key by key.

const path = require('path')
const { spawn } = require('child_process')
const { env } = require('./cli')

const ROOT = path.join(__dirname, '..', '..')
const SIDES = Object.freeze({
  upstream: path.join(ROOT, 'node_modules', 'autocannon-upstream'),
  ours: ROOT
})
const BINS = Object.freeze({
  upstream: path.join(SIDES.upstream, 'autocannon.js'),
  ours: path.join(ROOT, 'bin', 'autocannon.js')
})

function collect (child, timeout) {
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8')
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c) => { stdout += c })
  child.stderr.on('data', (c) => { stderr += c })
  let killed = false
  const timer = setTimeout(() => {
    killed = true
    child.kill('SIGKILL')
  }, timeout)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr, killed })
    })
  })
}

// `source` runs with `autocannon` required from the side's package and
// `args` (JSON) as `ARGS`; resolves to { code, signal, stdout, stderr }.
function runScript (side, source, { args = null, timeout = 30000, extraEnv } = {}) {
  const code = `'use strict'\nconst autocannon = require(${JSON.stringify(SIDES[side])})\nconst ARGS = ${JSON.stringify(args)}\n${source}`
  const child = spawn(process.execPath, ['-e', code], { env: env(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] })
  return collect(child, timeout)
}

// The side's command with `args`.
function runCli (side, args, { timeout = 30000, extraEnv } = {}) {
  const child = spawn(process.execPath, [BINS[side], ...args], { env: env(extraEnv), stdio: ['ignore', 'pipe', 'pipe'] })
  return collect(child, timeout)
}

// Both sides at once (the machine has two cores).
async function bothScripts (source, opts) {
  const [upstream, ours] = await Promise.all([runScript('upstream', source, opts), runScript('ours', source, opts)])
  return { upstream, ours }
}

async function bothClis (args, opts) {
  const [upstream, ours] = await Promise.all([runCli('upstream', args, opts), runCli('ours', args, opts)])
  return { upstream, ours }
}

function typeOf (value) {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (value instanceof Date) return 'Date'
  if (Buffer.isBuffer(value)) return 'Buffer'
  return typeof value
}

// { 'latency.p99': 'number', … }: every key path of a value (the first
// element of an array stands for all) and the type there.
function shape (value, prefix = '', out = {}) {
  const type = typeOf(value)
  out[prefix || '(root)'] = type
  if (type === 'object') for (const key of Object.keys(value)) shape(value[key], prefix ? `${prefix}.${key}` : key, out)
  if (type === 'array' && value.length > 0) shape(value[0], `${prefix}[0]`, out)
  return out
}

// Each key path of `theirs` that `ours` lacks or has with another type.
function missingFrom (theirs, ours) {
  const out = []
  for (const [key, type] of Object.entries(theirs)) {
    if (!(key in ours)) out.push(`${key} (${type}): missing`)
    else if (ours[key] !== type) out.push(`${key}: ${type} there, ${ours[key]} here`)
  }
  return out
}

// Numbers and padding out of a line, so that two runs' lines compare.
function normalise (text) {
  return text.replace(/\d+(\.\d+)?/g, 'N').replace(/[ \t]+/g, ' ').trim()
}

module.exports = { SIDES, BINS, runScript, runCli, bothScripts, bothClis, shape, missingFrom, normalise }
