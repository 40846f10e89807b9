'use strict'

// The registry of protocols (lib/protocols/registry.js): every descriptor
// has what the rest of the tool asks of one, a run's options choose one
// (HTTP/1.1 when nothing else does), targets and results give theirs
// back, and the schemes and error codes are the protocols' own.

const t = require('tap')
const registry = require('../../lib/protocols/registry')
const { buildConfig } = require('../../lib/config/config')
const { RAISED, COUNTED } = require('../../lib/core/errors')

const MEMBERS = ['prepare', 'resultFields', 'name', 'alpn', 'tlsAlpn', 'schemes', 'chooses', 'resultName', 'label', 'streams', 'clearProxy',
  'preflight', 'connectError', 'codes', 'framing']

t.test('every descriptor has every member, and nothing else', async (t) => {
  t.ok(registry.PROTOCOLS.length >= 2, `${registry.PROTOCOLS.length} protocols`)
  for (const protocol of registry.PROTOCOLS) {
    t.same(Object.keys(protocol).sort(), [...MEMBERS].sort(), `${protocol.name}: the members of a descriptor`)
    t.ok(Object.isFrozen(protocol), `${protocol.name}: frozen`)
    t.equal(registry.protocolNamed(protocol.name), protocol, `${protocol.name}: found by its name`)
    t.equal(typeof protocol.framing().create, 'function', `${protocol.name}: its framing makes a framing object`)
    t.equal(typeof protocol.framing().encodingFor, 'function', `${protocol.name}: and its encoding`)
  }
  t.throws(() => registry.protocolNamed('gopher'), /no protocol named gopher/)
})

t.test('a run\'s options choose its protocol, once, for every target', async (t) => {
  t.equal(registry.chooseProtocol({}).label, 'HTTP/1.1', 'nothing asked: HTTP/1.1')
  t.equal(registry.chooseProtocol({ http2: true }).label, 'HTTP/2')
  const config = buildConfig({ url: ['http://127.0.0.1:1', 'https://127.0.0.1:2'], http2: true })
  for (const target of config.urls) t.equal(registry.protocolOf(target).label, 'HTTP/2', `${target.origin}: its descriptor`)
  t.equal(registry.protocolOfRun(config).label, 'HTTP/2', 'the run\'s, from its config')
  t.equal(registry.protocolOfRun({ http2: true }).label, 'HTTP/2', 'from options that are not a config (aggregateResult\'s)')
  t.equal(registry.protocolOfRun({}).label, 'HTTP/1.1')
})

t.test('a result\'s protocol: its field, or HTTP/1.1 without one', async (t) => {
  t.equal(registry.protocolOfResult({}).label, 'HTTP/1.1')
  t.equal(registry.protocolOfResult({ protocol: registry.chooseProtocol({ http2: true }).resultName }).label, 'HTTP/2')
  t.equal(registry.protocolOfResult({ protocol: 'mixed' }).label, 'HTTP/1.1', 'a forced merge of both is labelled as the default is')
  t.equal(registry.protocolNameOfResult({}), registry.chooseProtocol({}).name)
  t.equal(registry.protocolNameOfResult({ protocol: 'mixed' }), 'mixed', 'compared as it is')
})

t.test('the schemes are the protocols\'', async (t) => {
  t.same(registry.SCHEMES, [...new Set(registry.PROTOCOLS.flatMap((p) => p.schemes))])
  t.ok(registry.SCHEMES.includes('http:') && registry.SCHEMES.includes('https:'))
})

t.test('each protocol\'s error codes are registered from its own folder, all of them on asking', async (t) => {
  registry.registerAllCodes()
  t.ok('AC_H2_GOAWAY' in COUNTED, 'HTTP/2\'s counted codes')
  t.ok('AC_H2_NOT_OFFERED' in RAISED, 'and raised ones')
})

t.test('a check before the run only for the protocols the targets speak', async (t) => {
  // HTTP/1.1 asks nothing; HTTP/2's check is asked of its https targets
  // only (test/http2/alpn-check.test.js), so an h2c target asks nothing.
  const plain = { urls: [{ protocolName: 'http/1.1' }] }
  t.equal(await registry.preflight(plain), plain, 'HTTP/1.1 asks nothing, completes nothing')
  const h2c = buildConfig({ url: 'http://127.0.0.1:9', http2: true })
  t.equal(await registry.preflight(h2c), h2c, 'h2c asks nothing, completes nothing')
})
