'use strict'

// The docs cover what the code offers: every flag of help.txt (the
// subcommands' too), every option of the table of options
// (lib/core/options.js) and every registered error and warning code is
// named, as inline code, in README.md or a page of docs/. A flag counts as
// a word of an inline code span (`-c`, `-c/--connections`, `-c 100`); an
// option of the library (or of findMaxRate, track or printResult) as a
// span of its own (`connections`), as the option lists give them; a code
// as a span of its own (`AC_TIMEOUT`).

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { ROOT, pages, read, codeSpans } = require('../helpers/docs')
const { OPTIONS } = require('../../lib/core/options')
const { RAISED, COUNTED } = require('../../lib/core/errors')
// Every protocol's codes too, registered from its own folder.
require('../../lib/protocols/registry').registerAllCodes()
const { WARNINGS } = require('../../lib/core/warnings')

const help = fs.readFileSync(path.join(ROOT, 'help.txt'), 'utf8')

// The flags of help.txt: its flag lines ("  -c/--connections NUM") and the
// flags of its command lines ("  autocannon merge … [--expect N]").
function helpFlags () {
  const flags = new Set()
  for (const line of help.split('\n')) {
    const flagLine = /^ {2}(-[^\s]+)/.exec(line)
    if (flagLine) for (const flag of flagLine[1].split('/')) flags.add(flag)
    if (/^ {2}autocannon [a-z]+ /.test(line)) for (const m of line.matchAll(/(?<![\w-])(--?[A-Za-z][\w-]*)/g)) flags.add(m[1])
  }
  return flags
}

// What the docs name: the words of their inline code (flags split at '/',
// '=' and brackets) and the spans themselves.
function named (texts) {
  const words = new Set()
  const spans = new Set()
  for (const text of texts) {
    for (const span of codeSpans(text)) {
      spans.add(span)
      for (const word of span.split(/[\s,()[\]{}'"<>|;=]+/)) {
        if (word.startsWith('-')) for (const part of word.split('/')) words.add(part)
        else words.add(word)
      }
    }
  }
  return { words, spans }
}

// Options the library (autocannon(), findMaxRate(), track() or
// printResult()) takes by name: those not only a flag of the CLI.
function byName (spec) {
  return spec.library !== false || spec.search === true || spec.cli === false
}

function missing (texts) {
  const { words, spans } = named(texts)
  const out = []
  for (const flag of helpFlags()) if (!words.has(flag)) out.push(`flag ${flag}`)
  for (const [key, spec] of Object.entries(OPTIONS)) if (byName(spec) && !spans.has(key)) out.push(`option ${key}`)
  for (const code of [...Object.keys(RAISED), ...Object.keys(COUNTED), ...Object.keys(WARNINGS)]) {
    if (!spans.has(code)) out.push(`code ${code}`)
  }
  return out
}

const docs = pages().filter((p) => p !== 'CHANGELOG.md')

t.test('the docs are read', async (t) => {
  t.ok(docs.includes('README.md'), 'README.md')
  t.ok(docs.length >= 10, `${docs.length} pages: ${docs.join(', ')}`)
  t.ok(helpFlags().size >= 80, `${helpFlags().size} flags in help.txt`)
  for (const flag of ['-c', '--connections', '--no-progress', '-L', '--on-port', '--expect', '--shards', '--alpha', '-o']) {
    t.ok(helpFlags().has(flag), `help.txt's ${flag} is read`)
  }
})

t.test('a flag, an option or a code the docs leave out is found', async (t) => {
  const texts = docs.map(read)
  t.same(missing(texts), [], 'nothing left out (the check below proves it can fail)')
  // Each name taken out of every page, wherever it is.
  const without = (text, name) => text.replace(new RegExp(`(?<![\\w-])${name}(?![\\w-])`, 'g'), 'x')
  const found = missing(texts.map((text) => without(without(without(text, '--shard'), 'AC_SHARD_GAP'), 'maxSteps')))
  t.ok(found.includes('flag --shard'), '--shard, once left out, is missing')
  t.ok(found.includes('code AC_SHARD_GAP'), 'AC_SHARD_GAP, once left out, is missing')
  t.ok(found.includes('option maxSteps'), 'maxSteps, once left out, is missing')
})

t.test('every flag of help.txt is documented', async (t) => {
  const { words } = named(docs.map(read))
  for (const flag of helpFlags()) t.ok(words.has(flag), `${flag} is in README.md or docs/`)
})

t.test('every option of the table is documented', async (t) => {
  const { words, spans } = named(docs.map(read))
  for (const [key, spec] of Object.entries(OPTIONS)) {
    if (byName(spec)) t.ok(spans.has(key), `\`${key}\` is in README.md or docs/`)
    // Flags of the CLI only: through their flags, above.
    else {
      const flags = [key, ...[].concat(spec.alias || [])].flatMap((name) => name.length === 1 ? [`-${name}`] : [`--${name}`, `--no-${name}`])
      t.ok(flags.some((flag) => words.has(flag)), `${key}'s flag is in README.md or docs/`)
    }
  }
})

t.test('every registered error and warning code is documented', async (t) => {
  const { spans } = named(docs.map(read))
  for (const code of [...Object.keys(RAISED), ...Object.keys(COUNTED), ...Object.keys(WARNINGS)]) {
    t.ok(spans.has(code), `\`${code}\` is in README.md or docs/`)
  }
})
