'use strict'

// Preloaded by tap into every test file (.taprc's node-arg): the run's id
// (the tap runner is the file's parent) into the environment, for every
// process the file starts to inherit (suite-run.js says why). A run
// inside a run keeps the outer one's.

const { VAR, runId } = require('./suite-run')

if (process.platform === 'linux' && process.env[VAR] === undefined) {
  try {
    process.env[VAR] = runId(process.ppid)
  } catch {}
}
