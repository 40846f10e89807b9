'use strict'

// The dashboard's page: its title escaped, everything it loads from its
// own server, and a policy that allows nothing else.

const t = require('tap')
const { shell, POLICY } = require('../../../lib/output/dashboard/shell')

t.test('the page', async (t) => {
  const html = shell({ heading: 'cannonade: live run of <x>', version: '1.2.3' })
  t.match(html, '<title>cannonade: live run of &lt;x&gt;</title>', 'the heading escaped')
  const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((u) => u !== '#')
  t.ok(loaded.length >= 5, `${loaded.length} assets`)
  for (const u of loaded) t.match(u, /^\/assets\//, `${u}: from the dashboard's server`)
  t.match(POLICY, "default-src 'none'", 'nothing by default')
  t.match(POLICY, "connect-src 'self'", 'its events from its server')
  t.notMatch(POLICY, /https?:/, 'no other origin')
})
