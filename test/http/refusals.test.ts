// The refusal catalogue is complete and exercised: every code in http/refusals.ts is asserted by a test that makes the pod answer it.

import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REFUSALS, type RefusalCode } from '../../src/http/refusals.ts'

const TEST_ROOT = join(import.meta.dir, '..')
const testFiles = (readdirSync(TEST_ROOT, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.test.ts') && f !== join('http', 'refusals.test.ts'))
const sources = testFiles.map((f) => ({ file: f, text: readFileSync(join(TEST_ROOT, f), 'utf8') }))

/** How a test names a code it expects: quoted (`'code'`, `"code"`), as the RS's text (`code:`) or in a challenge (`error="code"`). */
const asserts = (text: string, code: string) =>
  new RegExp(`['"\`]${code}['"\`]|\\b${code}:|error=\\\\?"${code}`).test(text)

describe('the refusal catalogue (http/refusals.ts)', () => {
  test.each(Object.keys(REFUSALS) as RefusalCode[])('%s is asserted by a test', (code) => {
    const found = sources.filter((s) => asserts(s.text, code)).map((s) => s.file)
    expect(found.length, `no test asserts ${code}`).toBeGreaterThan(0)
  })

  test('every status of every code is one HTTP defines for a refusal (4xx, 5xx)', () => {
    for (const [code, entry] of Object.entries(REFUSALS)) {
      for (const status of entry.status) expect(status >= 400 && status < 600, code).toBe(true)
    }
  })
})
