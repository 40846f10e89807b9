'use strict'

// The modules of lib/ without a unit test at their mirrored path
// (test/<folder>/<module>.test.js, or a folder test/<folder>/<module>/ of
// tests by area), each with where it is tested instead. test/layout.test.js
// holds lib/ to it: a module that is neither tested at its path nor listed
// here fails, and so does a line here whose module is gone or now has its
// test. A new module gets a unit test, not a line here.

// Covered end to end only: what they do is run the whole tool, or be run
// by a browser.
const endToEnd = {
  'cli/main.js': 'the command itself: test/e2e/cli.test.js and every test that runs the CLI',
  'cli/search.js': '--findMaxRate\'s live table and outputs: test/e2e/find-max-rate.test.js',
  'search/find-max-rate.js': 'runs the probe and the stepped runs against servers: test/e2e/find-max-rate.test.js (what it decides: search, step-judge, stepped-run, early-verdict, each tested alone)',
  'output/html/page.js': 'the report page\'s own script, run in Chromium: test/e2e/report-html.test.js',
  'engine/autocannon.js': 'the library\'s entry, run by every test under test/e2e/',
  'output/dashboard/live-page.js': 'the dashboard page\'s own script, run in Chromium: test/e2e/dashboard.test.js',
  'engine/worker.js': 'a worker thread\'s side of -w, run by test/e2e/workers.test.js'
}

module.exports = { endToEnd }
