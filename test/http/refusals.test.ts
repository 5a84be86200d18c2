// The refusal catalogue (http/refusals.ts) is well formed, and so is the check that every code is sent by a pod in
// the whole suite (test/refusals-never-sent.ts, run by `npm test` after the suite: test/refusals-sent-report.ts).

import { describe, expect, test } from 'bun:test'
import { REFUSALS } from '../../src/http/refusals.ts'
import { checkRefusalsSent, NEVER_SENT, passes } from '../refusals-never-sent.ts'

describe('the refusal catalogue (http/refusals.ts)', () => {
  test('every status of every code is one HTTP defines for a refusal (4xx, 5xx)', () => {
    for (const [code, entry] of Object.entries(REFUSALS)) {
      for (const status of entry.status) expect(status >= 400 && status < 600, code).toBe(true)
    }
  })
})

describe('the codes no test can make a pod send (test/refusals-never-sent.ts)', () => {
  test('each is a code of the catalogue, with its reason', () => {
    for (const [code, reason] of Object.entries(NEVER_SENT)) {
      expect(code in REFUSALS, code).toBe(true)
      expect(reason!.length, code).toBeGreaterThan(10)
    }
  })
})

describe('the check after the whole suite', () => {
  const all = Object.keys(REFUSALS)
  const listed = Object.keys(NEVER_SENT)
  const sentExcept = (...missing: string[]) => new Set(all.filter(c => !missing.includes(c) && !listed.includes(c)))

  test('passes when every code not listed was sent', () => {
    const verdict = checkRefusalsSent(sentExcept())
    expect(verdict).toEqual({ neverSent: [], listedButSent: [], unknown: [] })
    expect(passes(verdict)).toBe(true)
  })
  test('fails naming a code no pod sent', () => {
    const verdict = checkRefusalsSent(sentExcept('not_found', 'forbidden'))
    expect(verdict.neverSent).toEqual(['not_found', 'forbidden'])
    expect(passes(verdict)).toBe(false)
  })
  test('fails naming a listed code that was sent after all: the list must stay true', () => {
    const verdict = checkRefusalsSent(new Set([...sentExcept(), 'not_found']), { not_found: 'a reason that no longer holds' })
    expect(verdict.listedButSent).toEqual(['not_found'])
    expect(passes(verdict)).toBe(false)
  })
  test('fails naming a code heard that the catalogue does not have', () => {
    const verdict = checkRefusalsSent(new Set([...sentExcept(), 'made_up']))
    expect(verdict.unknown).toEqual(['made_up'])
    expect(passes(verdict)).toBe(false)
  })
})
