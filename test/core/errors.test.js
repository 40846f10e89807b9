'use strict'

// The error registry: every code the code raises or counts is registered,
// the tables of docs/errors.md list exactly the registered codes with the
// same causes, and messages never carry credentials (the masking itself:
// test/core/redact.test.js; warnings: test/core/warnings.test.js).

const t = require('tap')
const fs = require('fs')
const path = require('path')
const errors = require('../../lib/core/errors')
const warnings = require('../../lib/core/warnings')
// Every protocol's codes too, registered from its own folder.
require('../../lib/protocols/registry').registerAllCodes()

const ROOT = path.join(__dirname, '..', '..')
const PAGE = fs.readFileSync(path.join(ROOT, 'docs', 'errors.md'), 'utf8')

function sources (dir) {
  const out = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sources(file))
    else if (entry.name.endsWith('.js')) out.push(file)
  }
  return out
}

const registered = new Set([...Object.keys(errors.RAISED), ...Object.keys(errors.COUNTED), ...Object.keys(warnings.WARNINGS)])

t.test('every AC_ code in the code is registered', async (t) => {
  const used = new Set()
  for (const file of [path.join(ROOT, 'autocannon.js'), ...sources(path.join(ROOT, 'lib'))]) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/'(AC_[A-Z0-9_]+)'/g)) used.add(m[1])
  }
  t.ok(used.size > 10, `${used.size} codes used`)
  for (const code of used) t.ok(registered.has(code), `${code} is registered`)
})

t.test('docs/errors.md lists exactly the registered codes, with their causes', async (t) => {
  const section = PAGE.slice(PAGE.indexOf('## Raised'))
  t.ok(section.length > 100, 'docs/errors.md has an error-code section')
  const rows = new Map()
  for (const m of section.matchAll(/^\| `(AC_[A-Z0-9_]+)` \|([^\n]*)$/gm)) rows.set(m[1], m[2].split('|').map((c) => c.trim()))
  t.same([...rows.keys()].sort(), [...registered].sort(), 'the same codes')
  for (const [code, [cause]] of Object.entries(errors.COUNTED)) {
    const row = rows.get(code)
    if (!row) continue
    t.equal(row[0], cause === null ? 'connect or read' : cause, `${code}: cause ${cause}`)
  }
  for (const code of registered) t.ok(PAGE.split(`\`${code}\``).length >= 2, `${code} is documented`)
})

t.test('raise() refuses unregistered codes; raised errors carry their code', async (t) => {
  t.throws(() => errors.raise('AC_NOT_A_CODE', 'x'), /unregistered error code AC_NOT_A_CODE/)
  const err = errors.raise('AC_TOO_MANY_SHARDS', 'too many')
  t.ok(err instanceof Error)
  t.equal(err.code, 'AC_TOO_MANY_SHARDS')
  t.equal(err.message, 'too many')
  const opt = new errors.InvalidOptionError('duration', -1, 'must be > 0')
  t.equal(opt.code, 'AC_INVALID_OPTION')
  t.equal(opt.option, 'duration')
  t.equal(opt.detail, '-1 must be > 0')
  t.equal(new errors.HookError('requests[0].setupRequest', 'threw', new Error('boom')).message, 'requests[0].setupRequest threw: boom')
  t.equal(new errors.HookError('verifyBody', 'threw', new Error('x')).code, 'AC_HOOK_ERROR')
  t.equal(new errors.RequestTimeoutError(10).code, 'AC_TIMEOUT')
  t.equal(new errors.RequestTimeoutError(10, true).code, 'AC_CONNECT_TIMEOUT')
})

t.test('socketHangUp: the requests in flight of a socket closed unannounced, counted as read errors', async (t) => {
  const err = errors.socketHangUp()
  t.ok(err instanceof errors.CountedError)
  t.same([err.code, err.message, err.name], ['AC_SOCKET_HANG_UP', 'socket hang up: the connection closed with requests in flight', 'CountedError'])
  t.equal(errors.causeOf(err, true), 'read')
  t.not(errors.socketHangUp(), err, 'a new error each time')
})

t.test('hookCodeOf: a code registered under the hooks\' cause is its own; anything else is AC_HOOK_ERROR', async (t) => {
  t.equal(errors.hookCodeOf(new errors.CountedError('AC_GRPC_DATA_FILL', 'x')), 'AC_GRPC_DATA_FILL')
  t.equal(errors.hookCodeOf(new errors.HookError('setupRequest', 'threw', new Error('x'))), 'AC_HOOK_ERROR')
  t.equal(errors.hookCodeOf(new errors.CountedError('AC_TIMEOUT', 'x')), 'AC_HOOK_ERROR', 'a code of another cause is not the hook\'s')
  t.equal(errors.hookCodeOf(new SyntaxError('x')), 'AC_HOOK_ERROR')
  t.equal(errors.hookCodeOf(undefined), 'AC_HOOK_ERROR')
})

