'use strict'

// The rules between options, as the table of options declares them: every
// declared conflict refused, naming both options, and every requirement
// refused without what it requires and met by any one of it. The names
// expected are made here from the table (an option and its one-letter
// flag), not taken from the check.

const t = require('tap')
const { thrown } = require('../helpers/thrown')
const { OPTIONS } = require('../../lib/core/options')
const { UPSTREAM } = require('../../lib/core/upstream-messages')
const { checkRules, checkRefusals, STEPS } = require('../../lib/config/rules')

function named (option) {
  const short = [].concat(OPTIONS[option].alias || []).find((a) => a.length === 1)
  return short ? `${option} (-${short})` : option
}

// For the rules that apply only to some values (`when`): values for which
// they apply, and values for which they do not. A rule with `when` and no
// line here fails the walk below.
const APPLIES = {
  'http2/proxy': {
    yes: { urls: [{ origin: 'http://a.test', secure: false, protocol: 'h2', proxy: { hostname: 'p', port: 3128 } }] },
    no: { urls: [{ origin: 'https://a.test', secure: true, protocol: 'h2', proxy: { hostname: 'p', port: 3128 } }] }
  },
  arrivals: { yes: { arrivals: 'poisson' }, no: { arrivals: 'uniform' } }
}

const conflicts = Object.entries(OPTIONS).flatMap(([option, spec]) =>
  Object.entries(spec.conflicts || {}).map(([other, rule]) => ({ option, other, rule: typeof rule === 'string' ? { why: rule } : rule })))
const requirements = Object.entries(OPTIONS).filter(([, spec]) => spec.requires).map(([option, spec]) => ({ option, rule: spec.requires }))

t.test('the table declares the rules of today\'s options, between options it has', async (t) => {
  t.ok(conflicts.length >= 20, `${conflicts.length} conflicts`)
  t.ok(requirements.length >= 3, `${requirements.length} requirements`)
  const pairs = new Set()
  for (const { option, other, rule } of conflicts) {
    t.ok(Object.prototype.hasOwnProperty.call(OPTIONS, other), `${option}: ${other} is an option`)
    t.type(rule.why, 'string', `${option}/${other} says why`)
    t.notOk(pairs.has(`${other}/${option}`), `${option}/${other} declared once, on one side`)
    pairs.add(`${option}/${other}`)
  }
  for (const { option, rule } of requirements) {
    t.ok(rule.any.length > 0 && rule.any.every((o) => Object.prototype.hasOwnProperty.call(OPTIONS, o)), `${option} requires options of the table`)
  }
})

t.test('every declared conflict is refused, naming both options', async (t) => {
  for (const { option, other, rule } of conflicts) {
    const label = `${option}/${other}`
    const when = APPLIES[label]
    if (rule.when !== undefined && !t.ok(when, `${label}: values where it applies`)) continue
    const given = { [option]: true, [other]: true, ...(when && when.yes) }
    const err = thrown(() => checkRules(given))
    if (!t.ok(err, `${label}: refused`)) continue
    if (rule.upstream !== undefined) {
      // autocannon's message, as its users compare it; ours in the detail.
      t.equal(err.code, 'AC_INVALID_OPTION', `${label}: code`)
      t.equal(err.message, UPSTREAM.AC_INVALID_OPTION[rule.upstream], `${label}: autocannon's message`)
      t.equal(err.option, option)
      t.equal(err.detail, `true and ${named(other)} cannot be used together: ${rule.why}`, `${label}: detail`)
    } else {
      t.equal(err.code, 'AC_CONFLICTING_OPTIONS', `${label}: code`)
      t.match(err.message, new RegExp(`^${escape(named(option))} and ${escape(named(other))} cannot be used together( for \\S+)?: ${escape(rule.why)}$`), `${label}: ${err.message}`)
    }
    t.equal(thrown(() => checkRules({ ...given, [other]: undefined })), null, `${label}: ${option} alone is not refused`)
    t.equal(thrown(() => checkRules({ ...given, [option]: false })), null, `${label}: ${other} alone is not refused`)
    if (when) t.equal(thrown(() => checkRules({ ...given, ...when.no })), null, `${label}: not refused where it does not apply`)
  }
})

