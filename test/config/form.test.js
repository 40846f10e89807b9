'use strict'

// --form: a multipart/form-data body built once from autocannon's form
// description (an object, JSON text, or a JSON file whose relative upload
// paths may be relative to it), parsed back here by busboy; what cannot
// be used refused in autocannon's words, ours in err.detail.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { buildForm } = require('../../lib/config/form')
const { tempDir } = require('../helpers/recording')
const { parseMultipart } = require('../helpers/multipart')
const { thrown } = require('../helpers/thrown')

const UNREADABLE = 'Invalid JSON or file where to get form data'

function fixtures (t) {
  const dir = tempDir(t, 'ac-form-')
  fs.writeFileSync(path.join(dir, 'hello.txt'), 'hello from a file\n')
  return dir
}

t.test('buildForm gives a Buffer and the headers', async (t) => {
  const { body, headers } = buildForm({ a: { type: 'text', value: 'b' } })
  t.ok(Buffer.isBuffer(body))
  t.match(headers['content-type'], /^multipart\/form-data; boundary=/)
})

t.test('text fields: strings as they are, other values as text', async (t) => {
  const form = buildForm({
    name: { type: 'text', value: 'Jane Doe' },
    age: { type: 'text', value: 42 },
    yes: { type: 'text', value: false },
    json: { type: 'text', value: { a: [1, 'b'] } },
    empty: { type: 'text', value: '' }
  })
  t.same(Object.keys(form.headers), ['content-type'], 'one header: the content type, with its boundary')
  const boundary = /^multipart\/form-data; boundary=(\S+)$/.exec(form.headers['content-type'])[1]
  t.ok(form.body.toString().endsWith(`--${boundary}--\r\n`), 'the body ends with its boundary')
  t.same(await parseMultipart(form), { fields: { name: 'Jane Doe', age: '42', yes: 'false', json: '{"a":[1,"b"]}', empty: '' }, files: {} })
})

t.test('files: the bytes, the name, the options form-data takes', async (t) => {
  const dir = fixtures(t)
  fs.writeFileSync(path.join(dir, 'data.json'), '{"a":1}')
  const form = buildForm({
    upload: { type: 'file', path: path.join(dir, 'hello.txt') },
    renamed: { type: 'file', path: path.join(dir, 'hello.txt'), options: { filename: 'other-name.txt' } },
    typed: { type: 'file', path: path.join(dir, 'data.json'), options: { contentType: 'application/x-custom' } },
    odd: { type: 'file', path: path.join(dir, 'data.json'), options: 'not an object' }
  })
  const { files } = await parseMultipart(form)
  t.same(files.upload, { filename: 'hello.txt', mimeType: 'text/plain', content: 'hello from a file\n' }, 'its own name, a type from it')
  t.same(files.renamed, { filename: 'other-name.txt', mimeType: 'text/plain', content: 'hello from a file\n' })
  t.same(files.typed, { filename: 'data.json', mimeType: 'application/x-custom', content: '{"a":1}' })
  t.same(files.odd, { filename: 'data.json', mimeType: 'application/json', content: '{"a":1}' }, 'options that are not an object: none')
})

t.test('the description as JSON text, or a file whose uploads may be relative to it', async (t) => {
  const dir = fixtures(t)
  const text = buildForm('  {"field": {"type": "text", "value": "v"}}  ')
  t.same(await parseMultipart(text), { fields: { field: 'v' }, files: {} }, 'JSON text, blanks around it')
  fs.mkdirSync(path.join(dir, 'forms'))
  fs.writeFileSync(path.join(dir, 'forms', 'beside.txt'), 'beside the form file')
  const formFile = path.join(dir, 'forms', 'form.json')
  fs.writeFileSync(formFile, JSON.stringify({ up: { type: 'file', path: 'beside.txt' } }))
  const { files } = await parseMultipart(buildForm(formFile))
  t.equal(files.up.content, 'beside the form file', 'a relative upload path, relative to the form file')
  // Relative to the working directory first, as given.
  const cwd = process.cwd()
  t.teardown(() => process.chdir(cwd))
  process.chdir(dir)
  fs.writeFileSync(path.join(dir, 'beside.txt'), 'in the working directory')
  t.equal((await parseMultipart(buildForm(formFile))).files.up.content, 'in the working directory', 'the working directory is tried first')
  t.equal((await parseMultipart(buildForm(path.join('forms', 'form.json')))).files.up.content, 'in the working directory', 'a form file\'s path relative to it')
  fs.unlinkSync(path.join(dir, 'beside.txt'))
  t.equal((await parseMultipart(buildForm(path.join('forms', 'form.json')))).files.up.content, 'beside the form file')
  t.throws(() => buildForm({ up: { type: 'file', path: 'beside.txt' } }), { option: 'form', detail: '"beside.txt" (the file of field "up") cannot be read: it does not exist' },
    'an object\'s relative paths: the working directory only')
})

