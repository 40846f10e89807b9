'use strict'

// A user's function given as a function or as the path of a file that
// exports one (lib/core/load-function.js): relative paths from the working
// directory, a default export taken, and what cannot be loaded refused
// with the option's name.

const t = require('tap')
const path = require('path')
const { loadFunction } = require('../../lib/core/load-function')
const { InvalidOptionError } = require('../../lib/core/errors')

t.test('a function, or nothing, is given back as it is', async (t) => {
  const fn = () => 1
  t.equal(loadFunction(fn, 'setupClient'), fn)
  t.equal(loadFunction(undefined, 'setupClient'), undefined)
  t.equal(loadFunction(null, 'setupClient'), undefined)
})

t.test('a file: absolute, relative to the working directory, or with a default export', async (t) => {
  const dir = t.testdir({
    'hook.js': 'module.exports = (x) => x + 1\n',
    'esm-like.js': 'exports.default = (x) => x * 2\n',
    'object.js': 'module.exports = { notAFunction: true }\n',
    'throws.js': 'throw new Error(\'broken hook\')\n'
  })
  t.equal(loadFunction(path.join(dir, 'hook.js'), 'verifyBody')(1), 2)
  t.equal(loadFunction(path.join(dir, 'esm-like.js'), 'verifyBody')(3), 6, 'its default export')
  const cwd = process.cwd()
  process.chdir(dir)
  t.teardown(() => process.chdir(cwd))
  t.equal(loadFunction('./hook.js', 'verifyBody')(10), 11, 'relative to the working directory')

  const refused = (value, why) => t.throws(() => loadFunction(value, 'setupRequest'), { code: 'AC_INVALID_OPTION', option: 'setupRequest', message: why }, String(value))
  refused('./object.js', /could not be loaded as a function: it does not export a function/)
  refused('./throws.js', /could not be loaded as a function: broken hook/)
  refused('./missing.js', /could not be loaded as a function: Cannot find module/)
  refused(42, /could not be loaded as a function: it is neither a function nor a file path/)
  t.type((() => { try { loadFunction(42, 'x') } catch (e) { return e } })(), InvalidOptionError)
})
