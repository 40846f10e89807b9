'use strict'

// lib/client/template-ops.js: the steps of a compiled template, as both
// protocols' writers build them; static bytes next to each other become
// one chunk, in order, and any other op keeps its place and its arg.

const t = require('tap')
const { STATIC, addOp } = require('../../lib/client/template-ops')

const SEQ = 1
const PICK = 2

t.test('static chunks in a row are joined; other ops stand between them as they came', async (t) => {
  const ops = []
  const args = []
  const pick = [Buffer.from('a'), Buffer.from('b')]
  addOp(ops, args, STATIC, Buffer.from('GET /'))
  addOp(ops, args, STATIC, Buffer.from('items/'))
  addOp(ops, args, SEQ, null)
  addOp(ops, args, STATIC, Buffer.from('?k='))
  addOp(ops, args, PICK, pick)
  addOp(ops, args, PICK, pick)
  addOp(ops, args, STATIC, Buffer.from(' HTTP/1.1'))
  addOp(ops, args, STATIC, Buffer.alloc(0))
  addOp(ops, args, STATIC, Buffer.from('\r\n'))
  t.same(ops, [STATIC, SEQ, STATIC, PICK, PICK, STATIC])
  t.same(args.map((a) => Buffer.isBuffer(a) ? a.toString('latin1') : a),
    ['GET /items/', null, '?k=', pick, pick, ' HTTP/1.1\r\n'])
  t.equal(args[3], pick, 'an op\'s arg is kept as given')
})

t.test('STATIC is op 0; the first op, static or not, starts the lists', async (t) => {
  t.equal(STATIC, 0)
  const ops = []
  const args = []
  addOp(ops, args, SEQ, null)
  addOp(ops, args, STATIC, Buffer.from('x'))
  t.same(ops, [SEQ, STATIC])
  const first = Buffer.from('y')
  const only = []
  const onlyArgs = []
  addOp(only, onlyArgs, STATIC, first)
  t.equal(onlyArgs[0], first, 'a lone chunk is the buffer given, not a copy')
})
