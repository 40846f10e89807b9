'use strict'

// require('autocannon/lib/multipart'): autocannon's form description →
// a FormData (form-data's): { field: { type: 'text', value } |
// { type: 'file', path[, options] } }, given as an object, its JSON text,
// or the path of a JSON file; autocannon's messages for one it cannot
// read. (The form option builds its body its own way, lib/config/form.js.)

const fs = require('fs')
const path = require('path')
const FormData = require('form-data')
const { upstream } = require('../core/upstream-messages')

function description (text) {
  try {
    return JSON.parse(text)
  } catch {
    try {
      return JSON.parse(fs.readFileSync(path.resolve(text), 'utf8'))
    } catch {
      throw new Error(upstream('form'))
    }
  }
}

function multipart (options) {
  const fields = typeof options === 'string' ? description(options) : options
  const form = new FormData()
  for (const key in fields) {
    const field = fields[key]
    switch (field && field.type) {
      case 'file': {
        if (!field.path) throw new Error(upstream('formPath', { key }))
        form.append(key, fs.readFileSync(field.path), { filename: path.basename(field.path), ...field.options })
        break
      }
      case 'text': {
        if (!field.value) throw new Error(upstream('formValue', { key }))
        form.append(key, field.value)
        break
      }
      default:
        throw new Error(upstream('formType'))
    }
  }
  return form
}

module.exports = multipart
