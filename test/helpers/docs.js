'use strict'

// The documentation as its tests read it (test/docs/, and the runnable
// examples' test/e2e/docs-runnable.test.js): the pages (README.md,
// CHANGELOG.md, docs/**/*.md), their fenced blocks, their inline code and
// links outside those blocks, and their headings' anchors as GitHub makes
// them.

const fs = require('fs')
const path = require('path')

const ROOT = path.join(__dirname, '..', '..')
const DOCS = path.join(ROOT, 'docs')

// Every page, as paths from the root: README.md, CHANGELOG.md, then docs/.
function pages () {
  const docs = fs.existsSync(DOCS)
    ? fs.readdirSync(DOCS, { recursive: true }).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f).split(path.sep).join('/')).sort()
    : []
  return ['README.md', 'CHANGELOG.md', ...docs]
}

function read (page) {
  return fs.readFileSync(path.join(ROOT, page), 'utf8')
}

// The fenced blocks of a page: { info, lang, runnable, code, line } (line:
// of the opening fence, from 1). A fence is ``` or ~~~, three or more, up
// to a closing fence of the same kind and at least its length.
function fencedBlocks (text) {
  const blocks = []
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(lines[i])
    if (!open) continue
    const fence = open[2]
    const info = open[3].trim()
    const body = []
    let j = i + 1
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j])
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break
      // A block indented under a list item: its lines lose that indent.
      body.push(lines[j].startsWith(open[1]) ? lines[j].slice(open[1].length) : lines[j])
    }
    const words = info.split(/\s+/).filter(Boolean)
    blocks.push({ info, lang: words[0] || '', runnable: words.slice(1).includes('runnable'), code: body.join('\n'), line: i + 1 })
    i = j
  }
  return blocks
}

// The page with its fenced blocks blanked out (lines kept, so that line
// numbers still hold).
function withoutBlocks (text) {
  const lines = text.split('\n')
  for (const block of fencedBlocks(text)) {
    const count = block.code.split('\n').length + 2
    for (let k = block.line - 1; k < Math.min(lines.length, block.line - 1 + count); k++) lines[k] = ''
  }
  return lines.join('\n')
}

// The inline code spans outside fenced blocks: `x`, ``x ` y``.
function codeSpans (text) {
  const spans = []
  for (const m of withoutBlocks(text).matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)) spans.push(m[2].trim())
  return spans
}

// The links outside code: [text](target) and ![alt](target), with their
// line.
function links (text) {
  const found = []
  const lines = withoutBlocks(text).split('\n')
  lines.forEach((line, i) => {
    const plain = line.replace(/(`+)[^`]*?\1/g, (m) => ' '.repeat(m.length))
    for (const m of plain.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: m[1], line: i + 1 })
  })
  return found
}

// A heading's anchor as GitHub makes it (github-slugger): the heading's
// text as rendered, in lower case, without punctuation but hyphens and
// underscores, spaces as hyphens.
function slug (heading) {
  const textOf = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*|_)(\S[^*_]*?)\1/g, '$2')
    .replace(/<[^>]+>/g, '')
  return textOf.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-')
}

// Every anchor a page has: its headings' slugs, a repeated one with -1,
// -2… as GitHub numbers them.
function anchors (text) {
  const seen = new Map()
  const out = new Set()
  for (const line of withoutBlocks(text).split('\n')) {
    const m = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const base = slug(m[1])
    const n = seen.get(base) || 0
    seen.set(base, n + 1)
    out.add(n === 0 ? base : `${base}-${n}`)
  }
  return out
}

module.exports = { ROOT, DOCS, pages, read, fencedBlocks, withoutBlocks, codeSpans, links, slug, anchors }
