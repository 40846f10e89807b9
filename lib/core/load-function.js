'use strict'

// A user's function, given as a function or as the path of a file that
// exports one (hooks such as setupClient, verifyBody, setupRequest, which
// worker threads can only receive as paths). A file that cannot be loaded
// is refused with the option's name, before anything is sent.

const path = require('path')
const { InvalidOptionError } = require('./errors')

function loadFunction (value, option) {
  if (value === undefined || value === null || typeof value === 'function') return value || undefined
  try {
    if (typeof value !== 'string') throw new Error('it is neither a function nor a file path')
    // Relative paths are relative to the working directory.
    const mod = require(path.isAbsolute(value) ? value : require.resolve(value, { paths: [process.cwd()] }))
    const fn = typeof mod === 'function' ? mod : mod && mod.default
    if (typeof fn !== 'function') throw new Error('it does not export a function')
    return fn
  } catch (err) {
    throw new InvalidOptionError(option, value, `could not be loaded as a function: ${err.message}`)
  }
}

module.exports = { loadFunction }
