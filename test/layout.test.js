'use strict'

// The layout shows the design: lib/ has a folder per stage, each described
// in docs/architecture.md, and nothing requires what requires it back, directly or
// not, file by file or folder by folder. Every relative require() counts,
// those inside functions too: a require put off until first use must not
// hide a cycle. And test/ mirrors lib/: a module's unit tests are at
// test/<folder>/<module>.test.js (or in a folder test/<folder>/<module>/,
// one file per area), black-box tests under test/e2e/, the docs' tests
// under test/docs/, and a module tested only end to end says where in
// test/end-to-end-only.js. And a protocol is asked through its descriptor
// (lib/protocols), never compared by name outside its own folders.

const t = require('tap')
const fs = require('fs')
const path = require('path')

const ROOT = path.join(__dirname, '..')
const LIB = path.join(ROOT, 'lib')

function sources (dir) {
  return fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f))
}

// file → the files of lib/ (and the package's entry) it requires.
function requireGraph (files) {
  const graph = new Map()
  for (const file of files) {
    const deps = new Set()
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/require\((['"])(\.{1,2}\/[^'"]+)\1\)/g)) {
      const target = require.resolve(path.resolve(path.dirname(file), m[2]))
      if (target.endsWith('.js')) deps.add(target)
    }
    graph.set(file, deps)
  }
  return graph
}

// A cycle of the graph as a list of its nodes (the first repeated at the
// end), or null.
function findCycle (graph) {
  const state = new Map()
  const stack = []
  const visit = (node) => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) || []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next]
      if (!state.has(next)) {
        const found = visit(next)
        if (found) return found
      }
    }
    stack.pop()
    state.set(node, 'done')
    return null
  }
  for (const node of graph.keys()) {
    if (!state.has(node)) {
      const found = visit(node)
      if (found) return found
    }
  }
  return null
}

function folderOf (file) {
  const rel = path.relative(LIB, file)
  return rel.startsWith('..') ? '(entry)' : rel.includes(path.sep) ? rel.split(path.sep)[0] : '(lib)'
}

function folderGraph (graph) {
  const folders = new Map()
  for (const [file, deps] of graph) {
    const from = folderOf(file)
    if (!folders.has(from)) folders.set(from, new Set())
    for (const dep of deps) if (folderOf(dep) !== from) folders.get(from).add(folderOf(dep))
  }
  return folders
}

const files = [path.join(ROOT, 'autocannon.js'), ...sources(LIB)]
const graph = requireGraph(files)
const show = (cycle) => cycle.map((f) => path.isAbsolute(f) ? path.relative(ROOT, f) : f).join(' → ')

t.test('the cycle finder finds cycles, and only cycles', async (t) => {
  t.same(findCycle(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])]])), ['a', 'b', 'c', 'a'])
  t.same(findCycle(new Map([['a', new Set(['a'])]])), ['a', 'a'])
  t.equal(findCycle(new Map([['a', new Set(['b', 'c'])], ['b', new Set(['c'])], ['c', new Set()]])), null, 'a diamond is no cycle')
})

t.test('no file of lib/ requires what requires it back', async (t) => {
  t.ok(graph.size > 60, `${graph.size} files read`)
  const cycle = findCycle(graph)
  t.equal(cycle && show(cycle), null, 'no import cycle')
})

t.test('no folder of lib/ requires one that requires it back', async (t) => {
  const folders = folderGraph(graph)
  const cycle = findCycle(folders)
  t.equal(cycle && show(cycle), null, `no cycle between folders (${[...folders].map(([f, d]) => `${f} → ${[...d].join(', ') || 'nothing'}`).join('; ')})`)
  t.same([...folders.get('core')], [], 'lib/core requires no other folder')
})

// The folders from `from` to `to` along the graph's edges (both ends
// included), or null.
function pathBetween (graph, from, to) {
  const previous = new Map([[from, null]])
  const queue = [from]
  while (queue.length > 0) {
    const node = queue.shift()
    if (node === to) {
      const found = []
      for (let at = to; at !== null; at = previous.get(at)) found.unshift(at)
      return found
    }
    for (const next of graph.get(node) || []) {
      if (!previous.has(next)) {
        previous.set(next, node)
        queue.push(next)
      }
    }
  }
  return null
}

