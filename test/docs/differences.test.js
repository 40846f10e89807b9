'use strict'

// docs/differences.md's table, held to the list below by each row's first
// cell: a difference from autocannon added to the table without a line
// here, or dropped from the table with its line left here, fails. A new
// difference is a deliberate choice: add its row to the table (with why)
// and its first cell, word for word, to KNOWN.

const t = require('tap')
const { read } = require('../helpers/docs')

const KNOWN = [
  'when a run ends',
  'a 1xx status (`102 Processing`)',
  'the last, partial interval',
  'latency under `-R`/`-r`',
  'sends under `-R`',
  'latency in the tables',
  'a server that closes a reused connection unannounced',
  'a connection that dies with *k* requests in flight',
  'a `setupRequest` that returns nothing on the first request',
  '`client.setRequests()` with `pipelining` > 1',
  '`expectBody` with `requests`',
  '`amount: 0` (`-a 0`)',
  '`aggregateResult([])`',
  'a malformed `-H`',
  'a header value with CR or LF, a header name that is not a token (`-H`, `headers`, `requests[i].headers`, a HAR\'s), a method with a space in `requests` or a HAR',
  'a HAR entry\'s HTTP/2 pseudo-headers (`:authority`, `:path`…)',
  'a HAR entry whose form is in `postData.params` (no `text`)',
  'a URL of another scheme (`ftp://h:21/`, `ws://h/`)',
  'a header value that is an object without a text of its own (`{ x: { a: 1 } }`)',
  'a host name that does not resolve',
  '`--cert` without `--key`, or the reverse',
  'error lines of the CLI',
  'warnings',
  'the `response` event with `workers`',
  '`samples` with `workers`',
  'an unknown flag (`--duraton 60`, `-z`)',
  'an option key that is a near miss of an option (`conections`) in `autocannon()`',
  'a method outside autocannon\'s nine (`PURGE`, `PROPFIND`, `QUERY`)',
  '`-F` without `-m`',
  'a flag\'s text that reads as a number or a bracket (`-T 123`, `-b \'[1,2]\'`)',
  '`-i` with `-F`; a command after `--` without `--on-port`',
  'a path without `PORT` (`autocannon /x`), in `parseArguments`',
  '`-- node server.js` without a URL',
  '`--on-port`\'s target',
  'a `warmup` with a callback (`autocannon({ warmup }, cb)`)',
  '`-R`, `--stages` or `-O` with `workers`',
  'a worker thread after its run',
  '`client.parser`, `client.requestIterator`',
  'warnings of ours (`AC_WORKERS_OVER_CORES`…)',
  'files the CLI writes besides its outputs'
]

// The first cell of each row of the page's first table, below its header.
function firstCells (markdown) {
  const lines = markdown.split('\n')
  const start = lines.findIndex((l) => l.startsWith('|'))
  const rows = []
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i].split(' | ')[0].replace(/^\| /, '').trim())
  return rows
}

t.test('every difference in docs/differences.md is one this test knows, and the reverse', async (t) => {
  const cells = firstCells(read('docs/differences.md'))
  t.ok(cells.length >= KNOWN.length / 2, `the table read (${cells.length} rows)`)
  t.same(cells.filter((c) => !KNOWN.includes(c)), [], 'rows of the table not in KNOWN: a new difference (add its first cell to KNOWN)')
  t.same(KNOWN.filter((c) => !cells.includes(c)), [], 'lines of KNOWN not in the table (a difference gone: drop its line)')
  t.equal(new Set(cells).size, cells.length, 'each difference once')
})

t.test('the reading of the table fails on a row added or taken away', async (t) => {
  const table = '| | autocannon | here | why |\n|---|---|---|---|\n| one | a | b | c |\n| two `x` | a | b | c |\n\nafter\n'
  t.same(firstCells(table), ['one', 'two `x`'])
  t.same(firstCells(table.replace('| two `x` | a | b | c |\n', '')), ['one'])
})
