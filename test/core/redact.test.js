'use strict'

// Credentials never reach output (lib/core/redact.js): a URL's user
// information is masked in any text, and the registry's errors are made
// with their messages masked.

const t = require('tap')
const errors = require('../../lib/core/errors')
const { maskSecrets } = require('../../lib/core/redact')

t.test('credentials are masked in any text', async (t) => {
  const cases = [
    ['http://user:secretpass@127.0.0.1:3000/x', 'http://user:***@127.0.0.1:3000/x'],
    ['https://tok3n@host/', 'https://***@host/'],
    ['Invalid URL "http://u:p@a b/" and http://v:q@c/', 'Invalid URL "http://u:***@a b/" and http://v:***@c/'],
    ['http://user:p%40ss@host/', 'http://user:***@host/'],
    ['http://user:p@ss@host/x@y', 'http://user:***@host/x@y'],
    ['no url here: me@example.com', 'no url here: me@example.com'],
    ['http://host/path?email=a@b.c', 'http://host/path?email=a@b.c'],
    ['http://host/a@b', 'http://host/a@b']
  ]
  for (const [text, masked] of cases) t.equal(maskSecrets(text), masked, text)
  t.equal(maskSecrets(undefined), undefined)
  const err = errors.raise('AC_INVALID_ARGUMENT', 'bad http://a:b@c/')
  t.equal(err.message, 'bad http://a:***@c/', 'raised messages are masked')
  const opt = new errors.InvalidOptionError('url', 'http://a:hunter2@ho st/', 'is not a valid URL')
  t.notMatch(opt.message, /hunter2/)
  t.notMatch(opt.detail, /hunter2/)
})
