'use strict'

// HTTP/2's error codes (RFC 9113 §7) and the errors the codec raises
// (lib/http2/errors.js): each a CountedError under a registered
// code, with the number a GOAWAY or RST_STREAM sends back.

const t = require('tap')
const { ERROR_CODES, errorName, http2Error, resetError, goawayError } = require('../../lib/http2/errors')
const { CountedError, RAISED, COUNTED, causeOf } = require('../../lib/core/errors')

const registered = (code) => code in RAISED || code in COUNTED

t.test('the codes of RFC 9113 §7, and names for the ones it does not define', async (t) => {
  t.equal(ERROR_CODES.NO_ERROR, 0)
  t.equal(ERROR_CODES.PROTOCOL_ERROR, 1)
  t.equal(ERROR_CODES.FLOW_CONTROL_ERROR, 3)
  t.equal(ERROR_CODES.REFUSED_STREAM, 7)
  t.equal(ERROR_CODES.COMPRESSION_ERROR, 9)
  t.equal(ERROR_CODES.HTTP_1_1_REQUIRED, 13)
  t.equal(Object.keys(ERROR_CODES).length, 14)
  t.equal(errorName(8), 'CANCEL')
  t.equal(errorName(13), 'HTTP_1_1_REQUIRED')
  t.equal(errorName(14), '0xe', 'an undefined code keeps its number')
  t.equal(errorName(0x1234), '0x1234')
})

t.test('our own errors: connection or stream, registered, counted as parse errors', async (t) => {
  const conn = http2Error('FRAME_SIZE_ERROR', 'a frame of 20000 octets')
  t.type(conn, CountedError)
  t.same([conn.code, conn.http2Code, conn.streamId, conn.message], ['AC_H2_FRAME_SIZE_ERROR', 6, 0, 'a frame of 20000 octets'])
  const stream = http2Error('PROTOCOL_ERROR', 'bad', 5)
  t.same([stream.code, stream.http2Code, stream.streamId], ['AC_H2_PROTOCOL_ERROR', 1, 5])
  for (const name of ['PROTOCOL_ERROR', 'FRAME_SIZE_ERROR', 'FLOW_CONTROL_ERROR', 'COMPRESSION_ERROR', 'ENHANCE_YOUR_CALM']) {
    const err = http2Error(name, 'x')
    t.ok(registered(err.code), `${err.code} is registered`)
    t.equal(causeOf(err, true), 'parse')
  }
})

t.test('a stream the server reset, and a GOAWAY with an error', async (t) => {
  const reset = resetError(7, 3)
  t.same([reset.code, reset.http2Code, reset.message], ['AC_H2_RST_REFUSED_STREAM', 7, 'the HTTP/2 server reset stream 3 with REFUSED_STREAM'])
  t.ok(registered(reset.code))
  const odd = resetError(99, 1)
  t.same([odd.code, odd.message], ['AC_H2_RST_UNKNOWN', 'the HTTP/2 server reset stream 1 with 0x63'])
  t.ok(registered(odd.code))
  const away = goawayError(2, Buffer.from('going down'))
  t.same([away.code, away.http2Code, away.message], ['AC_H2_GOAWAY', 2, 'the HTTP/2 server sent GOAWAY with INTERNAL_ERROR and closed the connection: going down'])
  t.equal(goawayError(11).message, 'the HTTP/2 server sent GOAWAY with ENHANCE_YOUR_CALM and closed the connection', 'no debug data, no colon')
  t.equal(goawayError(1, Buffer.alloc(500, 0x61)).message.length, 'the HTTP/2 server sent GOAWAY with PROTOCOL_ERROR and closed the connection: '.length + 200, 'debug data cut at 200')
})
