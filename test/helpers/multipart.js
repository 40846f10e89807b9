'use strict'

// A multipart/form-data body parsed back by busboy, another
// implementation than the form-data package that builds ours.

const busboy = require('busboy')

// r: { headers, body } (a recorded request, or what buildForm gave);
// resolves to { fields, files }.
function parseMultipart (r) {
  return new Promise((resolve, reject) => {
    const fields = {}
    const files = {}
    const bb = busboy({ headers: r.headers })
    bb.on('field', (name, value) => { fields[name] = value })
    bb.on('file', (name, stream, info) => {
      const chunks = []
      stream.on('data', (c) => chunks.push(c))
      stream.on('end', () => { files[name] = { filename: info.filename, mimeType: info.mimeType, content: Buffer.concat(chunks).toString() } })
    })
    bb.on('close', () => resolve({ fields, files }))
    bb.on('error', reject)
    bb.end(r.body)
  })
}

module.exports = { parseMultipart }
