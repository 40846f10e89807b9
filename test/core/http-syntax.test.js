'use strict'

// HTTP's syntax for methods, header names and header values
// (lib/core/http-syntax.js), which every encoder and the option checks
// hold requests to.

const t = require('tap')
const { isToken, isValidHeaderValue, headerProblem } = require('../../lib/core/http-syntax')

// A test name safe for TAP output (no raw line or paragraph separators).
const show = (s) => JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))

const TCHAR = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

t.test('isToken: RFC 9110 tchar only, at least one', async (t) => {
  t.equal(isToken(TCHAR), true, 'all of tchar')
  t.equal(isToken('GET'), true)
  t.equal(isToken('Content-Type'), true)
  t.equal(isToken('x'), true)
  t.equal(isToken(''), false, 'empty')
  let wrong = []
  for (let c = 0; c < 256; c++) {
    const ch = String.fromCharCode(c)
    if (isToken(ch) !== TCHAR.includes(ch)) wrong.push(c)
  }
  t.same(wrong, [], 'every one of the 256 latin1 characters judged right')
  wrong = []
  for (const ch of '"(),/:;<=>?@[\\]{} \t\r\n\u0000\u007f') {
    if (isToken('a' + ch + 'b') !== false) wrong.push(ch)
  }
  t.same(wrong, [], 'separators, whitespace and controls inside a token')
  t.equal(isToken('\u0100'), false, 'beyond latin1')
  t.equal(isToken('日本'), false)
  t.equal(isToken('a\u0121'), false, 'a character whose low byte would be a tchar (0x21)')
})

t.test('isValidHeaderValue: visible characters, SP, HTAB and anything beyond ASCII', async (t) => {
  t.equal(isValidHeaderValue(''), true, 'empty')
  t.equal(isValidHeaderValue(' \t leading and trailing \t '), true)
  const wrong = []
  for (let c = 0; c < 256; c++) {
    const expected = c === 9 || (c >= 32 && c !== 127)
    if (isValidHeaderValue('a' + String.fromCharCode(c) + 'b') !== expected) wrong.push(c)
  }
  t.same(wrong, [], 'every one of the 256 latin1 characters judged right')
  for (const s of ['\r', '\n', 'a\r\nb', '\u0000', '\u007f']) {
    t.equal(isValidHeaderValue(s), false, show(s))
  }
  // None of these has a CR, LF or NUL byte once encoded as UTF-8.
  for (const s of ['\u0100', '\u010a', '\u2028', '日本', '😀', '\ud800']) {
    t.equal(isValidHeaderValue(s), true, show(s))
  }
})

t.test('headerProblem: what autocannon would send as text passes; what would inject or read [object Object] does not', async (t) => {
  for (const value of ['v', '', 5, 0, false, 10n, new URL('http://a.test/'), new Date(0), ['a', 2], null, undefined, 'tab\there', 'ünïcode']) {
    t.equal(headerProblem('x-ok', value), null, `${typeof value}: ${String(value)}`)
  }
  t.equal(headerProblem('bad name', 'v'), 'is not a valid header name (an HTTP token: letters, digits and !#$%&\'*+-.^_`|~)')
  t.equal(headerProblem('bad name', undefined), null, 'a name without a value sends nothing')
  for (const value of ['a\r\nb: c', 'a\n', 'a\u0000', ['ok', 'a\rb']]) {
    t.equal(headerProblem('x', value), 'header value must not contain CR, LF or other control characters', JSON.stringify(value))
  }
  t.equal(headerProblem('x', { a: 1 }), 'header value must be a string (or a number), not an object, which would be sent as [object Object]')
  t.equal(headerProblem('x', ['a', { [Symbol.toStringTag]: 'Thing' }]), 'header value must be a string (or a number), not an object, which would be sent as [object Thing]')
  t.equal(headerProblem('x', Object.create(null)), 'header value must be a string (or a number), not an object without a text')
  t.equal(headerProblem('x', () => 'v'), 'header value must be a string (or a number), not a function')
  t.equal(headerProblem('x', Symbol('s')), 'header value must be a string (or a number), not a symbol')
})
