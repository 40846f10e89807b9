'use strict'

// require('autocannon/lib/multipart'): a form description → a FormData,
// held to autocannon 9's own on the same descriptions.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const FormData = require('form-data')
const multipart = require('../../lib/compat/multipart')
const theirs = require('autocannon-upstream/lib/multipart')

// A form's bytes with its random boundary taken out.
function bytes (form) {
  const boundary = form.getBoundary()
  return form.getBuffer().toString('latin1').split(boundary).join('BOUNDARY')
}

t.test('the same fields and bytes as autocannon 9\'s, from an object, JSON text or a file', async (t) => {
  const dir = t.testdir({ 'up.txt': 'file content', 'form.json': '' })
  const upload = path.join(dir, 'up.txt')
  const description = { name: { type: 'text', value: 'Ada' }, avatar: { type: 'file', path: upload, options: { filename: 'a.txt', contentType: 'text/plain' } }, plain: { type: 'file', path: upload } }
  fs.writeFileSync(path.join(dir, 'form.json'), JSON.stringify(description))
  for (const given of [description, JSON.stringify(description), path.join(dir, 'form.json')]) {
    const mine = multipart(given)
    t.ok(mine instanceof FormData)
    t.equal(bytes(mine), bytes(theirs(given)))
  }
  t.match(bytes(multipart(description)), /filename="up\.txt"/, 'a file\'s own name when no filename is given')
})

t.test('autocannon 9\'s messages', async (t) => {
  const bad = ['{ not json', 'no-such-file.json', { a: { type: 'file' } }, { a: { type: 'text' } }, { a: { type: 'other' } }, { a: null }]
  for (const given of bad) {
    let expected
    try { theirs(given) } catch (err) { expected = err.message }
    t.ok(expected, 'autocannon refuses it')
    t.throws(() => multipart(given), { message: expected }, expected)
  }
})
