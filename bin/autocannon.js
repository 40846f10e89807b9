#!/usr/bin/env node
'use strict'

require('../lib/core/compile-cache').enable()
require('../lib/cli/main').main(process.argv.slice(2))
