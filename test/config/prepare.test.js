'use strict'

// What is prepared once per run before any connection opens, and what is
// refused then: here, {{…}} templates, checked before the run over either
// protocol (over HTTP/2 they are filled in as over HTTP/1.1).

const t = require('tap')
const { buildConfig } = require('../../lib/config/config')
const { prepare } = require('../../lib/config/prepare')

const url = 'http://127.0.0.1:1'

function refusal (opts) {
  try {
    prepare(buildConfig({ url, ...opts }))
  } catch (err) {
    return err
  }
  return null
}

t.test('templates over h2: taken, wherever they are, as over HTTP/1.1', async (t) => {
  const cases = [
    { url: `${url}/item/{{seq}}` },
    { headers: { 'x-id': '{{uuid}}' } },
    { body: '{"n": {{int 1 9}}}', method: 'POST' },
    { body: Buffer.from('{{seq}}'), method: 'POST' },
    { requests: [{ path: '/a/{{conn}}' }, { path: '/b' }] },
    { har: { log: { entries: [{ request: { method: 'GET', url: `${url}/h/{{seq}}`, headers: [] } }] } } }
  ]
  for (const opts of cases) {
    t.equal(refusal({ ...opts, http2: true }), null, `${JSON.stringify(opts)}: taken over HTTP/2`)
    t.equal(refusal(opts), null, 'and over HTTP/1.1')
  }
})

t.test('a malformed template is refused before the run over either protocol', async (t) => {
  for (const http2 of [false, true]) {
    t.throws(() => prepare(buildConfig({ url: `${url}/{{int 9 1}}`, http2 })), { code: 'AC_INVALID_OPTION', option: 'url', message: /at character \d+: \{\{int A B\}\} needs two integers/ })
  }
})
