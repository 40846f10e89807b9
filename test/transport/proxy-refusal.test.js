'use strict'

// A proxy's refusals (lib/transport/proxy-refusal.js): the error an http
// target's requests answered 407 fail with, the hint it gives, and that
// the module loads no tls (an http target through a proxy needs nothing
// of the tunnel's). The tunnel's own refusals: test/transport/tunnel.test.js.

const t = require('tap')
const path = require('path')
const { execFileSync } = require('child_process')
const { refusedRequest } = require('../../lib/transport/proxy-refusal')

t.test('refusedRequest: an http target\'s requests answered 407', async (t) => {
  const target = (auth) => ({ origin: 'http://a.test', proxy: { href: 'http://127.0.0.1:3128', auth } })
  const without = refusedRequest(target(undefined))
  t.same({ code: without.code, message: without.message }, {
    code: 'AC_PROXY_REFUSED',
    message: 'proxy http://127.0.0.1:3128 refused the requests to http://a.test: 407 Proxy Authentication Required (it wants credentials: put user:pass@ before the proxy\'s host)'
  })
  t.equal(refusedRequest(target('Basic eDp5')).message,
    'proxy http://127.0.0.1:3128 refused the requests to http://a.test: 407 Proxy Authentication Required (the credentials were not accepted)')
})

t.test('required alone, it loads no tls, unlike the tunnel', async (t) => {
  const loadsTls = (file) => execFileSync(process.execPath, ['-e', `
    require(${JSON.stringify(file)})
    process.stdout.write(String(process.moduleLoadList.includes('NativeModule tls')))
  `], { encoding: 'utf8' })
  const lib = path.join(__dirname, '..', '..', 'lib', 'transport')
  t.equal(loadsTls(path.join(lib, 'tunnel.js')), 'true', 'the tunnel does (the check sees tls)')
  t.equal(loadsTls(path.join(lib, 'proxy-refusal.js')), 'false', 'the refusals do not')
})
