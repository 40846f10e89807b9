'use strict'

// Certificates, keys and CAs are checked before the run starts, so a bad
// file is one clear line naming the option (and the file, from the CLI),
// not an OpenSSL message at the first connection, or, for a CA, nothing at
// all: Node skips what it cannot parse in `ca` without a word.

const crypto = require('crypto')
const { raise } = require('../core/errors')
const { lazy } = require('../core/lazy')
// Lazy: only a certificate and key given together need it, to check that
// they belong together.
const tls = lazy(() => require('tls'))

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g

function list (value) {
  return Array.isArray(value) ? value : [value]
}

function text (value) {
  if (typeof value === 'string') return value
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('latin1')
  return null
}

function invalid (name, what) {
  return raise('AC_INVALID_TLS_FILE', `${name}: ${what}`)
}

// Every PEM certificate in it parses, and there is at least one.
function checkCertificates (value, name, role) {
  const pem = text(value)
  if (pem === null) throw invalid(name, `must be PEM text (a string or a Buffer) holding ${role}`)
  const blocks = pem.match(PEM_BLOCK) || []
  const certs = blocks.filter((b) => b.startsWith('-----BEGIN CERTIFICATE-----') || b.startsWith('-----BEGIN TRUSTED CERTIFICATE-----'))
  if (certs.length === 0) throw invalid(name, `no PEM certificate in it (expected ${role} between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----)`)
  for (const block of certs) {
    try {
      // eslint-disable-next-line no-new
      new crypto.X509Certificate(block)
    } catch (err) {
      throw invalid(name, `holds a certificate that cannot be read (${err.message})`)
    }
  }
}

// passphraseName: what to say of a missing passphrase.
function checkKey (value, name, passphrase, passphraseName) {
  const key = typeof value === 'object' && value !== null && !Buffer.isBuffer(value) && !(value instanceof Uint8Array)
    ? value
    : { key: value, passphrase }
  const pem = text(key.pem !== undefined ? key.pem : key.key)
  if (pem === null) throw invalid(name, 'must be a PEM private key (a string or a Buffer)')
  try {
    crypto.createPrivateKey({ key: pem, passphrase: key.passphrase !== undefined ? key.passphrase : passphrase })
  } catch (err) {
    const encrypted = /passphrase/i.test(err.message) || /Proc-Type: 4,ENCRYPTED|BEGIN ENCRYPTED PRIVATE KEY/.test(pem)
    const given = key.passphrase !== undefined || passphrase !== undefined
    const why = !encrypted
      ? 'is not a valid PEM private key'
      : given ? `is encrypted, and ${passphraseName} does not open it` : `is encrypted: ${passphraseName === 'tlsOptions.passphrase' ? 'give its passphrase in tlsOptions.passphrase' : passphraseName}`
    throw invalid(name, why)
  }
}

// names: how to call each option in messages; the CLI passes its flags
// and file names ({ cert: '--cert cert.pem', key: …, ca: [ … ] }).
function checkTlsOptions (options, names = {}) {
  const certName = names.cert || 'tlsOptions.cert'
  const keyName = names.key || 'tlsOptions.key'
  const caName = (i) => (names.ca && names.ca[i]) || `tlsOptions.ca${Array.isArray(options.ca) ? `[${i}]` : ''}`
  if (options.cert !== undefined) list(options.cert).forEach((c) => checkCertificates(c, certName, 'a certificate chain'))
  const passphraseName = names.passphrase || 'tlsOptions.passphrase'
  if (options.key !== undefined) list(options.key).forEach((k) => checkKey(k, keyName, options.passphrase, passphraseName))
  if (options.ca !== undefined) list(options.ca).forEach((c, i) => checkCertificates(c, caName(i), 'CA certificates'))
  if (options.cert !== undefined && options.key !== undefined) {
    try {
      tls().createSecureContext({ cert: options.cert, key: options.key, passphrase: options.passphrase })
    } catch (err) {
      const why = /mismatch/i.test(err.message) ? 'the key does not belong to the certificate' : err.message
      throw invalid(`${certName} and ${keyName}`, why)
    }
  }
}

module.exports = { checkTlsOptions }
