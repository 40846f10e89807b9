'use strict'

// Micro-benchmark of the HTTP/2 codec's hot path (lib/http2): decoding a
// response's header block with HPACK, and parsing a read of 100 small
// responses (HEADERS + DATA each) with the FrameParser, the blocks decoded
// as they come. Header lists off (the load generator's fast path) and on.
//
//   node bench/h2-codec.js [--seconds 1] [--rounds 7]
//
// Prints nanoseconds per response (median of the rounds, with the range),
// counted in CPU time (on a shared machine other processes take turns on
// the core), and the garbage collections seen while timing: none means no
// allocation per response.

const { parseArgs } = require('util')
const { PerformanceObserver, performance } = require('perf_hooks')
const { Decoder, encodeInteger, encodeString } = require('../lib/http2/hpack')
const { FrameParser, encodeSettings, encodeHeaders, encodeData } = require('../lib/http2/frames')

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '7' }
  }
})

// A response's fields, as nginx sends them (and h2o, nghttp2 likewise).
const FIELDS = [
  [54, 'server', 'nginx/1.25.3'],
  [33, 'date', 'Sun, 22 Nov 2026 10:00:00 GMT'],
  [31, 'content-type', 'text/html; charset=utf-8'],
  [28, 'content-length', '612']
]

// Field builders: `flags` 0x40 for incremental indexing (6-bit name
// index), 0x00 for without indexing (4-bit).
const literal = (flags, nameIndex, value) => Buffer.concat([
  Buffer.from(encodeInteger(nameIndex, flags === 0x40 ? 6 : 4, flags)), encodeString(Buffer.from(value))
])
const STATUS_200 = Buffer.from([0x88])

const BLOCKS = {
  // A first response: every field a Huffman literal inserted into the
  // table (decoding it again and again inserts, and evicts, each time).
  'first response: 4 Huffman literals indexed': Buffer.concat([STATUS_200, ...FIELDS.map(([i, , v]) => literal(0x40, i, v))]),
  // No table used: every field a Huffman literal, not indexed.
  'no table: 4 Huffman literals not indexed': Buffer.concat([STATUS_200, ...FIELDS.map(([i, , v]) => literal(0x00, i, v))]),
  // Later responses once the table holds them (newest first: content-length
  // 62, content-type 63, date 64, server 65).
  'later responses: all indexed': Buffer.from([0x88, 0xc1, 0xc0, 0xbf, 0xbe]),
  // As nghttp2 sends them: content-length is never indexed.
  'later responses, content-length literal': Buffer.concat([Buffer.from([0x88, 0xc1, 0xc0, 0xbf]), literal(0x00, 28, '612')])
}

// A decoder whose table holds what the later blocks refer to.
function primedDecoder () {
  const decoder = new Decoder()
  const first = BLOCKS['first response: 4 Huffman literals indexed']
  decoder.decode(first, 0, first.length, false)
  return decoder
}

const gcTimes = []
new PerformanceObserver((list) => { for (const e of list.getEntries()) gcTimes.push(e.startTime) }).observe({ entryTypes: ['gc'] })

// Runs `batch` (which handles `per` responses) for `seconds` of wall time;
// returns CPU nanoseconds per response.
function timed (batch, per, seconds) {
  for (let k = 0; k < 2000; k++) batch()
  let responses = 0
  const from = performance.now()
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9))
  const cpu0 = process.cpuUsage()
  while (process.hrtime.bigint() < deadline) {
    for (let k = 0; k < 200; k++) batch()
    responses += 200 * per
  }
  const cpu = process.cpuUsage(cpu0)
  return { ns: (cpu.user + cpu.system) * 1000 / responses, from, to: performance.now() }
}

function decodeCase (name, wantHeaders) {
  const block = BLOCKS[name]
  const decoder = primedDecoder()
  // A small integer: a sum past 2^31 would allocate a number each time.
  let wrong = 0
  const batch = () => {
    for (let k = 0; k < 100; k++) if (decoder.decode(block, 0, block.length, wantHeaders) !== 200) wrong++
  }
  batch()
  if (wrong !== 0) throw new Error(`${name}: decoded the wrong status`)
  return () => timed(batch, 100, Number(values.seconds))
}

// One read of 100 responses on streams 1, 3, 5…: HEADERS (a later
// response's block) and DATA with END_STREAM.
function parseCase (decode, wantHeaders) {
  const block = BLOCKS['later responses, content-length literal']
  const frames = [encodeSettings({ maxConcurrentStreams: 100 })]
  for (let k = 0; k < 100; k++) {
    frames.push(encodeHeaders(2 * k + 1, block, false), encodeData(2 * k + 1, Buffer.from('hello, world\n'), true))
  }
  const read = Buffer.concat(frames.slice(1))
  const decoder = primedDecoder()
  let done = 0
  let status = 0
  const handler = {
    onHeaders (streamId, buf, start, end, endStream) {
      if (decode) status = decoder.decode(buf, start, end, wantHeaders)
    },
    onData (streamId, buf, start, end, endStream, flow) {
      if (endStream) done++
    },
    onSettings () {},
    onError (err) { throw err }
  }
  const parser = new FrameParser(handler)
  parser.execute(frames[0])
  const batch = () => parser.execute(read, 0, read.length)
  batch()
  if (done !== 100 || (decode && status !== 200)) throw new Error('the frames did not parse')
  return () => timed(batch, 100, Number(values.seconds))
}

function median (xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

async function main () {
  const rounds = Number(values.rounds)
  const settings = []
  for (const name of Object.keys(BLOCKS)) {
    settings.push([`decode ${name}`, decodeCase(name, false)])
    settings.push([`decode ${name}, header list`, decodeCase(name, true)])
  }
  settings.push(['parse 100 × (HEADERS + DATA), no decoding', parseCase(false, false)])
  settings.push(['parse 100 × (HEADERS + DATA) + decode', parseCase(true, false)])
  settings.push(['parse 100 × (HEADERS + DATA) + decode, header list', parseCase(true, true)])

  const results = settings.map(() => [])
  const windows = settings.map(() => [])
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < settings.length; k++) {
      const { ns, from, to } = settings[k][1]()
      results[k].push(ns)
      windows[k].push([from, to])
    }
  }
  // Let the observer deliver the last GC entries.
  await new Promise((resolve) => setTimeout(resolve, 100))
  const width = Math.max(...settings.map(([name]) => name.length))
  console.log(`node ${process.version}, ${rounds} rounds of ${values.seconds} s; CPU ns per response: median (min–max), GCs while timing`)
  settings.forEach(([name], k) => {
    const gcs = gcTimes.filter((at) => windows[k].some(([from, to]) => at >= from && at <= to)).length
    const xs = results[k]
    console.log(`${name.padEnd(width)}  ${median(xs).toFixed(0).padStart(5)} ns  (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})  ${gcs} GC`)
  })
}

main()
