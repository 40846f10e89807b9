#!/usr/bin/env node
'use strict'

const cached = require('../lib/cli/compile-cache').enable() !== null
require('../lib/cli/bundle').cliMain({ cached }).main(process.argv.slice(2))
