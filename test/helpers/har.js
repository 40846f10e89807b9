'use strict'

// HAR (HTTP Archive) content for tests: entries as a browser records
// them, and a page's log with requests to two origins.

const FOREIGN = 'https://cdn.example.net'

function entry (method, url, { headers = [], postData } = {}) {
  const request = { method, url, httpVersion: 'HTTP/1.1', headers, queryString: [], cookies: [], headersSize: -1, bodySize: -1 }
  if (postData) request.postData = postData
  return {
    startedDateTime: '2024-01-01T00:00:00.000Z',
    time: 12.3,
    request,
    response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 0, mimeType: 'text/plain' }, redirectURL: '', headersSize: -1, bodySize: 0 },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2.3 }
  }
}

// A browser-like HAR with two domains: `origin` (ours) and `other`.
function makeHar (origin, other = FOREIGN) {
  return {
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      pages: [],
      entries: [
        entry('GET', `${origin}/index.html?lang=en`, { headers: [{ name: 'Accept', value: 'text/html' }, { name: ':authority', value: 'x' }] }),
        entry('GET', `${other}/app.js`, { headers: [{ name: 'Accept', value: '*/*' }] }),
        entry('POST', `${origin}/api/login`, {
          headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Content-Length', value: '999' }],
          postData: { mimeType: 'application/json', text: '{"user":"jane"}' }
        }),
        entry('GET', `${other}/logo.png`),
        entry('PUT', `${origin}/api/prefs`, {
          headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
          postData: { mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'theme', value: 'dark mode' }, { name: 'lang', value: 'en' }] }
        })
      ]
    }
  }
}

module.exports = { FOREIGN, entry, makeHar }
