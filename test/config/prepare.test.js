'use strict'

// What is prepared once per run before any connection opens, and what is
// refused then: here, {{…}} templates over HTTP/2, which cannot be filled
// into framed requests. Refused by prepare(), before the run, naming the
// request as the run would (the base request, or requests[i] of the
// requests, a HAR or a targets file).

const t = require('tap')
const { buildConfig } = require('../../lib/config/config')
const { prepare } = require('../../lib/config/prepare')

const url = 'http://127.0.0.1:1'
const MESSAGE = 'templates are filled into HTTP/1.1 requests only: not with http2'

function refusal (opts) {
  try {
    prepare(buildConfig({ url, ...opts }))
  } catch (err) {
    return err
  }
  return null
}

t.test('templates over h2: refused before the run, wherever they are', async (t) => {
  const cases = [
    [{ url: `${url}/item/{{seq}}` }, 'request'],
    [{ headers: { 'x-id': '{{uuid}}' } }, 'request'],
    [{ body: '{"n": {{int 1 9}}}', method: 'POST' }, 'request'],
    [{ body: Buffer.from('{{seq}}'), method: 'POST' }, 'request'],
    [{ requests: [{ path: '/a/{{conn}}' }, { path: '/b' }] }, 'requests[0]'],
    [{ requests: [{ path: '/a' }, { path: '/b', body: '{{now}}' }] }, 'requests[1]'],
    [{ har: { log: { entries: [{ request: { method: 'GET', url: `${url}/h/{{seq}}`, headers: [] } }] } } }, 'requests[0]']
  ]
  for (const [opts, option] of cases) {
    const err = refusal({ ...opts, http2: true })
    const label = JSON.stringify(opts)
    if (!t.ok(err, `${label}: refused`)) continue
    t.equal(err.name, 'InvalidOptionError', label)
    t.equal(err.code, 'AC_INVALID_OPTION')
    t.equal(err.option, option, `${label}: names ${option}`)
    t.equal(err.message, `invalid option "${option}": "{{…}}" ${MESSAGE}`)
    t.equal(refusal(opts), null, `${label}: taken over HTTP/1.1`)
  }
})

t.test('over h2, what is no template of ours goes as it is', async (t) => {
  t.equal(refusal({ http2: true, body: '{{name}} and {{ greeting }}', method: 'POST' }), null, 'a Mustache template being posted')
  t.equal(refusal({ http2: true, url: `${url}/plain` }), null)
  t.equal(refusal({ http2: true, requests: [{ path: '/{{seq}}', setupRequest: (req) => req }] }), null, 'a request a hook makes is not filled in over HTTP/1.1 either')
})

t.test('a malformed template is refused before the run over either protocol', async (t) => {
  for (const http2 of [false, true]) {
    t.throws(() => prepare(buildConfig({ url: `${url}/{{int 9 1}}`, http2 })), { code: 'AC_INVALID_OPTION', option: 'url', message: /at character \d+: \{\{int A B\}\} needs two integers/ })
  }
})
