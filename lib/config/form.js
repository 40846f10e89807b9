'use strict'

// A multipart/form-data body, built once per run with form-data from
// autocannon's form description:
//   { "field": { "type": "text", "value": "..." },
//     "upload": { "type": "file", "path": "...", "options": { "filename": "..." } } }
// given as an object, a JSON string, or the path to a JSON file.

const fs = require('fs')
const path = require('path')
const FormData = require('form-data')
const { InvalidOptionError, UnreadableFileError } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')

// JSON.parse messages may quote the input, newlines and all.
function oneLine (message) {
  return message.replace(/\s+/g, ' ').trim()
}

// autocannon's message for a form it cannot read; ours is the detail.
const UNREADABLE = upstream('form')

function fail (value, expected) {
  throw new InvalidOptionError('form', value, expected, UNREADABLE)
}

// The same, for a file it names that cannot be read or parsed.
function failFile (value, expected, message = UNREADABLE) {
  throw new UnreadableFileError('form', value, expected, message)
}

// The description as an object, and the directory relative file paths in
// it are tried against (besides the working directory).
function readDescription (form) {
  if (form !== null && typeof form === 'object' && !Array.isArray(form) && !Buffer.isBuffer(form)) {
    return { description: form, dir: null }
  }
  if (typeof form !== 'string' || form.trim() === '') {
    return fail(form, 'must be an object, a JSON string, or the path to a JSON file')
  }
  const text = form.trim()
  if (text.startsWith('{')) {
    try {
      return { description: JSON.parse(text), dir: null }
    } catch (err) {
      return fail(form, `is not valid JSON: ${oneLine(err.message)}`)
    }
  }
  const file = path.resolve(text)
  let content
  try {
    content = fs.readFileSync(file, 'utf8')
  } catch (err) {
    return failFile(form, `is neither a JSON form description nor a readable file: ${err.code === 'ENOENT' ? `${file} does not exist` : err.message}`)
  }
  let description
  try {
    description = JSON.parse(content)
  } catch (err) {
    return failFile(form, `the file ${file} is not valid JSON: ${oneLine(err.message)}`)
  }
  return { description, dir: path.dirname(file) }
}

function readUpload (field, filePath, dir) {
  const candidates = [path.resolve(filePath)]
  if (dir && !path.isAbsolute(filePath)) candidates.push(path.resolve(dir, filePath))
  for (const candidate of candidates) {
    try {
      return { buffer: fs.readFileSync(candidate), file: candidate }
    } catch (err) {
      if (err.code !== 'ENOENT' || candidate === candidates[candidates.length - 1]) {
        // autocannon's message is the file system's own.
        failFile(filePath, `(the file of field "${field}") cannot be read: ${err.code === 'ENOENT' ? 'it does not exist' : err.message}`, err.message)
      }
    }
  }
}

// Returns { body: Buffer, headers: { 'content-type': 'multipart/form-data; boundary=...' } }.
function buildForm (form) {
  const { description, dir } = readDescription(form)
  if (description === null || typeof description !== 'object' || Array.isArray(description)) {
    fail(form, 'must describe the fields as an object of field names to { type, value | path }')
  }
  const data = new FormData()
  for (const field of Object.keys(description)) {
    const spec = description[field]
    const type = spec && spec.type
    if (type === 'text') {
      const value = spec.value
      if (value === undefined || value === null) {
        throw new InvalidOptionError('form', spec, `(field "${field}") has type "text" but no "value"`, upstream('formValue', { key: field }))
      }
      data.append(field, typeof value === 'string' ? value : (typeof value === 'object' ? JSON.stringify(value) : String(value)))
    } else if (type === 'file') {
      if (typeof spec.path !== 'string' || spec.path === '') {
        throw new InvalidOptionError('form', spec, `(field "${field}") has type "file" but no "path"`, upstream('formPath', { key: field }))
      }
      const { buffer, file } = readUpload(field, spec.path, dir)
      const options = spec.options && typeof spec.options === 'object' ? spec.options : {}
      data.append(field, buffer, { filename: path.basename(file), ...options })
    } else {
      throw new InvalidOptionError('form', spec, `(field "${field}") needs a "type" of "text" or "file"`, upstream('formType'))
    }
  }
  return { body: data.getBuffer(), headers: data.getHeaders() }
}

module.exports = { buildForm }
