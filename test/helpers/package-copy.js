'use strict'

// A copy of the package's files in a folder of the test's own, with the
// checkout's node_modules linked in: what the CLI loads can then be built,
// edited or left out (dist/) without touching the checkout, which other
// tests run at the same time. `bundle`: build dist/ in the copy, as
// `npm install` does in a clone.

const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFile, execFileSync } = require('child_process')

const ROOT = path.join(__dirname, '..', '..')
const COPIED = ['bin', 'lib', 'scripts', 'package.json', 'help.txt']

function packageCopy (t, { bundle }) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-package-'))
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }))
  for (const entry of COPIED) fs.cpSync(path.join(ROOT, entry), path.join(root, entry), { recursive: true })
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir')
  if (bundle) execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cli.js')], { stdio: 'pipe' })
  return { root, bin: path.join(root, 'bin', 'autocannon.js') }
}

// The CLI at `bin` as a user's shell runs it. tap adds its hooks to the
// NODE_OPTIONS of every process a test starts (and a preloaded hook turns
// the code cache off): /usr/bin/env takes them out again, with the
// caller's colour and PORT settings, then sets `vars`. Resolves to
// { code, stdout, stderr } whatever the exit code.
function runAsUser (bin, args, { vars = {}, cwd, timeout = 60000 } = {}) {
  const unset = ['NODE_OPTIONS', 'NODE_V8_COVERAGE', 'NODE_COMPILE_CACHE', 'PORT', 'NO_COLOR', 'FORCE_COLOR'].flatMap((k) => ['-u', k])
  const assignments = Object.entries(vars).map(([k, v]) => `${k}=${v}`)
  return new Promise((resolve) => {
    execFile('env', [...unset, ...assignments, process.execPath, bin, ...args], { cwd, timeout }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, stdout, stderr })
    })
  })
}

module.exports = { packageCopy, runAsUser }
