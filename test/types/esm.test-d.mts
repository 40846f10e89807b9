// Type tests (tsd) for an ES module: the default import is autocannon
// itself and the helpers are named exports, as Node gives them at run time
// (test/e2e/esm.test.js checks that side).

import autocannon, { aggregateResult, findMaxRate, parseArguments, printResult, renderHtml, start, track, type Options } from 'cannonade'
import type { Result } from 'cannonade'
import { expectError, expectType } from 'tsd'

// The example of docs/library.md (TypeScript and ESM).
const options: Options = { url: 'http://127.0.0.1:3000', connections: 10, duration: '10s' }
const instance = autocannon(options)
instance.on('tick', ({ counter }) => console.log(`${counter} req/s`))
const result = await instance
console.log(printResult(result), result.requests.sent, result.errorsByCause)

expectType<Result>(result)
expectType<string>(printResult(result))
expectType<typeof autocannon.track>(track)
expectType<typeof autocannon.aggregateResult>(aggregateResult)
expectType<typeof autocannon.parseArguments>(parseArguments)
expectType<typeof autocannon.start>(start)
expectType<typeof autocannon.findMaxRate>(findMaxRate)
expectType<typeof autocannon.renderHtml>(renderHtml)
expectType<string>(renderHtml(result))
expectError(autocannon({ url: 'http://127.0.0.1:3000', amount: '20 requests' }))
expectError(instance.on('finish', () => {}))
