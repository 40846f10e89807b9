'use strict'

// The bytes on the wire, autocannon 9 beside us: for the same options
// (plain, headers, a body, a form, `requests`, a HAR), each side runs three
// requests on one connection to a server that keeps what it is sent, and
// the requests must be the same bytes: request line, headers in the same
// order and case, body. A form's multipart boundary is random on both
// sides (form-data's): it is the one thing replaced before comparing.
// Where docs/differences.md says we differ, DOCUMENTED turns autocannon's
// bytes into what the row says we send, and that must be ours exactly.

const t = require('tap')
const { project, capturingServer } = require('../../helpers/dropin')
const { makeHar } = require('../../helpers/har')

const BOUNDARY = /-{26}[0-9a-f]{24}/g

const SHAPES = {
  plain: () => ({}),
  headers: () => ({ headers: { 'x-first': 'one', 'User-Agent': 'mine/1', accept: 'text/plain', 'X-Last': 'two words' } }),
  body: () => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }),
  'body with the caller\'s content-length': () => ({ method: 'PUT', headers: { 'Content-Length': '7', 'x-after': '1' }, body: '{"a":1}' }),
  form: () => ({ form: { name: { type: 'text', value: 'jane' }, city: { type: 'text', value: 'Zürich' } } }),
  requests: () => ({
    headers: { 'x-all': 'every request' },
    requests: [
      { method: 'POST', path: '/login', headers: { 'content-type': 'application/json' }, body: '{"user":"jane"}' },
      { path: '/items?page=2', headers: { 'x-own': 'second' } },
      { method: 'DELETE', path: '/items/1' }
    ]
  }),
  har: (url) => ({ har: makeHar(url) }),
  'auth in the URL': () => ({ auth: true })
}

const DOCUMENTED = {
  // Rows 'a HAR entry's HTTP/2 pseudo-headers' and 'a HAR entry whose form
  // is in postData.params': the pseudo-header left out, the form sent.
  har: (requests) => requests.map((text) => text
    .replace(':authority: x\r\n', '')
    .replace(/(PUT \/api\/prefs[^]*?\r\n)\r\n$/, '$1Content-Length: 25\r\n\r\ntheme=dark%20mode&lang=en'))
}

async function run (autocannon, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 1, amount: 3, ...opts }, (err, result) => err ? reject(err) : resolve(result))
  })
}

t.test('the same request bytes as autocannon 9', async (t) => {
  const upstream = project(t, 'upstream').require('autocannon')
  const ours = project(t, 'ours').require('autocannon')
  const server = await capturingServer(t)
  for (const [shape, make] of Object.entries(SHAPES)) {
    const written = {}
    for (const [side, autocannon] of [['upstream', upstream], ['ours', ours]]) {
      server.reset()
      const { auth, ...opts } = make(server.url)
      const url = auth ? server.url.replace('//', '//jane:s%20cret@') + '/private' : server.url
      // autocannon says on stderr which HAR entries it skips: not what is compared.
      const write = process.stderr.write
      process.stderr.write = () => true
      try {
        await run(autocannon, { url, ...opts })
      } finally {
        process.stderr.write = write
      }
      const requests = server.connections().flat()
      t.ok(requests.length >= 3, `${shape}, ${side}: three requests or more received (${requests.length})`)
      written[side] = requests.slice(0, 3).map((r) => (r.head + r.body).replace(BOUNDARY, '<boundary>'))
    }
    const expected = DOCUMENTED[shape] ? DOCUMENTED[shape](written.upstream) : written.upstream
    if (DOCUMENTED[shape]) t.notSame(expected, written.upstream, `${shape}: the documented difference is still there`)
    t.same(written.ours, expected, `${shape}: the same bytes${DOCUMENTED[shape] ? ', but for the documented difference' : ''}`)
  }
})