t.test('a form that cannot be read: autocannon\'s message, ours in the detail', async (t) => {
  const dir = fixtures(t)
  fs.writeFileSync(path.join(dir, 'bad.json'), 'not json')
  fs.writeFileSync(path.join(dir, 'list.json'), '[1, 2]')
  const missing = path.join(dir, 'missing.json')
  const cases = [
    [5, '5 must be an object, a JSON string, or the path to a JSON file'],
    [['a'], '["a"] must be an object, a JSON string, or the path to a JSON file'],
    [Buffer.from('{}'), 'a Buffer must be an object, a JSON string, or the path to a JSON file'],
    ['  ', '"  " must be an object, a JSON string, or the path to a JSON file'],
    ['{ "a": ', /^"\{ \\"a\\": " is not valid JSON: \S.*[^\s]$/],
    [missing, `${JSON.stringify(missing)} is neither a JSON form description nor a readable file: ${missing} does not exist`],
    [dir, new RegExp(`^${JSON.stringify(dir)} is neither a JSON form description nor a readable file: EISDIR`)],
    [path.join(dir, 'bad.json'), new RegExp(`^${JSON.stringify(path.join(dir, 'bad.json'))} the file ${path.join(dir, 'bad.json')} is not valid JSON: `)],
    [path.join(dir, 'list.json'), `${JSON.stringify(path.join(dir, 'list.json'))} must describe the fields as an object of field names to { type, value | path }`]
  ]
  // A file named that cannot be read or parsed: the code for files.
  const files = new Set([missing, dir, path.join(dir, 'bad.json')])
  for (const [form, detail] of cases) {
    const [name, code] = files.has(form) ? ['UnreadableFileError', 'AC_FILE_UNREADABLE'] : ['InvalidOptionError', 'AC_INVALID_OPTION']
    t.match(thrown(() => buildForm(form)), { name, code, option: 'form', message: UNREADABLE, detail }, String(detail))
  }
})

t.test('a field that cannot be used: autocannon\'s message for it', async (t) => {
  const dir = fixtures(t)
  const cases = [
    [{ f: { value: 'x' } }, 'A \'type\' key with value \'text\' or \'file\' should be specified', '{"value":"x"} (field "f") needs a "type" of "text" or "file"'],
    [{ f: { type: 'json', value: 'x' } }, 'A \'type\' key with value \'text\' or \'file\' should be specified', '{"type":"json","value":"x"} (field "f") needs a "type" of "text" or "file"'],
    [{ f: 'plain' }, 'A \'type\' key with value \'text\' or \'file\' should be specified', '"plain" (field "f") needs a "type" of "text" or "file"'],
    [{ f: { type: 'text' } }, 'Missing key \'value\' in form object for key \'f\'', '{"type":"text"} (field "f") has type "text" but no "value"'],
    [{ f: { type: 'text', value: null } }, 'Missing key \'value\' in form object for key \'f\'', '{"type":"text","value":null} (field "f") has type "text" but no "value"'],
    [{ up: { type: 'file' } }, 'Missing key \'path\' in form object for key \'up\'', '{"type":"file"} (field "up") has type "file" but no "path"'],
    [{ up: { type: 'file', path: '' } }, 'Missing key \'path\' in form object for key \'up\'', '{"type":"file","path":""} (field "up") has type "file" but no "path"'],
    [{ up: { type: 'file', path: '/no/such/upload.bin' } }, 'ENOENT: no such file or directory, open \'/no/such/upload.bin\'', '"/no/such/upload.bin" (the file of field "up") cannot be read: it does not exist'],
    [{ up: { type: 'file', path: dir } }, /^EISDIR/, new RegExp(`^${JSON.stringify(dir)} \\(the file of field "up"\\) cannot be read: EISDIR`)]
  ]
  for (const [form, message, detail] of cases) {
    // An upload that cannot be read: the code for files.
    const code = form.up && form.up.path ? 'AC_FILE_UNREADABLE' : 'AC_INVALID_OPTION'
    t.match(thrown(() => buildForm(form)), { code, option: 'form', message, detail }, String(detail))
  }
  t.match(thrown(() => buildForm({ ok: { type: 'text', value: 'fine' }, bad: { type: 'text' } })), { message: 'Missing key \'value\' in form object for key \'bad\'' }, 'the field at fault named, after good ones')
})
