'use strict'

// URLs as this tool reads them (lib/core/url.js): http:// when no scheme
// is given, one check for every door, credentials as Basic authorization,
// IPv6 literals bracketed where an authority needs them, and the Host
// header's port only when it is not the scheme's.

const t = require('tap')
const { withScheme, checkUrl: checkUrlOf, basicAuth, unbracket, authority, hostHeader } = require('../../lib/core/url')
// The schemes the protocols take (lib/protocols/registry.js), as the
// config and the CLI pass them.
const { SCHEMES } = require('../../lib/protocols/registry')
const checkUrl = (raw) => checkUrlOf(raw, SCHEMES)

t.test('hostHeader: the port only when it is not the scheme\'s default', async (t) => {
  const cases = [
    ['http://127.0.0.1:3000/', '127.0.0.1:3000'],
    ['http://localhost/', 'localhost'],
    ['http://localhost:80/', 'localhost'],
    ['http://localhost:443/', 'localhost:443'],
    ['http://localhost:8080/path?q=1', 'localhost:8080'],
    ['https://localhost/', 'localhost'],
    ['https://localhost:443/', 'localhost'],
    ['https://localhost:80/', 'localhost:80'],
    ['https://localhost:8443/', 'localhost:8443'],
    ['http://[::1]:8080/', '[::1]:8080'],
    ['http://[::1]/', '[::1]'],
    ['https://[2001:db8::1]:443/', '[2001:db8::1]'],
    ['HTTP://Example.COM:80/', 'example.com'],
    ['http://user:pass@example.com:81/', 'example.com:81'],
    ['http://xn--bcher-kva.example/', 'xn--bcher-kva.example'],
    ['http://bücher.example:8000/', 'xn--bcher-kva.example:8000']
  ]
  for (const [url, host] of cases) t.equal(hostHeader(new URL(url)), host, url)

  // URL-like objects (ports kept as given, compared as strings).
  t.equal(hostHeader({ protocol: 'http:', hostname: 'a', port: '80' }), 'a')
  t.equal(hostHeader({ protocol: 'https:', hostname: 'a', port: '443' }), 'a')
  t.equal(hostHeader({ protocol: 'https:', hostname: 'a', port: '80' }), 'a:80')
  t.equal(hostHeader({ protocol: 'http:', hostname: 'a', port: '' }), 'a')
  t.equal(hostHeader({ protocol: 'http:', hostname: 'a' }), 'a')
  t.equal(hostHeader({ protocol: 'http:', hostname: 'a', port: '8080' }), 'a:8080')
})

t.test('withScheme: http:// when none is given, trimmed', async (t) => {
  t.equal(withScheme('127.0.0.1:3000/x'), 'http://127.0.0.1:3000/x')
  t.equal(withScheme('  localhost  '), 'http://localhost')
  t.equal(withScheme('https://a.test/'), 'https://a.test/')
  t.equal(withScheme('ftp://a.test/'), 'ftp://a.test/', 'another scheme is left for the check to refuse')
  t.equal(withScheme(42), 42, 'not a string: left for the caller to name')
})

t.test('checkUrl: an http(s) URL with a host, or an error saying why', async (t) => {
  const url = checkUrl('localhost:8080/a?b=1')
  t.same([url.protocol, url.hostname, url.port, url.pathname, url.search], ['http:', 'localhost', '8080', '/a', '?b=1'])
  t.equal(checkUrl('https://[::1]/').hostname, '[::1]')
  const refused = (raw, why, message) => t.throws(() => checkUrl(raw), { code: 'AC_INVALID_OPTION', option: 'url', why, message }, String(raw))
  refused('', 'invalid', /must be a non-empty string/)
  refused(undefined, 'invalid', /must be a non-empty string/)
  refused('http:///path', 'no-host', /has no host \(e\.g\. http:\/\/127\.0\.0\.1:3000\/path\)/)
  refused('http://a b/', 'invalid', /is not a valid URL/)
  refused('ws://a.test/', 'protocol', /has an unsupported protocol "ws:" \(use http: or https:\)/)
  refused('http://127.0.0.1:{{int 3000 3001}}/', 'template', /has a template in its host or port: templates are filled in the path and the query only/)
  refused('http://{{pick a|b}}.test/', 'template', /has a template in its host or port/)
  t.equal(checkUrl('http://a.test?q={{pick a/b}}').host, 'a.test', 'a template after the host is no part of it')
})

t.test('basicAuth, unbracket, authority', async (t) => {
  t.equal(basicAuth(new URL('http://user:p%40ss@a.test/')), 'Basic ' + Buffer.from('user:p@ss').toString('base64'), 'percent-decoded')
  t.equal(basicAuth(new URL('http://token@a.test/')), 'Basic ' + Buffer.from('token:').toString('base64'))
  t.equal(basicAuth(new URL('http://a.test/')), undefined)
  t.equal(unbracket('[::1]'), '::1')
  t.equal(unbracket('127.0.0.1'), '127.0.0.1')
  t.equal(authority('::1', 80), '[::1]:80')
  t.equal(authority('a.test', 443), 'a.test:443')
})
