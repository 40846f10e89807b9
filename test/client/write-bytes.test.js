'use strict'

// lib/client/write-bytes.js: numbers written straight into a buffer as
// String() writes them, UUIDs as the hex of the same draws.

const t = require('tap')
const { writeNumber, writeUuid } = require('../../lib/client/write-bytes')
const { seededRandom } = require('../../lib/core/random')
const { uuidText } = require('../helpers/uuid-text')

t.test('writeNumber writes what String() does; writeUuid what the hex of the same draws is', async (t) => {
  const buf = Buffer.alloc(64)
  const random = seededRandom(3)
  const values = [0, -0, 1, 9, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, -1e21, 1.5e300]
  for (let i = 0; i < 20000; i++) values.push(Math.floor((random() - 0.5) * 2 ** (random() * 56)))
  const wrong = values.filter((v) => buf.latin1Slice(3, writeNumber(buf, 3, v)) !== String(v))
  t.same(wrong, [], 'every value as String() writes it')
  const a = seededRandom(8)
  const b = seededRandom(8)
  const view = new DataView(buf.buffer, buf.byteOffset, buf.length)
  for (let i = 0; i < 1000; i++) {
    const end = writeUuid(view, 5, a)
    const want = uuidText(b)
    if (buf.latin1Slice(5, end) !== want) return t.fail(`uuid ${i}: ${buf.latin1Slice(5, end)}, not ${want}`)
  }
  t.match(buf.latin1Slice(5, 41), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
})
