'use strict'

// The request-shaping samples run as written, each against its own server.

const t = require('tap')
const path = require('path')
const { execFile } = require('child_process')

const samples = {
  'request-context.js': /\d+ requests \(\d+ users created and renamed\), 0 errors, 0 non-2xx/,
  'customise-individual-connection.js': /over 10 connections/,
  'using-id-replacement.js': /2000 registrations, 2000 distinct e-mail addresses out of 2000/,
  'init-context.js': /the server got: \{"id":42,"firstName":"Salman","lastName":"Mitha"\}/
}

for (const [file, expected] of Object.entries(samples)) {
  t.test(file, (t) => {
    execFile(process.execPath, [path.join(__dirname, '..', '..', 'samples', file)], { timeout: 20000 }, (err, stdout, stderr) => {
      t.error(err, stderr)
      t.match(stdout, expected)
      t.end()
    })
  })
}
