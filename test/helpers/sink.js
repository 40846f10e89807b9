'use strict'

// A stream that keeps what is written to it, for code that takes its
// stdout or stderr as an argument.
function sink () {
  return { text: '', write (s) { this.text += s } }
}

module.exports = { sink }
