'use strict'

// A compiled template's steps, as both protocols' writers keep them
// (lib/http1/template-writer.js, lib/http2/request-template.js): two
// lists, ops (the protocol's op codes) and args (what each op writes
// from), walked in order for each request. STATIC, the one op both
// protocols have, copies its bytes as they are; static bytes that follow
// each other are joined as they are added, so that a request copies them
// at once.

const STATIC = 0

// Appends op with its arg; a STATIC chunk right after another joins it.
function addOp (ops, args, op, arg) {
  if (op === STATIC && ops.length > 0 && ops[ops.length - 1] === STATIC) {
    args[args.length - 1] = Buffer.concat([args[args.length - 1], arg])
  } else {
    ops.push(op)
    args.push(arg)
  }
}

module.exports = { STATIC, addOp }
