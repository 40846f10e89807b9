'use strict'

// The in-process layer: one case, both parsers fed the identical bytes.
//
// llhttp reads the stream whole and one byte at a time (the two must give
// the same outcome; the byte-at-a-time run also says where each response
// completed, to compare with where ours did). Our parser, with wantHeaders
// off and on, reads it whole, one byte at a time, cut at every single
// position (or at 32 random ones when the stream is long), at a few random
// sets of cuts, and in ranges of a larger buffer: all of those must give
// what the whole stream gives (anything else is a bug of ours whatever
// llhttp says). Then the whole outcomes are compared, and a difference is
// classified as a known one (fuzz/known.js) or a disagreement. The stream
// plus one garbage byte is compared too: whether a parser takes the
// connection as closed after the last response shows there.

const { runOurs } = require('./ours')
const { runReference } = require('./reference')
const { compareOutcomes } = require('./compare')
const { classify } = require('./known')
const { Rng } = require('./rng')

const EVERY_SPLIT_MAX = 200
const RANDOM_SPLITS = 32
const MULTI_SPLITS = 3

function byteChunks (wire) {
  const out = new Array(wire.length)
  for (let k = 0; k < wire.length; k++) out[k] = wire.subarray(k, k + 1)
  return out
}

// One byte at a time, but past the first BYTEWISE_MAX bytes (long bodies,
// oversized heads) in pieces of 61: cheaper, and as good for the
// comparison of where responses complete, since both parsers get the same
// pieces.
const BYTEWISE_MAX = 1500
function fineChunks (wire) {
  if (wire.length <= BYTEWISE_MAX) return byteChunks(wire)
  const out = byteChunks(wire.subarray(0, BYTEWISE_MAX))
  for (let k = BYTEWISE_MAX; k < wire.length; k += 61) out.push(wire.subarray(k, Math.min(k + 61, wire.length)))
  return out
}

function cutAt (wire, cuts) {
  const out = []
  let prev = 0
  for (const c of cuts) {
    out.push(wire.subarray(prev, c))
    prev = c
  }
  out.push(wire.subarray(prev))
  return out
}

// The comparison of one stream for one setting of wantHeaders.
// Returns { verdict: 'agree' | 'known' | 'disagree', known, detail }.
function compareStream (wire, c, wantHeaders, ref, refBytes, deep) {
  const opts = { head: c.head, wantHeaders, maxHeaderSize: c.maxHeaderSize }
  const ours = runOurs([wire], opts)
  if (ours.problems.length > 0) return { verdict: 'disagree', layer: 'interface', detail: ours.problems[0] }
  const oursBytes = deep ? runOurs(fineChunks(wire), { ...opts, scribble: true }) : null
  if (deep) {
    // Our parser must not care how the stream is cut.
    const rng = new Rng(c.seed, c.index * 7 + (wantHeaders ? 1 : 0))
    const runs = [['one byte at a time (61 at a time past 1500)', oursBytes]]
    runs.push(['in ranges of a larger buffer', runOurs(cutAt(wire, rng.cuts(wire.length, 3)), { ...opts, ranges: true })])
    if (wire.length <= EVERY_SPLIT_MAX) {
      for (let k = 1; k < wire.length; k++) runs.push([`cut at ${k}`, runOurs(cutAt(wire, [k]), opts)])
    } else {
      for (const k of rng.cuts(wire.length, RANDOM_SPLITS)) runs.push([`cut at ${k}`, runOurs(cutAt(wire, [k]), opts)])
    }
    for (let m = 0; m < MULTI_SPLITS; m++) {
      const cuts = rng.cuts(wire.length, rng.range(2, 12))
      runs.push([`cut at ${cuts.join(',')}`, runOurs(cutAt(wire, cuts), opts)])
    }
    for (const [how, run] of runs) {
      if (run.problems.length > 0) return { verdict: 'disagree', layer: 'split', detail: `${how}: ${run.problems[0]}` }
      const d = compareOutcomes(run, ours, { headers: wantHeaders })
      if (d !== null) return { verdict: 'disagree', layer: 'split', detail: `${how} vs whole: ${d}` }
    }
  }
  const d = compareOutcomes(ours, ref, { headers: wantHeaders })
  if (d === null) {
    if (deep) {
      const e = compareOutcomes(oursBytes, refBytes, { ends: true })
      if (e !== null) return { verdict: 'disagree', layer: 'in-process', detail: `one byte at a time: ${e}` }
    }
    return { verdict: 'agree' }
  }
  const known = classify({ wire, head: c.head, maxHeaderSize: c.maxHeaderSize, wantHeaders, ours, ref })
  if (known !== null) return { verdict: 'known', known, detail: d }
  return { verdict: 'disagree', layer: 'in-process', detail: d }
}

const RANK = { agree: 0, known: 1, disagree: 2 }

// Checks one case; returns the worst verdict over its checks, the known
// differences seen, and the first disagreement's detail.
function checkCase (c) {
  const refOpts = { head: c.head, maxHeaderSize: c.maxHeaderSize }
  const result = { verdict: 'agree', known: [], layer: null, detail: null, anomaly: null }
  const note = (r, what) => {
    if (r.verdict === 'known') for (const id of r.known) if (!result.known.includes(id)) result.known.push(id)
    if (RANK[r.verdict] > RANK[result.verdict]) {
      result.verdict = r.verdict
      if (r.verdict === 'disagree') {
        result.layer = r.layer
        result.detail = `${what}: ${r.detail}`
      }
    }
  }
  const streams = [[c.wire, true, 'stream'], [Buffer.concat([c.wire, PROBE]), false, 'stream + "X"']]
  for (const [wire, deep, what] of streams) {
    const ref = runReference([wire], refOpts)
    const refBytes = deep ? runReference(fineChunks(wire), { ...refOpts, offsets: true }) : null
    if (deep) {
      const d = compareOutcomes(refBytes, ref, { headers: true })
      // The reference itself cut differently: never expected; reported
      // apart, as it would put the reference in doubt, not our parser.
      if (d !== null && result.anomaly === null) result.anomaly = `llhttp fed one byte at a time vs whole: ${d}`
    }
    for (const wantHeaders of [false, true]) {
      note(compareStream(wire, c, wantHeaders, ref, refBytes, deep), `${what}, wantHeaders ${wantHeaders ? 'on' : 'off'}`)
      if (result.verdict === 'disagree') return result
    }
  }
  return result
}

// A byte no response can start with, after the stream: an error
// (HPE_CLOSED_CONNECTION) for a parser that took the connection as
// closed, another one otherwise.
const PROBE = Buffer.from('X')

module.exports = { checkCase, compareStream, byteChunks, fineChunks, cutAt }
