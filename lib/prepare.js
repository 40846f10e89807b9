'use strict'

// Work done once per run before any connection opens: loading hook files,
// building a multipart body, reading a HAR. Each piece is required only
// when its option is used, so a plain run loads none of it.

const { InvalidOptionError } = require('./errors')

function loadFunction (value, option) {
  if (value === undefined || typeof value === 'function') return value
  try {
    const mod = require(value)
    const fn = typeof mod === 'function' ? mod : mod && mod.default
    if (typeof fn !== 'function') throw new Error('it does not export a function')
    return fn
  } catch (err) {
    throw new InvalidOptionError(option, value, `could not be loaded as a function: ${err.message}`)
  }
}

function prepare (config) {
  const prepared = {
    baseHeaders: config.headers,
    baseBody: config.body,
    verifyBody: loadFunction(config.verifyBody, 'verifyBody'),
    setupClient: loadFunction(config.setupClient, 'setupClient'),
    requestsByOrigin: null
  }
  if (config.form) {
    const form = require('./form').buildForm(config.form)
    prepared.baseBody = form.body
    prepared.baseHeaders = Object.freeze({ ...config.headers, ...form.headers })
  }
  if (config.har) {
    prepared.requestsByOrigin = require('./har').requestsByOrigin(config.har, config.urls)
  }
  return prepared
}

module.exports = { prepare, loadFunction }
