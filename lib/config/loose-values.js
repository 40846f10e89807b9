'use strict'

// Values of a type an option does not take, which autocannon takes
// without a word: a flag given a string or a number (`idReplacement:
// "x"`) is on when the value is truthy, and a title that is not a string
// (`title: { a: 1 }`) is kept in its result as it is (ours holds String()
// of it). The run goes on as autocannon's would; one warning per option
// and process says what the value was taken as, since a script that
// passes "false" or an object means something else.

const { OPTIONS } = require('../core/options')
const { emitWarning } = require('../core/warnings')
const { show } = require('../core/errors')

const FLAGS = Object.keys(OPTIONS).filter((name) => OPTIONS[name].check === 'flag' && OPTIONS[name].library !== false)
const warned = new Set()

function given (value) {
  return value !== undefined && value !== null
}

function once (option, message, emit) {
  if (warned.has(option)) return
  warned.add(option)
  emitWarning('AC_OPTION_COERCED', message, emit)
}

function warnLoose (opts, emit = process.emitWarning) {
  for (const option of FLAGS) {
    const value = opts[option]
    if (!given(value) || typeof value === 'boolean') continue
    once(option, `${option}: ${show(value)} is not a boolean: taken as ${!!value}, as autocannon takes its flags`, emit)
  }
  const title = opts.title
  if (given(title) && typeof title !== 'string') {
    once('title', `title: ${show(title)} is not a string: the result's title is ${JSON.stringify(String(title))}`, emit)
  }
}

module.exports = { warnLoose }