t.test('causeOf: by registered code, parser code, syscall, or when it happened', async (t) => {
  const sys = (code, syscall) => Object.assign(new Error(code), { code, syscall })
  const cases = [
    [sys('ECONNREFUSED', 'connect'), false, 'connect'],
    [sys('ENOTFOUND', 'getaddrinfo'), false, 'connect'],
    [sys('EMFILE', undefined), false, 'connect'],
    [sys('ECONNRESET', 'read'), true, 'read'],
    [sys('ECONNRESET', undefined), true, 'read'],
    [sys('EPIPE', 'write'), true, 'write'],
    [sys('EPIPE', undefined), true, 'write'],
    [sys('ECONNRESET', 'writev'), true, 'write'],
    [new errors.CountedError('HPE_INVALID_CONSTANT', 'x'), true, 'parse'],
    // Cut short by the close: the bytes that came parsed, the rest never came.
    [new errors.CountedError('HPE_INCOMPLETE', 'x'), true, 'read'],
    [new errors.CountedError('AC_SOCKET_HANG_UP', 'x'), true, 'read'],
    [new errors.RequestTimeoutError(1), true, 'timeout'],
    [new errors.RequestTimeoutError(1, true), false, 'timeout'],
    [new errors.HookError('h', 'threw'), true, 'hook'],
    [new Error('no code'), false, 'connect'],
    [new Error('no code'), true, 'read']
  ]
  for (const [err, connected, cause] of cases) {
    t.equal(errors.causeOf(err, connected), cause, `${err.code || err.message}${connected ? ' (connected)' : ''} → ${cause}`)
  }
  t.equal(errors.codeOf(new Error('x')), 'AC_UNKNOWN')
  t.equal(errors.codeOf(sys('EMFILE')), 'EMFILE')
})

t.test('errors cross from worker threads with their class, code, message and fields', async (t) => {
  const through = (err) => errors.fromMessage(structuredClone(errors.toMessage(err)))
  const opt = through(new errors.InvalidOptionError('setupClient', '/x.js', 'could not be loaded as a function: nope'))
  t.ok(opt instanceof errors.InvalidOptionError, 'InvalidOptionError')
  t.ok(opt instanceof errors.AutocannonError)
  t.equal(opt.code, 'AC_INVALID_OPTION')
  t.equal(opt.option, 'setupClient')
  t.equal(opt.detail, '"/x.js" could not be loaded as a function: nope')
  t.equal(opt.message, 'invalid option "setupClient": "/x.js" could not be loaded as a function: nope')
  const timeout = through(new errors.RequestTimeoutError(2))
  t.ok(timeout instanceof errors.RequestTimeoutError)
  t.same([timeout.code, timeout.message, timeout.detail, timeout.name], ['AC_TIMEOUT', 'request timed out', 'no response within 2 s', 'RequestTimeoutError'])
  const counted = through(new errors.CountedError('AC_SOCKET_HANG_UP', 'socket hang up'))
  t.ok(counted instanceof errors.CountedError, 'CountedError')
  t.same([counted.code, counted.message, counted.name], ['AC_SOCKET_HANG_UP', 'socket hang up', 'CountedError'])
  const hook = through(new errors.HookError('requests[0].setupRequest', 'threw', new Error('boom')))
  t.ok(hook instanceof errors.HookError)
  t.equal(hook.hook, 'requests[0].setupRequest')
  t.equal(hook.cause.message, 'boom', 'with its cause')
  const sys = through(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', syscall: 'connect', errno: -111 }))
  t.ok(sys instanceof Error)
  t.same([sys.code, sys.syscall, sys.errno], ['ECONNREFUSED', 'connect', -111], 'a system error keeps what causeOf reads')
  t.equal(errors.causeOf(sys, false), 'connect')
  t.equal(through('a string').message, 'a string')
})

t.test('the shipped types list the raised and counted codes of the registry', async (t) => {
  const types = fs.readFileSync(path.join(__dirname, '..', '..', 'types', 'index.d.ts'), 'utf8')
  const union = (name) => {
    const m = new RegExp(`type ${name} =([\\s\\S]*?)\\n\\n`).exec(types)
    return m ? [...m[1].matchAll(/'(AC_[A-Z0-9_]+)'/g)].map((x) => x[1]).sort() : []
  }
  t.same(union('RaisedErrorCode'), Object.keys(errors.RAISED).sort(), 'RaisedErrorCode')
  t.same(union('CountedErrorCode'), Object.keys(errors.COUNTED).sort(), 'CountedErrorCode')
  t.same(union('WarningCode'), Object.keys(warnings.WARNINGS).sort(), 'WarningCode')
})
