'use strict'

// form: multipart/form-data bodies, parsed back by busboy.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const autocannon = require('../..')
const { recordingServer, tempDir, jsonResult } = require('../helpers/recording')
const { run: runCli } = require('../helpers/cli')
const { parseMultipart } = require('../helpers/multipart')

function fixtures (t) {
  const dir = tempDir(t, 'ac-form-')
  fs.writeFileSync(path.join(dir, 'hello.txt'), 'hello from a file\n')
  fs.writeFileSync(path.join(dir, 'data.json'), '{"a":1}')
  return dir
}

t.test('text fields and files, with filename and filepath options', async (t) => {
  const dir = fixtures(t)
  const { url, seen } = await recordingServer(t)
  const result = await autocannon({
    url,
    connections: 2,
    amount: 10,
    headers: { 'Content-Type': 'text/plain', 'x-other': 'kept' },
    form: {
      name: { type: 'text', value: 'Jane Doe' },
      age: { type: 'text', value: 42 },
      upload: { type: 'file', path: path.join(dir, 'hello.txt') },
      renamed: { type: 'file', path: path.join(dir, 'hello.txt'), options: { filename: 'other-name.txt' } },
      located: { type: 'file', path: path.join(dir, 'data.json'), options: { filepath: 'some/dir/data.json', contentType: 'application/json' } }
    }
  })
  t.equal(result.requests.total, 10)
  t.equal(result.errors, 0)
  t.equal(seen.length, 10)
  t.ok(seen.every((r) => r.method === 'POST'), 'a form is POSTed unless a method is given')
  t.match(seen[0].headers['content-type'], /^multipart\/form-data; boundary=\S+$/)
  t.equal(seen[0].rawHeaders.filter((h) => h.toLowerCase() === 'content-type').length, 1, 'one Content-Type: the form\'s')
  t.equal(seen[0].headers['x-other'], 'kept', 'other headers still go')
  t.equal(Number(seen[0].headers['content-length']), seen[0].body.length)
  t.equal(new Set(seen.map((r) => r.body.toString())).size, 1, 'the body is built once and sent as it is')

  const { fields, files } = await parseMultipart(seen[0])
  t.same(fields, { name: 'Jane Doe', age: '42' })
  t.same(files.upload, { filename: 'hello.txt', mimeType: 'text/plain', content: 'hello from a file\n' })
  t.same(files.renamed, { filename: 'other-name.txt', mimeType: 'text/plain', content: 'hello from a file\n' })
  t.equal(files.located.content, '{"a":1}')
  t.equal(files.located.mimeType, 'application/json')
  t.match(seen[0].body.toString(), /filename="some\/dir\/data\.json"/, 'filepath is sent as the file name')
})

t.test('the form as a JSON string and as a path to a JSON file', async (t) => {
  const dir = fixtures(t)
  const { url, seen } = await recordingServer(t)
  const form = { field: { type: 'text', value: 'v' }, file: { type: 'file', path: path.join(dir, 'hello.txt') } }
  await autocannon({ url, connections: 1, amount: 1, form: JSON.stringify(form) })
  const formFile = path.join(dir, 'form.json')
  fs.writeFileSync(formFile, JSON.stringify(form))
  await autocannon({ url, connections: 1, amount: 1, form: formFile, method: 'PUT' })
  // A file path in a form file may be relative to that file.
  fs.writeFileSync(path.join(dir, 'relative-form.json'), JSON.stringify({ file: { type: 'file', path: 'hello.txt' } }))
  await autocannon({ url, connections: 1, amount: 1, form: path.join(dir, 'relative-form.json') })
  t.equal(seen.length, 3)
  const [a, b, c] = await Promise.all(seen.map(parseMultipart))
  t.same(a.fields, { field: 'v' })
  t.equal(a.files.file.content, 'hello from a file\n')
  t.same(b, a, 'the same form from a file')
  t.equal(seen[1].method, 'PUT')
  t.equal(c.files.file.content, 'hello from a file\n')
})

