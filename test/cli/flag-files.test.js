'use strict'

// The files the command line names, read before the run: what each flag's
// file becomes, and the one line each failure is, in autocannon's words
// (its message) with ours (the detail).

const t = require('tap')
const { thrown: thrownBy } = require('../helpers/thrown')
const fs = require('fs')
const path = require('path')
const { parseForm, readInput, readHar, readTls } = require('../../lib/cli/flag-files')

const FORM = 'Invalid JSON or file where to get form data'
const HAR = { log: { entries: [{ request: { method: 'GET', url: 'http://127.0.0.1:3000/a', headers: [] } }] } }

// The error fn() throws, to compare its fields.
function thrown (fn) {
  const err = thrownBy(fn)
  return err === null ? null : { code: err.code, ...(err.option === undefined ? {} : { option: err.option }), message: err.message, detail: err.detail }
}

// The file system's own words for a file that is not there, as Node says
// them on this platform.
function enoent (file) {
  return thrown(() => fs.readFileSync(file)).message
}

t.test('-F: inline JSON is the form; a file is checked and handed over by its path', async (t) => {
  const dir = t.testdir({
    'form.json': JSON.stringify({ name: { type: 'text', value: 'x' } }),
    'list.json': '[1]',
    'broken.json': '{ "name": '
  })
  t.same(parseForm(' { "name": { "type": "text", "value": "x" } } '), { name: { type: 'text', value: 'x' } })
  t.equal(parseForm(path.join(dir, 'form.json')), path.join(dir, 'form.json'))
  const cwd = process.cwd()
  process.chdir(dir)
  t.teardown(() => process.chdir(cwd))
  t.equal(parseForm('form.json'), path.join(dir, 'form.json'), 'a relative path, resolved')

  t.same(thrown(() => parseForm('[1, 2]')), {
    code: 'AC_INVALID_ARGUMENT',
    option: 'form',
    message: FORM,
    detail: '-F/--form [1, 2] is not a JSON object of form fields (e.g. \'{ "name": { "type": "text", "value": "x" } }\')'
  })
  t.same(thrown(() => parseForm('{ x')), {
    code: 'AC_INVALID_ARGUMENT',
    option: 'form',
    message: FORM,
    detail: `-F/--form is not valid JSON: ${thrown(() => JSON.parse('{ x')).message}`
  })
  t.same(thrown(() => parseForm('missing.json')), { code: 'AC_FILE_UNREADABLE', option: 'form', message: FORM, detail: '-F/--form file: missing.json cannot be read' })
  t.same(thrown(() => parseForm('broken.json')), {
    code: 'AC_FILE_UNREADABLE',
    option: 'form',
    message: FORM,
    detail: `the -F/--form file broken.json is not valid JSON: ${thrown(() => JSON.parse('{ "name": ')).message}`
  })
  t.same(thrown(() => parseForm('list.json')), { code: 'AC_FILE_UNREADABLE', option: 'form', message: FORM, detail: 'the -F/--form file list.json must hold a JSON object of form fields' })
})

t.test('-i: UTF-8 text is a string, anything else the bytes as they are', async (t) => {
  const dir = t.testdir({ 'body.txt': 'héllo\n', 'body.bin': Buffer.from([0x00, 0xff, 0xfe]) })
  t.equal(readInput(path.join(dir, 'body.txt')), 'héllo\n')
  const binary = readInput(path.join(dir, 'body.bin'))
  t.ok(Buffer.isBuffer(binary), 'a Buffer')
  t.same([...binary], [0x00, 0xff, 0xfe])
  const missing = path.join(dir, 'missing.txt')
  t.same(thrown(() => readInput(missing)), { code: 'AC_FILE_UNREADABLE', option: 'input', message: enoent(missing), detail: `-i/--input ${missing} cannot be read` })
})

t.test('--har: the parsed HAR, or autocannon\'s "Failed to load HAR file content"', async (t) => {
  const dir = t.testdir({ 'ok.har': JSON.stringify(HAR), 'broken.har': '{', 'empty.har': JSON.stringify({ log: { entries: [] } }) })
  t.same(readHar(path.join(dir, 'ok.har')), HAR)
  const broken = path.join(dir, 'broken.har')
  t.same(thrown(() => readHar(broken)), {
    code: 'AC_FILE_UNREADABLE',
    option: 'har',
    message: `Failed to load HAR file content: ${thrown(() => JSON.parse('{')).message}`,
    detail: `--har ${broken} is not valid JSON`
  })
  const empty = path.join(dir, 'empty.har')
  t.same(thrown(() => readHar(empty)), {
    code: 'AC_FILE_UNREADABLE',
    option: 'har',
    message: 'Failed to load HAR file content: Could not parse HAR content: no entries found',
    detail: `--har ${empty}`
  })
  const missing = path.join(dir, 'missing.har')
  t.same(thrown(() => readHar(missing)), { code: 'AC_FILE_UNREADABLE', option: 'har', message: `Failed to load HAR file content: ${enoent(missing)}`, detail: `--har ${missing}` })
})

t.test('--cert, --key, --ca: read as bytes, each failure naming its flag', async (t) => {
  const dir = t.testdir({ 'c.pem': 'CERT', 'k.pem': 'KEY', 'a.pem': 'CA1', 'b.pem': 'CA2' })
  const at = (name) => path.join(dir, name)
  const tls = readTls({ cert: at('c.pem'), key: at('k.pem'), ca: [at('a.pem'), at('b.pem')] })
  t.same(Object.keys(tls), ['cert', 'key', 'ca'])
  t.same([tls.cert, tls.key, ...tls.ca].map((b) => Buffer.isBuffer(b) && b.toString()), ['CERT', 'KEY', 'CA1', 'CA2'])
  t.same(readTls({ ca: [] }), {}, 'nothing given, nothing read')
  t.same(Object.keys(readTls({ key: at('k.pem'), ca: [] })), ['key'])
  const missing = at('missing.pem')
  t.same(thrown(() => readTls({ cert: missing, ca: [] })), { code: 'AC_FILE_UNREADABLE', option: 'cert', message: `Failed to load cert file: ${enoent(missing)}`, detail: `--cert ${missing}` })
  t.same(thrown(() => readTls({ key: missing, ca: [] })), { code: 'AC_FILE_UNREADABLE', option: 'key', message: `Failed to load key file: ${enoent(missing)}`, detail: `--key ${missing}` })
  t.same(thrown(() => readTls({ ca: [at('a.pem'), missing] })), { code: 'AC_FILE_UNREADABLE', option: 'ca', message: `Failed to load ca file: ${enoent(missing)}`, detail: `--ca ${missing}` })
})