t.test('every requirement is refused without what it requires, and met by any one of it', async (t) => {
  for (const { option, rule } of requirements) {
    const when = APPLIES[option]
    if (rule.when !== undefined && !t.ok(when, `${option}: values where it applies`)) continue
    const given = when ? when.yes : { [option]: true }
    const err = thrown(() => checkRules(given))
    if (!t.ok(err, `${option} alone: refused`)) continue
    t.equal(err.code, 'AC_INVALID_OPTION')
    t.equal(err.option, option)
    const names = rule.any.map(named)
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`
    t.equal(err.detail, `${JSON.stringify(given[option])} ${rule.why}: give ${list} with it`, `${option}: detail`)
    if (rule.upstream) t.equal(err.message, UPSTREAM.AC_INVALID_OPTION[rule.upstream], `${option}: autocannon's message`)
    else t.equal(err.message, `invalid option "${option}": ${err.detail}`)
    for (const other of rule.any) t.equal(thrown(() => checkRules({ ...given, [other]: 5 })), null, `${option} with ${other}`)
    if (when) t.equal(thrown(() => checkRules(when.no)), null, `${option}: not refused where it does not apply`)
  }
})

t.test('what is not set does not count: undefined, null, false, 0', async (t) => {
  for (const off of [undefined, null, false, 0]) {
    t.equal(thrown(() => checkRules({ stages: [{ duration: 1, rate: 1 }], amount: off })), null, `amount ${off}`)
    t.equal(thrown(() => checkRules({ abortOnFail: off })), null, `abortOnFail ${off}`)
  }
  t.ok(thrown(() => checkRules({ body: '', form: {} })), 'an empty body is a body')
})

t.test('a door checks the rules it holds, by its own names', async (t) => {
  t.equal(thrown(() => checkRules({ stages: 'x', amount: 5 }, { involving: ['findMaxRate'] })), null, 'rules of other options are left to the library')
  const err = thrown(() => checkRules({ findMaxRate: true, amount: 5 }, { involving: ['findMaxRate'] }))
  t.equal(err.code, 'AC_CONFLICTING_OPTIONS')
  t.match(err.message, /^findMaxRate and amount \(-a\) cannot be used together: /)
  const flags = thrown(() => checkRules({ input: 'a.json', form: '{}' }, { name: (o) => `--${o}`, involving: ['input'] }))
  t.match(flags.message, /^--input and --form cannot be used together: each one is the request body/)
})

// For each refusal: what it refuses (the config by then, and the options
// as given), and what it lets through. A refusal with no line here fails
// the walk below.
const REFUSES = {
  forever: {
    refused: { config: { forever: true }, callback: true },
    kept: [{ config: { forever: true } }, { config: { forever: false }, callback: true }]
  },
  duration: {
    refused: { config: { duration: 0, amount: 0 }, given: { duration: '0s' } },
    kept: [{ config: { duration: 0, amount: 5 } }, { config: { duration: 1, amount: 0 } }]
  },
  connections: {
    refused: { config: { connections: 6, amount: 5 } },
    kept: [{ config: { connections: 5, amount: 5 } }, { config: { connections: 6, amount: 0 } }]
  }
}

t.test('every refusal is checked at its step, in its own words, and only where it applies', async (t) => {
  const refusals = Object.entries(OPTIONS).filter(([, spec]) => spec.refuses).map(([option, spec]) => ({ option, rule: spec.refuses }))
  t.ok(refusals.length >= 3, `${refusals.length} refusals`)
  for (const { option, rule } of refusals) {
    const cases = REFUSES[option]
    if (!t.ok(cases, `${option}: values it refuses and lets through`)) continue
    t.ok(STEPS.includes(rule.after), `${option}: checked after a step buildConfig has (${rule.after})`)
    const { config, given = {}, callback } = cases.refused
    const err = thrown(() => checkRefusals(rule.after, config, { given, callback }))
    if (!t.ok(err, `${option}: refused`)) continue
    const shown = JSON.stringify(rule.shown === 'given' ? given[option] : config[option])
    const why = typeof rule.why === 'function' ? rule.why(config[option], config) : rule.why
    t.equal(err.code, 'AC_INVALID_OPTION')
    t.equal(err.option, option)
    t.equal(err.detail, `${shown} ${why}`, `${option}: detail`)
    if (rule.upstream) t.equal(err.message, UPSTREAM.AC_INVALID_OPTION[rule.upstream], `${option}: autocannon's message`)
    else t.equal(err.message, `invalid option "${option}": ${err.detail}`)
    for (const other of STEPS.filter((step) => step !== rule.after)) {
      t.equal(thrown(() => checkRefusals(other, config, { given, callback })), null, `${option}: not checked at step ${other}`)
    }
    for (const kept of cases.kept) {
      t.equal(thrown(() => checkRefusals(rule.after, kept.config, { given: {}, callback: kept.callback })), null, `${option}: ${JSON.stringify(kept)} goes through`)
    }
  }
})

function escape (s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
