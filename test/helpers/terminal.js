'use strict'

// The CLI in a terminal: util-linux `script` gives it a pseudo-TTY.

const { execFileSync, spawn } = require('child_process')
const { BIN, env: cliEnv } = require('./cli')

// Whether `command args` runs here (a tool a test needs is installed).
function installed (command, args) {
  try {
    execFileSync(command, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

const hasScript = () => installed('script', ['--version'])

const quote = (s) => `'${String(s).replace(/'/g, '\'\\\'\'')}'`

// Runs the CLI inside `script -qec` (`-qfec` with `flush`: each write
// shown as it is made), killed after `ms`; resolves to { code, output }
// (stdout and stderr both, as the terminal showed them).
function inTerminal (args, { env = {}, flush = false, ms }) {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ')
  return new Promise((resolve, reject) => {
    const child = spawn('script', [flush ? '-qfec' : '-qec', command, '/dev/null'], { env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c) => { output += c })
    child.stderr.on('data', (c) => { output += c })
    const timer = setTimeout(() => child.kill('SIGKILL'), ms)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

module.exports = { installed, hasScript, inTerminal }
