'use strict'

// help.txt and the parser know the same flags: every flag the help lists
// is accepted, every option the parser defines is in the help, and the
// usage list of autocannon's README is covered.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { OPTIONS, parseCli } = require('../../lib/cli/args')

const help = fs.readFileSync(path.join(__dirname, '..', '..', 'help.txt'), 'utf8')

// The flag lines: "  -c/--connections NUM", "  --on-port", "  -L NUM".
function helpFlags () {
  const entries = []
  for (const line of help.split('\n')) {
    const m = /^ {2}(-[^\s]+)/.exec(line)
    if (m) entries.push(m[1].split('/'))
  }
  return entries
}

// Flag name → option key, as the parser defines them.
function optionIndex () {
  const index = new Map()
  for (const key of Object.keys(OPTIONS)) {
    index.set(key, key)
    for (const alias of [].concat(OPTIONS[key].alias || [])) index.set(alias, key)
  }
  return index
}

function keyOf (flag, index) {
  const name = flag.replace(/^--?/, '')
  if (index.has(name)) return index.get(name)
  // --no-X is yargs' negation of the boolean X.
  const negated = /^no-(.+)$/.exec(name)
  if (negated && index.has(negated[1]) && OPTIONS[index.get(negated[1])].kind === 'boolean') return index.get(negated[1])
  return undefined
}

t.test('every flag in help.txt is an option of the parser', async (t) => {
  const index = optionIndex()
  const entries = helpFlags()
  t.ok(entries.length >= 40, `${entries.length} flag lines`)
  for (const flags of entries) {
    for (const flag of flags) {
      t.ok(keyOf(flag, index), `${flag} is known to the parser`)
      if (flag.startsWith('--')) t.ok(flag.length > 3, `${flag} is a long flag`)
      else t.equal(flag.length, 2, `${flag} is a one-letter flag`)
    }
  }
})

t.test('every option of the parser is in help.txt', async (t) => {
  const index = optionIndex()
  const documented = new Set()
  for (const flags of helpFlags()) for (const flag of flags) documented.add(keyOf(flag, index))
  for (const key of Object.keys(OPTIONS)) {
    // renderProgressBar is documented as -n/--no-progress, found through -n's
    // sibling --no-progress.
    t.ok(documented.has(key), `${key} is documented`)
  }
})

t.test('autocannon\'s usage list is all there', async (t) => {
  const usage = ['-c', '-p', '-d', '-a', '-L', '-S', '-w', '-W', '--warmup', '--on-port', '-m', '-t', '-T', '-b', '-F', '-i', '-H', '--har',
    '-B', '-M', '-O', '-r', '-R', '-C', '-D', '-n', '-l', '-I', '-j', '-f', '-s', '-x', '-E', '--renderStatusCodes', '--cert', '--key',
    '--ca', '--debug', '-v', '-V', '-h']
  const listed = new Set(helpFlags().flat())
  for (const flag of usage) t.ok(listed.has(flag), `${flag} in help.txt`)
})

t.test('each documented flag parses without "Unknown option"', async (t) => {
  for (const flags of helpFlags()) {
    for (const flag of flags) {
      const key = keyOf(flag, optionIndex())
      const kind = OPTIONS[key].kind
      let args = [flag]
      if (kind === 'integer' || kind === 'number' || kind === 'duration') args = [flag, '1']
      else if (kind === 'string' || kind === 'list') args = [flag, 'x']
      try {
        parseCli([...args, 'http://127.0.0.1:1'], {})
        t.pass(flag)
      } catch (err) {
        // Flags whose value is a file fail to read 'x': but never as unknown.
        t.notMatch(err.message, /Unknown option/, `${flag}: ${err.message}`)
      }
    }
  }
})

// help.txt is written by hand; the table of options (lib/core/options.js) is
// what the code reads. Each block of the help agrees with the table: its
// first sentence is the option's help, and a default it states is the
// table's.
function helpBlocks () {
  const blocks = []
  let current = null
  for (const line of help.split('\n')) {
    const m = /^ {2}(-[^\s]+)/.exec(line)
    if (m) {
      current = { flags: m[1].split('/'), text: [] }
      blocks.push(current)
    } else if (current && /^ {6,}\S/.test(line)) {
      current.text.push(line.trim())
    } else {
      current = null
    }
  }
  return blocks
}

function shown (value) {
  if (typeof value === 'string') return `'${value}'`
  return String(value)
}

t.test('help.txt agrees with the table of options: help and defaults', async (t) => {
  const { OPTIONS: TABLE } = require('../../lib/core/options')
  const index = optionIndex()
  const blocks = helpBlocks()
  t.ok(blocks.length >= 50, `${blocks.length} blocks`)
  for (const block of blocks) {
    const key = keyOf(block.flags[0], index)
    const spec = TABLE[key]
    t.ok(spec, `${block.flags.join('/')} is in the table (${key})`)
    if (!spec) continue
    const text = block.text.join(' ')
    t.ok(text.startsWith(spec.help), `${block.flags.join('/')}: help.txt starts with the table's help "${spec.help}"`)
    const stated = /default: ('[^']*'|[\w.]+?)(?:\.|\s|$)/.exec(text)
    // A flag in other units than its option (--precision in percent) states its own.
    const flagDefault = spec.flagScale ? Math.round(spec.default * spec.flagScale * 1e9) / 1e9 : spec.default
    if (stated) t.equal(stated[1], shown(flagDefault), `${block.flags.join('/')}: help.txt's default is the table's`)
    for (const flag of block.flags.filter((f) => /^-[^-]$/.test(f))) {
      t.ok(flag.slice(1) === key || [].concat(spec.alias || []).includes(flag.slice(1)), `${flag} is an alias of ${key} in the table`)
    }
  }
})
