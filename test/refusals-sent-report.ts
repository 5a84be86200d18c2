// After the whole suite (`npm test`): fails (exit 1) when a code of the refusal catalogue was sent by no pod in the
// run and is not on the list of codes no test can provoke (test/refusals-never-sent.ts), naming each. The record
// is written by test/refusals-sent.ts while the suite runs. `npm run test:unit` runs only part of the suite, so it
// never runs this. Usage: bun test/refusals-sent-report.ts FILE

import { existsSync, readFileSync } from 'node:fs'
import { REFUSALS } from '../src/http/refusals.ts'
import { checkRefusalsSent, NEVER_SENT, passes } from './refusals-never-sent.ts'

const file = process.argv[2]
if (file === undefined || !existsSync(file)) {
  console.error(`refusals sent: no record at ${file ?? '(no file given)'}; run the whole suite with SOLOPOD_REFUSALS_SENT=FILE`)
  process.exit(1)
}
const sent = new Set(
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(c => c !== ''),
)
const verdict = checkRefusalsSent(sent)
const total = Object.keys(REFUSALS).length
const listed = Object.keys(NEVER_SENT).length
console.log(
  `refusals sent in this run: ${total - listed - verdict.neverSent.length} of the catalogue's ${total} codes (${listed} listed as never sent, test/refusals-never-sent.ts)`,
)
const lines = (what: string, codes: readonly string[]) => (codes.length > 0 ? [what, ...codes.map(c => `  ${c}`)] : [])
const problems = [
  ...lines('never sent by a pod in this run (write a test that provokes it, with its status and code):', verdict.neverSent),
  ...lines('sent, yet listed as never sent (take it off the list in test/refusals-never-sent.ts):', verdict.listedButSent),
  ...lines('sent but not in the catalogue (src/http/refusals.ts):', verdict.unknown),
]
if (!passes(verdict)) {
  console.error(`refusals sent: FAILED\n${problems.join('\n')}`)
  process.exit(1)
}
