'use strict'

// Framing decisions of llhttp that our parser must track: where a
// response ends, whether it has a body, whether the connection stays
// open, which malformed heads are refused. Each is recorded as llhttp
// 9.3 (Node 20) and 9.4 (Node 22, 24) answered it, and as our parser
// answers it. test/e2e/fuzz.test.js runs them against the llhttp of the
// Node it runs on: a llhttp that is not listed here, or one that now
// decides otherwise, fails it, so that a new Node's parser is looked at
// (and its differences added to known.js) before it is trusted. Where ours
// and llhttp differ, the difference must be a known one (known.js) for
// that llhttp. The outcome as summary() writes it: each complete response
// as status and body, then the error code and how many responses came
// before it.

const REVIEWED = ['9.3', '9.4']

const DECISIONS = [
  {
    name: 'Content-Length followed by a tab',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 2\t\r\n\r\nhi',
    ours: '200 "hi"',
    llhttp: { 9.3: 'HPE_INVALID_CONTENT_LENGTH after 0', 9.4: '200 "hi"' }
  },
  {
    name: 'Content-Length followed by spaces',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 2  \r\n\r\nhi',
    ours: '200 "hi"',
    llhttp: { 9.3: '200 "hi"', 9.4: '200 "hi"' }
  },
  {
    name: 'Content-Length followed by tabs and spaces',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 2 \t \r\n\r\nhi',
    ours: '200 "hi"',
    llhttp: { 9.3: 'HPE_INVALID_CONTENT_LENGTH after 0', 9.4: '200 "hi"' }
  },
  {
    name: 'Content-Length after a tab',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length:\t2\r\n\r\nhi',
    ours: '200 "hi"',
    llhttp: { 9.3: '200 "hi"', 9.4: '200 "hi"' }
  },
  {
    name: 'Content-Length with a space inside',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 2 3\r\n\r\nhi',
    ours: 'HPE_INVALID_CONTENT_LENGTH after 0',
    llhttp: { 9.3: 'HPE_INVALID_CONTENT_LENGTH after 0', 9.4: 'HPE_INVALID_CONTENT_LENGTH after 0' }
  },
  {
    name: 'Content-Length empty',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\nhi',
    ours: 'HPE_INVALID_CONTENT_LENGTH after 0',
    llhttp: { 9.3: 'HPE_INVALID_CONTENT_LENGTH after 0', 9.4: 'HPE_INVALID_CONTENT_LENGTH after 0' }
  },
  {
    name: 'Content-Length twice, same value',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nhi',
    ours: 'HPE_UNEXPECTED_CONTENT_LENGTH after 0',
    llhttp: { 9.3: 'HPE_UNEXPECTED_CONTENT_LENGTH after 0', 9.4: 'HPE_UNEXPECTED_CONTENT_LENGTH after 0' }
  },
  {
    name: 'Content-Length with a sign',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nhi',
    ours: 'HPE_INVALID_CONTENT_LENGTH after 0',
    llhttp: { 9.3: 'HPE_INVALID_CONTENT_LENGTH after 0', 9.4: 'HPE_INVALID_CONTENT_LENGTH after 0' }
  },
  {
    name: 'Content-Length with Transfer-Encoding chunked',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    ours: 'HPE_INVALID_TRANSFER_ENCODING after 0',
    llhttp: { 9.3: 'HPE_INVALID_TRANSFER_ENCODING after 0', 9.4: 'HPE_INVALID_TRANSFER_ENCODING after 0' }
  },
  {
    name: 'Connection: close followed by a tab',
    wire: 'HTTP/1.1 200 OK\r\nConnection: close\t\r\nContent-Length: 2\r\n\r\nhiX',
    ours: '200 "hi", HPE_CLOSED_CONNECTION after 1',
    llhttp: { 9.3: '200 "hi", HPE_INVALID_CONSTANT after 1', 9.4: '200 "hi", HPE_CLOSED_CONNECTION after 1' }
  },
  {
    name: 'Connection: close, then a tab before the comma',
    wire: 'HTTP/1.1 200 OK\r\nConnection: close\t, x\r\nContent-Length: 2\r\n\r\nhiX',
    ours: '200 "hi", HPE_CLOSED_CONNECTION after 1',
    llhttp: { 9.3: '200 "hi", HPE_INVALID_CONSTANT after 1', 9.4: '200 "hi", HPE_CLOSED_CONNECTION after 1' }
  },
  {
    name: 'Connection: close with a tab inside a token',
    wire: 'HTTP/1.1 200 OK\r\nConnection: close\tx\r\nContent-Length: 2\r\n\r\nhiX',
    ours: '200 "hi", HPE_INVALID_CONSTANT after 1',
    llhttp: { 9.3: '200 "hi", HPE_INVALID_CONSTANT after 1', 9.4: '200 "hi", HPE_INVALID_CONSTANT after 1' }
  },
  {
    name: 'Connection: keep-alive followed by a tab (HTTP/1.0)',
    wire: 'HTTP/1.0 200 OK\r\nConnection: keep-alive\t\r\nContent-Length: 2\r\n\r\nhiHTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n',
    ours: '200 "hi", 200 ""',
    llhttp: { 9.3: '200 "hi", HPE_CLOSED_CONNECTION after 1', 9.4: '200 "hi", 200 ""' }
  },
  {
    name: 'Proxy-Connection: close',
    wire: 'HTTP/1.1 200 OK\r\nProxy-Connection: close\r\nContent-Length: 2\r\n\r\nhiX',
    ours: '200 "hi", HPE_CLOSED_CONNECTION after 1',
    llhttp: { 9.3: '200 "hi", HPE_CLOSED_CONNECTION after 1', 9.4: '200 "hi", HPE_CLOSED_CONNECTION after 1' }
  },
  {
    name: 'HTTP/1.0 without keep-alive',
    wire: 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhiX',
    ours: '200 "hi", HPE_CLOSED_CONNECTION after 1',
    llhttp: { 9.3: '200 "hi", HPE_CLOSED_CONNECTION after 1', 9.4: '200 "hi", HPE_CLOSED_CONNECTION after 1' }
  },
  {
    name: 'Transfer-Encoding: chunked followed by a space',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked \r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    ours: '200 "hi"',
    llhttp: { 9.3: '200 "hi"', 9.4: '200 "hi"' }
  },
  {
    name: 'Transfer-Encoding: chunked followed by a tab',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\t\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    ours: '200 "2\\r\\nhi\\r\\n0\\r\\n\\r\\n"',
    llhttp: { 9.3: '200 "2\\r\\nhi\\r\\n0\\r\\n\\r\\n"', 9.4: '200 "2\\r\\nhi\\r\\n0\\r\\n\\r\\n"' }
  },
  {
    name: 'Transfer-Encoding: gzip, chunked',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    ours: '200 "hi"',
    llhttp: { 9.3: '200 "hi"', 9.4: '200 "hi"' }
  },
  {
    name: 'Transfer-Encoding: chunked, gzip',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    ours: '200 "2\\r\\nhi\\r\\n0\\r\\n\\r\\n"',
    llhttp: { 9.3: '200 "2\\r\\nhi\\r\\n0\\r\\n\\r\\n"', 9.4: '200 "2\\r\\nhi\\r\\n0\\r\\n\\r\\n"' }
  },
  {
    name: 'Transfer-Encoding empty',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n\r\nhi',
    ours: 'HPE_INVALID_TRANSFER_ENCODING after 0',
    llhttp: { 9.3: '200 "hi"', 9.4: 'HPE_INVALID_TRANSFER_ENCODING after 0' }
  },
  {
    name: 'Transfer-Encoding of spaces',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding:  \r\n\r\nhi',
    ours: 'HPE_INVALID_TRANSFER_ENCODING after 0',
    llhttp: { 9.3: '200 "hi"', 9.4: 'HPE_INVALID_TRANSFER_ENCODING after 0' }
  },
  {
    name: 'Transfer-Encoding empty after chunked',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding:\r\n\r\n2\r\nhi\r\n0\r\n\r\n',
    ours: 'HPE_INVALID_TRANSFER_ENCODING after 0',
    llhttp: { 9.3: '200 "hi"', 9.4: 'HPE_INVALID_TRANSFER_ENCODING after 0' }
  },
  {
    name: 'Transfer-Encoding empty on a 204',
    wire: 'HTTP/1.1 204 No Content\r\nTransfer-Encoding:\r\n\r\n',
    ours: 'HPE_INVALID_TRANSFER_ENCODING after 0',
    llhttp: { 9.3: '204 ""', 9.4: 'HPE_INVALID_TRANSFER_ENCODING after 0' }
  },
  {
    name: 'Transfer-Encoding empty in trailers',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nTransfer-Encoding:\r\n\r\n',
    ours: 'HPE_INVALID_TRANSFER_ENCODING after 0',
    llhttp: { 9.3: '200 ""', 9.4: 'HPE_INVALID_TRANSFER_ENCODING after 0' }
  },
  {
    name: 'Transfer-Encoding empty, then a folded line',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n x\r\n\r\n',
    ours: 'HPE_INVALID_HEADER_TOKEN after 0',
    llhttp: { 9.3: 'HPE_INVALID_HEADER_TOKEN after 0', 9.4: 'HPE_INVALID_HEADER_TOKEN after 0' }
  },
  {
    name: 'Transfer-Encoding: a comma alone',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: ,\r\n\r\nhi',
    ours: '200 "hi"',
    llhttp: { 9.3: '200 "hi"', 9.4: '200 "hi"' }
  },
  {
    name: 'Status line ending in CR CR LF',
    wire: 'HTTP/1.1 200 OK\r\r\nContent-Length: 2\r\n\r\nhi',
    ours: 'HPE_STRICT after 0',
    llhttp: { 9.3: 'HPE_INVALID_HEADER_TOKEN after 0', 9.4: 'HPE_STRICT after 0' }
  },
  {
    name: 'Status line ending in CR CR',
    wire: 'HTTP/1.1 200 OK\r\rContent-Length: 2\r\n\r\nhi',
    ours: 'HPE_STRICT after 0',
    llhttp: { 9.3: '200 "hi"', 9.4: 'HPE_STRICT after 0' }
  },
  {
    name: 'Status line without a reason, CR CR LF',
    wire: 'HTTP/1.1 200\r\r\nContent-Length: 2\r\n\r\nhi',
    ours: 'HPE_STRICT after 0',
    llhttp: { 9.3: 'HPE_INVALID_HEADER_TOKEN after 0', 9.4: 'HPE_STRICT after 0' }
  },
  {
    name: 'Header line ending in CR CR LF',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\r\n\r\nhi',
    ours: 'HPE_STRICT after 0',
    llhttp: { 9.3: 'HPE_LF_EXPECTED after 0', 9.4: 'HPE_LF_EXPECTED after 0' }
  },
  {
    name: 'Chunk size followed by a space',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 \r\nhi\r\n0\r\n\r\n',
    ours: '200 "hi"',
    llhttp: { 9.3: 'HPE_INVALID_CHUNK_SIZE after 0', 9.4: 'HPE_INVALID_CHUNK_SIZE after 0' }
  },
  {
    name: 'Chunk size with a tab before the extension',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\t;a=b\r\nhi\r\n0\r\n\r\n',
    ours: '200 "hi"',
    llhttp: { 9.3: 'HPE_INVALID_CHUNK_SIZE after 0', 9.4: 'HPE_INVALID_CHUNK_SIZE after 0' }
  },
  {
    name: 'Connection: close in trailers',
    wire: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nConnection: close\r\n\r\nX',
    ours: '200 "", HPE_CLOSED_CONNECTION after 1',
    llhttp: { 9.3: '200 "", HPE_CLOSED_CONNECTION after 1', 9.4: '200 "", HPE_CLOSED_CONNECTION after 1' }
  },
  {
    name: '304 with a Content-Length',
    wire: 'HTTP/1.1 304 Not Modified\r\nContent-Length: 2\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n',
    ours: '304 "", 200 ""',
    llhttp: { 9.3: '304 "", 200 ""', 9.4: '304 "", 200 ""' }
  },
  {
    name: '101 then other bytes',
    wire: 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\nanything',
    ours: '101 ""',
    llhttp: { 9.3: '101 ""', 9.4: '101 ""' }
  },
  {
    name: '100 Continue then the response',
    wire: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi',
    ours: '200 "hi"',
    llhttp: { 9.3: '200 "hi"', 9.4: '200 "hi"' }
  },
  {
    name: 'Answer to HEAD with a Content-Length',
    wire: 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n',
    head: true,
    ours: '200 "", 200 ""',
    llhttp: { 9.3: '200 "", 200 ""', 9.4: '200 "", 200 ""' }
  },
  {
    name: 'Bare LF line ends',
    wire: 'HTTP/1.1 200 OK\nContent-Length: 2\n\nhi',
    ours: '200 "hi"',
    llhttp: { 9.3: 'HPE_CR_EXPECTED after 0', 9.4: 'HPE_CR_EXPECTED after 0' }
  }
]

function summary (outcome) {
  const parts = outcome.responses.map((r) => `${r.status} ${JSON.stringify(r.body.toString('latin1'))}`)
  if (outcome.error !== null) parts.push(`${outcome.error.code} after ${outcome.error.at}`)
  return parts.join(', ') || 'nothing'
}

module.exports = { REVIEWED, DECISIONS, summary }
