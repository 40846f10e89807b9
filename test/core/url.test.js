'use strict'

// URLs as this tool reads them (lib/core/url.js).

const t = require('tap')
const { hostHeader } = require('../../lib/core/url')

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
