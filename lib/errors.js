'use strict'

// Errors with stable codes. Messages name the option and the value, and say
// what would be accepted, so the CLI can print them as one line.

function show (value) {
  if (typeof value === 'string') return JSON.stringify(value)
  // JSON would show NaN and Infinity as null.
  if (typeof value === 'number') return String(value)
  if (typeof value === 'function') return 'a function'
  if (Buffer.isBuffer(value)) return 'a Buffer'
  try {
    const s = JSON.stringify(value)
    return s === undefined ? String(value) : s
  } catch {
    return String(value)
  }
}

class InvalidOptionError extends Error {
  constructor (option, value, expected) {
    super(`invalid option "${option}": ${show(value)} ${expected}`)
    this.name = 'InvalidOptionError'
    this.code = 'AC_INVALID_OPTION'
    this.option = option
  }
}

// Counted per connection failure; `code` is the category used in results.
class ResponseParseError extends Error {
  constructor (code, message) {
    super(message)
    this.name = 'ResponseParseError'
    this.code = code
  }
}

class RequestTimeoutError extends Error {
  constructor (seconds) {
    super(`request timed out after ${seconds}s`)
    this.name = 'RequestTimeoutError'
    this.code = 'AC_TIMEOUT'
  }
}

module.exports = { InvalidOptionError, ResponseParseError, RequestTimeoutError, show }
