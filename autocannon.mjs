// The package's entry for `import` (package.json "exports"). It re-exports
// the CommonJS module rather than being a second implementation, so
// import and require hand out one module with one state. The helpers are
// named here instead of left to Node's static guess at autocannon.js's
// exports, which a refactor of that file could silently defeat.

import autocannon from './autocannon.js'

export default autocannon
export const { track, printResult, aggregateResult, parseArguments, start, findMaxRate, renderHtml, mergeResults, compare } = autocannon
