'use strict'

// Reading a server-sent event stream as the browser's EventSource does:
// blocks end at a blank line, and a block may arrive split across reads.

// Calls onBlock(block) for each whole block `res` delivers, without its
// blank line.
function eachBlock (res, onBlock) {
  res.setEncoding('utf8')
  let buffer = ''
  res.on('data', (chunk) => {
    buffer += chunk
    let end
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      onBlock(block)
    }
  })
}

module.exports = { eachBlock }
