'use strict'
const t = require('tap')
t.equal(1, 1)