t.test('bad forms: clear errors naming the field or the file', async (t) => {
  const url = 'http://127.0.0.1:1'
  // autocannon's message (the next test), ours in err.detail.
  const detail = async (form) => (await autocannon({ url, form }).catch((e) => e)).detail
  const upload = await autocannon({ url, form: { f: { type: 'file', path: '/no/such/upload.bin' } } }).catch((e) => e)
  t.equal(upload.code, 'AC_FILE_UNREADABLE', 'the code for a file an option names that cannot be read')
  t.equal(upload.option, 'form', 'naming its option')
  t.equal(upload.message, "ENOENT: no such file or directory, open '/no/such/upload.bin'", 'autocannon lets the file system\'s message through')
  t.match(upload.detail, /\/no\/such\/upload\.bin.*field "f".*it does not exist/)
  t.match(await detail('/no/such/form.json'), /\/no\/such\/form\.json.*does not exist/)
  t.match(await detail('{ "a": '), /not valid JSON/)
  const dir = tempDir(t)
  fs.writeFileSync(path.join(dir, 'bad.json'), 'not json')
  t.match(await detail(path.join(dir, 'bad.json')), /bad\.json.* is not valid JSON/)
  t.match(await detail({ f: { value: 'x' } }), /field "f"\) needs a "type"/)
  t.match(await detail({ f: { type: 'text' } }), /field "f"\) has type "text" but no "value"/)
  t.match(await detail({ f: { type: 'file' } }), /field "f"\) has type "file" but no "path"/)
})

// Scripts compare autocannon's messages: ours are them, word for word.
t.test('bad forms: autocannon\'s messages', async (t) => {
  const url = 'http://127.0.0.1:1'
  const cases = [
    [{ f: { value: 'x' } }, "A 'type' key with value 'text' or 'file' should be specified"],
    [{ f: { type: 'text' } }, "Missing key 'value' in form object for key 'f'"],
    [{ up: { type: 'file' } }, "Missing key 'path' in form object for key 'up'"],
    ['{ "a": ', 'Invalid JSON or file where to get form data'],
    ['/no/such/form.json', 'Invalid JSON or file where to get form data']
  ]
  for (const [form, wording] of cases) {
    const err = await autocannon({ url, form }).catch((e) => e)
    t.equal(err.code, form === '/no/such/form.json' ? 'AC_FILE_UNREADABLE' : 'AC_INVALID_OPTION')
    t.equal(err.option, 'form')
    t.equal(err.message, wording)
    t.type(err.detail, 'string', err.detail)
    // autocannon 9 says the same for the same form.
    t.throws(() => require('autocannon-upstream/lib/multipart')(form), { message: wording }, `autocannon: ${wording}`)
  }
})

t.test('CLI: bad -F options start with autocannon\'s wording', async (t) => {
  const dir = tempDir(t)
  const url = 'http://127.0.0.1:1'
  const cases = [
    [['-F', '{"f":{"type":"text"}}'], "Error: Missing key 'value' in form object for key 'f' (-F/--form: "],
    [['-F', '{"f":{"type":"file"}}'], "Error: Missing key 'path' in form object for key 'f' (-F/--form: "],
    [['-F', '{"f":{"value":"x"}}'], "Error: A 'type' key with value 'text' or 'file' should be specified (-F/--form: "],
    [['-F', '{"f": '], 'Error: Invalid JSON or file where to get form data (-F/--form is not valid JSON: '],
    [['-F', 'nope.json'], 'Error: Invalid JSON or file where to get form data (-F/--form file: nope.json cannot be read)']
  ]
  for (const [args, start] of cases) {
    const run = await runCli([url, '-c', '1', '-a', '1', ...args], { cwd: dir })
    t.equal(run.code, 1)
    t.ok(run.stderr.startsWith(start) && run.stderr.split('\n').length === 2, run.stderr)
  }
})

t.test('CLI: -F with a JSON string and with a JSON file', async (t) => {
  const dir = fixtures(t)
  const { url, seen } = await recordingServer(t)
  const form = { field: { type: 'text', value: 'from the cli' }, upload: { type: 'file', path: 'hello.txt', options: { filename: 'cli.txt' } } }
  const one = await runCli([url, '-a', '3', '-c', '1', '-j', '-F', JSON.stringify(form)], { cwd: dir })
  t.equal(one.code, 0, one.stderr)
  t.equal(jsonResult(one.stdout).requests.total, 3)
  fs.writeFileSync(path.join(dir, 'form.json'), JSON.stringify(form))
  const two = await runCli([url, '-a', '2', '-c', '1', '-j', '--form', 'form.json'], { cwd: dir })
  t.equal(two.code, 0, two.stderr)
  t.equal(seen.length, 5)
  for (const r of seen) {
    t.equal(r.method, 'POST')
    const { fields, files } = await parseMultipart(r)
    t.same(fields, { field: 'from the cli' })
    t.same(files.upload, { filename: 'cli.txt', mimeType: 'text/plain', content: 'hello from a file\n' })
  }
  const bad = await runCli([url, '-c', '1', '-a', '1', '-F', '{"f":{"type":"file","path":"missing.bin"}}'], { cwd: dir })
  t.not(bad.code, 0)
  t.match(bad.stderr, /missing\.bin/)
})
