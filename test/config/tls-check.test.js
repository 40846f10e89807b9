'use strict'

// tlsOptions' certificates, keys and CAs checked before the run: each one
// PEM that parses, an encrypted key opened by its passphrase, a key that
// belongs to its certificate; refused in one line naming the option (or
// the CLI's flag and file), AC_INVALID_TLS_FILE.

const t = require('tap')
const crypto = require('crypto')
const { checkTlsOptions } = require('../../lib/config/tls-check')
const { makePki } = require('../helpers/pki')
const { tempDir } = require('../helpers/recording')
const { thrown } = require('../helpers/thrown')

const pki = makePki(tempDir(t, 'ac-tls-check-'))
const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
// Both forms of an encrypted key: OpenSSL's traditional one and PKCS#8.
const encrypted = {
  traditional: privateKey.export({ type: 'sec1', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'hunter2' }),
  pkcs8: privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'hunter2' })
}
const BROKEN_CERT = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'
const NO_PEM = 'no PEM certificate in it (expected a certificate chain between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----)'

const refusal = (options, names) => thrown(() => checkTlsOptions(options, names))

t.test('what is good passes', async (t) => {
  const good = [
    {},
    { rejectUnauthorized: true },
    { cert: pki.client.cert, key: pki.client.key },
    { cert: pki.client.cert.toString(), key: pki.client.key.toString(), ca: pki.ca },
    { cert: new Uint8Array(pki.client.cert), key: new Uint8Array(pki.client.key) },
    { cert: Buffer.concat([pki.client.cert, pki.ca]), key: pki.client.key },
    { ca: [pki.ca, pki.otherCa] },
    { ca: Buffer.concat([pki.ca, pki.otherCa]) },
    { ca: pki.ca.toString().replace(/CERTIFICATE-----/g, 'TRUSTED CERTIFICATE-----') },
    { key: encrypted.traditional, passphrase: 'hunter2' },
    { key: encrypted.pkcs8, passphrase: 'hunter2' },
    { key: [{ pem: encrypted.pkcs8, passphrase: 'hunter2' }, pki.client.key] }
  ]
  for (const options of good) t.equal(refusal(options), null, Object.keys(options).join(', ') || 'nothing to check')
})

t.test('each refusal, word for word', async (t) => {
  const cases = [
    [{ cert: 'not a certificate' }, `tlsOptions.cert: ${NO_PEM}`],
    [{ cert: pki.client.key }, `tlsOptions.cert: ${NO_PEM}`, 'a key where the certificate goes'],
    [{ cert: 42 }, 'tlsOptions.cert: must be PEM text (a string or a Buffer) holding a certificate chain'],
    [{ cert: [pki.client.cert, 'junk'] }, `tlsOptions.cert: ${NO_PEM}`, 'each of a list'],
    [{ ca: 'junk' }, 'tlsOptions.ca: no PEM certificate in it (expected CA certificates between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----)'],
    [{ ca: [pki.ca, 'junk'] }, 'tlsOptions.ca[1]: no PEM certificate in it (expected CA certificates between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----)', 'the list\'s index'],
    [{ ca: [pki.ca, {}] }, 'tlsOptions.ca[1]: must be PEM text (a string or a Buffer) holding CA certificates'],
    [{ key: 'junk' }, 'tlsOptions.key: is not a valid PEM private key'],
    [{ key: 7 }, 'tlsOptions.key: must be a PEM private key (a string or a Buffer)'],
    [{ key: { passphrase: 'x' } }, 'tlsOptions.key: must be a PEM private key (a string or a Buffer)', 'an object without its pem'],
    [{ key: encrypted.traditional }, 'tlsOptions.key: is encrypted: give its passphrase in tlsOptions.passphrase'],
    [{ key: encrypted.pkcs8 }, 'tlsOptions.key: is encrypted: give its passphrase in tlsOptions.passphrase'],
    [{ key: encrypted.pkcs8, passphrase: 'wrong' }, 'tlsOptions.key: is encrypted, and tlsOptions.passphrase does not open it'],
    [{ key: [{ pem: encrypted.pkcs8, passphrase: 'wrong' }], passphrase: 'hunter2' }, 'tlsOptions.key: is encrypted, and tlsOptions.passphrase does not open it', 'a key\'s own passphrase first'],
    [{ cert: pki.client.cert, key: pki.server.key }, 'tlsOptions.cert and tlsOptions.key: the key does not belong to the certificate']
  ]
  for (const [options, message, why] of cases) {
    const err = refusal(options)
    t.match(err, { code: 'AC_INVALID_TLS_FILE', message }, why || message)
    if (err) t.notOk(err.message.includes('\n'), 'one line')
  }
  t.match(refusal({ cert: BROKEN_CERT }), { code: 'AC_INVALID_TLS_FILE', message: /^tlsOptions\.cert: holds a certificate that cannot be read \(.+\)$/ })
  t.match(refusal({ ca: [pki.ca, Buffer.from(pki.otherCa.toString() + BROKEN_CERT)] }), { message: /^tlsOptions\.ca\[1\]: holds a certificate that cannot be read / }, 'a broken one after a good one')
  t.notMatch(refusal({ key: encrypted.pkcs8, passphrase: 'wrong' }).message, /wrong|hunter2/, 'no passphrase in the message')
})

t.test('in order: certificates, keys, CAs, then the pair', async (t) => {
  t.match(refusal({ cert: 'junk', key: 'junk', ca: 'junk' }), { message: /^tlsOptions\.cert: / })
  t.match(refusal({ cert: pki.client.cert, key: 'junk', ca: 'junk' }), { message: /^tlsOptions\.key: / })
  t.match(refusal({ cert: pki.client.cert, key: pki.server.key, ca: 'junk' }), { message: /^tlsOptions\.ca: / })
  t.equal(refusal({ cert: pki.client.cert }), null, 'a certificate without its key is left to tls')
})

t.test('names: the CLI\'s flags and files, and its word for a passphrase', async (t) => {
  const names = {
    cert: '--cert client.crt',
    key: '--key client.key',
    ca: ['--ca a.pem', '--ca b.pem'],
    passphrase: 'no flag gives its passphrase: decrypt it first'
  }
  const said = (options) => refusal(options, names).message
  t.equal(said({ cert: 'junk' }), `--cert client.crt: ${NO_PEM}`)
  t.equal(said({ key: 'junk' }), '--key client.key: is not a valid PEM private key')
  t.equal(said({ ca: [pki.ca, 'junk'] }), '--ca b.pem: no PEM certificate in it (expected CA certificates between -----BEGIN CERTIFICATE----- and -----END CERTIFICATE-----)')
  t.equal(said({ cert: pki.client.cert, key: pki.server.key }), '--cert client.crt and --key client.key: the key does not belong to the certificate')
  t.equal(said({ key: encrypted.pkcs8 }), '--key client.key: is encrypted: no flag gives its passphrase: decrypt it first')
  t.equal(refusal({ ca: [pki.ca, pki.ca, 'junk'] }, { ca: ['--ca a.pem'] }).message.split(':')[0], 'tlsOptions.ca[2]', 'past the names given: the option\'s own')
})
