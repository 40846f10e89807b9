'use strict'

// A test PKI made with openssl in a temporary folder: a CA, a second CA that
// signed nothing, and server (localhost, 127.0.0.1) and client certificates.

const fs = require('fs')
const path = require('path')
const { execFileSync } = require('child_process')

function openssl (dir, args) {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
}

// Writes ca, server and client keys and certificates into dir.
function makePki (dir) {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=autocannon test CA'])
  // A second CA that signed nothing we use.
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'other-ca.key', '-out', 'other-ca.crt', '-days', '2', '-subj', '/CN=unrelated CA'])
  fs.writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
  fs.writeFileSync(path.join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n')
  for (const [name, cn] of [['server', 'localhost'], ['client', 'autocannon-client']]) {
    openssl(dir, ['req', '-new', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`])
    openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', `${name}.crt`, '-days', '2', '-extfile', `${name}.ext`])
  }
  const read = (f) => fs.readFileSync(path.join(dir, f))
  return {
    dir,
    ca: read('ca.crt'),
    otherCa: read('other-ca.crt'),
    server: { key: read('server.key'), cert: read('server.crt') },
    client: { key: read('client.key'), cert: read('client.crt') }
  }
}

module.exports = { makePki }
