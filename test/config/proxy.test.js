'use strict'

// --proxy: an http:// proxy URL (scheme, host, port and credentials only)
// for every target, or "env" for HTTP_PROXY / HTTPS_PROXY per target
// except the hosts NO_PROXY lists; what is shown of it masked; a value
// that cannot be used refused naming the option (or the variable), its
// password masked.

const t = require('tap')
const { proxySetting, bypassed, maskProxyValue } = require('../../lib/config/proxy')

const USER = 'bench'
const PASSWORD = 'S3cr3t-pr0xy-pw'
const basic = (user, pass) => 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64')
const EXAMPLE = '(e.g. http://127.0.0.1:3128; put user:pass@ before the host for basic auth)'

t.test('--proxy env: HTTPS_PROXY for https, HTTP_PROXY for http, except NO_PROXY', async (t) => {
  const env = { HTTP_PROXY: 'http://10.0.0.1:3128', https_proxy: `${USER}:${PASSWORD}@10.0.0.2:8080`, NO_PROXY: 'localhost, .internal.test:443,[::1]' }
  const setting = proxySetting('env', env)
  const at = (u) => {
    const p = setting.forTarget(new URL(u))
    return p && `${p.hostname}:${p.port}`
  }
  t.equal(setting.shown, 'env')
  t.equal(at('http://a.test/'), '10.0.0.1:3128')
  t.equal(at('https://a.test/'), '10.0.0.2:8080', 'lower case too, and http:// assumed')
  t.equal(setting.forTarget(new URL('https://a.test/')).auth, basic(USER, PASSWORD))
  t.equal(at('http://localhost:3000/'), undefined)
  t.equal(at('http://[::1]:3000/'), undefined)
  t.equal(at('https://x.internal.test/'), undefined, 'a subdomain, on the port listed')
  t.equal(at('https://x.internal.test:8443/'), '10.0.0.2:8080', 'another port')
  t.equal(proxySetting('env', {}).forTarget(new URL('http://a.test/')), undefined, 'nothing set: direct')
  t.throws(() => proxySetting('env', { HTTPS_PROXY: `ftp://u:${PASSWORD}@h` }).forTarget(new URL('https://a.test/')),
    { code: 'AC_INVALID_OPTION', message: /"env" takes HTTPS_PROXY, and its value "ftp:\/\/u:\*\*\*@h" is not an http:\/\/ proxy URL/ })
  t.ok(bypassed('*', 'anything', 1))
  t.ok(bypassed('example.com', 'api.example.com', 80))
  t.notOk(bypassed('example.com', 'badexample.com', 80))
  t.ok(bypassed('*.example.com', 'example.com', 80))
  t.notOk(bypassed('', 'example.com', 80))
})

t.test('a proxy URL: where to dial, its Basic credentials, and how it is shown', async (t) => {
  const setting = proxySetting(`http://${USER}:${PASSWORD}@127.0.0.1:3128`)
  const proxy = setting.forTarget(new URL('http://a.test/'))
  t.strictSame(proxy, { href: `http://${USER}:***@127.0.0.1:3128`, hostname: '127.0.0.1', port: 3128, auth: basic(USER, PASSWORD) })
  t.equal(setting.shown, `http://${USER}:***@127.0.0.1:3128`, 'shown with its password masked')
  t.equal(setting.forTarget(new URL('https://b.test/')), proxy, 'one proxy for every target')
  t.ok(Object.isFrozen(proxy))
  const cases = [
    ['127.0.0.1:3128', { href: 'http://127.0.0.1:3128', hostname: '127.0.0.1', port: 3128, auth: undefined }, 'http:// assumed'],
    ['  HTTP://Proxy.Test/  ', { href: 'http://proxy.test', hostname: 'proxy.test', port: 80, auth: undefined }, 'trimmed, any case, port 80, a lone / allowed'],
    ['http://[::1]:8080', { href: 'http://[::1]:8080', hostname: '::1', port: 8080, auth: undefined }, 'an IPv6 address dialled without brackets'],
    ['http://tok@h', { href: 'http://***@h', hostname: 'h', port: 80, auth: basic('tok', '') }, 'a user name alone: masked, it may be a token'],
    ['http://u%40x:p%3Aw@h:1', { href: 'http://u%40x:***@h:1', hostname: 'h', port: 1, auth: basic('u@x', 'p:w') }, 'credentials decoded for the header']
  ]
  for (const [raw, expected, why] of cases) t.strictSame(proxySetting(raw).forTarget(new URL('http://a.test/')), expected, why)
  t.equal(proxySetting(' env ', {}).shown, 'env', '"env" with blanks around it')
})

