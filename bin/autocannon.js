#!/usr/bin/env node
'use strict'

require('../lib/cli/compile-cache').enable()
require('../lib/cli/main').main(process.argv.slice(2))