// Outputs come after the run: a stage the run goes through that needs
// lib/output (to word an error, say) would load the tables and reports
// into every run and every worker thread, and turn the flow upside down.
t.test('no stage of the run requires lib/output, directly or through others', async (t) => {
  t.same(pathBetween(new Map([['a', new Set(['b'])], ['b', new Set(['c'])]]), 'a', 'c'), ['a', 'b', 'c'], 'the path finder finds a path')
  const folders = folderGraph(graph)
  for (const stage of ['search', 'engine', 'config', 'client', 'http1', 'http2', 'transport']) {
    t.ok(folders.has(stage), `lib/${stage} is read`)
    const found = pathBetween(folders, stage, 'output')
    t.equal(found && found.join(' → '), null, `lib/${stage} reaches no lib/output`)
  }
})

t.test('lib/config requires nothing of the stages after it: distributed, results, output', async (t) => {
  const below = [...folderGraph(graph).get('config')]
  t.ok(below.includes('core'), `lib/config's requires are read (${below.join(', ')})`)
  t.same(below.filter((folder) => ['distributed', 'results', 'output'].includes(folder)), [], 'the config is decided before anything is run, counted or shown')
})

t.test('ls lib shows the stages, each described in docs/architecture.md', async (t) => {
  const page = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8')
  const section = page.slice(page.indexOf('## The stages'), page.indexOf('## The seams'))
  const described = [...section.matchAll(/^\| `lib\/([a-z0-9]+)` \|/gm)].map((m) => m[1]).sort()
  const folders = fs.readdirSync(LIB, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()
  t.same(described, folders, 'the table of docs/architecture.md has a row for every folder, and no other')
  const loose = fs.readdirSync(LIB).filter((f) => f.endsWith('.js')).sort()
  t.same(loose, ['aggregateResult.js', 'printResult.js'], 'no file outside a folder but autocannon\'s own two paths')
})

// test/ mirrors lib/.

const TEST = path.join(ROOT, 'test')
const exceptions = require('./end-to-end-only')
const listed = exceptions.endToEnd
// Folders of test/ that mirror nothing, and the files at its top.
const OWN_FOLDERS = ['e2e', 'docs', 'helpers', 'fixtures', 'types']
const TOP_FILES = ['layout.test.js', 'end-to-end-only.js']

const posix = (p) => p.split(path.sep).join('/')
const libModules = sources(LIB).map((f) => posix(path.relative(LIB, f))).sort()
const isDir = (p) => fs.existsSync(p) && fs.statSync(p).isDirectory()
const isFile = (p) => fs.existsSync(p) && fs.statSync(p).isFile()
// 'output/hgrm.js' → where its tests go.
const mirrorOf = (module) => module.replace(/\.js$/, '')

function testedAtMirror (module) {
  const at = path.join(TEST, mirrorOf(module))
  return isFile(`${at}.test.js`) || (isDir(at) && fs.readdirSync(at).some((f) => f.endsWith('.test.js')))
}

// A test file's place, or why it has none: test/<x>/<y>.test.js needs
// lib/<x>/<y>.js, test/<x>/<y>/<area>.test.js needs lib/<x>/<y>.js.
function misplaced (rel) {
  const parts = rel.split('/')
  // lib/'s own two files (autocannon's paths) are mirrored at the top.
  if (parts.length === 1) return TOP_FILES.includes(rel) || isFile(path.join(LIB, rel.replace(/\.test\.js$/, '.js'))) ? null : 'at the top of test/: a unit test goes to its module\'s mirrored path, a black-box one to test/e2e/'
  if (OWN_FOLDERS.includes(parts[0])) return ['e2e', 'docs'].includes(parts[0]) && !rel.endsWith('.test.js') ? 'not a test: helpers go to test/helpers/' : null
  if (!rel.endsWith('.test.js')) return 'not a test: helpers go to test/helpers/'
  const module = rel.slice(0, -'.test.js'.length) + '.js'
  const byArea = parts.slice(0, -1).join('/') + '.js'
  const exists = (m) => isFile(path.join(LIB, m))
  if (exists(module) || (parts.length > 2 && exists(byArea))) return null
  return `no lib/${module}${parts.length > 2 ? ` nor lib/${byArea}` : ''}: a stale mirror, or a black-box test that belongs in test/e2e/`
}

t.test('every module of lib/ has a test at its mirrored path, or says where it is tested', async (t) => {
  t.ok(libModules.length > 60, `${libModules.length} modules`)
  const untested = libModules.filter((m) => !testedAtMirror(m) && !(m in listed))
  t.same(untested.map((m) => `lib/${m}: no test/${mirrorOf(m)}.test.js`), [], 'write one (or, if it can only be tested end to end, say where in test/end-to-end-only.js)')
  t.ok(Object.keys(exceptions.endToEnd).length <= 8, 'few modules are tested end to end only')
})

t.test('test/end-to-end-only.js lists only modules that exist and have no test at their path', async (t) => {
  for (const module of Object.keys(listed)) {
    t.ok(libModules.includes(module), `lib/${module} exists (or its line goes)`)
    t.notOk(testedAtMirror(module), `lib/${module} has no test/${mirrorOf(module)}.test.js (or its line goes)`)
  }
})

t.test('every test file is at a mirrored path or in test/e2e, docs, helpers, fixtures or types', async (t) => {
  const files = fs.readdirSync(TEST, { recursive: true }).map(posix).filter((f) => isFile(path.join(TEST, f)))
  t.ok(files.filter((f) => f.endsWith('.test.js')).length > 80, 'test files read')
  const wrong = files.map((f) => [f, misplaced(f)]).filter(([, why]) => why !== null)
  t.same(wrong.map(([f, why]) => `test/${f}: ${why}`), [])
})

// A protocol is asked, never named: outside the registry (lib/protocols)
// and a protocol's own folder (the folders its descriptor points into),
// no file compares a protocol's name (its registry name, its ALPN id, or
// one of the names people give it) nor reads the option that chooses one.

const PROTOCOL_NAMES = ['h1', 'h2', 'h2c', 'http2', 'http/1.1', 'http/2', 'grpc', 'HTTP/1.1', 'HTTP/2', 'gRPC']
const quoted = `['"\`](?:${PROTOCOL_NAMES.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})['"\`]`
const NAMING = [
  new RegExp(`(?:===|!==|==|!=)\\s*${quoted}`),
  new RegExp(`${quoted}\\s*(?:===|!==|==|!=)`),
  new RegExp(`case\\s+${quoted}\\s*:`),
  new RegExp(`\\.(?:includes|indexOf)\\(\\s*${quoted}\\s*\\)`),
  /\.http2\b/
]

// The lines of `text` that name a protocol as a comparison does.
function namings (text) {
  return text.split('\n').map((line, i) => [i + 1, line]).filter(([, line]) => !/^\s*\/\//.test(line) && NAMING.some((re) => re.test(line)))
}

// lib/protocols and the folders of lib/ its descriptors point into.
function protocolFolders () {
  const dir = path.join(LIB, 'protocols')
  const folders = new Set(['protocols'])
  for (const file of sources(dir)) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/require\(['"]\.\.\/([a-z0-9]+)\//g)) if (m[1] !== 'core') folders.add(m[1])
  }
  return folders
}

t.test('the finder finds a protocol named in a comparison, and only there', async (t) => {
  for (const line of ["if (target.protocol === 'h2') x()", "return 'http/1.1' !== name", "case 'grpc':", "if (config.http2) text += ''", 'alpn.includes("h2")']) {
    t.equal(namings(line).length, 1, `found: ${line}`)
  }
  for (const line of ["const label = 'HTTP/2'", "// target.protocol === 'h2'", 'if (protocol.streams) x()', "ALPNProtocols: ['h2']"]) {
    t.equal(namings(line).length, 0, `not a comparison: ${line}`)
  }
})

t.test('no protocol name is compared outside lib/protocols and the protocols\' own folders', async (t) => {
  const allowed = protocolFolders()
  t.ok(allowed.has('http1') && allowed.has('http2'), `the protocols' folders are read from their descriptors (${[...allowed].join(', ')})`)
  const found = []
  for (const file of files) {
    if (allowed.has(folderOf(file))) continue
    for (const [n, line] of namings(fs.readFileSync(file, 'utf8'))) found.push(`${path.relative(ROOT, file)}:${n}: ${line.trim()}`)
  }
  t.same(found, [], 'ask the descriptor (lib/protocols/registry.js: protocolOf, protocolOfRun, protocolOfResult) instead')
})
