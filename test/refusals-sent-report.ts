// After the whole suite (`npm test`): which codes of the refusal catalogue no pod sent in the run, as
// recorded by test/refusals-sent.ts. A report, not a test yet: refusals that reach the client without the
// `request.refused` event (an authorization error redirected to the client, a sign-in page that shows its
// own refusal, a 429 logged once an interval) are not heard, so test/http/refusals.test.ts keeps checking
// that a test names each code. Usage: bun test/refusals-sent-report.ts FILE

import { existsSync, readFileSync } from 'node:fs'
import { REFUSALS } from '../src/http/refusals.ts'

const file = process.argv[2]
if (file === undefined || !existsSync(file)) {
  console.error(`refusals sent: no record at ${file ?? '(no file given)'}; run the suite with SOLOPOD_REFUSALS_SENT=FILE`)
  process.exit(1)
}
const sent = new Set(readFileSync(file, 'utf8').split('\n').filter((c) => c !== ''))
const codes = Object.keys(REFUSALS)
const never = codes.filter((c) => !sent.has(c))
console.log(`refusals sent in this run: ${codes.length - never.length} of the catalogue's ${codes.length} codes`)
if (never.length > 0) console.log(`never sent (no request.refused heard): ${never.join(', ')}`)
const unknown = [...sent].filter((c) => !(c in REFUSALS))
if (unknown.length > 0) console.log(`sent but not in the catalogue: ${unknown.join(', ')}`)
