'use strict'

// autocannon.start(opts) beside autocannon 9's: for parseArguments' options
// it runs and shows the run as the command does (the header and tables
// on stderr, -j's line on stdout), returns undefined, prints an error as
// its message and sets no exit code; a plain object runs silently;
// nothing happens for undefined (help or version was printed). With
// --on-port it runs against the command's port, which it then stops.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { bothScripts, normalise } = require('../../helpers/side-by-side')
const { okServer } = require('../../helpers/dropin')

// The lines of the tables' text that are not the tables themselves.
function prose (stderr) {
  return stderr.split('\n').filter((line) => line.trim() !== '' && !/^[┌│├└]/.test(line)).map(normalise)
}

// The first cell of each row of the tables: what they show.
function rows (stderr) {
  return stderr.split('\n').filter((line) => line.startsWith('│')).map((line) => line.split('│')[1].trim())
}

// Runs `call` (an expression of start's call), prints what it returned,
// and gives the run a second to end.
function script (call) {
  return `
    const url = ARGS.url
    const returned = ${call}
    process.stdout.write('<<' + typeof returned + '>>\\n')
    setTimeout(() => {}, 1500)`
}

t.test('start(parseArguments(argv)): the command\'s output, and undefined', async (t) => {
  const url = await okServer(t)
  const { upstream, ours } = await bothScripts(script('autocannon.start(autocannon.parseArguments(["-a", "20", "-c", "1", url]))'), { args: { url } })
  t.equal(ours.code, 0, ours.stderr)
  t.equal(upstream.code, 0, upstream.stderr)
  t.equal(ours.stdout, '<<undefined>>\n', 'undefined, nothing on stdout')
  t.equal(upstream.stdout, '<<undefined>>\n')
  t.same(prose(ours.stderr), prose(upstream.stderr), 'the same header and summary lines on stderr')
  t.same(prose(ours.stderr).slice(0, 2), ['Running N requests test @ http://N.N:N', 'N connections'])
  t.same(rows(ours.stderr), rows(upstream.stderr), 'the same tables')
})

t.test('start(parseArguments([-j …])): one JSON line on stdout, nothing on stderr', async (t) => {
  const url = await okServer(t)
  const { upstream, ours } = await bothScripts(script('autocannon.start(autocannon.parseArguments(["-j", "-a", "20", "-c", "1", url]))'), { args: { url } })
  for (const [side, out] of Object.entries({ upstream, ours })) {
    const lines = out.stdout.split('\n').filter(Boolean)
    t.equal(lines[0], '<<undefined>>', `${side}: undefined`)
    t.equal(lines.length, 2, `${side}: then the result`)
    t.equal(JSON.parse(lines[1])['2xx'], 20, `${side}: the result's line`)
    t.equal(out.stderr, '', `${side}: nothing on stderr`)
  }
})

t.test('an error: its message on stderr, exit code 0; a plain object: silent; undefined: nothing', async (t) => {
  const url = await okServer(t)
  const cases = {
    '-c 0': ['autocannon.start(autocannon.parseArguments(["-c", "0", url]))', '<<undefined>>\n', 'connections can not be less than 1\n'],
    'a plain object': ['autocannon.start({ url, amount: 20, connections: 1 })', '<<undefined>>\n', ''],
    'argv itself': ['autocannon.start(["-a", "20", url])', '<<undefined>>\n', 'url or socketPath option required\n'],
    undefined: ['autocannon.start(undefined)', '<<undefined>>\n', '']
  }
  for (const [label, [call, stdout, stderr]] of Object.entries(cases)) {
    const { upstream, ours } = await bothScripts(script(call), { args: { url } })
    for (const [side, out] of Object.entries({ upstream, ours })) {
      t.equal(out.code, 0, `${label}, ${side}: exit code 0`)
      t.equal(out.stdout, stdout, `${label}, ${side}: stdout`)
      t.equal(out.stderr, stderr, `${label}, ${side}: stderr`)
    }
  }
})

t.test('--on-port: the run goes to the command\'s port, and the command is stopped', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-dropin-start-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'server.js')
  fs.writeFileSync(file, "require('http').createServer((req, res) => res.end('ok')).listen(0, '127.0.0.1')\n")
  const call = `autocannon.start(autocannon.parseArguments(["-a", "20", "-c", "1", "--on-port", "/", "--", "node", ${JSON.stringify(file)}]))`
  const source = `
    const returned = ${call}
    process.stdout.write('<<' + typeof returned + '>>\\n')`
  const { upstream, ours } = await bothScripts(source, { timeout: 20000 })
  for (const [side, out] of Object.entries({ upstream, ours })) {
    t.equal(out.code, 0, `${side}: exit code 0 once the command is stopped (${out.stderr})`)
    t.equal(out.stdout, '<<undefined>>\n', `${side}: undefined`)
    t.match(out.stderr, /^20 requests in [\d.]+s, /m, `${side}: the run went to the command's port`)
  }
  // A row of docs/differences.md: the host of --on-port's URL.
  t.match(upstream.stderr, /^Running 20 requests test @ http:\/\/localhost:\d+\/$/m, 'autocannon: localhost')
  t.match(ours.stderr, /^Running 20 requests test @ http:\/\/127\.0\.0\.1:\d+\/$/m, 'here: the address the command listens on')
})
