'use strict'

// Links between the pages (README.md, CHANGELOG.md, docs/**/*.md): every
// relative link resolves to a file of the repository, and every #anchor
// to a heading of the page it names, as GitHub makes anchors.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { ROOT, pages, read, links, anchors, slug } = require('../helpers/docs')

// The links of `page` that lead nowhere, each as "page:line target: why".
function broken (page, text, readPage) {
  const out = []
  for (const { target, line } of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
    const hash = target.indexOf('#')
    const file = hash === -1 ? target : target.slice(0, hash)
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1))
    const to = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file))
    const where = `${page}:${line} ${target}`
    if (to !== page && (to.startsWith('..') || !fs.existsSync(path.join(ROOT, to)))) {
      out.push(`${where}: no file ${to}`)
      continue
    }
    if (anchor === null) continue
    if (!to.endsWith('.md')) {
      out.push(`${where}: an anchor into ${to}, which is not a page`)
      continue
    }
    if (!anchors(to === page ? text : readPage(to)).has(anchor)) out.push(`${where}: ${to} has no heading #${anchor}`)
  }
  return out
}

t.test('GitHub\'s anchors', async (t) => {
  t.equal(slug('HdrHistogram text: `--hgrm FILE`'), 'hdrhistogram-text---hgrm-file')
  t.equal(slug('Capacity search: the highest rate under an SLO'), 'capacity-search-the-highest-rate-under-an-slo')
  t.equal(slug('`autocannon.track(instance[, opts])`'), 'autocannontrackinstance-opts')
  t.equal(slug('Requests, hooks and their context'), 'requests-hooks-and-their-context')
  t.equal(slug('Fixed rates: `-R` and `-r`'), 'fixed-rates--r-and--r')
  t.same([...anchors('# A\n\n## B c\n\n```\n## not a heading\n```\n\n## B c\n')], ['a', 'b-c', 'b-c-1'], 'repeated headings are numbered; code is not a heading')
})

t.test('a broken link is found', async (t) => {
  const text = '[ok](#a)\n\n# A\n\n[file](nope.md) [anchor](#b) [code `[x](y)`]\n\n```\n[in code](nope.md)\n```\n'
  t.same(broken('docs/x.md', text, read), ['docs/x.md:5 nope.md: no file docs/nope.md', 'docs/x.md:5 #b: docs/x.md has no heading #b'])
})

t.test('every relative link resolves, and every anchor to a heading', async (t) => {
  const all = pages()
  t.ok(all.length >= 10, `${all.length} pages`)
  let count = 0
  for (const page of all) {
    const text = read(page)
    count += links(text).length
    t.same(broken(page, text, read), [], `${page}: every link resolves`)
  }
  t.ok(count >= 50, `${count} links read`)
})

t.test('every page of docs/ is linked from the README and from docs/README.md', async (t) => {
  const linked = (page) => new Set(links(read(page)).map(({ target }) => path.posix.normalize(path.posix.join(path.posix.dirname(page), target.split('#')[0]))))
  const fromReadme = linked('README.md')
  const fromIndex = linked('docs/README.md')
  for (const page of pages().filter((p) => p.startsWith('docs/') && p !== 'docs/README.md')) {
    t.ok(fromReadme.has(page), `README.md links to ${page}`)
    t.ok(fromIndex.has(page), `docs/README.md links to ${page}`)
  }
})
