'use strict'

// The files the command line names: -F/--form, -i/--input, --har, --cert,
// --key and --ca. Each is read before the run, so that a missing or
// malformed file is one line naming its flag, in autocannon's words where
// it has some (lib/core/upstream-messages.js) and with ours as the detail.

const fs = require('fs')
const path = require('path')
const { isUtf8 } = require('buffer')
const { raise } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')
const { lazy } = require('../core/lazy')
// Lazy: only --har needs it, not the other flags' files.
const har = lazy(() => require('../config/har'))

// Each failure names its option (err.option, the flag's long name), as the
// library's do.
function failing (option, code, message, detail) {
  const err = raise(code, message, detail)
  err.option = option
  return err
}

// The message is autocannon's: `upstream` names its words ("Failed to
// load cert file: ENOENT: …"); without one, the file system's own message,
// as autocannon lets it through. `detail` is ours.
function readFile (file, encoding, { option, upstream: name, detail }) {
  try {
    return fs.readFileSync(file, encoding)
  } catch (err) {
    throw failing(option, 'AC_FILE_UNREADABLE', name ? upstream(name, { error: err.message }) : err.message, detail)
  }
}

function isFormObject (value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

// -F: JSON text is parsed here; anything else is a file, read and checked
// here but handed over by path, so the library resolves the relative file
// paths in it against the file's directory.
// autocannon's message for any -F it cannot read; ours is the detail.
const FORM_UNREADABLE = upstream('form')

function parseForm (raw) {
  const text = String(raw).trim()
  if (/^[[{"]/.test(text) || /^(-?\d|true$|false$|null$)/.test(text)) {
    let value
    try {
      value = JSON.parse(text)
    } catch (err) {
      if (text.startsWith('{') || text.startsWith('[')) throw failing('form', 'AC_INVALID_ARGUMENT', FORM_UNREADABLE, `-F/--form is not valid JSON: ${err.message}`)
    }
    if (value !== undefined && !fs.existsSync(text)) {
      if (!isFormObject(value)) throw failing('form', 'AC_INVALID_ARGUMENT', FORM_UNREADABLE, `-F/--form ${text.slice(0, 40)} is not a JSON object of form fields (e.g. '{ "name": { "type": "text", "value": "x" } }')`)
      return value
    }
  }
  const file = path.resolve(text)
  const content = readFile(file, 'utf8', { option: 'form', upstream: 'form', detail: `-F/--form file: ${text} cannot be read` })
  let value
  try {
    value = JSON.parse(content)
  } catch (err) {
    throw failing('form', 'AC_FILE_UNREADABLE', FORM_UNREADABLE, `the -F/--form file ${text} is not valid JSON: ${err.message}`)
  }
  if (!isFormObject(value)) throw failing('form', 'AC_FILE_UNREADABLE', FORM_UNREADABLE, `the -F/--form file ${text} must hold a JSON object of form fields`)
  return file
}

// -i: a string, as autocannon's parseArguments gives it (scripts compare
// or concatenate it); a file that is not UTF-8 text stays a Buffer, so
// a binary body is sent byte for byte instead of with U+FFFD in it.
function readInput (file) {
  const bytes = readFile(file, undefined, { option: 'input', detail: `-i/--input ${file} cannot be read` })
  return isUtf8(bytes) ? bytes.toString('utf8') : bytes
}

// --har: every failure is autocannon's "Failed to load HAR file content: "
// and the error's own message.
function readHar (file) {
  const detail = `--har ${file}`
  const text = readFile(file, 'utf8', { option: 'har', upstream: 'harFile', detail })
  let parsed
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    throw failing('har', 'AC_FILE_UNREADABLE', upstream('harFile', { error: err.message }), `${detail} is not valid JSON`)
  }
  try {
    har().harEntries(parsed)
  } catch (err) {
    throw failing('har', 'AC_FILE_UNREADABLE', upstream('harFile', { error: upstream('har', { reason: err.message }) }), detail)
  }
  return parsed
}

// --cert, --key and each --ca, read as bytes into tlsOptions: read, not
// checked, as autocannon's parseArguments does (a key may want a
// passphrase the library call gives).
function readTls ({ cert, key, ca }) {
  const tlsOptions = {}
  if (cert !== undefined) tlsOptions.cert = readFile(cert, undefined, { option: 'cert', upstream: 'certFile', detail: `--cert ${cert}` })
  if (key !== undefined) tlsOptions.key = readFile(key, undefined, { option: 'key', upstream: 'keyFile', detail: `--key ${key}` })
  if (ca.length > 0) tlsOptions.ca = ca.map((file) => readFile(file, undefined, { option: 'ca', upstream: 'caFile', detail: `--ca ${file}` }))
  return tlsOptions
}

module.exports = { parseForm, readInput, readHar, readTls }
