'use strict'

// A host name that does not resolve is refused before the run
// (AC_HOST_NOT_FOUND), naming the host; IP addresses and localhost are
// not looked up; through a proxy the proxy's host is the one resolved; a
// resolver that does not answer in time leaves the run to find out.

const t = require('tap')
const { checkHosts, hostsOf } = require('../../lib/config/host-check')
const { buildConfig } = require('../../lib/config/config')

// A lookup that records the names it was asked and answers from `table`
// (name → address, or an error code).
function fakeLookup (table) {
  const asked = []
  const lookup = (host, cb) => {
    asked.push(host)
    const answer = table[host]
    if (answer === undefined) return // never answers
    setImmediate(() => answer.includes('.') || answer.includes(':')
      ? cb(null, answer, 4)
      : cb(Object.assign(new Error(`getaddrinfo ${answer} ${host}`), { code: answer })))
  }
  return { lookup, asked }
}

t.test('which hosts are looked up', async (t) => {
  const config = buildConfig({
    url: ['http://127.0.0.1:1/', 'http://[::1]:2/', 'http://localhost:3/', 'http://api.localhost/', 'http://a.test/', 'http://a.test:81/x', 'https://b.test/']
  })
  t.same([...hostsOf(config)], [['a.test', 'http://a.test/'], ['b.test', 'https://b.test/']], 'names only, each once: not IP addresses, not localhost')
  const proxied = buildConfig({ url: 'http://target.test/', proxy: 'http://user:pw@proxy.test:3128' })
  t.same([...hostsOf(proxied)], [['proxy.test', 'the proxy http://user:***@proxy.test:3128']], 'through a proxy: the proxy\'s host, not the target\'s')
  t.same([...hostsOf(buildConfig({ url: 'http://127.0.0.1:1/', proxy: 'http://127.0.0.1:3128' }))], [])
  t.same([...hostsOf(buildConfig({ url: 'http://svc.test/', socketPath: '/tmp/x.sock' }))], [], 'a Unix socket: nothing to resolve')
})

t.test('a name that does not resolve: one line naming it; one that does: nothing', async (t) => {
  const { lookup, asked } = fakeLookup({ 'a.test': '127.0.0.1', 'nope.test': 'ENOTFOUND', 'flaky.test': 'EAI_AGAIN' })
  await t.resolves(checkHosts(buildConfig({ url: 'http://a.test:8080/' }), { lookup }))
  const err = await checkHosts(buildConfig({ url: ['http://a.test/', 'http://nope.test/x'] }), { lookup }).catch((e) => e)
  t.match(err, { code: 'AC_HOST_NOT_FOUND', message: 'Cannot resolve host "nope.test" of http://nope.test/x (ENOTFOUND): check the host name, or give an IP address' })
  t.notOk(err.message.includes('\n'), 'one line')
  t.match(await checkHosts(buildConfig({ url: 'http://flaky.test/' }), { lookup }).catch((e) => e), { code: 'AC_HOST_NOT_FOUND', message: /"flaky\.test".*\(EAI_AGAIN\)/ })
  t.match(await checkHosts(buildConfig({ url: 'http://t.test/', proxy: 'http://u:secret@nope.test:3128' }), { lookup }).catch((e) => e),
    { message: 'Cannot resolve host "nope.test" of the proxy http://u:***@nope.test:3128 (ENOTFOUND): check the host name, or give an IP address' }, 'the proxy, its password masked')
  asked.length = 0
  await checkHosts(buildConfig({ url: ['http://127.0.0.1:1/', 'http://localhost:2/', 'http://[::1]:3/'] }), { lookup })
  t.same(asked, [], 'IP addresses and localhost: no lookup')
})

t.test('a resolver that does not answer within the timeout leaves the run to find out', async (t) => {
  const { lookup } = fakeLookup({})
  const started = Date.now()
  await t.resolves(checkHosts(buildConfig({ url: 'http://slow.test/', timeout: 0.2 }), { lookup }))
  t.ok(Date.now() - started < 2000, `gave up after ${Date.now() - started} ms (timeout 200 ms)`)
})

t.test('the real resolver: .invalid never resolves (RFC 6761)', async (t) => {
  const err = await checkHosts(buildConfig({ url: 'http://nonexistent.invalid/' })).catch((e) => e)
  t.match(err, { code: 'AC_HOST_NOT_FOUND', message: /^Cannot resolve host "nonexistent\.invalid" of http:\/\/nonexistent\.invalid\/ \((ENOTFOUND|EAI_AGAIN)\)/ })
})
