'use strict'

// A copy of the package's files in a folder of the test's own, with the
// checkout's node_modules linked in: what the CLI loads can then be built,
// edited or left out (dist/) without touching the checkout, which other
// tests run at the same time. `bundle`: build dist/ in the copy, as
// `npm install` does in a clone.

const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFileSync } = require('child_process')

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

module.exports = { packageCopy }
