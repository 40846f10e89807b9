'use strict'

// How a capacity search's outcome reads: what each step it keeps says of
// the step, why a rate failed, and the closing sentence. Apart from the
// state machine, so that the words can change without touching a decision.

const { sloText, measuredText } = require('./step-judge')
const { rate, thousands, percent } = require('../core/format')

// What a step's judgement leaves in the outcome.
function summaryOf (record) {
  const { values = {}, checks } = record.judgement
  return {
    achieved: values.achieved,
    p50: values.p50,
    p99: values.p99,
    p999: values.p999,
    errors: values.errors || 0,
    errorRatio: values.errorRatio || 0,
    samples: values.samples,
    duration: record.step.duration,
    kind: record.step.kind,
    slos: (checks || []).filter((c) => c.kind !== 'achieved').map(({ name, value, ok, implied, interval }) => ({ expression: name, value, ok, implied: !!implied, ...(interval ? { interval } : {}) }))
  }
}

// Why a step failed, as its failed checks measured it, else the judge's
// reasons: what the sentence puts after "failed".
function failedText (record) {
  const checks = (record.judgement.checks || []).filter((c) => c.ok === false)
  if (checks.length) return checks.map((c) => c.measured).join(', ')
  const chance = (record.judgement.checks || []).filter((c) => c.uncertain)
  if (chance.length) return chance.map((c) => `${c.measured}, within chance of its bound`).join(', ')
  return (record.judgement.reasons || []).join('; ') || record.judgement.verdict
}

// What the best step measured, for each user SLO, and its errors.
function measuredAll (summary, slos) {
  const parts = []
  const seen = new Set()
  for (const slo of slos) {
    if (seen.has(slo.metric) || slo.metric === 'errors') continue
    seen.add(slo.metric)
    const e = summary.slos.find((s) => s.expression === slo.expression)
    if (e) parts.push(measuredText(slo, e.value))
  }
  const n = summary.errors || 0
  parts.push(n === 0 ? '0 errors' : `${thousands(n, 3)} error${n === 1 ? '' : 's'} (${percent(summary.errorRatio)})`)
  return parts.join(', ')
}

// The closing sentence, in the words load testers state a capacity in
// ("our server can achieve 20K RPS under 5K connections with p99 below
// 200 ms"): "Sustains 18,500 req/s at 100 connections with p99 < 200 ms
// (p99 143 ms, 0 errors); 19,000 req/s failed (p99 412 ms)."
function sentence (out, cfg) {
  const at = cfg.connections ? ` at ${thousands(cfg.connections, 3)} connection${cfg.connections === 1 ? '' : 's'}` : ''
  const slos = cfg.slos.length ? ` with ${cfg.slos.map(sloText).join(' and ')}` : ''
  const arrivals = cfg.arrivals === 'poisson' ? ' of Poisson arrivals' : ''
  // A Poisson plan that drew fewer requests than its target says so.
  const drew = (b) => b.target > b.rate ? ` (what a plan of ${rate(b.target)} req/s drew, by chance)` : ''
  const sustains = (b) => `${rate(b.rate)} req/s${arrivals}${drew(b)}${at}${slos} (${measuredAll(b.summary, cfg.slos)})`
  const failed = out.failed ? `; ${rate(out.failed.rate)} req/s failed (${out.failed.reason})` : ''
  const text = main(out, cfg, { at, sustains, failed })
  // An answer resting on a failure that was chance says so.
  return out.uncertain && text ? `${text} Uncertain: ${out.uncertain.text}.` : text
}

function main (out, cfg, { at, sustains, failed }) {
  const { best } = out
  switch (out.status) {
    case null:
      return best
        ? `Searching: ${rate(best.rate)} req/s passed so far${failed}.`
        : 'Searching.'
    case 'found':
      return `Sustains ${sustains(best)}${failed}.`
    case 'at-ceiling':
      return `Sustains at least ${sustains(best)}: no higher rate tried (maxRate ${rate(cfg.maxRate)} req/s).`
    case 'below-low':
      return `Misses its SLOs even at the low rate, ${rate(out.failed.rate)} req/s${at} (${out.failed.reason}): ` +
        'no sustainable rate at this connection count.'
    case 'generator-bound': {
      const g = out.generatorBound
      if (g.cause === 'starved' || g.cause === 'own') return unmeasured(g, out, { at, sustains, failed })
      const head = `Generator-bound at ${rate(g.rate)} req/s: use more workers (-w) or machines (${g.reason.replace(/^generator saturated: /, '')}).`
      return best
        ? `${head} The server sustained ${sustains(best)}, the most this generator could measure${failed}.`
        : head
    }
    case 'unconfirmed':
      return `Unstable: ${out.confirmationsFailed} confirmation runs of ${cfg.confirmDuration} s failed; ` +
        `${rate(best.rate)} req/s passed a ${best.summary.duration} s step but was not confirmed${failed}.`
    case 'max-steps':
      return `Stopped after ${out.steps} steps (maxSteps) without converging: ` +
        (best ? `${rate(best.rate)} req/s passed${best.confirmed ? '' : ' (not confirmed)'}` : 'no rate passed') +
        `${failed}.`
  }
  return ''
}

// The generator could not run a rate as planned, in every try: its thread
// starved by other processes, or paused by its own work. What the machine
// measured then is not the server's, and the sentence says so with the
// figures the generator's health gave, never "no sustainable rate".
function unmeasured (g, out, { at, sustains, failed }) {
  const tries = g.tries > 1 ? `, in each of ${g.tries} tries` : ''
  const head = `This machine could not measure ${rate(g.rate)} req/s${at}: the generator did not run it as planned${tries} (${g.reason}; measured ${g.measured}).`
  return out.best
    ? `${head} The server sustained ${sustains(out.best)}, the most this machine could measure${failed}.`
    : head
}

module.exports = { summaryOf, failedText, measuredAll, sentence }
