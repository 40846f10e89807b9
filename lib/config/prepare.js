'use strict'

// Work done once per run before any connection opens: loading hook files,
// building a multipart body, reading a HAR. Errors name the option, the
// hook or the file at fault, before anything is sent.

const { loadFunction } = require('../core/load-function')
const { check } = require('../client/templates')
const { lazy } = require('../core/lazy')
// Lazy: each only when its option (at the right) is given, which most
// runs do not.
const targets = lazy(() => require('./targets')) // targets
const har = lazy(() => require('./har')) // har
const form = lazy(() => require('./form')) // form

// requests[] with hook files loaded: each file is required once per run
// (per thread), not once per connection, and a bad one fails the run up
// front with its name.
function loadRequests (requests) {
  if (!requests || !requests.some((r) => typeof r.setupRequest === 'string' || typeof r.onResponse === 'string')) {
    return requests
  }
  return Object.freeze(requests.map((r, i) => {
    if (typeof r.setupRequest !== 'string' && typeof r.onResponse !== 'string') return r
    const out = { ...r }
    // The files stay known, for error messages.
    if (typeof r.setupRequest === 'string') {
      out.setupRequest = loadFunction(r.setupRequest, `requests[${i}].setupRequest`)
      out.setupRequestFile = r.setupRequest
    }
    if (typeof r.onResponse === 'string') {
      out.onResponse = loadFunction(r.onResponse, `requests[${i}].onResponse`)
      out.onResponseFile = r.onResponse
    }
    return Object.freeze(out)
  }))
}

function withoutHeader (headers, lower) {
  const out = {}
  for (const k of Object.keys(headers)) if (k.toLowerCase() !== lower) out[k] = headers[k]
  return out
}

// {{…}} in the URLs' paths, the headers, the body and the requests:
// checked here, before anything runs (template.js compiles them per
// connection).
function checkTemplates (config) {
  for (const target of config.urls) check(target.path, 'url')
  const headers = (where, h) => { for (const k of Object.keys(h || {})) if (typeof h[k] === 'string') check(h[k], where) }
  headers('headers', config.headers)
  check(config.body, 'body')
  for (const [i, r] of (config.requests || []).entries()) {
    if (typeof r.path === 'string') check(r.path, `requests[${i}].path`)
    headers(`requests[${i}].headers`, r.headers)
    check(r.body, `requests[${i}].body`)
  }
}

// The requests of a --targets file or a HAR (each request brings its
// method, path, headers and body: method, body, form and requests are
// ignored; headers still apply beneath the file's), or of `requests` with
// their hook files loaded: by origin, or null for the run's own request.
function requestsByOrigin (config, prepared) {
  if (config.targets) return targets().requestsByOrigin(config.targets, config.urls)
  if (config.har) return har().requestsByOrigin(config.har, config.urls)
  if (config.form) {
    const built = form().buildForm(config.form)
    prepared.baseBody = built.body
    // The form's Content-Type carries the boundary: it wins over any other.
    prepared.baseHeaders = Object.freeze({ ...withoutHeader(config.headers, 'content-type'), ...built.headers })
  }
  const requests = loadRequests(config.requests)
  return requests === config.requests ? null : new Map(config.urls.map((target) => [target.origin, requests]))
}

function prepare (config) {
  const prepared = {
    baseHeaders: config.headers,
    baseBody: config.body,
    verifyBody: loadFunction(config.verifyBody, 'verifyBody'),
    setupClient: loadFunction(config.setupClient, 'setupClient'),
    requestsByOrigin: null
  }
  checkTemplates(config)
  prepared.requestsByOrigin = requestsByOrigin(config, prepared)
  return prepared
}

module.exports = { prepare }
