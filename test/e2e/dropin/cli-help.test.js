'use strict'

// The command without a URL, beside autocannon 9's: the help on stderr,
// nothing on stdout, exit code 0, with no arguments, flags alone, -h and
// --help. An unknown flag fails the command here where autocannon ignores
// it (a row of docs/differences.md).

const t = require('tap')
const http = require('http')
const { bothClis } = require('../../helpers/side-by-side')

t.test('no URL: the help on stderr, exit code 0', async (t) => {
  for (const args of [[], ['-c', '5'], ['-h'], ['--help'], ['--help', 'http://127.0.0.1:1']]) {
    const label = args.join(' ') || 'no arguments'
    const { upstream, ours } = await bothClis(args)
    t.equal(ours.code, 0, `${label}: exit code 0`)
    t.equal(upstream.code, 0)
    t.equal(ours.stdout, '', `${label}: nothing on stdout`)
    t.equal(upstream.stdout, '')
    t.equal(ours.stderr.split('\n')[0], upstream.stderr.split('\n')[0], `${label}: the help's first line`)
    t.equal(ours.stderr.split('\n')[0], 'Usage: autocannon [opts] URL')
  }
})

t.test('an unknown flag: autocannon runs without it, here the command fails', async (t) => {
  const s = http.createServer((req, res) => res.end('ok'))
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => s.close())
  const url = `http://127.0.0.1:${s.address().port}`
  const { upstream, ours } = await bothClis(['-a', '20', '-c', '1', '--duraton', '60', url])
  t.equal(upstream.code, 0, 'autocannon: ran, --duraton ignored')
  t.match(upstream.stderr, /^20 requests in /m)
  t.equal(ours.code, 1, 'here: refused')
  t.equal(ours.stderr, 'Error: Unknown option: --duraton (see autocannon --help)\n', 'in one line, before any request')
})
