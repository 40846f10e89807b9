'use strict'

// The rules between options, as the table of options declares them beside
// each option (lib/core/options.js: conflicts, requires), checked in one
// loop with one shape of message, naming both options:
//
//   conflicts  "A and B cannot be used together: <why>"
//              (AC_CONFLICTING_OPTIONS)
//   requires   invalid option "A": <value> <why>: give B, C or D with it
//              (AC_INVALID_OPTION, err.option A)
//
// A rule with `upstream` is one autocannon refuses too: its message is
// autocannon's, word for word (AC_INVALID_OPTION, as autocannon's), and
// ours goes in err.detail: "<value> and B cannot be used together: <why>".
//
// And the refusals (refuses): a value refused for the rest of the config,
// in words of its own, checked once buildConfig has computed what they
// depend on (the step each names, checked in turn by checkRefusals):
//
//   refuses    invalid option "A": <value> <why> (AC_INVALID_OPTION,
//              err.option A; autocannon's message where it has one)

const { OPTIONS } = require('../core/options')
const { raise, InvalidOptionError } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')

// Every rule of the table, once, in the table's order.
const RULES = Object.freeze(Object.entries(OPTIONS).flatMap(([option, spec]) => [
  ...Object.entries(spec.conflicts || {}).map(([other, rule]) =>
    Object.freeze({ option, conflicts: other, ...(typeof rule === 'string' ? { why: rule } : rule) })),
  ...(spec.requires ? [Object.freeze({ option, ...spec.requires })] : [])
]))

// Every refusal of the table, in the table's order, and the steps of
// buildConfig they are checked after, in the order it comes to them.
const REFUSALS = Object.freeze(Object.entries(OPTIONS).filter(([, spec]) => spec.refuses)
  .map(([option, spec]) => Object.freeze({ option, ...spec.refuses })))
const STEPS = Object.freeze(['given', 'length', 'part'])

// Given, as far as a rule goes: anything but "not set" (0 is not set for
// the counts and rates, false for the flags).
function present (value) {
  return value !== undefined && value !== null && value !== false && value !== 0
}

// How the library's messages name an option: with its one-letter flag,
// if it has one ("amount (-a)").
function optionName (option) {
  const spec = OPTIONS[option]
  const short = spec && spec.alias !== undefined ? [].concat(spec.alias).find((a) => a.length === 1) : undefined
  return short === undefined ? option : `${option} (-${short})`
}

function either (names) {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`
}

function involves (rule, options) {
  return options.includes(rule.option) || options.includes(rule.conflicts) || (rule.any !== undefined && rule.any.some((o) => options.includes(o)))
}

// Throws for the first rule `given` (option → value) breaks. `name`: how
// the messages name an option (the CLI names its flags). `involving`: only
// the rules of these options, for a door holding options the library never
// sees (the CLI's -i and --hgrm, findMaxRate): the library checks the rest,
// once, on the checked values.
function checkRules (given, { name = optionName, involving = null } = {}) {
  for (const rule of RULES) {
    if (involving !== null && !involves(rule, involving)) continue
    const value = given[rule.option]
    if (!present(value)) continue
    if (rule.conflicts !== undefined) {
      if (!present(given[rule.conflicts])) continue
      // when: false, true, or what the rule applies to ("for <it>").
      const hit = rule.when === undefined || rule.when(value, given)
      if (!hit) continue
      const why = `cannot be used together${typeof hit === 'string' ? ` for ${hit}` : ''}: ${rule.why}`
      if (rule.upstream === undefined) throw raise('AC_CONFLICTING_OPTIONS', `${name(rule.option)} and ${name(rule.conflicts)} ${why}`)
      throw new InvalidOptionError(rule.option, value, `and ${name(rule.conflicts)} ${why}`, upstream(rule.upstream))
    }
    if (rule.when !== undefined && !rule.when(value, given)) continue
    if (rule.any.some((other) => present(given[other]))) continue
    throw new InvalidOptionError(rule.option, value, `${rule.why}: give ${either(rule.any.map(name))} with it`, rule.upstream && upstream(rule.upstream))
  }
}

// Throws for the first refusal of step `after` that `config` (the values
// as buildConfig has them by then) breaks. given: the options as the user
// gave them; callback: whether autocannon() was given a callback.
function checkRefusals (after, config, { given, callback = false }) {
  for (const rule of REFUSALS) {
    if (rule.after !== after) continue
    const value = config[rule.option]
    if (!rule.when(value, config, { callback })) continue
    const why = typeof rule.why === 'function' ? rule.why(value, config) : rule.why
    throw new InvalidOptionError(rule.option, rule.shown === 'given' ? given[rule.option] : value, why, rule.upstream && upstream(rule.upstream))
  }
}

module.exports = { checkRules, checkRefusals, optionName, RULES, REFUSALS, STEPS }