t.test('a proxy that cannot be used: one message naming the option, the password masked', async (t) => {
  const said = (value, expected) => `invalid option "proxy": ${value} ${expected}`
  const cases = [
    ['socks5://u:hunter22@h:1080', '"socks5://u:***@h:1080"', `is not an http:// proxy URL ${EXAMPLE}: only HTTP proxies are supported (they tunnel https targets with CONNECT)`],
    ['https://h:1', '"https://h:1"', `is not an http:// proxy URL ${EXAMPLE}: only HTTP proxies are supported (they tunnel https targets with CONNECT)`],
    ['http://', '"http://"', `has no host ${EXAMPLE}`],
    ['http:///x', '"http:///x"', `has no host ${EXAMPLE}`],
    ['http://u:hunter22@h:1/path', '"http://u:***@h:1/path"', `must be a scheme, host and port only, without a path or query ${EXAMPLE}`],
    ['http://h?x=1', '"http://h?x=1"', `must be a scheme, host and port only, without a path or query ${EXAMPLE}`],
    ['http://h#top', '"http://h#top"', `must be a scheme, host and port only, without a path or query ${EXAMPLE}`],
    ['http://h:99999', '"http://h:99999"', `is not a valid URL ${EXAMPLE}`],
    ['u:hun/ter22@h', '"u:***@h"', `is not a valid URL ${EXAMPLE}`],
    ['', '""', `must be an http:// proxy URL ${EXAMPLE}, or "env"`],
    ['   ', '"   "', `must be an http:// proxy URL ${EXAMPLE}, or "env"`],
    [true, 'true', `must be an http:// proxy URL ${EXAMPLE}, or "env"`],
    [42, '42', `must be an http:// proxy URL ${EXAMPLE}, or "env"`]
  ]
  for (const [raw, shown, expected] of cases) {
    t.throws(() => proxySetting(raw), { name: 'InvalidOptionError', code: 'AC_INVALID_OPTION', option: 'proxy', message: said(shown, expected) }, String(raw))
  }
})

t.test('--proxy env: a variable read once, lower case too, refused naming it', async (t) => {
  const setting = proxySetting('env', { http_proxy: 'http://lower:1', no_proxy: 'skip.test' })
  const one = setting.forTarget(new URL('http://a.test/'))
  t.equal(one.href, 'http://lower:1', 'http_proxy')
  t.equal(setting.forTarget(new URL('http://b.test:8080/')), one, 'parsed once, the same proxy for every http target')
  t.equal(setting.forTarget(new URL('http://skip.test/')), undefined, 'no_proxy')
  t.equal(setting.forTarget(new URL('https://a.test/')), undefined, 'no HTTPS_PROXY: https goes direct, HTTP_PROXY is not its')
  const both = proxySetting('env', { HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:2' })
  t.equal(both.forTarget(new URL('http://a.test/')).href, 'http://upper:1', 'the upper-case name first')
  t.equal(proxySetting('env', { HTTP_PROXY: '  ' }).forTarget(new URL('http://a.test/')), undefined, 'a blank variable is not set')
  const wrong = proxySetting('env', { HTTP_PROXY: `http://${USER}:${PASSWORD}@h/path` })
  t.throws(() => wrong.forTarget(new URL('http://a.test/')), {
    code: 'AC_INVALID_OPTION',
    option: 'proxy',
    message: `invalid option "proxy": "env" takes HTTP_PROXY, and its value "http://${USER}:***@h/path" must be a scheme, host and port only, without a path or query ${EXAMPLE}`
  }, 'refused when a target needs it, the variable named')
  t.equal(wrong.forTarget(new URL('https://a.test/')), undefined, 'a target that does not need it is not refused')
})

t.test('NO_PROXY: names by commas or spaces, their subdomains, a port, *', async (t) => {
  const list = 'a.test  .b.test,*.c.test, d.test:8080,[::1]:3000 , 10.0.0.1'
  const cases = [
    ['a.test', 80, true],
    ['A.TEST', 80, true, 'any case'],
    ['x.a.test', 443, true, 'a subdomain'],
    ['xa.test', 80, false, 'a name that only ends the same'],
    ['b.test', 80, true, 'a leading . changes nothing'],
    ['y.b.test', 80, true],
    ['c.test', 80, true, 'a leading *. changes nothing'],
    ['z.c.test', 80, true],
    ['d.test', 8080, true, 'on its port'],
    ['d.test', 80, false, 'not on another'],
    ['::1', 3000, true, 'an IPv6 address with a port'],
    ['::1', 3001, false],
    ['10.0.0.1', 1, true],
    ['10.0.0.2', 1, false],
    ['e.test', 80, false]
  ]
  for (const [host, port, expected, why] of cases) t.equal(bypassed(list, host, port), expected, `${host}:${port}${why ? `: ${why}` : ''}`)
  t.equal(bypassed(undefined, 'a.test', 80), false, 'no NO_PROXY')
  t.equal(bypassed(' , ', 'a.test', 80), false, 'only separators')
  t.equal(bypassed('x.test, *', 'a.test', 80), true, '* anywhere in the list')
})

t.test('maskProxyValue: the user information of anything given masked, URL or not', async (t) => {
  t.equal(maskProxyValue('u:p@ss@h'), 'u:***@h')
  t.equal(maskProxyValue('http://tok@h'), 'http://***@h')
  t.equal(maskProxyValue('http://user:pa/ss@h:1'), 'http://user:***@h:1', 'a / in the password, which no URL parser reads')
  t.equal(maskProxyValue('socks5://u:p@h'), 'socks5://u:***@h')
  t.equal(maskProxyValue('http://h:1'), 'http://h:1', 'nothing to mask')
  t.equal(maskProxyValue(42), 42, 'not a string: as it is')
})
