'use strict'

const t = require('tap')
const { frameMessage, encodeTimeout, decodeTimeout, parseMetadata } = require('../../lib/grpc/wire')

t.test('a message\'s frame: flag, length big endian, bytes', async (t) => {
  t.same([...frameMessage(Buffer.from([1, 2, 3]))], [0, 0, 0, 0, 3, 1, 2, 3])
  t.same([...frameMessage(Buffer.alloc(0))], [0, 0, 0, 0, 0])
  t.same([...frameMessage(Buffer.alloc(300), true).subarray(0, 5)], [1, 0, 0, 1, 44])
})

t.test('grpc-timeout', async (t) => {
  t.equal(encodeTimeout(100), '100m')
  t.equal(encodeTimeout(0.5), '500u')
  t.equal(encodeTimeout(2.0001), '2001u')
  t.equal(encodeTimeout(99999999), '99999999m')
  t.equal(encodeTimeout(100000000), '100000S')
  t.throws(() => encodeTimeout(0))
  t.equal(decodeTimeout('100m'), 100)
  t.equal(decodeTimeout('2S'), 2000)
  t.equal(decodeTimeout('1H'), 3600000)
  t.equal(decodeTimeout('500u'), 0.5)
  t.equal(decodeTimeout('123456789m'), 0, 'nine digits: not a timeout')
  t.equal(decodeTimeout('5x'), 0)
})

t.test('metadata lines', async (t) => {
  t.same(parseMetadata('X-User: ann'), ['x-user', 'ann'])
  t.same(parseMetadata('k=v w'), ['k', 'v w'])
  t.same(parseMetadata('auth: Bearer a:b'), ['auth', 'Bearer a:b'], 'the first separator cuts')
  t.match(parseMetadata('novalue'), /is not 'key: value'/)
  t.match(parseMetadata('te: trailers'), /set by the call itself/)
  t.match(parseMetadata('bad key: v'), /not a valid metadata key/)
})
